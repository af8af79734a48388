"""Expert labels: a teacher team's choices (the search team's, typically) on the states an actor team
reaches, made once and kept as small replay files that every later training run re-encodes.

Why files of moves and not observations: a search label costs about a second of CPU, so labels are
made once, by a command of their own, and kept; a file of moves (the game's config and seed, every
move played, and the teacher's choice at each labelled decision) stays valid when the observation
encoding changes within an env version, is a few hundred bytes a game, and is re-encoded in seconds
through the env's own encoder (``load``). Expert iteration (Anthony et al. 2017): the actor is the
learner (a model, ``pretrained:NAME``), the teacher the search team, so the labels fall on the states
the learner reaches, as in DAgger (Ross et al. 2011).

    python -m agents.expert_labels make --teacher search:worlds=8 --actor heuristic \\
        --games 100 --out labels/search_w8_2p_l1.jsonl
    python -m agents.expert_labels show labels/search_w8_2p_l1.jsonl

``make`` appends a line a game and skips the seeds a file already holds, so a stopped run loses one
game at most and resumes with the same command. Training reads the files named by the config's
``imitation.labels`` (docs/training.md, "Expert labels").

File format ``bbom-labels/1``, JSON lines: the first line is the header (``format``, ``env`` (the
env version), ``game`` (the full game config, modules in canonical order), ``teacher``, ``actor``),
then one line a game: ``seed``, ``moves`` (every move id played, in order), ``labels`` (pairs
[decision index, the teacher's move id], at decisions with two or more legal moves), ``outcome``,
``seconds`` (CPU seconds of the game, teacher included).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from bbom_env import GYM_ID, cli
from bbom_env.engine import GameConfig, GameState, new_game, pending
from bbom_env.pretrained import GAME_KEYS, game_json
from bbom_env.rl.rewards import RewardConfig

from . import make_agent
from .imitation import Demonstrations, Recorder

FORMAT = "bbom-labels/1"
ENV = GYM_ID.rsplit("-", 1)[1]


class LabelFileError(ValueError):
    """A label file that cannot be used: names the file, the line and what is wrong."""


def label_game(
    game: dict[str, Any], seed: int, teacher: str, actor: str, max_decisions: int = 2000
) -> dict[str, Any]:
    """One game on ``seed``: ``actor`` plays every decision, ``teacher`` labels each decision with
    two or more legal moves (both seeded with ``seed``; the same spec is one agent, labels played)."""
    t0 = time.process_time()
    teach = make_agent(teacher, seed)
    act = teach if actor == teacher else make_agent(actor, seed)
    moves: list[int] = []
    labels: list[list[int]] = []
    state = new_game(GameConfig(**game, seed=seed))
    while not state.is_terminal() and len(moves) < max_decisions:
        if len(state.legal_actions()) > 1:
            label = teach.act(state)
            labels.append([len(moves), label])
            move = label if act is teach else act.act(state)
        else:
            move = act.act(state)
        state.apply_action(move)
        moves.append(move)
    return {"seed": seed, "moves": moves, "labels": labels, "outcome": state.outcome,
            "seconds": round(time.process_time() - t0, 2)}  # fmt: skip


def read(path: str | Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(header, games) of a label file; a partly written last line (a stopped ``make``) is dropped."""
    path = Path(path)
    if not path.is_file():
        raise LabelFileError(f"{path}: no such label file")
    lines = path.read_text(encoding="utf-8").splitlines()
    try:
        header = json.loads(lines[0]) if lines else None
    except json.JSONDecodeError:
        header = None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise LabelFileError(f"{path}:1: not a label file (its first line must be a {FORMAT} header)")
    games = []
    for n, line in enumerate(lines[1:], start=2):
        try:
            games.append(json.loads(line))
        except json.JSONDecodeError:
            if n == len(lines):
                break  # the line a stopped run was writing
            raise LabelFileError(f"{path}:{n}: not a JSON line") from None
    return header, games


