"""A value network for the search's leaves: the heuristic team's chance to win from a decision,
learned from the heuristic team's own games.

    python -m agents.value_net fit [--games 20000] [--seed 1000000] [--every 10] [--epochs 8]
                                   [--out bbom_env/pretrained/value_2p_l1.pt]
    python -m agents.value_net show bbom_env/pretrained/value_2p_l1.pt

The search team's rollouts play the heuristic team to the end of the game (agents/search.py); a cut
rollout needs the value of the state it stops in *under that same team*. A trained policy's value
head (``leaf=ppo_2p_l1``) estimates its own policy's chance, a weaker team's, and measured against
heuristic rollouts it ranks moves no better than chance (docs/search.md, "Leaf values"). This network
learns the heuristic team's chance directly: ``fit`` plays seeded heuristic games (seeds from
``--seed`` on, away from the evaluation deals 0-499 and the label deals from 100000), encodes the
decider's observation at one decision in ``--every`` (the Gymnasium env's encoder: what that seat
sees, nothing hidden) and labels it with the game's result; an MLP (two hidden layers of 256) is
fitted by logistic loss (torch, Adam), with a tenth of the games held out to choose the epoch and to
report the held-out log loss, Brier score and AUC against the constant base rate.

The file (a torch ``state_dict`` with the observation size, the game it was fitted for and its
figures; about 2 MB) is a *value* network, not a policy: ``search:leaf=value_2p_l1`` reads it
(``bbom_env/pretrained/value_2p_l1.pt``), ``agents.evaluate --policy`` does not. Loading it for
another game (pack, modules, player count) is refused by the observation size and the recorded game.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from bbom_env import pretrained
from bbom_env.engine import GameConfig, GameState, new_game

from .heuristic_agent import HeuristicAgent

FOLDER = pretrained.FOLDER  # the shipped networks' folder
HIDDEN = 256
# The states of one game share its result, so a few thousand games are memorised within two epochs
# (measured: held-out log loss best after the first epoch, then rising): dropout, weight decay and
# many games, each sampled thinly (``--every``), hold that back.
DROPOUT = 0.2


def _torch() -> Any:
    import torch

    return torch


def build(obs_size: int, hidden: int = HIDDEN) -> Any:
    """The MLP: observation -> one logit of the team's win."""
    nn = _torch().nn
    return nn.Sequential(
        nn.Linear(obs_size, hidden),
        nn.ReLU(),
        nn.Dropout(DROPOUT),
        nn.Linear(hidden, hidden),
        nn.ReLU(),
        nn.Dropout(DROPOUT),
        nn.Linear(hidden, 1),
    )


def game_dict(config: GameConfig) -> dict[str, Any]:
    return {
        "num_players": config.num_players,
        "difficulty": config.difficulty,
        "pack": config.pack,
        "modules": list(config.modules),
        "payment": config.payment,
    }


