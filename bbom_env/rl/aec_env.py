"""The PettingZoo AEC view (classic-env convention): ``raw_env`` and the wrapped ``env()``.

Registered on ``import bbom_env`` as ``bbom/BigBookOfMadness-v2`` in PettingZoo's registry.
"""

from __future__ import annotations

from numbers import Integral
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from bbom_env.engine import GameState, IllegalActionError, new_game
from bbom_env.engine.core.config import MAX_SEED
from bbom_env.engine.play.decision import describe, pending

from .gym_env import DEFAULT_MAX_STEPS, as_action, draw_seed, make_encoder, render_state, split_config
from .layout import ActionLayout
from .render import RENDER_MODES, TEXT_MODES, LastMove, before_move, check_render_mode
from .rewards import RewardConfig, RewardTracker


def env(**kwargs: Any) -> AECEnv:
    """The AEC env wrapped in ``CheckedEnv``: PettingZoo's ``OrderEnforcingWrapper`` (clear errors
    for step/observe before reset) that also refuses an action outside ``Discrete(n)`` with
    ``ActionOutOfSpaceError`` before it reaches the engine (what PettingZoo's
    ``AssertOutOfBoundsWrapper`` did with an ``assert``, which ``python -O`` removes). No
    ``TerminateIllegalWrapper``: an in-range illegal action raises the engine's
    ``IllegalActionError`` (design: bugs surface at once); add that wrapper yourself for unmasked
    baselines."""
    return CheckedEnv(raw_env(**kwargs))


class ActionOutOfSpaceError(IllegalActionError, AssertionError):
    """An action outside the action space given to ``env()``: an ``IllegalActionError`` (a
    ValueError naming the action, the agent and the pending decision) that is also an
    AssertionError, the class PettingZoo's ``AssertOutOfBoundsWrapper`` raised (code catching that
    keeps working)."""


def _checked_seed(seed: Any) -> int:
    """``reset``'s seed as an int, or an error naming ``seed`` (numpy's own says only "expected
    non-negative integer"): the range of ``GameConfig.seed``, which the game is dealt from."""
    if not isinstance(seed, Integral) or isinstance(seed, bool):
        raise TypeError(f"reset(seed={seed!r}): seed must be None or an int, got {type(seed).__name__}")
    if not 0 <= int(seed) <= MAX_SEED:
        raise ValueError(f"reset(seed={seed!r}): seed must be None or an int from 0 to 2**64 - 1")
    return int(seed)


class CheckedEnv(wrappers.OrderEnforcingWrapper):
    """OrderEnforcingWrapper + the action-space check of ``env()``, and a clear ``last()`` once
    every agent is done (PettingZoo's own raises a KeyError there)."""

    def step(self, action: Any) -> None:
        base = self.unwrapped
        if self._has_reset and base.agents:
            agent = base.agent_selection
            dead = base.terminations[agent] or base.truncations[agent]
            if not (dead and action is None) and not base.action_space(agent).contains(action):
                raise ActionOutOfSpaceError(
                    f"action {action!r} of {agent} is not in its action space {base.action_space(agent)}"
                    f"{' (a done agent takes None)' if dead else ''}; pending decision: {describe(base.game)}"
                )
        super().step(action)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self._has_reset:
            self.unwrapped.check_selection("last()")
        return super().last(observe)


