"""The typed, validated configuration of a training run (``train.py``; configs/*.yaml).

A YAML file has six sections, each a dataclass below; every key is optional and defaults to the
value here (configs/default.yaml spells them all out). ``--set section.key=value`` overrides a key
from the command line (the value is parsed as YAML: ``--set ppo.learning_rate=1e-4``). An unknown
section or key, a value of the wrong type or out of its range raises ``TrainConfigError`` naming the
file, the key and what is allowed; the ``env`` section is checked by building the ``GameConfig``
and the env's ``RewardConfig``, so their own errors name the field.
"""

from __future__ import annotations

import dataclasses
import math
import re
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union, get_args, get_origin, get_type_hints

from bbom_env.engine import ConfigError, GameConfig
from bbom_env.rl.rewards import PRESETS, RewardConfig

# GameConfig fields a run may set in ``env`` (the game seed is drawn per episode from ``seed``).
GAME_FIELDS = tuple(n for n in GameConfig.known_names() if n != "seed")


class TrainConfigError(ValueError):
    """A bad training config: names the source, the key and the allowed values."""


@dataclass
class EnvSection:
    """The game and the env options (Gymnasium ``BigBookOfMadness-v2`` keywords)."""

    game: dict[str, Any] = field(
        default_factory=lambda: {"num_players": 2, "difficulty": 1, "mode": "normal", "payment": "auto"}
    )
    observe_other_hands: bool = False
    max_steps: int = 2000
    # Team reward (bbom_env.rl.rewards.RewardConfig fields). Default: +1 for a win, 0 for a loss
    # (a -1 loss pays a discounted learner for delaying it: docs/training.md, Early measurements), with small
    # potential-based terms that move credit to the Curses and Monsters as they fall.
    reward: dict[str, float] = field(default_factory=lambda: dict(PRESETS["shaped"]))  # reward="shaped"


@dataclass
class ImitationSection:
    """Behaviour cloning of the heuristic team before PPO (agents/imitation.py)."""

    enabled: bool = True
    games: int = 1500  # heuristic games recorded (about 200 decisions each at 2 players)
    holdout_games: int = 100  # recorded on other seeds, for the held-out accuracy
    epochs: int = 8
    batch_size: int = 512
    learning_rate: float = 1e-3
    value_coef: float = 0.5  # weight of the value-head fit on the recorded returns
    dagger_rounds: int = 1  # rounds of DAgger: the clone plays, the heuristic labels its states
    dagger_games: int = 500
    dagger_epochs: int = 4
    # Expert label files (agents/expert_labels.py), re-encoded and added to the recorded games'
    # decisions before cloning; a relative path is read from the current folder, else the repository.
    labels: list[str] = field(default_factory=list)


@dataclass
class PPOSection:
    """MaskablePPO hyper-parameters (sb3-contrib names)."""

    enabled: bool = True
    n_envs: int = 8
    n_steps: int = 256
    batch_size: int = 512
    n_epochs: int = 4
    learning_rate: float = 5e-5
    gamma: float = 0.999
    gae_lambda: float = 0.95
    clip_range: float = 0.1
    ent_coef: float = 0.0
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    target_kl: float | None = 0.02
    net_arch: list[int] = field(default_factory=lambda: [256, 256])


@dataclass
class BudgetSection:
    timesteps: int = 300_000  # PPO env steps (decisions), after imitation
    torch_threads: int = 1
    checkpoint_every: int = 50_000  # env steps between checkpoints (resume loses at most this)
    keep_checkpoints: int = 2


@dataclass
class EvaluationSection:
    """Periodic evaluation (best model) and the final table; seeds disjoint from training's."""

    every: int = 50_000  # env steps
    games: int = 100
    final_games: int = 500
    seed: int = 1_000_000  # game i of an evaluation uses seed + i (the same deals every time)
    # The final table plays other deals than those that chose the best model (no selection bias):
    # game i uses final_seed + i, as ``python -m agents.evaluate --seed`` does.
    final_seed: int = 0
    deterministic: bool = True  # argmax of the masked policy


