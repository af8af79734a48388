"""The search team (agents/search.py): it never reads what its seat cannot see (the same move with
the same RNG on a state whose hidden parts were redrawn), it returns legal moves, its settings are
checked, and it is a team everywhere a team is named (make_agent, agents.evaluate, bbom_env.play)."""

from __future__ import annotations

import json
import math
import random

import pytest

import bbom_env  # noqa: F401  (registers the Vth Element modules)
from agents import HeuristicAgent, make_agent
from agents.evaluate import check_team, main, play_game
from agents.search import SearchAgent, SearchConfig, parse_search_spec
from bbom_env.engine import GameConfig, GameState, new_game, resample
from bbom_env.play import build_seats


def late_states(config: GameConfig, rounds: int, every: int):
    """Decision points from round ``rounds`` on (short rollouts keep the test fast), one in
    ``every`` menus; the game goes on from a clone."""
    state = new_game(config)
    agent = HeuristicAgent(config.seed)
    k = 0
    while not state.is_terminal():
        if state.round >= rounds and len(state.legal_actions()) > 1:
            k += 1
            if k % every == 0:
                yield state.clone()
        state.apply_action(agent.act(state))


@pytest.mark.parametrize(
    "modules,decisions",
    [((), "menu"), (("dark_matter", "phobias"), "menu"), ((), "all"), ((), "halving"), ((), "leaf")],
    ids=["base", "both-modules", "search-all", "halving-margin", "leaf-value"],
)
def test_move_depends_only_on_the_info_state(modules: tuple[str, ...], decisions: str) -> None:
    """Permuting what the decider cannot see (resample with another rng) leaves the move, with the
    same agent RNG, unchanged; the move is legal."""
    config = GameConfig(num_players=2, modules=modules, seed=3)
    rng = random.Random(5)
    checked = 0
    seen_kinds = set()
    for state in late_states(config, 5, 7):
        seat = state.current_player()
        other = resample(state, seat, rng)
        assert other != state or not other.players[1 - seat].deck
        settings = {
            "halving": {"select": "halving", "margin": 0.1},
            "leaf": {"leaf": "ppo_2p_l1", "horizon": 3},
        }.get(decisions, {"decisions": decisions})
        a = SearchAgent(11, worlds=2, **settings).act(state)
        b = SearchAgent(11, worlds=2, **settings).act(other)
        assert a == b and a in state.legal_actions()
        seen_kinds.add(state.stack[-1]["kind"])
        checked += 1
        if checked >= 6:
            break
    assert checked >= 3 and (decisions != "all" or len(seen_kinds) > 1)


def test_search_reads_the_hidden_cards_it_draws_not_the_real_ones() -> None:
    """The search's worlds come from the decider's information set: with the real hidden cards
    replaced, its value estimates are the same (one menu, every candidate)."""
    config = GameConfig(num_players=2, seed=4)
    state = next(s for s in late_states(config, 5, 3) if s.stack[-1]["kind"] == "menu")
    seat = state.current_player()
    agents = [SearchAgent(2, worlds=1), SearchAgent(2, worlds=1)]
    moves = [agents[0].act(state), agents[1].act(resample(state, seat, 8))]
    assert moves[0] == moves[1]
    assert agents[0].rollouts == agents[1].rollouts == len(state.legal_actions())


def test_search_plays_a_whole_game() -> None:
    config = GameConfig(num_players=2, pack="test", seed=1)
    agent = SearchAgent(1, worlds=1, max_candidates=3)
    result = play_game(config, agent)
    assert result.decisions > 0 and agent.searched > 0 and agent.rollouts >= agent.searched


def test_best_mean_wins_ties_go_to_the_base_policy_move() -> None:
    """The move of the best mean rollout value is played; among equal values, the base policy's."""
    config = GameConfig(num_players=2, seed=6)
    state = next(s for s in late_states(config, 6, 1) if s.stack[-1]["kind"] == "menu")
    legal = state.legal_actions()

    class Fixed:
        def act(self, s: GameState) -> int:
            return legal[-1]

    for values, expected in [({}, legal[-1]), ({legal[0]: 1.0}, legal[0])]:
        agent = SearchAgent(0, worlds=2)
        calls: list[int] = []
        agent._base = lambda seed: Fixed()  # type: ignore[method-assign]
        agent._rollout = lambda w, m, seed, v=values, c=calls: c.append(m) or v.get(m, 0.0)  # type: ignore[method-assign]
        assert agent.act(state) == expected
        assert sorted(calls) == sorted(legal * 2)  # every candidate in every world


def _scripted(agent: SearchAgent, prior: int, values: dict[int, float], calls: list[int]) -> None:
    """Make ``agent``'s base policy play ``prior`` and its rollouts score ``values`` (0 elsewhere)."""

    class Fixed:
        def act(self, s: GameState) -> int:
            return prior

    def rollout(world: GameState, move: int, seed: int) -> float:
        calls.append(move)
        return values.get(move, 0.0)

    agent._base = lambda seed: Fixed()  # type: ignore[method-assign]
    agent._rollout = rollout  # type: ignore[method-assign]