def make(
    out: str | Path,
    game: dict[str, Any],
    teacher: str,
    actor: str,
    games: int,
    seed: int,
    log: Any = print,
) -> Path:
    """Label games ``seed .. seed + games - 1`` into ``out``, skipping the seeds it already holds."""
    out = Path(out)
    full = game_json(game)
    header = {"format": FORMAT, "env": ENV, "game": full, "teacher": teacher, "actor": actor}
    done: set[int] = set()
    if out.is_file():
        old, kept = read(out)
        for key in ("env", "game", "teacher", "actor"):
            if old.get(key) != header[key]:
                raise LabelFileError(
                    f"{out}:1: {key} is {old.get(key)!r}, not {header[key]!r}; use another --out"
                )
        done = {g["seed"] for g in kept}
        text = "\n".join(json.dumps(x, separators=(",", ":")) for x in [old, *kept]) + "\n"
        out.write_text(text, encoding="utf-8")  # drops a partly written last line
    else:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(header, separators=(",", ":")) + "\n", encoding="utf-8")
    todo = [s for s in range(seed, seed + games) if s not in done]
    log(f"{out}: {len(done)} game(s) already labelled, {len(todo)} to play")
    with out.open("a", encoding="utf-8") as f:
        for s in todo:
            rec = label_game(full, s, teacher, actor)
            f.write(json.dumps(rec, separators=(",", ":")) + "\n")
            f.flush()
            log(f"seed {s}: {rec['outcome']}, {len(rec['labels'])} labels, {rec['seconds']} CPU s")
    return out


def load(
    paths: list[str | Path],
    game: dict[str, Any],
    reward: RewardConfig,
    observe_other_hands: bool = False,
) -> Demonstrations:
    """Every labelled decision of the files, re-encoded by replaying their games through the env's
    encoder. A file made on another env version or for another game, an illegal move or label, or a
    label at a decision with one legal move raises ``LabelFileError`` naming the file and line."""
    want = game_json(game)
    rec = Recorder(GameConfig(**want), reward, observe_other_hands)
    for path in paths:
        header, games = read(path)
        if header.get("env") != ENV:
            raise LabelFileError(f"{path}:1: made on env {header.get('env')}, this is env {ENV}: label again")
        for key in GAME_KEYS:
            if header["game"].get(key) != want[key]:
                raise LabelFileError(
                    f"{path}:1: game.{key} is {header['game'].get(key)!r}, the run's is {want[key]!r}"
                )
        for n, g in enumerate(games, start=2):
            rec.game(new_game(GameConfig(**want, seed=g["seed"])), _replay(path, n, g), len(g["moves"]))
    return rec.result()


def _replay(path: str | Path, line: int, g: dict[str, Any]):
    labels = {i: a for i, a in g["labels"]}
    moves = g["moves"]

    def choose(state: GameState, legal: list[int], step: int) -> tuple[int | None, int]:
        where = f"{path}:{line}: seed {g['seed']}, decision {step} ({pending(state).kind})"
        move, label = moves[step], labels.get(step)
        if move not in legal:
            raise LabelFileError(f"{where}: move {move} is not legal")
        if label is not None and (label not in legal or len(legal) < 2):
            raise LabelFileError(f"{where}: label {label} is not one of two or more legal moves {legal}")
        return label, move

    return choose


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m agents.expert_labels", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("make", help="label games (resumable: skips the seeds the file holds)")
    m.add_argument("--teacher", default="search:worlds=8", help="the team whose choices are the labels")
    m.add_argument("--actor", default="heuristic", help="the team that plays (a model: DAgger)")
    m.add_argument("--games", type=cli.int_range(1), default=10)
    m.add_argument("--seed", type=cli.int_range(0), default=0)
    m.add_argument("--players", type=cli.int_range(2, 5), default=2)
    m.add_argument("--level", type=cli.int_range(1, 3), default=1)
    m.add_argument("--modules", default="", help="dark_matter, phobias or dark_matter,phobias ('' none)")
    m.add_argument("--out", type=Path, required=True)
    s = sub.add_parser("show", help="what a label file holds")
    s.add_argument("file", type=Path)
    args = p.parse_args(argv)
    try:
        if args.cmd == "make":
            modules = [x for x in args.modules.split(",") if x]
            game = {"num_players": args.players, "difficulty": args.level, "modules": modules}
            make(args.out, game, args.teacher, args.actor, args.games, args.seed)
        else:
            header, games = read(args.file)
            labels = sum(len(g["labels"]) for g in games)
            agree = sum(a == g["moves"][i] for g in games for i, a in g["labels"])
            cpu = sum(g["seconds"] for g in games)
            print(json.dumps(header))
            print(f"{len(games)} games, {sum(g['outcome'] == 'win' for g in games)} won by the actor, "
                  f"{labels} labels ({agree} equal to the actor's move), {cpu:.0f} CPU s")  # fmt: skip
    except (LabelFileError, ValueError) as e:
        print(f"expert_labels: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