@dataclass
class TrainConfig:
    seed: int = 0
    env: EnvSection = field(default_factory=EnvSection)
    imitation: ImitationSection = field(default_factory=ImitationSection)
    ppo: PPOSection = field(default_factory=PPOSection)
    budget: BudgetSection = field(default_factory=BudgetSection)
    evaluation: EvaluationSection = field(default_factory=EvaluationSection)

    def game_config(self, seed: int = 0) -> GameConfig:
        return GameConfig(**self.env.game, seed=seed)

    def reward_config(self) -> RewardConfig:
        return RewardConfig.coerce({**self.env.reward, "gamma": self.ppo.gamma})

    def env_kwargs(self) -> dict[str, Any]:
        """Keyword arguments of ``gymnasium.make("BigBookOfMadness-v2", ...)``."""
        return {
            **self.env.game,
            "observe_other_hands": self.env.observe_other_hands,
            "max_episode_steps": self.env.max_steps,  # gymnasium.make's name (its TimeLimit is the limit)
            "reward": self.reward_config(),
        }

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


# -- validation ------------------------------------------------------------------------------------

# (min, max) of numeric keys, inclusive; keys absent here only need the right type (and >= 0).
RANGES: dict[str, tuple[float, float]] = {
    "seed": (0, 2**31 - 1),
    "env.max_steps": (1, 1_000_000),
    "imitation.epochs": (0, 1000),
    "imitation.batch_size": (1, 1 << 20),
    "imitation.learning_rate": (1e-8, 1.0),
    "ppo.n_envs": (1, 256),
    "ppo.n_steps": (2, 1 << 20),
    "ppo.batch_size": (2, 1 << 20),
    "ppo.n_epochs": (1, 1000),
    "ppo.learning_rate": (1e-9, 1.0),
    "ppo.gamma": (0.0, 1.0),
    "ppo.gae_lambda": (0.0, 1.0),
    "ppo.clip_range": (1e-6, 10.0),
    "budget.torch_threads": (1, 256),
    "budget.checkpoint_every": (1, 10**12),
    "budget.keep_checkpoints": (1, 1000),
    "evaluation.every": (1, 10**12),
}


_FLOAT = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")


def _check_value(key: str, value: Any, tp: Any, where: str) -> Any:
    if get_origin(tp) in (Union, types.UnionType):
        options = get_args(tp)
        if value is None and type(None) in options:
            return None
        tp = next(t for t in options if t is not type(None))
    bad = f"{where}: {key}={value!r}"
    origin = get_origin(tp)
    if tp is bool:
        return _check_bool(value, bad)
    if origin is list and get_args(tp) == (str,):
        return _check_str_list(value, bad)
    if origin is list:
        return _check_int_list(value, bad)
    if origin is dict:
        return _check_mapping(value, bad)
    if tp is int:
        _check_int(value, bad)
    elif tp is float:
        value = _as_float(value, bad)
    else:
        return value
    lo, hi = RANGES.get(key, (0, math.inf))
    if not lo <= value <= hi:
        raise TrainConfigError(f"{bad} is out of range; allowed: {lo} to {hi}")
    return value


def _check_bool(value: Any, bad: str) -> bool:
    if not isinstance(value, bool):
        raise TrainConfigError(f"{bad} must be true or false")
    return value


