"""Pretrained policies (bbom_env/pretrained): each shipped one loads by name, plays legal and
reproducible games in its own game, is at most 5 MB, and is refused in another setting; a policy
made for another env version or other card files is refused on load; export writes the two files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents.evaluate import main as evaluate
from agents.evaluate import play_games
from bbom_env import pretrained
from bbom_env.engine import GameConfig, new_game

SHIPPED = pretrained.available()


def test_something_is_shipped() -> None:
    assert SHIPPED, "no pretrained policy in bbom_env/pretrained"


@pytest.mark.parametrize("name", SHIPPED)
def test_each_shipped_policy_loads_and_plays_its_game_reproducibly(name: str) -> None:
    meta = pretrained.check(name)
    assert (pretrained.FOLDER / f"{name}.zip").stat().st_size <= 5 * 2**20
    g = pretrained.game(name)
    assert g["modules"] == GameConfig(modules=g["modules"]).modules  # canonical order
    agent = pretrained.load(name)
    state = new_game(GameConfig(**g, seed=3))
    moves = 0
    while not state.is_terminal() and moves < 300:
        move = agent.act(state)
        assert move in state.legal_actions()
        state.apply_action(move)
        moves += 1
    config = {k: v for k, v in g.items()}
    first = play_games([f"pretrained:{name}"], 2, base_seed=5, config=config)
    again = play_games([f"pretrained:{name}"], 2, base_seed=5, config=config)
    assert first == again and meta["figures"]


@pytest.mark.parametrize("name", SHIPPED)
def test_a_shipped_policy_is_refused_in_another_setting(name: str, capsys) -> None:
    g = pretrained.game(name)
    other = "phobias" if g["modules"] != ("phobias",) else "dark_matter"
    with pytest.raises(SystemExit) as exc:
        evaluate(["--policy", f"pretrained:{name}", "--modules", other, "--games", "1"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert f"--modules {other}" in err and "trained with modules=" in err and "Traceback" not in err


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny untrained model, exported to a folder of its own as "tiny"."""
    gym = pytest.importorskip("gymnasium")
    sb3c = pytest.importorskip("sb3_contrib")
    import bbom_env  # noqa: F401

    folder = tmp_path_factory.mktemp("pretrained")
    env = gym.make("BigBookOfMadness-v2", num_players=2)
    sb3c.MaskablePPO("MlpPolicy", env, seed=0, policy_kwargs={"net_arch": [16]}).save(folder / "run.zip")
    game = {"num_players": 2, "difficulty": 1}
    pretrained.export(folder / "run.zip", "tiny", game, "untrained", {"wins": 0}, folder=folder)
    return folder


def test_export_writes_the_model_and_its_metadata(exported: Path) -> None:
    assert pretrained.available(exported) == ["tiny"]
    meta = pretrained.check("tiny", exported)
    assert meta["game"] == {"num_players": 2, "difficulty": 1, "mode": "normal", "payment": "auto",
                            "pack": "default", "modules": []}  # fmt: skip
    assert (
        meta["pack_sha256"] == pretrained.pack_digest() and meta["env_version"] == pretrained._env_version()
    )
    agent = pretrained.load("tiny", folder=exported)
    state = new_game(GameConfig(seed=1))
    assert agent.act(state) in state.legal_actions()


def test_another_env_version_or_other_cards_are_refused(exported: Path) -> None:
    meta_path = exported / "tiny.json"
    meta = json.loads(meta_path.read_text())
    try:
        meta_path.write_text(json.dumps({**meta, "env_version": "v0"}))
        with pytest.raises(pretrained.PretrainedError, match="trained on env v0"):
            pretrained.load("tiny", folder=exported)
        meta_path.write_text(json.dumps({**meta, "pack_sha256": "0" * 64}))
        with pytest.raises(pretrained.PretrainedError, match="other card files for pack 'default'"):
            pretrained.check("tiny", exported)
    finally:
        meta_path.write_text(json.dumps(meta))
    with pytest.raises(pretrained.PretrainedError, match="no pretrained policy 'nope'; available: tiny"):
        pretrained.info("nope", exported)
    # the digest is of the card files' bytes (the modules' cards are sections of the same file)
    import hashlib

    from bbom_env.engine.cards.pack import load_pack

    (file,) = load_pack("default", modules=("dark_matter", "phobias")).files
    want = hashlib.sha256(Path(file).name.encode() + b"\0" + Path(file).read_bytes()).hexdigest()
    assert pretrained.pack_digest("default", ("dark_matter", "phobias")) == want


def test_an_export_without_the_value_head_plays_the_same_moves(exported: Path) -> None:
    import torch

    pretrained.export(exported / "run.zip", "actor", {"num_players": 2}, "untrained", {}, folder=exported,
                      value_head=False)  # fmt: skip
    assert pretrained.info("actor", exported)["value_head"] is False
    full = pretrained.load("tiny", folder=exported)
    actor = pretrained.load("actor", folder=exported)
    params = dict(actor.model.policy.named_parameters())
    critic = [k for k in params if k.startswith(("mlp_extractor.value_net.", "value_net."))]
    assert critic and all(torch.count_nonzero(params[k]) == 0 for k in critic)
    assert all(
        torch.count_nonzero(p) > 0 for k, p in params.items() if k not in critic and k.endswith("weight")
    )
    state = new_game(GameConfig(seed=4))
    for _ in range(60):
        move = full.act(state)
        assert actor.act(state) == move
        state.apply_action(move)
    assert (exported / "actor.zip").stat().st_size < (exported / "tiny.zip").stat().st_size
