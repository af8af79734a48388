"""The single-agent Gymnasium view: one shared cooperative policy plays every seat (design decision 1).

Registered on ``import bbom_env`` as ``bbom_env.GYM_ID`` (entry point ``registered_env``, with
``max_episode_steps``); see ``BBoMGymEnv`` (its docstring is the reference documentation,
docs/environments.md the tutorial).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from bbom_env.engine import GameConfig, GameState, new_game
from bbom_env.engine.play.decision import pending

from .layout import ActionLayout
from .observation import ObservationEncoder
from .render import (
    RENDER_MODES,
    TEXT_MODES,
    LastMove,
    before_move,
    check_render_mode,
    render_array,
    render_text,
)
from .rewards import RewardConfig, RewardTracker

DEFAULT_MAX_STEPS = 2000  # random play ends in ~150 decisions (2-5 players); see "Episode end"
_SEED_HIGH = 2**31 - 1
ILLEGAL_MODES = ("raise", "penalty")
DEFAULT_ILLEGAL_PENALTY = -0.1
# Consecutive illegal attempts allowed in one decision (penalty mode). Why 100: a uniform policy over
# the 321 ids (where every unmasked learner starts) needs 321/legal tries on average, about 65 at the
# mean of 5 legal moves; at 100 it passes about 70% of its decisions (measured over random games), so
# a fresh learner still sees the game, while a policy stuck on one illegal id loses 100 steps, not the
# episode's 2000.
DEFAULT_ILLEGAL_CAP = 100


# Options every env takes besides the GameConfig fields (the Gymnasium env adds its illegal-action
# mode: GYM_OPTIONS).
ENV_OPTIONS = ("render_mode", "reward", "dict_obs", "observe_other_hands", "max_steps")
GYM_OPTIONS = (*ENV_OPTIONS, "illegal_action", "illegal_penalty", "illegal_cap")


def split_config(
    kwargs: dict[str, Any], options: tuple[str, ...] = ENV_OPTIONS
) -> tuple[GameConfig, int | None]:
    """GameConfig from keyword arguments, and the ``seed`` given (None when absent).

    Unknown names raise a TypeError that lists the accepted ones (GameConfig fields + the env's
    ``options``)."""
    known = GameConfig.known_names()  # its fields and the registered modules' switches
    unknown = sorted(set(kwargs) - set(known))
    if unknown:
        raise TypeError(
            f"unknown argument(s) {unknown}; accepted: GameConfig fields {sorted(known)} and the "
            f"env options {', '.join(options)}"
        )
    seed = kwargs.get("seed")
    cfg = dict(kwargs)
    cfg["seed"] = 0 if seed is None else seed
    return GameConfig(**cfg), seed


def make_encoder(config: GameConfig, observe_other_hands: bool) -> ObservationEncoder:
    return ObservationEncoder(config, observe_other_hands=observe_other_hands)


def render_state(state: GameState, mode: str | None, last: LastMove | None = None) -> str | np.ndarray | None:
    """The text of ``render.render_text`` (the board, after a step preceded by who did what):
    returned for "ansi", printed for "human"; the board picture for "rgb_array" (both envs)."""
    if mode == "ansi":
        return render_text(state, last)
    if mode == "rgb_array":
        return render_array(state)
    if mode == "human":
        print(render_text(state, last))
    return None


def draw_seed(rng: np.random.Generator) -> int:
    return int(rng.integers(0, _SEED_HIGH))


def as_action(action: Any) -> Any:
    """An int for an integer numpy array of shape () (what SB3's ``predict`` returns for one env);
    anything else unchanged: the engine accepts ints and numpy integers and refuses the rest
    (floats, strs, bools ...) with ``MoveTypeError`` naming the value and the pending decision.
    Never ``int(action)``: that would turn 0.9 or "0" into a move."""
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        return int(action)
    return action


class IllegalMoves:
    """The one implementation of "an illegal action is a no-op with a penalty" (the env's
    ``illegal_action="penalty"`` mode; ``IllegalActionPenalty`` uses its check): the legality test of
    an action against the mask and the invalid-action counts of the episode and of the decision.

    Args:
        penalty: reward of each illegal attempt (a finite number).
        cap: consecutive illegal attempts allowed in one decision; the attempt that reaches it ends
            the episode as truncated (None: no cap, only the episode's step limit).
    """

    def __init__(self, penalty: float = DEFAULT_ILLEGAL_PENALTY, cap: int | None = DEFAULT_ILLEGAL_CAP):
        if isinstance(penalty, bool) or not isinstance(penalty, (int, float)) or not np.isfinite(penalty):
            raise ValueError(f"illegal_penalty={penalty!r} must be a finite number")
        if cap is not None and (type(cap) is not int or cap < 1):
            raise ValueError(f"illegal_cap={cap!r} must be a positive int or None")
        self.penalty = float(penalty)
        self.cap = cap
        self.episode = 0  # illegal attempts in the episode
        self.decision = 0  # consecutive illegal attempts at the pending decision

    def reset(self) -> None:
        self.episode = self.decision = 0

    @staticmethod
    def is_legal(mask: np.ndarray, action: Any, who: str) -> bool:
        """Whether ``action`` is a legal id under ``mask``. A value that is no move id at all (a
        float, a str, None, a bool) raises TypeError: a bug in the caller, never a choice to
        penalise, and never rounded into a move (int(0.9) would play move 0)."""
        a = as_action(action)
        if isinstance(a, (bool, np.bool_)) or not isinstance(a, (int, np.integer)):
            raise TypeError(f"{who}.step({action!r}): actions are integer ids, got {type(action).__name__}")
        return 0 <= int(a) < len(mask) and bool(mask[int(a)])

    def illegal(self) -> bool:
        """Count an illegal attempt; True when it reaches the cap."""
        self.episode += 1
        self.decision += 1
        return self.cap is not None and self.decision >= self.cap

    def info(self, info: dict[str, Any], illegal: bool) -> dict[str, Any]:
        info["illegal_action"] = illegal
        info["invalid_actions"] = self.episode
        info["invalid_in_decision"] = self.decision
        return info


class BBoMGymEnv(gym.Env):
    """The Big Book of Madness as a single-agent, turn-based Gymnasium environment.

    ## Description

    A cooperative deck-building game for 2 to 5 Magicians (rules: docs/rules.md). This view is for a
    *shared cooperative policy*: each step is taken by whichever player must decide now (the engine's
    ``current_player()``: often the Active Player, but also a player resolving a Curse, paying, or
    answering an effect), the observation is from that player's seat, and every player shares the one
    team reward. Sub-decisions (payments in ``payment="manual"`` mode, targets, cards to discard...)
    are steps of their own (docs/rules.md section 10). Only legal actions may be taken: read the mask.

    ## Action Space

    ``Discrete(n)`` over the engine's flat move layout (docs/action_layout.md; n depends only on the
    module set): the same ids for every player count and every seat; players are seat offsets from
    the decider, cards are card types. ``env.unwrapped.layout.action_to_string(a)`` names an id.
    The legal ids are given three ways, all the same int8 0/1 array of shape (n,):
    ``env.action_masks()`` (sb3-contrib MaskablePPO convention; works through ``SubprocVecEnv``,
    which calls it with ``env_method``), ``info["action_mask"]``, and with ``dict_obs=True`` the
    ``"action_mask"`` entry of the observation. The mask of a live state is never all zero; once the
    episode has ended (terminated or truncated) the mask is all ones (pgx convention), so that a
    masked distribution built from a final observation stays defined; no action is taken there.
    (Truncation by Gymnasium's ``TimeLimit`` happens outside the env: that last mask is the live one,
    never all zero either.)

    An illegal action raises ``bbom_env.engine.IllegalActionError`` (a ``ValueError`` naming the
    action, the pending decision and the legal actions) and leaves the game unchanged. An action is
    an int, a numpy integer or an integer numpy array of shape (); anything else (a float, a str,
    a bool ...) raises ``bbom_env.engine.MoveTypeError`` (an ``IllegalActionError`` and a
    ``TypeError``), also leaving the game unchanged. For unmasked baselines pass
    ``illegal_action="penalty"`` (see Arguments: an illegal id is then a no-op with a penalty reward,
    and the same decision is asked again) or wrap the env in
    ``bbom_env.rl.wrappers.IllegalActionPenalty`` (a penalty reward and the end of the episode).
    ``gymnasium.utils.env_checker.check_env`` steps with random unmasked actions, so run it in
    penalty mode or on that wrapper (see tests/rl/test_gym_env.py, tests/rl/test_illegal_mode.py).

    ## Observation Space

    ``Box(0, 1, (size,), float32)``: the decider's observation from ``ObservationEncoder``
    (docs/observation.md: named sections, seats relative to the observer, no hidden information).
    With ``dict_obs=True``: ``Dict({"observation": that Box, "action_mask": Box(0, 1, (n,), int8)})``
    (PettingZoo classic convention; for SB3 ``MultiInputPolicy``).

    ## Rewards

    The team reward of ``bbom_env.rl.rewards.RewardConfig``: by default +1 on the step that wins the
    game, -1 on the step that loses it, 0 otherwise; optional shaping terms per engine event
    (Curses destroyed, Monsters defeated, Madness received or cured, ...), all 0 by default.

    ## Starting State

    A new game (docs/rules.md section 2) advanced to its first decision: Magicians, Curse piles, the
    Grimoire, the Library and the starting player are drawn from the game seed. ``reset(seed=s)``
    plays the game ``GameConfig(..., seed=s)`` (the same game the engine's ``new_game`` builds), and
    the same seed with the same actions gives the same episode. ``reset()`` without a seed draws the
    next game seed from the env's generator (``self.np_random``): seeded by the last ``reset(seed=)``,
    else by the ``seed`` argument of the constructor, else from OS entropy (Gymnasium convention).

    ## Episode End

    Terminated when the game ends (docs/rules.md section 6): won (the last Monster vanquished) or lost (the
    Madness pile ran out, the last Monster not vanquished, or every player eliminated).
    ``info["outcome"]`` is then ``"win"`` or ``"loss"``, ``info["is_success"]`` is the win (SB3
    logs it), and ``info["reason"]`` says why. Truncated after a number of steps (decisions) of an
    episode, 2000 by default; a game always ends, but a policy can loop inside the Action phase
    (e.g. choose a Spell, then cancel the payment) forever. One mechanism counts them: through
    ``gymnasium.make`` it is Gymnasium's ``TimeLimit`` (``max_episode_steps=N``, shown in
    ``env.spec.max_episode_steps``; the env's own limit is off); an env built directly counts them
    itself (``max_steps``).

    ## Arguments

    Every ``GameConfig`` field as a keyword argument (``num_players``, ``difficulty``, ``mode``,
    ``payment``, ``magicians``, ``pack``, the rule switches...; see ``bbom_env.engine.GameConfig``),
    and the env options:

    * ``render_mode``: ``None``, ``"ansi"`` (``render()`` returns the text) or ``"human"`` (prints it
      after ``reset`` and after every step). The text is the board (``str(state)``), after a step
      preceded by who did what: ``P1 played ACTIVATE(spell#0 X=1) - Ice*`` and the events it set
      off. ``"rgb_array"``: ``render()`` returns the board picture, an ``(H, W, 3) uint8`` array of
      H = 288 + 128 x players, W = 1280 (the spectator's view: every hand; docs/rendering.md), what
      ``gymnasium.wrappers.RecordVideo`` records; it needs the ``render`` extra
      (``pip install "bbom-env[render]"``). Any other mode, or "rgb_array" without the extra, raises
      ``UnsupportedRenderModeError`` (a ValueError, and a TypeError so that SB3's ``make_vec_env``
      falls back to no render mode; bbom_env.rl.render).
    * ``reward``: a ``RewardConfig``, a dict of its fields or a preset name: "outcome" (the
      default: +1 win / -1 loss) or "shaped" (train.py's: +1 / 0 with potential-based terms).
    * ``dict_obs``: Dict observation with the mask (default False).
    * ``observe_other_hands``: also encode the other players' hands (A-66 table talk; default False).
    * ``max_steps``: truncation length in steps of an env built directly (default 2000; None for
      none). ``gymnasium.make`` refuses it: pass ``max_episode_steps=N`` there (see Episode End).
    * ``seed``: the game seed of the first ``reset()`` without a seed (default None: OS entropy).
    * ``illegal_action``: ``"raise"`` (default: ``IllegalActionError``, see Action Space) or
      ``"penalty"``: an illegal id (in range or not) leaves the game as it was and returns the same
      observation (a copy), reward ``illegal_penalty`` (default -0.1), ``terminated=False``, and
      ``info["illegal_action"]=True``; the same decision is asked again. Each attempt counts as a
      step (toward ``max_steps`` / ``max_episode_steps``). ``info`` of every step then also has
      ``invalid_actions`` (illegal attempts in the episode) and ``invalid_in_decision`` (consecutive
      attempts at the pending decision). The attempt that reaches ``illegal_cap`` (default 100; None:
      no cap) consecutive illegal attempts in one decision truncates the episode with
      ``info["illegal_cap"]=True``: it is never replaced by a legal move (an agent's choice is never
      silently swapped). A value that is no move id (a float, a str ...) raises ``TypeError`` in
      both modes. Used by benchmarks/masking.py (docs/masking.md).

    ``info`` of every step: ``action_mask``, ``player`` (the seat of the observation: the decider,
    or on the final step the player who acted), ``decision`` (the pending decision kind, one of
    ``bbom_env.engine.play.decision.DECISION_KINDS``; ``"none"`` once over) and ``step`` (steps taken in
    the episode); on the final step also ``outcome``, ``reason``, ``is_success`` and ``stats``.

    ## Version History

    * v0: initial version (base game; Vth Element modules not yet implemented).
      The ``illegal_action`` option was added later without a version change: the default
      ("raise") behaves as before.
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4}

    def __init__(
        self,
        render_mode: str | None = None,
        reward: RewardConfig | dict[str, Any] | str | None = None,
        dict_obs: bool = False,
        observe_other_hands: bool = False,
        max_steps: int | None = DEFAULT_MAX_STEPS,
        illegal_action: str = "raise",
        illegal_penalty: float = DEFAULT_ILLEGAL_PENALTY,
        illegal_cap: int | None = DEFAULT_ILLEGAL_CAP,
        **config: Any,
    ) -> None:
        check_render_mode(render_mode, self.metadata["render_modes"])
        if max_steps is not None and (type(max_steps) is not int or max_steps < 1):
            raise ValueError(f"max_steps={max_steps!r} must be a positive int or None")
        self.config, self._first_seed = split_config(config, GYM_OPTIONS)
        self.render_mode = render_mode
        self.reward_config = RewardConfig.coerce(reward)
        self.dict_obs = bool(dict_obs)
        self.max_steps = max_steps
        self.layout = ActionLayout(self.config)
        self.encoder = make_encoder(self.config, observe_other_hands)
        obs_box = spaces.Box(
            low=np.zeros(self.encoder.size, dtype=np.float32),
            high=np.asarray(self.encoder.high, dtype=np.float32) * np.ones(self.encoder.size, np.float32),
            dtype=np.float32,
        )
        self.action_space = spaces.Discrete(self.layout.n)
        if self.dict_obs:
            mask_box = spaces.Box(0, 1, shape=(self.layout.n,), dtype=np.int8)
            self.observation_space = spaces.Dict({"observation": obs_box, "action_mask": mask_box})
        else:
            self.observation_space = obs_box
        self.state: GameState | None = None
        self._tracker = RewardTracker(self.reward_config)
        self._mask = np.ones(self.layout.n, dtype=np.int8)
        self._seat = 0
        self._steps = 0
        self._last_move: LastMove | None = None  # who did what, for render() (only with a render_mode)
        self.illegal: IllegalMoves | None = None  # None: "raise" mode
        self._last: tuple[Any, dict[str, Any]] = (None, {})  # the last observation and info (penalty mode)
        self._capped = False  # the episode was truncated at the illegal-attempt cap
        self.set_illegal_action(illegal_action, illegal_penalty, illegal_cap)

    def set_illegal_action(
        self,
        mode: str,
        penalty: float = DEFAULT_ILLEGAL_PENALTY,
        cap: int | None = DEFAULT_ILLEGAL_CAP,
    ) -> None:
        """Switch the illegal-action mode (the ``illegal_action``, ``illegal_penalty`` and
        ``illegal_cap`` arguments); takes effect at the next step (counts restart at 0)."""
        if mode not in ILLEGAL_MODES:
            raise ValueError(f"illegal_action={mode!r}: expected one of {ILLEGAL_MODES}")
        moves = IllegalMoves(penalty, cap)  # validates both even in "raise" mode
        self.illegal_action = mode
        self.illegal = moves if mode == "penalty" else None

    # -- Gymnasium API -------------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        if seed is None and self._np_random is None and self._first_seed is not None:
            seed = self._first_seed  # the constructor's seed plays like reset(seed=seed)
        super().reset(seed=seed)
        game_seed = seed if seed is not None else draw_seed(self.np_random)
        self.state = new_game(self.config.replace(seed=game_seed))
        self._tracker.reset(self.state)
        self._steps = 0
        self._capped = False
        self._last_move = None
        self._seat = max(self.state.current_player(), 0)
        obs, info = self._observe(terminal=self.state.is_terminal())
        if self.illegal is not None:
            self.illegal.reset()
            self._last = (obs, info)
            self.illegal.info(info, False)
        if self.render_mode == "human":
            self.render()
        return obs, info

    def step(self, action: Any):
        state = self.state
        if state is None:
            raise RuntimeError("BBoMGymEnv.step() before reset(): call reset() first")
        if state.over or self._capped or (self.max_steps is not None and self._steps >= self.max_steps):
            raise RuntimeError("BBoMGymEnv.step() after the episode ended: call reset()")
        if type(action) is not int:
            action = as_action(action)
        if self.illegal is not None and not IllegalMoves.is_legal(self._mask, action, "BBoMGymEnv"):
            return self._illegal_step()
        seat = state.current_player()
        last = before_move(state, action) if self.render_mode in TEXT_MODES else None
        state.apply_action(action)  # IllegalActionError / MoveTypeError (state unchanged) when bad
        self._last_move = last
        self._steps += 1
        reward = self._tracker.step(state)
        terminated = state.over
        truncated = not terminated and self.max_steps is not None and self._steps >= self.max_steps
        self._seat = seat if terminated else state.current_player()
        obs, info = self._observe(terminal=terminated or truncated)
        if self.illegal is not None:
            self.illegal.decision = 0  # a legal move: the next decision starts afresh
            self._last = (obs, info)
            self.illegal.info(info, False)
        if self.render_mode == "human":
            self.render()
        return obs, reward, terminated, truncated, info

    def _illegal_step(self):
        """Penalty mode: an illegal attempt is a step that changes nothing in the game."""
        assert self.illegal is not None
        self._steps += 1
        capped = self._capped = self.illegal.illegal()
        truncated = capped or (self.max_steps is not None and self._steps >= self.max_steps)
        obs, last_info = self._last
        if truncated:
            # The episode ends here (no action is taken after it): all-ones mask, as at any end.
            self._mask = np.ones(self.layout.n, dtype=np.int8)
        # New objects each step (Gymnasium's checker: returned data must not be shared between steps).
        info = self.illegal.info({**last_info, "step": self._steps, "action_mask": self._mask.copy()}, True)
        if truncated:
            info["illegal_cap"] = capped
        if isinstance(obs, dict):
            obs = {"observation": obs["observation"].copy(), "action_mask": self._mask.copy()}
        else:
            obs = obs.copy()  # a fresh array each step (check_env: returned data must not be reused)
        if self.render_mode == "human":
            self.render()
        return obs, self.illegal.penalty, False, truncated, info

    @property
    def game(self) -> GameState | None:
        """The engine state (same name as on the AEC env, where ``state()`` is the global vector)."""
        return self.state

    def action_masks(self) -> np.ndarray:
        """int8 0/1 mask of the legal actions now (sb3-contrib MaskablePPO convention)."""
        return self._mask

    def render(self) -> str | np.ndarray | None:
        if self.state is None:
            raise RuntimeError("BBoMGymEnv.render() before reset()")
        if self.render_mode is not None:
            return render_state(self.state, self.render_mode, self._last_move)
        gym.logger.warn(
            "render() called without a render_mode; pass render_mode='ansi', 'human' or 'rgb_array'"
        )
        return None

    # -- internals -----------------------------------------------------------------------------

    def _observe(self, terminal: bool) -> tuple[Any, dict[str, Any]]:
        state = self.state
        assert state is not None
        if terminal:
            # Design decision 5: never an all-zero mask to a learner.
            self._mask = np.ones(self.layout.n, dtype=np.int8)
        else:
            self._mask = self.layout.mask(state)
        vec = self.encoder.encode(state, self._seat)
        info: dict[str, Any] = {
            "action_mask": self._mask,
            "player": self._seat,
            "decision": pending(state).kind,
            "step": self._steps,
        }
        if state.over:
            info["outcome"] = state.outcome
            info["reason"] = state.reason
            info["is_success"] = state.outcome == "win"
            info["stats"] = dict(state.stats)
        if self.dict_obs:
            return {"observation": vec, "action_mask": self._mask}, info
        return vec, info


def registered_env(**kwargs: Any) -> BBoMGymEnv:
    """The entry point of ``gymnasium.make(bbom_env.GYM_ID, ...)``: a ``BBoMGymEnv`` whose own step
    limit is off, because ``gymnasium.make`` wraps it in ``TimeLimit`` (registered
    ``max_episode_steps``, or the ``max_episode_steps=`` given to ``make``), the one truncation
    mechanism on that path and the one ``env.spec.max_episode_steps`` shows. ``max_steps`` is
    refused here (a second limit would disagree with the spec)."""
    _refuse_max_steps("gymnasium.make", kwargs)
    return BBoMGymEnv(max_steps=None, **kwargs)


registered_env.metadata = BBoMGymEnv.metadata  # type: ignore[attr-defined]  # gymnasium.make reads the modes


def _refuse_max_steps(call: str, kwargs: dict[str, Any]) -> None:
    if "max_steps" in kwargs:
        raise TypeError(
            f"{call}(..., max_steps={kwargs['max_steps']!r}): the registered env takes the episode limit as "
            "max_episode_steps=N (Gymnasium's name; env.spec.max_episode_steps shows it; -1: no limit); "
            "max_steps is the option of BBoMGymEnv(...) / BBoMVectorEnv(...) built directly"
        )


def registered_vector_env(num_envs: int, max_episode_steps: int | None = None, **kwargs: Any) -> Any:
    """The vector entry point of the registered id (``gymnasium.make_vec(..., vectorization_mode=
    "vector_entry_point")``): a ``BBoMVectorEnv`` whose own limit is ``max_episode_steps`` (Gymnasium
    passes the registered one; there is no TimeLimit on this path, so the env counts the steps)."""
    from .vector_env import BBoMVectorEnv  # only when asked: the vector env is a separate module

    _refuse_max_steps("gymnasium.make_vec", kwargs)
    limit = None if max_episode_steps is None or max_episode_steps == -1 else max_episode_steps
    return BBoMVectorEnv(num_envs, max_steps=limit, **kwargs)