def collect(
    config: GameConfig, games: int, seed: int, every: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(observations, results, game index) of one decision in ``every`` of seeded heuristic games."""
    from bbom_env.rl.observation import ObservationEncoder

    enc = ObservationEncoder(config)
    rng = random.Random(seed)
    rows: list[np.ndarray] = []
    labels: list[float] = []
    owner: list[int] = []
    for g in range(games):
        state = new_game(config.replace(seed=seed + g))
        agent = HeuristicAgent(seed + g)
        start = len(rows)
        while not state.over:
            if rng.randrange(every) == 0:
                rows.append(enc.encode(state, state.current_player()).astype(np.float32, copy=True))
            state.apply_action(agent.act(state))
        won = float(state.outcome == "win")
        labels += [won] * (len(rows) - start)
        owner += [g] * (len(rows) - start)
    return np.stack(rows), np.asarray(labels, dtype=np.float32), np.asarray(owner)


def mean_ranks(x: np.ndarray | list[float]) -> np.ndarray:
    """Ranks 1..n of ``x``, ties sharing their mean rank."""
    x = np.asarray(x)
    ranks = np.empty(len(x))
    ranks[np.argsort(x, kind="stable")] = np.arange(1, len(x) + 1)
    for v in np.unique(x):
        idx = x == v
        ranks[idx] = ranks[idx].mean()
    return ranks


def _auc(p: np.ndarray, y: np.ndarray) -> float:
    """Area under the ROC curve (the chance a won state scores above a lost one; ties half)."""
    ranks = mean_ranks(p)
    pos = y == 1
    n_pos, n_neg = int(pos.sum()), int((~pos).sum())
    if not n_pos or not n_neg:
        return float("nan")
    return float((ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def _scores(p: np.ndarray, y: np.ndarray) -> dict[str, float]:
    q = np.clip(p, 1e-6, 1 - 1e-6)
    return {
        "log_loss": float(-(y * np.log(q) + (1 - y) * np.log(1 - q)).mean()),
        "brier": float(((p - y) ** 2).mean()),
        "auc": _auc(p, y),
    }


def fit(
    x: np.ndarray, y: np.ndarray, owner: np.ndarray, epochs: int, seed: int, log: Any = print
) -> tuple[Any, dict[str, Any]]:
    """Fit the MLP; a tenth of the games (by index) held out choose the epoch and give the figures."""
    torch = _torch()
    torch.manual_seed(seed)
    held = owner % 10 == 9
    xt, yt = torch.as_tensor(x[~held]), torch.as_tensor(y[~held])
    xv = torch.as_tensor(x[held])
    net = build(x.shape[1])
    opt = torch.optim.Adam(net.parameters(), lr=5e-4, weight_decay=1e-4)
    loss_fn = torch.nn.BCEWithLogitsLoss()
    gen = torch.Generator().manual_seed(seed)
    best: tuple[float, int, dict] | None = None
    for epoch in range(1, epochs + 1):
        net.train()
        for idx in torch.randperm(len(xt), generator=gen).split(512):
            opt.zero_grad()
            loss = loss_fn(net(xt[idx]).squeeze(1), yt[idx])
            loss.backward()
            opt.step()
        net.eval()
        with torch.no_grad():
            p = torch.sigmoid(net(xv).squeeze(1)).numpy()
        sc = _scores(p, y[held])
        ll, brier, auc = sc["log_loss"], sc["brier"], sc["auc"]
        log(f"epoch {epoch}: held-out log loss {ll:.4f}, Brier {brier:.4f}, AUC {auc:.3f}")
        if best is None or sc["log_loss"] < best[0]:
            best = (sc["log_loss"], epoch, {k: v.clone() for k, v in net.state_dict().items()})
    assert best is not None
    net.load_state_dict(best[2])
    net.eval()
    with torch.no_grad():
        p = torch.sigmoid(net(xv).squeeze(1)).numpy()
    base = float(y[~held].mean())
    figures = {
        "epoch": best[1],
        "held_out": _scores(p, y[held]),
        "base_rate": _scores(np.full(int(held.sum()), base), y[held]),
        "train_states": int((~held).sum()),
        "held_out_states": int(held.sum()),
    }
    return net, figures


class ValueNet:
    """A fitted value network, loaded for CPU inference: ``win(state)`` is its estimate of the
    team's chance to win from ``state``, read from the decider's observation."""

    def __init__(self, path: str | Path) -> None:
        torch = _torch()
        data = torch.load(str(path), map_location="cpu", weights_only=False)
        self.meta: dict[str, Any] = data["meta"]
        self._check(str(path))
        self.net = build(data["obs_size"], data["hidden"])
        self.net.load_state_dict(data["state_dict"])
        self.net.eval()
        self.obs_size = int(data["obs_size"])
        self._torch = torch
        self._enc: dict[tuple, Any] = {}

    def _check(self, path: str) -> None:
        """Made for this env version and these card files (as ``bbom_env.pretrained.check``)."""
        env = pretrained._env_version()
        game = self.meta["game"]
        if self.meta["env_version"] != env:
            raise ValueError(
                f"value network {path}: fitted on env {self.meta['env_version']}, this is env {env}"
            )
        digest = pretrained.pack_digest(game["pack"], tuple(game["modules"]))
        if self.meta.get("pack_sha256") != digest:
            raise ValueError(
                f"value network {path}: fitted on other card files for pack {game['pack']!r}: refit it"
            )

    def _encoder(self, config: GameConfig) -> Any:
        key = (config.pack, tuple(config.pack_overrides), tuple(config.modules), config.num_players)
        enc = self._enc.get(key)
        if enc is None:
            from bbom_env.rl.observation import ObservationEncoder

            enc = ObservationEncoder(config)
            want = self.meta["game"]
            if enc.size != self.obs_size or game_dict(config)["modules"] != want["modules"]:
                raise ValueError(
                    f"the value network was fitted for {want} ({self.obs_size} floats); this game "
                    f"(pack={config.pack!r}, modules={tuple(config.modules)}) gives {enc.size}"
                )
            enc = self._enc[key] = enc
        return enc

    def win(self, state: GameState) -> float:
        obs = self._encoder(state.config).encode(state, state.current_player())
        with self._torch.no_grad():
            return float(self._torch.sigmoid(self.net(self._torch.as_tensor(obs).unsqueeze(0)))[0, 0])


def available() -> list[str]:
    """The shipped value networks' names."""
    return sorted(p.stem for p in FOLDER.glob("*.pt"))


def value_path(name: str) -> Path | None:
    """The file of a value network: a ``.pt`` path, or a name in bbom_env/pretrained/ (None: no such)."""
    p = Path(name) if name.endswith(".pt") else FOLDER / f"{name}.pt"
    return p if p.is_file() else None


class LeafValue:
    """A trained network's value head as the search's leaf value (``leaf=NAME``: a pretrained
    policy's name, ``bbom_env.pretrained``, or a model zip saved by train.py). The head learned the
    team's shaped return (docs/training.md, "The reward": +1 for a win, 0 for a loss, plus
    potential-based terms); with the potential telescoping to ``-phi(s)`` over the rest of a game,
    ``V(s) + phi(s)`` is the head's estimate of the (discounted) chance that its own policy wins
    from ``s``. It is read from the decider's observation of the world the search drew, so it too
    sees only what that seat would see there."""

    def __init__(self, name: str) -> None:
        import torch

        from bbom_env.rl.rewards import RewardConfig, RewardTracker

        from .policy_agent import PolicyAgent, policy_views

        self.agent = PolicyAgent.load(name) if name.endswith(".zip") else pretrained.load(name)
        self._torch = torch
        self._views = policy_views
        self._phi = RewardTracker(RewardConfig.preset("shaped")).phi

    def win(self, state: GameState) -> float:
        """The head's estimate of the team's chance to win from ``state`` (clipped to 0..1)."""
        enc, _ = self._views(self.agent, state.config, "leaf value head")
        obs = enc.encode(state, state.current_player())
        with self._torch.no_grad():
            v = float(self.agent.policy.predict_values(self._torch.as_tensor(obs).unsqueeze(0))[0, 0])
        return min(1.0, max(0.0, v + self._phi(state)))


def check_leaf(name: str, where: str = "") -> None:
    """ValueError unless ``name`` is a value network (a shipped name or a ``.pt``), a pretrained
    policy or a model ``.zip``: what ``leaf_value`` loads."""
    if name.endswith(".zip") or value_path(name) is not None:
        return
    if name.removeprefix(pretrained.PREFIX) not in pretrained.available():
        names = ", ".join([*available(), *pretrained.available()])
        raise ValueError(
            f"{where}leaf={name!r}: a value network or a pretrained policy ({names}), or a .pt / .zip file"
        )


def leaf_value(name: str) -> ValueNet | LeafValue:
    """The network a search's ``leaf=name`` reads: a value network, or a policy's value head."""
    path = value_path(name)
    return ValueNet(path) if path is not None else LeafValue(name)


def default_name(config: GameConfig) -> str:
    """``value_2p_l1``, ``value_4p_l1``, ``value_2p_l1_both`` (both Vth Element modules),
    ``value_2p_l1_dark_matter``: the pretrained policies' naming, so that one setting's files sort
    together and a fit for another setting never overwrites the shipped 2-player file."""
    mods = tuple(config.modules)
    suffix = "" if not mods else "_both" if set(mods) == {"dark_matter", "phobias"} else "_" + "_".join(mods)
    return f"value_{config.num_players}p_l{config.difficulty}{suffix}"


def main(argv: list[str] | None = None) -> int:
    from bbom_env import GYM_ID, cli

    ap = argparse.ArgumentParser(prog="python -m agents.value_net", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fit", help="play heuristic games and fit the value network")
    f.add_argument("--games", type=cli.int_range(10), default=20000, help="heuristic games to learn from")
    f.add_argument("--seed", type=int, default=1_000_000, help="seed of the first game")
    f.add_argument("--every", type=cli.int_range(1), default=10, help="one decision in this many is kept")
    f.add_argument("--epochs", type=cli.int_range(1), default=8, help="passes over the data")
    f.add_argument("--players", type=cli.int_range(2, 5), default=2, help="players")
    f.add_argument("--level", type=cli.int_range(1, 3), default=1, help="difficulty level")
    f.add_argument("--modules", type=cli.modules, default=(), help="rules modules, comma-separated")
    f.add_argument(
        "--out",
        default="",
        help="the network's file (default: bbom_env/pretrained/, named after the setting: value_4p_l1.pt)",
    )
    s = sub.add_parser("show", help="print a value network's game and figures")
    s.add_argument("path", help="a .pt file written by fit")
    a = ap.parse_args(argv)
    if a.cmd == "show":
        print(json.dumps(ValueNet(a.path).meta, indent=1))
        return 0
    config = GameConfig(num_players=a.players, difficulty=a.level, modules=a.modules)
    a.out = a.out or str(FOLDER / f"{default_name(config)}.pt")
    t0 = time.process_time()
    x, y, owner = collect(config, a.games, a.seed, a.every)
    collect_s = time.process_time() - t0
    print(f"{len(y)} states of {a.games} games ({y.mean():.1%} won), {collect_s:.0f} CPU s", flush=True)
    net, figures = fit(x, y, owner, a.epochs, a.seed, log=lambda m: print(m, flush=True))
    figures["collect_cpu_s"] = round(collect_s, 1)
    figures["fit_cpu_s"] = round(time.process_time() - t0 - collect_s, 1)
    meta = {
        "env_version": GYM_ID.rsplit("-", 1)[1],
        "pack_sha256": pretrained.pack_digest(config.pack, tuple(config.modules)),
        "game": game_dict(config),
        "games": a.games,
        "seeds": [a.seed, a.seed + a.games - 1],
        "every": a.every,
        "figures": figures,
        "recipe": f"python -m agents.value_net fit --games {a.games} --seed {a.seed} --every {a.every} "
        f"--epochs {a.epochs} --players {a.players} --level {a.level}"
        + (f" --modules {','.join(a.modules)}" if a.modules else ""),
    }
    torch = _torch()
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    state_dict = {k: v.to(torch.float32) for k, v in net.state_dict().items()}
    torch.save({"state_dict": state_dict, "obs_size": x.shape[1], "hidden": HIDDEN, "meta": meta}, a.out)
    held, base = figures["held_out"], figures["base_rate"]
    print(
        f"wrote {a.out}: held-out log loss {held['log_loss']:.4f} (base rate {base['log_loss']:.4f}), "
        f"Brier {held['brier']:.4f} ({base['brier']:.4f}), AUC {held['auc']:.3f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
