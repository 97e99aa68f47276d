"""``GET /api/catalog``'s facts for the lobby: variants, difficulty, teaching, initial view."""

from __future__ import annotations

import pytest

from tablier import games as registry
from tablier.server.routers.games import catalog


@pytest.mark.parametrize("name", registry.names())
def test_every_variant_is_a_valid_set_of_options_with_a_label(name):
    from tablier.server.labels import label_keys

    cls = registry.game_class(name)
    keys = {key for key, _ in label_keys()}
    seen = set()
    for variant in cls.VARIANTS:
        game = cls(**variant.options)  # refused options raise
        assert game.spec not in seen, f"{name}: two variants are the same game {game.spec}"
        seen.add(game.spec)
        assert f"game.{name}.variant.{variant.key}" in keys
    if cls.VARIANTS:
        assert cls(**cls.VARIANTS[0].options) == cls(), f"{name}: the first variant is the default"


def test_the_catalog_gives_the_lobby_what_its_cards_show(shared_client):
    body = shared_client.get("/api/catalog").json()
    assert body == catalog()
    for entry in body["games"]:
        cls = registry.game_class(entry["name"])
        assert entry["difficulty"] == cls.difficulty
        assert entry["teaching"] is (cls.teaching() is not None)
        assert [v["key"] for v in entry["variants"]] == [v.key for v in cls.VARIANTS]
        game = cls()
        assert entry["view"] == game.state_view(game.initial_state())
    ranks = sorted(e["difficulty"] for e in body["games"])
    assert ranks[0] >= 1 and len(set(ranks)) == len(ranks), "every built-in game declares a rank"