def _check_int(value: Any, bad: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TrainConfigError(f"{bad} must be an integer")


def _as_float(value: Any, bad: str) -> float:
    if isinstance(value, str) and _FLOAT.fullmatch(value.strip()):
        value = float(value)  # PyYAML reads 1e-4 (no dot) as a string: YAML 1.1's float syntax
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise TrainConfigError(f"{bad} must be a finite number")
    return float(value)


def _check_int_list(value: Any, bad: str) -> list[int]:
    if not isinstance(value, list) or not all(type(v) is int and v > 0 for v in value) or not value:
        raise TrainConfigError(f"{bad} must be a non-empty list of positive integers")
    return value


def _check_str_list(value: Any, bad: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise TrainConfigError(f"{bad} must be a list of file paths")
    return value


def _check_mapping(value: Any, bad: str) -> dict[str, Any]:
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise TrainConfigError(f"{bad} must be a mapping of names to values")
    return dict(value)


def _build(cls: type, data: Any, prefix: str, where: str) -> Any:
    if not isinstance(data, dict):
        raise TrainConfigError(f"{where}: {prefix or 'the config'} must be a mapping, not {data!r}")
    hints = get_type_hints(cls)
    names = [f.name for f in dataclasses.fields(cls)]
    unknown = sorted(set(data) - set(names))
    if unknown:
        what = f"section {prefix!r}" if prefix else "the top level"
        raise TrainConfigError(f"{where}: unknown key(s) {unknown} in {what}; allowed: {names}")
    kwargs = {}
    for name in names:
        if name not in data:
            continue
        key = f"{prefix}.{name}" if prefix else name
        tp = hints[name]
        if isinstance(tp, type) and dataclasses.is_dataclass(tp):
            kwargs[name] = _build(tp, data[name], key, where)
        else:
            kwargs[name] = _check_value(key, data[name], tp, where)
    return cls(**kwargs)


def label_path(path: str) -> Path | None:
    """A label file named in ``imitation.labels``: from the current folder, else the repository."""
    for p in (Path(path), Path(__file__).resolve().parent.parent / path):
        if p.is_file():
            return p
    return None


def validate(cfg: TrainConfig, where: str) -> TrainConfig:
    """Cross-field checks, and the game and reward configs built once (their errors name fields)."""
    unknown = sorted(set(cfg.env.game) - set(GAME_FIELDS))
    if unknown:
        raise TrainConfigError(f"{where}: unknown key(s) {unknown} in env.game; allowed: {list(GAME_FIELDS)}")
    try:
        game = cfg.game_config()
    except (ConfigError, TypeError, ValueError) as e:
        raise TrainConfigError(f"{where}: env.game: {e}") from None
    if "modules" in cfg.env.game:  # a set: the run's config.yaml names it in the canonical order
        cfg.env.game["modules"] = list(game.modules)
    try:
        cfg.reward_config()
    except (TypeError, ValueError) as e:
        raise TrainConfigError(f"{where}: env.reward: {e}") from None
    rollout = cfg.ppo.n_envs * cfg.ppo.n_steps
    if cfg.ppo.enabled and cfg.ppo.batch_size > rollout:
        raise TrainConfigError(
            f"{where}: ppo.batch_size={cfg.ppo.batch_size} exceeds the rollout size "
            f"ppo.n_envs * ppo.n_steps = {rollout}"
        )
    for path in cfg.imitation.labels:
        if label_path(path) is None:
            raise TrainConfigError(f"{where}: imitation.labels: {path!r}: no such file")
    if not cfg.imitation.enabled and not cfg.ppo.enabled:
        raise TrainConfigError(f"{where}: imitation.enabled and ppo.enabled are both false: nothing to train")
    return cfg


def from_dict(data: Any, where: str = "<config>") -> TrainConfig:
    return validate(_build(TrainConfig, data, "", where), where)


def parse_override(text: str) -> tuple[list[str], Any]:
    """``section.key=value`` -> (["section", "key"], value parsed as YAML)."""
    import yaml

    if "=" not in text:
        raise TrainConfigError(f"--set {text!r}: expected section.key=value")
    key, raw = text.split("=", 1)
    path = [p for p in key.strip().split(".") if p]
    if not path:
        raise TrainConfigError(f"--set {text!r}: empty key")
    try:
        value = yaml.safe_load(raw) if raw.strip() else None
    except yaml.YAMLError as e:
        raise TrainConfigError(f"--set {text!r}: the value is not valid YAML ({e})") from None
    return path, value


def load(path: str | Path | None = None, overrides: list[str] | tuple[str, ...] = ()) -> TrainConfig:
    """The config of ``path`` (None: the built-in defaults) with ``--set`` overrides applied."""
    import yaml

    data: Any = {}
    where = "<defaults>"
    if path is not None:
        p = Path(path)
        where = str(p)
        if not p.is_file():
            raise TrainConfigError(f"{where}: no such config file")
        try:
            data = yaml.safe_load(p.read_text(encoding="utf-8")) or {}
        except (yaml.YAMLError, UnicodeDecodeError) as e:
            raise TrainConfigError(f"{where}: not a valid YAML file ({e})") from None
        if not isinstance(data, dict):
            raise TrainConfigError(f"{where}: the top level must be a mapping of sections")
    for text in overrides:
        keys, value = parse_override(text)
        node = data
        for k in keys[:-1]:
            child = node.setdefault(k, {})
            if not isinstance(child, dict):
                raise TrainConfigError(f"--set {text!r}: {k!r} is not a section")
            node = child
        node[keys[-1]] = value
        where = f"{where} (with --set)" if "--set" not in where else where
    return from_dict(data, where)


def dump(cfg: TrainConfig, path: str | Path) -> None:
    import yaml

    Path(path).write_text(yaml.safe_dump(cfg.to_dict(), sort_keys=False), encoding="utf-8")