def test_halving_spends_the_budget_on_the_better_half_and_keeps_the_base_move() -> None:
    """Sequential halving: ceil(log2 n) rounds of about worlds x n / rounds rollouts each, every
    survivor in every world of a round; the worse half goes after each round, never the base
    policy's move; the best mean is played."""
    config = GameConfig(num_players=2, seed=6)
    state = next(
        s for s in late_states(config, 6, 1) if s.stack[-1]["kind"] == "menu" and len(s.legal_actions()) >= 5
    )
    legal = state.legal_actions()
    n = len(legal)
    prior, best = legal[-1], legal[1]
    values = {m: 0.1 * i for i, m in enumerate(legal)}  # the base move is the best but one
    values[best] = 10.0
    agent = SearchAgent(0, worlds=4, select="halving")
    calls: list[int] = []
    _scripted(agent, prior, values, calls)
    assert agent.act(state) == best
    rounds = math.ceil(math.log2(n))
    assert 4 * n - rounds * n <= len(calls) <= 4 * n + rounds  # the budget, give or take rounding
    assert set(calls[:n]) == set(legal)  # round one plays every candidate
    assert calls.count(prior) == calls.count(best) == max(calls.count(m) for m in legal)
    worst = min(legal, key=lambda m: values[m])
    assert calls.count(worst) < calls.count(best)  # the worse half stops early


def test_margin_keeps_the_base_move_unless_the_gain_is_larger() -> None:
    """SPARTA's rule: a move other than the base policy's is played only when its mean beats the
    base move's by more than ``margin`` (uniform and halving alike)."""
    config = GameConfig(num_players=2, seed=6)
    state = next(s for s in late_states(config, 6, 1) if s.stack[-1]["kind"] == "menu")
    legal = state.legal_actions()
    prior, other = legal[-1], legal[0]
    for select in ("uniform", "halving"):
        for margin, gain, expected in [(0.0, 0.05, other), (0.1, 0.05, prior), (0.1, 0.2, other)]:
            agent = SearchAgent(0, worlds=2, select=select, margin=margin)
            _scripted(agent, prior, {prior: 0.5, other: 0.5 + gain}, [])
            assert agent.act(state) == expected, (select, margin, gain)


def test_spec_parsing_and_errors() -> None:
    assert parse_search_spec("search") == SearchConfig()
    cfg = parse_search_spec("search:worlds=3,ms=50,rollout=random,decisions=all,max_candidates=4")
    assert (cfg.worlds, cfg.ms, cfg.rollout, cfg.decisions, cfg.max_candidates) == (
        3,
        50.0,
        "random",
        "all",
        4,
    )
    for bad, msg in [
        ("search:worlds=0", "worlds=0"),
        ("search:worlds=x", "worlds='x' is not a int"),
        ("search:depth=2", "bad setting 'depth=2'; keys: worlds"),
        ("search:rollout=net", "rollout='net'"),
        ("search:decisions=some", "decisions='some'"),
        ("search:ms=-1", "ms=-1.0"),
        ("search:select=best", "select='best'"),
        ("search:select=halving,ms=50", "ms needs select=uniform"),
        ("search:margin=-0.1", "margin=-0.1"),
        ("search:horizon=-1", "horizon=-1"),
        ("search:leaf=nope", r"leaf='nope': a value network or a pretrained policy \(value_2p_l1, "),
    ]:
        with pytest.raises(ValueError, match=msg):
            parse_search_spec(bad)
        with pytest.raises(ValueError, match=msg):
            check_team(bad)
    check_team("search:worlds=2")
    assert isinstance(make_agent("search:worlds=2", seed=3), SearchAgent)
    assert make_agent("search:worlds=2", seed=3).config.worlds == 2


def test_play_builds_a_search_seat() -> None:
    seats = build_seats(["human", "search:worlds=1"], seed=0)
    assert isinstance(seats[1].agent, SearchAgent)


def test_time_budget_searches_at_least_one_world() -> None:
    config = GameConfig(num_players=2, seed=7)
    state = next(s for s in late_states(config, 6, 1) if s.stack[-1]["kind"] == "menu")
    agent = SearchAgent(0, ms=0.001)
    assert agent.act(state) in state.legal_actions()
    assert agent.rollouts == len(state.legal_actions())  # one world, every candidate


@pytest.mark.slow
def test_evaluate_cli_runs_a_search_team(tmp_path, capsys) -> None:
    rc = main(
        [
            "--policy", "heuristic", "--policy", "search:worlds=1,max_candidates=2", "--games", "1",
            "--pack", "test", "--quiet", "--json", "--out", str(tmp_path),
        ]
    )  # fmt: skip
    assert rc == 0
    rec = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert [t["team"] for t in rec["teams"]] == ["heuristic", "search:worlds=1,max_candidates=2"]


