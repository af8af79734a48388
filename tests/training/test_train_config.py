"""Training configs (agents/train_config.py, train.py): defaults, files, overrides and named errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from agents.train_config import TrainConfig, TrainConfigError, from_dict, load

ROOT = Path(__file__).resolve().parents[2]


def test_default_yaml_spells_out_the_defaults() -> None:
    assert load(ROOT / "configs" / "default.yaml") == TrainConfig()


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "configs").glob("*.yaml")))
def test_every_shipped_config_loads(name: str) -> None:
    cfg = load(ROOT / "configs" / name)
    assert cfg.game_config().num_players in (2, 3, 4, 5)


def test_overrides_reach_nested_keys() -> None:
    cfg = load(None, ["ppo.learning_rate=1e-4", "env.game.num_players=4", "imitation.enabled=false"])
    assert cfg.ppo.learning_rate == 1e-4
    assert cfg.game_config().num_players == 4
    assert cfg.imitation.enabled is False
    assert cfg.reward_config().gamma == cfg.ppo.gamma  # the potential's discount follows PPO's


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"sed": 1}, ["unknown key(s) ['sed']", "allowed", "seed"]),
        ({"ppo": {"lr": 0.1}}, ["'lr'", "section 'ppo'", "learning_rate"]),
        ({"ppo": {"n_envs": "8"}}, ["ppo.n_envs='8'", "integer"]),
        ({"ppo": {"n_envs": 0}}, ["ppo.n_envs=0", "out of range", "1 to 256"]),
        ({"ppo": {"gamma": 1.5}}, ["ppo.gamma=1.5", "out of range"]),
        ({"ppo": {"learning_rate": float("nan")}}, ["ppo.learning_rate=nan", "finite"]),
        ({"ppo": {"net_arch": [256, -1]}}, ["ppo.net_arch", "positive integers"]),
        ({"imitation": {"enabled": "yes"}}, ["imitation.enabled='yes'", "true or false"]),
        ({"ppo": "fast"}, ["ppo must be a mapping"]),
        ({"env": {"game": {"num_players": 7}}}, ["env.game", "num_players"]),
        ({"env": {"game": {"players": 2}}}, ["unknown key(s) ['players'] in env.game", "num_players"]),
        ({"env": {"game": {"seed": 3}}}, ["unknown key(s) ['seed'] in env.game"]),
        ({"env": {"reward": {"win": "big"}}}, ["env.reward", "RewardConfig.win"]),
        ({"env": {"reward": {"victory": 1}}}, ["env.reward", "victory"]),
        ({"ppo": {"batch_size": 4096, "n_envs": 2, "n_steps": 64}}, ["ppo.batch_size=4096", "128"]),
        ({"imitation": {"enabled": False}, "ppo": {"enabled": False}}, ["nothing to train"]),
    ],
)
def test_bad_values_name_the_key(data: dict, words: list[str]) -> None:
    with pytest.raises(TrainConfigError) as e:
        from_dict(data, "my.yaml")
    msg = str(e.value)
    assert msg.startswith("my.yaml"), msg
    for w in words:
        assert w in msg, (w, msg)


def test_bad_files_and_overrides(tmp_path: Path) -> None:
    with pytest.raises(TrainConfigError, match="no such config file"):
        load(tmp_path / "missing.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("ppo: [1, 2\n")
    with pytest.raises(TrainConfigError, match="not a valid YAML"):
        load(bad)
    bad.write_text("- 1\n- 2\n")
    with pytest.raises(TrainConfigError, match="top level must be a mapping"):
        load(bad)
    with pytest.raises(TrainConfigError, match="expected section.key=value"):
        load(None, ["ppo.learning_rate"])
    with pytest.raises(TrainConfigError, match="seed=.* must be an integer"):
        load(None, ["seed.x=1"])
    with pytest.raises(TrainConfigError, match="'seed' is not a section"):
        load(None, ["seed=1", "seed.x=1"])


def test_cli_bad_config_exits_2_without_traceback(tmp_path: Path) -> None:
    res = subprocess.run(
        [sys.executable, "train.py", "--set", "ppo.n_envs=0", "--run-dir", str(tmp_path / "r")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 2, res.stderr
    assert "ppo.n_envs=0" in res.stderr and "Traceback" not in res.stderr
    assert not (tmp_path / "r").exists()  # nothing written for a config that does not validate
