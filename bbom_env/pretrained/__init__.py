"""Pretrained policies shipped with the package, loaded by name.

    from bbom_env import pretrained

    pretrained.available()                  # the names shipped
    pretrained.info("ppo_2p_l1")            # what it was trained for, how, and how it plays
    agent = pretrained.load("ppo_2p_l1")    # a team: agent.act(state) for every seat

On the command line a pretrained policy is ``pretrained:NAME`` wherever a team is named
(``python -m agents.evaluate --policy pretrained:ppo_2p_l1``, ``python -m bbom_env.play --agents
pretrained:ppo_2p_l1``); those commands play it in its own game by default and refuse another pack
or module set (agents/trained_settings.py), as for a train.py run.

Each ``NAME.zip`` (a MaskablePPO model saved by ``train.py``, its optimizer state dropped) has
``NAME.json`` beside it: the env version, the game it was trained for (players, level, mode,
payment, the pack with a SHA-256 of its files, the modules in canonical order), the recipe and the
figures measured when it was published. Loading it on another env version or a changed pack is a
``PretrainedError``: its observation and action ids are those of its version. ``export`` makes the
two files from a run's model (docs/training.md, "Pretrained policies").

Loading needs torch and sb3-contrib (the ``train`` dependencies); ``available`` and ``info`` do not.
"""

from __future__ import annotations

import hashlib
import json
import os
import zipfile
from pathlib import Path
from typing import Any

__all__ = ["PREFIX", "PretrainedError", "available", "check", "export", "game", "info", "load", "pack_digest"]

FOLDER = Path(__file__).resolve().parent
PREFIX = "pretrained:"
GAME_KEYS = ("num_players", "difficulty", "mode", "payment", "pack", "modules")


class PretrainedError(ValueError):
    """An unknown name, or a policy made for another env version or card pack."""


def _env_version() -> str:
    from bbom_env import GYM_ID

    return GYM_ID.rsplit("-", 1)[1]


def game_json(game: dict[str, Any]) -> dict[str, Any]:
    """The full game of ``game`` (its ``GAME_KEYS``; defaults filled, modules in canonical order) as
    JSON values: what a policy's or a label file's metadata records."""
    from bbom_env.engine import GameConfig

    cfg = GameConfig(**{k: game[k] for k in GAME_KEYS if k in game})
    return {k: list(v) if isinstance(v, tuple) else v for k, v in ((k, getattr(cfg, k)) for k in GAME_KEYS)}


def available(folder: Path = FOLDER) -> list[str]:
    return sorted(p.stem for p in folder.glob("*.json") if (folder / f"{p.stem}.zip").is_file())


def info(name: str, folder: Path = FOLDER) -> dict[str, Any]:
    """The metadata of ``name`` (``NAME.json``)."""
    name = name.removeprefix(PREFIX)
    meta = folder / f"{name}.json"
    if not meta.is_file() or not (folder / f"{name}.zip").is_file():
        raise PretrainedError(
            f"no pretrained policy {name!r}; available: {', '.join(available(folder)) or 'none'}"
        )
    data = json.loads(meta.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def game(name: str, folder: Path = FOLDER) -> dict[str, Any]:
    """The GameConfig fields (the seed aside) ``name`` was trained for, modules as a tuple."""
    g = dict(info(name, folder)["game"])
    g["modules"] = tuple(g["modules"])
    return g


def pack_digest(pack: str = "default", modules: tuple[str, ...] = ()) -> str:
    """SHA-256 of the files a game's card pack is read from (the pack, its modules' sections)."""
    from bbom_env.engine.cards.pack import load_pack

    files = load_pack(pack, modules=modules).files
    h = hashlib.sha256()
    for f in sorted(files):
        h.update(Path(f).name.encode() + b"\0" + Path(f).read_bytes())
    return h.hexdigest()


def check(name: str, folder: Path = FOLDER) -> dict[str, Any]:
    """``info(name)``, after checking it was made for this env version and these card files."""
    meta = info(name, folder)
    env = _env_version()
    if meta["env_version"] != env:
        raise PretrainedError(
            f"pretrained policy {name!r} was trained on env {meta['env_version']}, this is env {env}: "
            "its observation and action ids are not this version's (retrain it, docs/training.md)"
        )
    g = game(name, folder)
    digest = pack_digest(g["pack"], g["modules"])
    if meta["pack_sha256"] != digest:
        raise PretrainedError(
            f"pretrained policy {name!r} was trained on other card files for pack {g['pack']!r} "
            f"(SHA-256 {meta['pack_sha256'][:12]}..., now {digest[:12]}...): retrain it"
        )
    return meta


def path(name: str, folder: Path = FOLDER) -> Path:
    info(name, folder)
    return folder / f"{name.removeprefix(PREFIX)}.zip"


def load(name: str, deterministic: bool = True, seed: int = 0, folder: Path = FOLDER) -> Any:
    """The policy ``name`` as a team (``agents.policy_agent.PolicyAgent``), checked first."""
    from agents.policy_agent import PolicyAgent  # torch and sb3-contrib only now

    meta = check(name, folder)
    agent = PolicyAgent.load(path(name, folder), deterministic=deterministic, seed=seed)
    agent.observe_other_hands = bool(meta.get("observe_other_hands", False))
    return agent


def export(
    model_zip: str | Path,
    name: str,
    game: dict[str, Any],
    recipe: str,
    figures: dict[str, Any],
    observe_other_hands: bool = False,
    folder: Path = FOLDER,
    value_head: bool = True,
) -> Path:
    """Write ``NAME.zip`` (``model_zip`` without its optimizer state, deflated) and ``NAME.json``.

    ``value_head=False`` zeroes the value network (the critic; play reads only the policy network,
    so the moves are the same) so that the file deflates to about half: a module game's observation
    is about twice the base game's, and its two networks would not fit the 5 MB a shipped file may
    take. The metadata records ``"value_head": false``: such a file has no value estimates."""
    import torch
    from sb3_contrib import MaskablePPO

    full = game_json(game)
    model = MaskablePPO.load(str(model_zip), device="cpu")
    model.policy.optimizer = torch.optim.Adam(model.policy.parameters())  # fresh: no moment buffers
    if not value_head:
        with torch.no_grad():
            for key, param in model.policy.named_parameters():
                if key.startswith(("mlp_extractor.value_net.", "value_net.")):
                    param.zero_()
    out = folder / f"{name}.zip"
    tmp = folder / f"{name}.tmp.zip"
    model.save(str(tmp))
    packed = folder / f"{name}.tmp.deflated.zip"
    with zipfile.ZipFile(tmp) as src, zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():  # SB3 stores its zip uncompressed
            dst.writestr(item.filename, src.read(item.filename))
    tmp.unlink()
    os.replace(packed, out)
    meta = {
        "name": name,
        "env_version": _env_version(),
        "game": full,
        "pack_sha256": pack_digest(full["pack"], tuple(full["modules"])),
        "observe_other_hands": observe_other_hands,
        "value_head": value_head,
        "recipe": recipe,
        "figures": figures,
    }  # fmt: skip
    (folder / f"{name}.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return out
