"""A training config per module set of the Vth Element (configs/dark_matter.yaml, phobias.yaml,
vth_element.yaml): each loads, names its module set in the canonical order, and trains (at smoke
size: the smoke config's budgets with the module config's game) into a run whose model plays that
game and is refused in another."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from agents.train_config import load
from agents.trained_settings import SettingsError, game_settings
from bbom_env.engine import new_game
from bbom_env.rl.layout import ActionLayout

ROOT = Path(__file__).resolve().parents[2]
MODULE_CONFIGS = {
    "dark_matter.yaml": ("dark_matter",),
    "phobias.yaml": ("phobias",),
    "vth_element.yaml": ("dark_matter", "phobias"),
}
NONE = dict.fromkeys(("num_players", "difficulty", "mode", "payment", "pack", "modules"))


def _smoke_overrides() -> list[str]:
    """The smoke config's budgets as --set overrides (its game aside)."""
    data = yaml.safe_load((ROOT / "configs" / "smoke.yaml").read_text())

    def text(value: object) -> str:
        return yaml.safe_dump(value, default_flow_style=True).strip().removesuffix("...").strip()

    return [
        f"{section}.{key}={text(value)}"
        for section, keys in data.items()
        if isinstance(keys, dict) and section != "env"
        for key, value in keys.items()
    ]


@pytest.mark.parametrize("name", sorted(MODULE_CONFIGS))
def test_module_config_loads_with_its_module_set(name: str) -> None:
    cfg = load(ROOT / "configs" / name)
    game = cfg.game_config(seed=3)
    assert game.modules == MODULE_CONFIGS[name]
    assert cfg.env.game["modules"] == list(MODULE_CONFIGS[name])
    assert ActionLayout(game).n > ActionLayout(game.replace(modules=())).n
    assert not new_game(game).is_terminal()


def test_written_in_another_order_the_run_config_is_canonical(tmp_path: Path) -> None:
    from agents.train_config import dump

    cfg = load(ROOT / "configs" / "vth_element.yaml", ["env.game.modules=[phobias,dark_matter]"])
    dump(cfg, tmp_path / "config.yaml")
    written = yaml.safe_load((tmp_path / "config.yaml").read_text())
    assert written["env"]["game"]["modules"] == ["dark_matter", "phobias"]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(MODULE_CONFIGS))
def test_module_config_trains_at_smoke_size(name: str, tmp_path: Path) -> None:
    """About 45 s each on 2 cores."""
    from agents import make_agent
    from agents.training import Run

    cfg = load(ROOT / "configs" / name, _smoke_overrides())
    assert cfg.budget.timesteps == 512 and cfg.game_config().modules == MODULE_CONFIGS[name]
    run = Run.start(cfg, tmp_path / "run", progress=False, log=lambda m: None)
    results = run.execute()
    assert {t["team"] for t in results["teams"]} >= {"heuristic", "ppo best"}
    model = tmp_path / "run" / "best_model.zip"
    settings, source = game_settings([str(model)], NONE)
    assert source == str(model) and settings["modules"] == MODULE_CONFIGS[name]
    agent = make_agent(str(model))
    state = new_game(cfg.game_config(seed=5))
    for _ in range(20):  # it plays its own game
        if state.is_terminal():
            break
        assert agent.act(state) in state.legal_actions()
        state.apply_action(agent.act(state))
    with pytest.raises(SettingsError, match="--modules"):
        game_settings([str(model)], {**NONE, "modules": ()})
