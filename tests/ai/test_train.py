"""``tablier train`` end to end: a tiny self-play loop, its checkpoint, resuming, the .npz."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from click.testing import CliRunner

torch = pytest.importorskip("torch", reason="training needs PyTorch (tablier[train])")

from tablier.ai.network import NetConfig, Network, describe, observe  # noqa: E402
from tablier.ai.train import (  # noqa: E402
    _Buffer,
    _net_blob,
    _numpy_arrays,
    _torch_model,
    config_from,
    elo_svg,
    self_play_game,
    teacher_game,
)
from tablier.cli.main import main  # noqa: E402
from tablier.games import from_spec, get  # noqa: E402

TINY = [
    "--games", "4", "--simulations", "8", "--per-generation", "2", "--eval-games", "2",
    "--channels", "8", "--blocks", "1", "--batch", "16",
]  # fmt: skip


def test_train_resume_and_export(tmp_path):
    out = tmp_path / "run"
    runner = CliRunner()
    result = runner.invoke(main, ["train", "xobo", "--out", str(out), *TINY])
    assert result.exit_code == 0, result.output
    assert "generation 2:" in result.output
    state = json.loads((out / "train.json").read_text())
    assert state["games"] == 4 and state["generation"] == 2
    assert [h["games"] for h in state["history"]] == [2, 4]
    assert state["buffer"]["positions"] > 0 and state["cpu_seconds"] > 0
    net = Network.load(out / "xobo.npz")
    assert net.meta["spec"] == get("xobo").spec and net.meta["training"]["games"] == 4
    assert (out / "elo.svg").read_text().startswith("<svg")

    result = runner.invoke(
        main, ["train", "xobo", "--out", str(out), "--resume", str(out / "checkpoint.pt"),
               "--games", "2"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    again = json.loads((out / "train.json").read_text())
    assert again["games"] == 6 and again["generation"] == 3
    assert again["history"][:2] == state["history"]
    assert len(again["sittings"]) == 2


def test_resume_refuses_another_game(tmp_path):
    out = tmp_path / "run"
    runner = CliRunner()
    first = runner.invoke(main, ["train", "xobo", "--out", str(out), *TINY])
    assert first.exit_code == 0, first.output
    result = runner.invoke(
        main, ["train", "volo", "--variant", "mini", "--resume", str(out / "checkpoint.pt")]
    )
    assert result.exit_code != 0 and "trains xobo" in result.output


def test_a_folder_with_a_training_is_not_overwritten(tmp_path):
    (tmp_path / "checkpoint.pt").write_bytes(b"weights")
    result = CliRunner().invoke(main, ["train", "xobo", "--games", "1", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "already holds a training" in result.output
    assert "--resume" in result.output
    assert (tmp_path / "checkpoint.pt").read_bytes() == b"weights"


def test_bad_options_are_refused():
    runner = CliRunner()
    result = runner.invoke(main, ["train", "volo", "--variant", "giant"])
    assert result.exit_code != 0 and "no variant 'giant'" in result.output
    result = runner.invoke(main, ["train", "xobo", "--games", "0"])
    assert result.exit_code != 0 and "--games must be at least 1" in result.output
    result = runner.invoke(main, ["train", "xobo", "--max-decisions", "0"])
    assert result.exit_code != 0 and "--max-decisions must be at least 1" in result.output


@pytest.mark.parametrize("spec", ["xobo", "volo:board=mini", "voldetour"])
def test_numpy_inference_matches_torch(spec):
    """The exported weights give the numpy network the torch model's outputs."""
    game = from_spec(spec)
    meta = describe(game, NetConfig(channels=8, blocks=1))
    torch.manual_seed(0)
    model = _torch_model(torch, meta).eval()
    with torch.no_grad():  # what float16 storage keeps, so both compute the same thing
        for p in model.parameters():
            p.copy_(p.half().float())
    net = Network(_numpy_arrays(model), meta)
    state = game.initial_state()
    for _ in range(3):
        state = state.apply(state.legal_moves()[len(state.legal_moves()) // 3])
    obs = observe(game, state, ())
    logits, value = net.forward(obs)
    with torch.no_grad():
        t_logits, t_value = model(torch.from_numpy(obs).permute(2, 0, 1)[None])
    assert np.allclose(logits, t_logits[0].numpy(), atol=1e-4)
    assert abs(value - float(t_value[0])) < 1e-4


def _random_blob(game):
    meta = describe(game, NetConfig(channels=8, blocks=1))
    torch.manual_seed(0)
    return _net_blob(_torch_model(torch, meta).eval(), meta)


def test_self_play_never_loses_by_a_rule_it_could_obey():
    """An untrained network leaves its Lord on the tower past its third turn (R-16) and
    loses in about 40 decisions; with the rule guard the game goes on."""
    game = get("voldetour")
    blob = _random_blob(game)
    for guard in (False, True):
        config = dataclasses.asdict(config_from(game, simulations=8, rule_guard=guard))
        config["max_decisions"] = 120
        result = self_play_game(game, blob, config, seed=3)
        if guard:
            assert result["decisions"] == 120 and result["winner"] is None
        else:
            assert result["winner"] is not None and result["decisions"] < 120


def test_stopped_games_are_adjudicated_by_the_static_evaluation():
    game = get("voldetour")
    config = dataclasses.asdict(config_from(game, simulations=8))
    config["max_decisions"] = 60
    result = self_play_game(game, _random_blob(game), config, seed=1)
    assert result["winner"] is None
    a, b = result["final"]
    assert a == -b and 0 < abs(a) <= 1  # the Lords' path distances differ after 60 decisions
    buffer = _Buffer(1000)
    buffer.add(result["samples"], None, result["final"])
    targets = {
        player: z for (*_, player), (*_, z) in zip(result["samples"], buffer.items, strict=True)
    }
    assert targets == {0: a, 1: b}
    config["adjudicate"] = False
    assert self_play_game(game, _random_blob(game), config, seed=1)["final"] is None


@pytest.mark.parametrize("spec", ["xobo", "voldetour"])
def test_teacher_games_teach_the_teachers_moves(spec):
    """Each sample of a teacher game puts the whole policy target on the id the
    teacher's move takes at that decision (replayed here with the same players)."""
    import random

    from tablier.ai.players import make_player

    game = from_spec(spec)
    config = dataclasses.asdict(config_from(game, teacher="greedy", max_decisions=40))
    result = teacher_game(game, config, seed=5)
    rng = random.Random(5)
    players = [make_player("greedy", game, seed=rng.randrange(2**31)) for _ in (0, 1)]
    encode = type(game).actions().encode
    state, expected = game.initial_state(), []
    for _ in range(len(result["samples"]) + 40):
        if state.is_terminal:
            break
        move = players[state.to_move].choose(state)
        others = [tuple(encode(state, m)) for m in state.legal_moves()]
        steps = tuple(encode(state, move))
        for k, action in enumerate(steps):
            if len({e[k] for e in others if len(e) > k and e[:k] == steps[:k]}) > 1:
                expected.append((action, state.to_move))
        state = state.apply(move)
    got = [(ids[shares.index(1.0)], player) for _, ids, shares, player in result["samples"]]
    assert got and got == expected[: len(got)]
    assert all(sum(shares) == 1.0 and len(ids) > 1 for _, ids, shares, _ in result["samples"])
    assert result["decisions"] <= 40 + 3 and result["cpu"] > 0


def test_teacher_generations_come_first(tmp_path):
    out = tmp_path / "run"
    runner = CliRunner()
    args = ["train", "xobo", "--out", str(out), "--teacher", "greedy", *TINY]
    result = runner.invoke(main, [*args, "--teacher-generations", "1"])
    assert result.exit_code == 0, result.output
    history = json.loads((out / "train.json").read_text())["history"]
    assert [h.get("teacher") for h in history] == ["greedy", None]
    bad = runner.invoke(main, ["train", "xobo", "--teacher", "nobody", "--out", str(tmp_path)])
    assert bad.exit_code == 2 and "unknown player 'nobody'" in bad.output


def test_elo_svg_plots_every_generation():
    history = [
        {"games": 10 * k, "best_elo": 40.0 * k, "candidate_elo": 40.0 * k + 5} for k in (1, 2, 3)
    ]
    svg = elo_svg(history, "xobo")
    assert svg.count("<circle") == 3
    assert svg.count("<polyline") == 1 and "xobo" in svg


def test_candidate_plays_the_hand_made_levels_through_the_arena(tmp_path):
    out = tmp_path / "run"
    args = ["--games", "2", "--simulations", "4", "--per-generation", "2", "--eval-games", "0"]
    result = CliRunner().invoke(
        main,
        ["train", "volo", "--variant", "mini", "--out", str(out), *args, *TINY[8:],
         "--hard-games", "2", "--hard", "random"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    entry = json.loads((out / "train.json").read_text())["history"][0]
    assert entry["vs_hard"]["opponent"] == "random" and entry["vs_hard"]["games"] == 2
    assert entry["eval_games"] == 0 and entry["accepted"]  # nothing to compare: kept
    assert (out / "volo-mini.npz").is_file()
