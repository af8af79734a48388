"""Agents that play through the engine (``agent.act(state) -> move id``): a random team, a scripted
heuristic team and trained policies (``PolicyAgent``, loaded from a model zip saved by train.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .heuristic_agent import HeuristicAgent
from .random_agent import RandomAgent

__all__ = ["HeuristicAgent", "RandomAgent", "SCRIPTED", "make_agent"]

SCRIPTED = {"random": RandomAgent, "heuristic": HeuristicAgent}


def make_agent(spec: str, seed: int = 0, deterministic: bool = True) -> Any:
    """An agent from a team name (``"random"``, ``"heuristic"``, ``"search"`` or
    ``"search:worlds=8,..."``: agents/search.py), the path of a trained model
    (``.zip``), ``"pretrained:NAME"`` (a policy shipped with the package, bbom_env/pretrained) or
    ``"rllib:DIR"`` (an RLlib checkpoint, agents/rllib_agent.py). Scripted agents take
    ``seed``; a policy plays its argmax unless ``deterministic`` is False (then ``seed`` seeds its
    sampling). Raises ValueError naming the accepted forms."""
    if spec in SCRIPTED:
        return SCRIPTED[spec](seed)
    if spec == "search" or spec.startswith("search:"):  # the search team (agents/search.py)
        from .search import SearchAgent

        return SearchAgent.from_spec(spec, seed)
    if spec.startswith("pretrained:"):  # a policy shipped with the package (bbom_env/pretrained)
        from bbom_env import pretrained

        return pretrained.load(spec, deterministic=deterministic, seed=seed)
    if spec.startswith("rllib:"):  # an RLlib checkpoint folder (train_rllib.py; the rllib extra)
        from .rllib_agent import RLlibAgent

        return RLlibAgent.load(spec.removeprefix("rllib:"), deterministic=deterministic, seed=seed)
    if spec.endswith(".zip") or Path(spec).is_file():
        from .policy_agent import PolicyAgent  # torch and sb3 only when a policy is asked for

        return PolicyAgent.load(spec, deterministic=deterministic, seed=seed)
    raise ValueError(
        f"unknown agent {spec!r}: use one of {sorted(SCRIPTED)}, search[:key=value,...], the path of a "
        "model .zip, pretrained:NAME or rllib:DIR"
    )
