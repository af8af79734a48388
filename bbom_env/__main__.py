"""``python -m bbom_env``: the command-line tools by name (also the console script ``bbom-env``).

python -m bbom_env                    # lists the commands
python -m bbom_env play --watch       # = python -m bbom_env.play --watch      (script bbom-play)
python -m bbom_env cards list         # = python -m bbom_env.cards list        (script bbom-cards)
python -m bbom_env evaluate --help    # = python -m agents.evaluate --help     (script bbom-evaluate)
python -m bbom_env replay game.json   # = python -m bbom_env.replay game.json
python -m bbom_env --version
"""

from __future__ import annotations

import importlib
import sys

from . import __version__, cli

# name -> (module with main(argv) -> int, what it does)
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("bbom_env.play", "play in the terminal next to agents, or watch agents play"),
    "cards": ("bbom_env.cards", "list, show and validate card packs; write docs/cards.md"),
    "evaluate": ("agents.evaluate", "evaluate teams (random, heuristic, trained models) on the same deals"),
    "replay": ("bbom_env.replay", "write a game as one HTML page to step through in a browser"),
}

# From a source checkout only (they are not part of the installed package).
CHECKOUT_ONLY = (
    ("python train.py", "train MaskablePPO (the train extra: pip install -e '.[train]')"),
    ("python benchmarks/engine_throughput.py", "engine decisions/s"),
    ("python benchmarks/env_throughput.py", "env steps/s, next to PettingZoo / OpenSpiel peers"),
    ("python benchmarks/balance.py", "win rates of the random and heuristic teams"),
    ("python benchmarks/card_coverage.py", "which card effects resolve in playouts"),
)


def usage() -> str:
    lines = [f"bbom-env {__version__}: The Big Book of Madness rules engine and RL environments", ""]
    lines.append("usage: python -m bbom_env COMMAND [ARGS...]   (COMMAND --help for its options)")
    lines.append("")
    lines.append("commands:")
    lines += [f"  {name:<9} {text}" for name, (_module, text) in COMMANDS.items()]
    lines.append("")
    lines.append("in a source checkout:")
    lines += [f"  {cmd:<40} {text}" for cmd, text in CHECKOUT_ONLY]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run ``COMMAND ARGS...``; without a command print the list (exit 0); an unknown one: exit 2."""
    args = sys.argv[1:] if argv is None else list(argv)
    if not args or args[0] in ("-h", "--help"):
        print(usage())
        return 0
    if args[0] == "--version":
        print(f"bbom-env {__version__}")
        return 0
    name, rest = args[0], args[1:]
    if name not in COMMANDS:
        known = ", ".join(COMMANDS)
        print(
            f"python -m bbom_env: error: unknown command {name!r}; commands: {known} (see --help)",
            file=sys.stderr,
        )
        return 2
    module = importlib.import_module(COMMANDS[name][0])  # only the command asked for is imported
    return int(module.main(rest) or 0)


def _command(name: str) -> int:
    return cli.run(lambda: main([name, *sys.argv[1:]]))


# Console scripts (pyproject.toml [project.scripts]).
def console() -> int:
    return cli.run(main)


def play() -> int:
    return _command("play")


def cards() -> int:
    return _command("cards")


def evaluate() -> int:
    return _command("evaluate")


if __name__ == "__main__":
    sys.exit(console())
