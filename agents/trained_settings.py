"""What a trained policy was trained on, and the game settings a command line plays it in.

A run directory of ``train.py`` (or ``train_rllib.py``) holds ``config.yaml``; its ``env.game`` is
the game the policy learned (players, level, mode, payment, pack, modules and rule switches).
``python -m agents.evaluate`` and ``python -m bbom_env.play`` start from it: a setting not given on
the command line is the policy's, and a setting given that differs from the policy's is refused
with a clear error (``--allow-other-settings`` lets players, level, mode and payment differ; the
modules and the card pack never: the policy's observation and action ids are theirs). A policy
with no ``config.yaml`` beside it (a zip saved by ``MaskablePPO.save`` alone) states nothing;
its observation size is still checked against the game (agents/policy_agent.py).

Only PyYAML is needed here: the settings are read before any model is loaded.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bbom_env.engine import GameConfig
from bbom_env.engine.core.config import ConfigError

# Game settings the command lines set, with their option names and defaults (GameConfig's).
OPTIONS = {
    "num_players": "--players",
    "difficulty": "--level",
    "mode": "--mode",
    "payment": "--payment",
    "pack": "--pack",
    "modules": "--modules",
}
DEFAULTS: dict[str, Any] = {"num_players": 2, "difficulty": 1, "mode": "normal", "payment": "auto",
                            "pack": "default", "modules": ()}  # fmt: skip
# Settings a policy cannot play other than its own: they change its observation or its action ids.
FIXED = ("pack", "modules")
RLLIB = "rllib:"
PRETRAINED = "pretrained:"


class SettingsError(ValueError):
    """A policy's run config cannot be read, two policies disagree, or a setting asked for is not
    the policy's: the message names the policy file, the setting and both values."""


def run_config_path(spec: str) -> Path | None:
    """The ``config.yaml`` of the run a policy comes from (beside the model, or one folder up:
    ``RUN/best_model.zip``, ``RUN/checkpoints/x.zip``, ``RUN/checkpoint`` of RLlib), or None
    for a scripted team or a model with no run config."""
    if spec in ("random", "heuristic", "human"):
        return None
    if spec.startswith(PRETRAINED):  # its NAME.json says what it was trained for
        from bbom_env import pretrained

        return pretrained.FOLDER / f"{spec.removeprefix(PRETRAINED)}.json"
    p = Path(spec.removeprefix(RLLIB))
    start = p if spec.startswith(RLLIB) else p.parent
    for parent in (start, start.parent):
        cfg = parent / "config.yaml"
        if cfg.is_file():
            return cfg
    return None


def trained_game(spec: str) -> dict[str, Any] | None:
    """The GameConfig fields (seed aside) a policy was trained on, in canonical form (its modules
    in the canonical order), or None when nothing says (a scripted team, a bare model zip).
    SettingsError when its run config cannot be read."""
    if spec.startswith(PRETRAINED):
        from bbom_env import pretrained

        try:
            return _fields(GameConfig(**pretrained.game(spec)))
        except (ConfigError, TypeError) as exc:
            raise SettingsError(f"policy {spec!r}: its game in {run_config_path(spec)}: {exc}") from None
    path = run_config_path(spec)
    if path is None:
        return None
    import yaml

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError, UnicodeDecodeError) as exc:
        raise SettingsError(f"policy {spec!r}: its run config {path} cannot be read ({exc})") from None
    env = data.get("env") if isinstance(data, dict) else None
    game = env.get("game", {}) if isinstance(env, dict) else None
    if not isinstance(game, dict):
        raise SettingsError(f"policy {spec!r}: {path} has no env.game mapping (not a train.py run config)")
    try:
        config = GameConfig(**{k: v for k, v in game.items() if k != "seed"})
    except (ConfigError, TypeError) as exc:
        raise SettingsError(f"policy {spec!r}: {path} env.game: {exc}") from None
    return _fields(config)


def _fields(config: GameConfig) -> dict[str, Any]:
    # The command lines' settings, and any other field the run moved off its default (a rule
    # switch, override packs, Magicians), as GameConfig holds them (tuples, canonical order).
    default = GameConfig()
    fields = {
        f: getattr(config, f)
        for f in GameConfig.field_names()
        if f != "seed" and (f in OPTIONS or getattr(config, f) != getattr(default, f))
    }
    return {**fields, **dict(config.switches)}  # the module switches off their defaults, by name


def game_settings(
    teams: list[str], asked: dict[str, Any], allow_other: bool = False
) -> tuple[dict[str, Any], str | None]:
    """The game's settings for ``teams`` (team specs: scripted names, model zips, ``rllib:DIR``)
    and the settings given on the command line (``asked``: OPTIONS keys, None when not given).
    Returns (GameConfig fields without the seed, the policy they come from or None). Without a
    policy that states its game, ``asked`` over DEFAULTS. SettingsError when two policies were
    trained on different games, or a setting asked differs from the policy's (FIXED ones always;
    the others unless ``allow_other``)."""
    trained: tuple[str, dict[str, Any]] | None = None
    for team in teams:
        game = trained_game(team)
        if game is None:
            continue
        if trained is not None and game != trained[1]:
            key = next(k for k in sorted({*game, *trained[1]}) if game.get(k) != trained[1].get(k))
            raise SettingsError(
                f"policies {trained[0]!r} and {team!r} were trained on different games "
                f"({key}={_show(trained[1].get(key))} and {_show(game.get(key))}): "
                "compare policies of one game"
            )
        trained = trained or (team, game)
    switches = dict(asked.get("switches") or {})  # --switch NAME=VALUE: rules switches by name
    given = {k: v for k, v in asked.items() if v is not None and k != "switches"}
    if "modules" in given:
        given["modules"] = GameConfig(modules=tuple(given["modules"])).modules  # canonical order
    if trained is None:
        return {**DEFAULTS, **given, **switches}, None
    source, game = trained
    if switches and not allow_other:  # a rule, not the observation: allowed like --level
        theirs = GameConfig(**game)
        for name, value in switches.items():
            if value != theirs.switch(name):
                raise SettingsError(
                    f"--switch {name}={value}: policy {source!r} was trained with {name}="
                    f"{theirs.switch(name)} (its run config {run_config_path(source)}); drop --switch "
                    "to play it in its own game, or pass --allow-other-settings to play it in another"
                )
    for key, value in given.items():
        if value != game[key] and (key in FIXED or not allow_other):
            hint = "" if key in FIXED else ", or pass --allow-other-settings to play it in another"
            raise SettingsError(
                f"{OPTIONS[key]} {_show(value)}: policy {source!r} was trained with "
                f"{key}={_show(game[key])} (its run config {run_config_path(source)}); drop "
                f"{OPTIONS[key]} to play it in its own game{hint}"
            )
    return {**game, **given, **switches}, source


def _show(value: Any) -> str:
    if isinstance(value, tuple):
        return ",".join(value) if value else "(none)"
    return str(value)


def describe(settings: dict[str, Any]) -> str:
    """One line: players, level, mode, payment, pack, modules."""
    mods = ",".join(settings.get("modules", ())) or "none"
    return (
        f"{settings['num_players']} players, level {settings['difficulty']}, {settings['mode']}, "
        f"{settings['payment']} payment, pack {settings['pack']}, modules {mods}"
    )
