"""Scripted agents that play through the engine: a random team and a heuristic team."""

from .heuristic_agent import HeuristicAgent
from .random_agent import RandomAgent

__all__ = ["HeuristicAgent", "RandomAgent"]