class raw_env(AECEnv):  # noqa: N801  (PettingZoo classic naming)
    """The Big Book of Madness as a PettingZoo AEC environment: one agent per Magician.

    Agents ``player_0 .. player_{n-1}`` (seat order; the engine's seat i is ``player_i``).
    ``agent_selection`` is always the engine's current decider (``GameState.current_player()``), which
    is often not the Active Player (Curses resolve for each player, players pay and answer effects).

    Observation of every agent: ``{"observation": float32 (size,), "action_mask": int8 (n,)}``, the
    vector from that agent's seat (docs/observation.md). The mask is the legal-action mask for the
    agent that must act, all zeros for the other live agents (PettingZoo classic convention), and all
    ones for an agent that is terminated or truncated (its only valid action is None; all ones keeps a
    masked distribution defined, pgx convention, and is what ``api_test`` expects of ``last()``), or
    already removed from ``agents``. An unknown agent name raises a ValueError listing the agents.

    Action space ``Discrete(n)`` (docs/action_layout.md). Rewards: the team reward
    (``RewardConfig``) is given to every live agent on every step; ``last()`` returns the reward
    accumulated since the agent last acted. Eliminated players (docs/rules.md section 5.4) are terminated
    on the step that eliminates them (with that step's reward), take their dead step (action None)
    next, and are then removed from ``agents``; later team rewards do not reach them. When the game
    ends every remaining agent is terminated; after ``max_steps`` steps every agent is truncated.

    ``state()`` is the global state for a centralized critic: the concatenation of every seat's
    observation in seat order (each seat's own hand included), shape ``(num_players * size,)``;
    ``state_space`` is its Box. ``render()`` returns (``"ansi"``) or prints (``"human"``, also after
    ``reset`` and after every step) the text of ``BBoMGymEnv``'s render: the board, after a step
    preceded by who did what (``P1 played LEARN(water) - Tide*`` and the events it set off);
    ``"rgb_array"`` returns the board picture as ``BBoMGymEnv``'s does (an ``(H, W, 3) uint8`` array,
    the spectator's view; the ``render`` extra).
    Keyword arguments: those of ``BBoMGymEnv`` except ``dict_obs``.
    """

    metadata: dict[str, Any] = {
        "render_modes": list(RENDER_MODES),
        "name": "bbom_v2",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(
        self,
        render_mode: str | None = None,
        reward: RewardConfig | dict[str, Any] | str | None = None,
        observe_other_hands: bool = False,
        max_steps: int | None = DEFAULT_MAX_STEPS,
        **config: Any,
    ) -> None:
        super().__init__()
        check_render_mode(render_mode, self.metadata["render_modes"])
        if max_steps is not None and (type(max_steps) is not int or max_steps < 1):
            raise ValueError(f"max_steps={max_steps!r} must be a positive int or None")
        self.config, self._first_seed = split_config(config)
        self.render_mode = render_mode
        self.reward_config = RewardConfig.coerce(reward)
        self.max_steps = max_steps
        self.layout = ActionLayout(self.config)
        self.encoder = make_encoder(self.config, observe_other_hands)
        n_players = self.config.num_players
        self.possible_agents = [f"player_{i}" for i in range(n_players)]
        self._seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        size = self.encoder.size
        high = np.asarray(self.encoder.high, dtype=np.float32) * np.ones(size, np.float32)
        obs_box = spaces.Box(low=np.zeros(size, np.float32), high=high, dtype=np.float32)
        self.observation_spaces = {
            a: spaces.Dict(
                {"observation": obs_box, "action_mask": spaces.Box(0, 1, (self.layout.n,), np.int8)}
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.layout.n) for a in self.possible_agents}
        self.state_space = spaces.Box(
            low=np.zeros(size * n_players, np.float32), high=np.tile(high, n_players), dtype=np.float32
        )
        self.game: GameState | None = None
        self._tracker = RewardTracker(self.reward_config)
        self._rng: np.random.Generator | None = None
        self._steps = 0
        self._last_move: LastMove | None = None  # who did what, for render() (only with a render_mode)

    # -- spaces ---------------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[self.possible_agents[self.seat_of(agent)]]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[self.possible_agents[self.seat_of(agent)]]

    def seat_of(self, agent: Any) -> int:
        """The engine seat of an agent name; ValueError naming the agents for anything else."""
        try:
            return self._seat_of[agent]
        except (KeyError, TypeError):  # TypeError: an unhashable name such as a list
            raise ValueError(f"unknown agent {agent!r}; the agents are {self.possible_agents}") from None

    def check_selection(self, call: str) -> None:
        """RuntimeError unless an agent is selected to act (after reset, before every agent is done)."""
        if self.game is None:
            raise RuntimeError(f"{call} before reset(): call reset() first")
        if self.agent_selection not in self.agents:
            raise RuntimeError(
                f"{call} after the episode ended: every agent is done and removed (agents == []); "
                "call reset()"
            )

    # -- AEC API --------------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        # Same seeding as BBoMGymEnv.reset: seed -> that game; None -> next seed of the env's generator.
        if seed is None and self._rng is None and self._first_seed is not None:
            seed = self._first_seed
        if seed is not None:
            seed = _checked_seed(seed)
            self._rng = np.random.default_rng(seed)
        elif self._rng is None:
            self._rng = np.random.default_rng()
        game_seed = seed if seed is not None else draw_seed(self._rng)
        self.game = new_game(self.config.replace(seed=game_seed))
        self._tracker.reset(self.game)
        self._steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[max(self.game.current_player(), 0)]
        self._update_infos()
        self._last_move = None
        if self.render_mode == "human":
            self.render()

    def step(self, action: Any) -> None:
        self.check_selection("step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None
        if type(action) is not int:
            action = as_action(action)
        last = before_move(game, action) if self.render_mode in TEXT_MODES else None
        game.apply_action(action)  # IllegalActionError / MoveTypeError (state unchanged) when bad
        self._last_move = last
        self._steps += 1
        r = self._tracker.step(game)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: r for a in self.agents}
        for a in self.agents:
            if game.players[self._seat_of[a]].eliminated:
                self.terminations[a] = True  # section 5.4: play continues without them
        if game.over:
            for a in self.agents:
                self.terminations[a] = True
        elif self.max_steps is not None and self._steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
        if not game.over:
            self.agent_selection = self.possible_agents[game.current_player()]
            self._deads_step_first()  # eliminated agents take their dead step before the decider
        self._accumulate_rewards()
        self._update_infos()
        if self.render_mode == "human":
            self.render()

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self.check_selection("last()")
        return super().last(observe)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.seat_of(agent)
        game = self.game
        if game is None:
            raise RuntimeError("observe() before reset(): call reset() first")
        if agent not in self.agents or self.terminations[agent] or self.truncations[agent]:
            # Done (terminated, truncated, or already removed after its dead step): all ones.
            mask = np.ones(self.layout.n, dtype=np.int8)
        elif agent == self.agent_selection and game.current_player() == seat:
            mask = self.layout.mask(game)
        else:
            mask = np.zeros(self.layout.n, dtype=np.int8)
        return {"observation": self.encoder.encode(game, seat), "action_mask": mask}

    def state(self) -> np.ndarray:
        game = self.game
        if game is None:
            raise RuntimeError("state() before reset(): call reset() first")
        return np.concatenate([self.encoder.encode(game, s) for s in range(len(game.players))])

    def render(self) -> str | np.ndarray | None:
        if self.game is None:
            raise RuntimeError("render() before reset()")
        return render_state(self.game, self.render_mode, self._last_move)

    def close(self) -> None:
        pass

    # -- internals ------------------------------------------------------------------------------

    def _update_infos(self) -> None:
        game = self.game
        assert game is not None
        decision = pending(game).kind
        decider = game.current_player()
        for a in self.agents:
            info: dict[str, Any] = {"player": decider, "decision": decision, "step": self._steps}
            if game.over:
                info["outcome"] = game.outcome
                info["reason"] = game.reason
            self.infos[a] = info
