"""The search's value network (agents/value_net.py): fitted on seeded heuristic games, saved and
loaded, read only through the decider's observation, refused for another game, and usable as the
search team's leaf."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

import bbom_env  # noqa: F401  (registers the Vth Element modules)
from agents import value_net
from agents.search import SearchAgent, parse_search_spec
from agents.value_net import ValueNet, _auc, available, collect, default_name, main, value_path
from bbom_env.engine import GameConfig, new_game, resample

CONFIG = GameConfig(num_players=2, difficulty=1)


def test_collect_labels_each_state_with_its_game_s_result() -> None:
    x, y, owner = collect(CONFIG, 6, 1_000_000, 5)
    assert x.dtype == np.float32 and x.shape[0] == len(y) == len(owner) > 6
    for g in set(owner.tolist()):  # one result per game, all its states
        assert len(set(y[owner == g].tolist())) == 1
    again = collect(CONFIG, 6, 1_000_000, 5)  # seeded: the same states again
    assert np.array_equal(again[0], x) and np.array_equal(again[1], y)


def test_auc_counts_ordered_pairs() -> None:
    y = np.array([0, 0, 1, 1], dtype=np.float32)
    assert _auc(np.array([0.1, 0.2, 0.3, 0.4]), y) == 1.0
    assert _auc(np.array([0.4, 0.3, 0.2, 0.1]), y) == 0.0
    assert _auc(np.array([0.5, 0.5, 0.5, 0.5]), y) == 0.5


def test_fit_save_load_and_use_as_the_search_leaf(tmp_path: Path) -> None:
    out = tmp_path / "v.pt"
    assert main(["fit", "--games", "20", "--every", "4", "--epochs", "1", "--out", str(out)]) == 0
    net = ValueNet(out)
    assert net.meta["game"]["num_players"] == 2 and net.meta["games"] == 20
    assert set(net.meta["figures"]["held_out"]) == {"log_loss", "brier", "auc"}
    state = new_game(CONFIG.replace(seed=3))
    for _ in range(30):
        state.apply_action(state.legal_actions()[0])
    p = net.win(state)
    assert 0.0 < p < 1.0 and net.win(state) == p  # eval mode: no dropout, the same answer
    # What the decider cannot see plays no part: the hidden cards redrawn, the same estimate.
    other = resample(state, state.current_player(), random.Random(4))
    assert net.win(other) == pytest.approx(p, abs=1e-6)
    # Another game (the modules widen the observation) is refused, naming both.
    with pytest.raises(ValueError, match=r"fitted for .*'modules': \[\].* this game .*dark_matter"):
        net.win(new_game(GameConfig(num_players=2, seed=1, modules=("dark_matter",))))
    assert value_path(str(out)) == out and value_path("no_such_net") is None
    agent = SearchAgent(0, leaf=str(out), horizon=2, worlds=1, max_candidates=2)
    while len(state.legal_actions()) < 2 or state.stack[-1]["kind"] != "menu":
        state.apply_action(state.legal_actions()[0])
    assert agent.act(state) in state.legal_actions() and agent.rollouts == 2
    assert parse_search_spec(f"search:leaf={out},horizon=5").horizon == 5


def test_fit_names_its_file_after_the_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --out, the file is named for its setting: a fit for 4 players or for the modules
    never overwrites the shipped 2-player network."""
    assert default_name(CONFIG) == "value_2p_l1"
    assert default_name(GameConfig(num_players=4, difficulty=2)) == "value_4p_l2"
    both = GameConfig(num_players=2, difficulty=1, modules=("phobias", "dark_matter"))
    assert default_name(both) == "value_2p_l1_both"
    assert default_name(GameConfig(num_players=3, modules=("phobias",))) == "value_3p_l1_phobias"
    monkeypatch.setattr(value_net, "FOLDER", tmp_path)
    assert main(["fit", "--games", "10", "--every", "8", "--epochs", "1", "--players", "3"]) == 0
    assert [p.name for p in tmp_path.iterdir()] == ["value_3p_l1.pt"]


@pytest.mark.parametrize("name", available())
def test_shipped_value_nets_load_for_their_game(name: str) -> None:
    path = value_path(name)
    assert path is not None
    net = ValueNet(path)
    game = net.meta["game"]
    assert game["pack"] == "default" and game["payment"] == "auto"
    players, level, modules = game["num_players"], game["difficulty"], tuple(game["modules"])
    config = GameConfig(num_players=players, difficulty=level, modules=modules)
    assert default_name(config) == name  # the name says the setting it was fitted for
    held, base = net.meta["figures"]["held_out"], net.meta["figures"]["base_rate"]
    assert held["log_loss"] < base["log_loss"] and held["auc"] > 0.6  # it learned something
    assert path.stat().st_size < 5 * 2**20


def test_the_two_player_value_net_is_shipped() -> None:
    assert "value_2p_l1" in available()  # the search's documented leaf (docs/search.md)


def test_leaf_values_benchmark_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    """benchmarks/leaf_values.py: --json prints one JSON object alone on stdout (the table goes to
    stderr), with a judged value per scorer and the paired difference to the heuristic's move."""
    import importlib.util
    import json
    import sys

    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("leaf_values", root / "benchmarks" / "leaf_values.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench
    spec.loader.exec_module(bench)
    args = ["--leaf", "value_2p_l1", "--decisions", "3", "--worlds", "1", "--horizons", "0,5", "--json"]
    assert bench.main(args) == 0
    out, err = capsys.readouterr()
    assert len(out.strip().splitlines()) == 1 and "judged value" in err
    res = json.loads(out)
    assert res["decisions"] == 3 and set(res["judged_value"]) == {"heuristic", "full", "h0", "h5"}
    assert set(res["vs_heuristic"]) == {"full", "h0", "h5"}
    assert res["cpu_s_per_decision"]["full"] > res["cpu_s_per_decision"]["h0"] > 0
    assert 0.0 < res["calibration"]["mean_estimate"] < 1.0
    picks = bench.states(bench.GameConfig(num_players=2), 4, seed=1)
    assert len({s.config.seed for s in picks}) == 2  # two decisions a game, from two games