def _search_eval():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "search_eval.py"
    spec = importlib.util.spec_from_file_location("search_eval", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


HEAD = "team,seed,win,truncated,monsters,curses,madness,decisions,turns,reason\n"


def test_search_eval_curve_has_a_row_per_setting(tmp_path) -> None:
    """search_eval.py curve: one row a run folder, its budget read from the team's name, its wins
    paired with the heuristic's on the same deals, CPU seconds a deal from cpu.txt; --png draws."""
    mod = _search_eval()
    for name, team, wins in [
        ("w1", "search:worlds=1", (1, 0, 0, 0)),
        ("h4", "search:worlds=4,select=halving", (1, 1, 1, 0)),
    ]:
        chunk = tmp_path / name / "s0"
        chunk.mkdir(parents=True)
        rows = [f"heuristic,{s},{int(s < 2)},0,2,10,20,200,30,x\n" for s in range(4)]
        rows += [f'"{team}",{s},{w},0,1,5,20,180,30,x\n' for s, w in enumerate(wins)]  # csv quotes commas
        (chunk / "games.csv").write_text(HEAD + "".join(rows))
        (tmp_path / name / "cpu.txt").write_text("s0 games 4 cpu_s 100.0\n")
    w1, h4 = mod.curve([tmp_path / "w1", tmp_path / "h4"])
    assert (w1["worlds"], w1["select"], w1["wins"], w1["heuristic"], w1["deals"]) == (1, "uniform", 1, 2, 4)
    assert (h4["worlds"], h4["select"], h4["wins"]) == (4, "halving", 3)
    assert h4["diff"] == pytest.approx(0.25) and w1["diff"] == pytest.approx(-0.25)
    assert w1["cpu_s_per_deal"] == pytest.approx(25.0)
    png = tmp_path / "curve.png"
    assert mod.main(["curve", str(tmp_path / "w1"), str(tmp_path / "h4"), "--png", str(png)]) == 0
    assert png.stat().st_size > 1000
    with pytest.raises(SystemExit, match="no finished chunk"):
        mod.curve([tmp_path / "missing"])


def test_search_eval_pools_chunks_by_deal(tmp_path) -> None:
    """benchmarks/search_eval.py pool: games of several evaluate --out folders, paired by seed."""
    mod = _search_eval()
    head = HEAD
    chunks = {  # (heuristic win, search win) per seed
        "a": {0: (1, 1), 1: (0, 1)},
        "b": {2: (0, 0), 3: (1, 0), 4: (0, 1)},
    }
    folders = []
    for name, games in chunks.items():
        folder = tmp_path / name
        folder.mkdir()
        rows = [f"heuristic,{s},{h},0,2,10,20,200,30,x\n" for s, (h, _) in games.items()]
        rows += [f"search:worlds=2,{s},{w},0,1,5,20,180,30,x\n" for s, (_, w) in games.items()]
        (folder / "games.csv").write_text(head + "".join(rows))
        folders.append(folder)
    res = mod.pool(folders)
    assert res["deals"] == 5 and res["seeds"] == [0, 4]
    heur, search = res["teams"]
    assert (heur["wins"], search["wins"]) == (2, 3)
    assert (search["only_this"], search["only_first"]) == (2, 1) and search["diff"] == pytest.approx(0.2)
    assert search["lo"] < 0.2 < search["hi"] and search["decisions"] == 180
    with pytest.raises(SystemExit, match="no games.csv"):
        mod.pool([tmp_path / "missing"])


def test_a_leaf_value_cuts_the_rollout_and_scores_the_rest() -> None:
    """With ``leaf``, a rollout stops after ``horizon`` decisions and the value head's win estimate
    (``LeafValue.win``, 0..1) stands for the rest of the game, credited like a win; without it the
    rollout plays to the end. Both score the same candidate in the same world."""
    config = GameConfig(num_players=2, seed=6)
    state = next(s for s in late_states(config, 2, 3) if s.stack[-1]["kind"] == "menu")
    move = state.legal_actions()[0]
    cut = SearchAgent(1, leaf="ppo_2p_l1", horizon=0)
    full = SearchAgent(1)
    after = state.clone()
    after.apply_action(move)
    win = cut.leaf.win(after)
    assert 0.0 <= win <= 1.0
    c0, m0 = state.stats.get("curses_destroyed", 0), state.stats.get("monsters_defeated", 0)
    c1, m1 = after.stats.get("curses_destroyed", 0), after.stats.get("monsters_defeated", 0)
    assert cut._rollout(state, move, 5) == pytest.approx(win + 0.02 * (c1 - c0) + 0.1 * (m1 + win - m0))
    end = state.clone()
    end.apply_action(move)
    base = full._base(5)
    while not end.over:  # the full rollout: the same base policy, to the end
        end.apply_action(base.act(end))
    won = float(end.outcome == "win")
    c2, m2 = end.stats.get("curses_destroyed", 0), end.stats.get("monsters_defeated", 0)
    assert full._rollout(state, move, 5) == pytest.approx(won + 0.02 * (c2 - c0) + 0.1 * (m2 + won - m0))
    # The head's estimate moves with the state: it is read, not a constant.
    estimates = {round(cut.leaf.win(s), 6) for s in late_states(config, 1, 15)}
    assert len(estimates) >= 3
