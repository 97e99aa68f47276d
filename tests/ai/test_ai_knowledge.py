"""The AI knowledge a game declares on its class (``Game.knowledge()``)."""

from __future__ import annotations

import types

from tablier.ai.knowledge import DEFAULT_PLAYOUT_DEPTH, knowledge_for
from tablier.games.volo import Volo


def test_knowledge_is_the_declared_object_not_a_module_by_name() -> None:
    def evaluate(state) -> float:
        return 0.25

    class Helped(Volo):
        name = "helped"

        @classmethod
        def knowledge(cls) -> object:
            return types.SimpleNamespace(evaluate=evaluate, PLAYOUT_DEPTH=3)

    class Plain(Volo):
        name = "plain"

        @classmethod
        def knowledge(cls) -> object | None:
            return None

    Helped.__module__ = "somewhere.else.game"  # no sibling ``ai`` module: the declaration counts
    Plain.__module__ = "tablier.games.volo.game"  # a sibling ``ai`` module exists, unused
    helped = knowledge_for(Helped())
    assert helped.evaluate is evaluate and helped.move_prior is None
    assert helped.playout_depth == 3 and helped.source == "SimpleNamespace"
    plain = knowledge_for(Plain())
    assert plain.evaluate is None and plain.playout_depth == DEFAULT_PLAYOUT_DEPTH
    import tablier.games.volo.ai as volo_ai

    assert knowledge_for(Volo()).evaluate is volo_ai.evaluate
