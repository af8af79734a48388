"""The native vector env: N games in one process, observations and masks encoded as one batch.

``gymnasium.make_vec("BigBookOfMadness-v2", num_envs=N, vectorization_mode="vector_entry_point")``
builds ``BBoMVectorEnv``; ``bbom_env.rl.sb3_vec.BBoMSB3VecEnv`` is the same core behind SB3's
``VecEnv`` interface (for sb3-contrib's MaskablePPO). docs/scaling.md measures it against
Gymnasium's ``SyncVectorEnv`` and SB3's ``DummyVecEnv``.

Why a native one: ``SyncVectorEnv`` and ``DummyVecEnv`` step N full env objects and then copy and
re-batch what each returned (SB3 deep-copies every info dict each step); here every game writes its
observation straight into row i of one preallocated ``obs[N, D]`` (the encoder's ``out=``) and its
legal moves into row i of ``mask[N, A]``, and infos are arrays from the start.

The games are exactly those of N single ``BBoMGymEnv`` (tests/rl/test_vector_env.py checks it move
by move): game i of ``reset(seed=s)`` is ``GameConfig(seed=s + i)``, and each game has its own seed
generator (Gymnasium's ``np_random(seed)``, as a single env has) that draws the seeds of its later
games.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from bbom_env.engine import GameState, new_game
from bbom_env.engine.play.decision import pending

from .gym_env import DEFAULT_MAX_STEPS, draw_seed, make_encoder, split_config
from .layout import ActionLayout
from .rewards import RewardConfig, RewardTracker

__all__ = ["BBoMVectorEnv"]

_MODES = {m.value: m for m in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP)}


class BBoMVectorEnv(gym.vector.VectorEnv):
    """``num_envs`` games of The Big Book of Madness stepped in one process (shared team policy).

    Each game behaves as ``BBoMGymEnv`` (docs/environments.md): the step is taken by that game's
    current decider, the observation is from the decider's seat, the team reward is shared.

    Batches: ``obs`` float32 ``(N, D)`` (with ``dict_obs``: ``{"observation": (N, D), "action_mask":
    (N, A)}``), ``rewards`` float64 ``(N,)``, ``terminations`` / ``truncations`` bool ``(N,)``.
    ``infos`` (Gymnasium's vector convention, each key with its ``_key`` bool mask): ``action_mask``
    int8 ``(N, A)``, ``player`` (the deciding seat of each game; on a final step the seat that
    acted), ``step`` (decisions in the episode), ``decision`` (the pending decision kind); for games
    that ended on this step also ``outcome``, ``reason``, ``is_success`` and ``stats``.

    ``action_masks()`` returns the current ``(N, A)`` mask (1 = legal; all ones for a game that has
    ended, as a single env gives). Actions: an integer array of shape ``(N,)``; every action is
    checked against the mask before any game moves, and an illegal one raises
    ``bbom_env.engine.IllegalActionError`` naming the game index, with no game changed.

    Autoreset: ``"NextStep"`` (Gymnasium's default, ``metadata["autoreset_mode"]``): the step after
    a game ended resets it (its action is ignored, reward 0, not done). ``"SameStep"`` (what SB3
    expects; used by ``BBoMSB3VecEnv``): a game that ends is reset within the same step, its final
    observation and info are in ``infos["final_obs"]`` / ``infos["final_info"]``.

    Args:
        num_envs: number of games N (>= 1).
        autoreset_mode: ``"NextStep"`` (default) or ``"SameStep"`` (or the ``AutoresetMode``).
        copy: return copies of the observation batch (default True). With False the same buffers
            are returned every step and overwritten by the next one.
        render_mode, reward, dict_obs, observe_other_hands, max_steps, GameConfig fields: as
            ``BBoMGymEnv``; ``seed`` is the first seed, game i starting at ``seed + i``.
    """

    metadata = {"render_modes": ["ansi"], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        num_envs: int,
        render_mode: str | None = None,
        reward: RewardConfig | dict[str, Any] | str | None = None,
        dict_obs: bool = False,
        observe_other_hands: bool = False,
        max_steps: int | None = DEFAULT_MAX_STEPS,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        copy: bool = True,
        **config: Any,
    ) -> None:
        if type(num_envs) is not int or num_envs < 1:
            raise ValueError(f"num_envs={num_envs!r} must be a positive int")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode={render_mode!r}; allowed: None, 'ansi'")
        if max_steps is not None and (type(max_steps) is not int or max_steps < 1):
            raise ValueError(f"max_steps={max_steps!r} must be a positive int or None")
        mode = autoreset_mode.value if isinstance(autoreset_mode, AutoresetMode) else autoreset_mode
        if mode not in _MODES:
            raise ValueError(f"autoreset_mode={autoreset_mode!r}; allowed: {sorted(_MODES)}")
        self.autoreset_mode = _MODES[mode]
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
        self.config, first_seed = split_config(config)
        self.num_envs = num_envs
        self.render_mode = render_mode
        self.reward_config = RewardConfig.coerce(reward)
        self.dict_obs = bool(dict_obs)
        self.max_steps = max_steps
        self.copy = bool(copy)
        self.layout = ActionLayout(self.config)
        self.encoder = make_encoder(self.config, observe_other_hands)
        n, d = self.layout.n, self.encoder.size
        obs_box = spaces.Box(0.0, 1.0, shape=(d,), dtype=np.float32)
        if self.dict_obs:
            mask_box = spaces.Box(0, 1, shape=(n,), dtype=np.int8)
            self.single_observation_space = spaces.Dict({"observation": obs_box, "action_mask": mask_box})
        else:
            self.single_observation_space = obs_box
        self.single_action_space = spaces.Discrete(n)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

        # Preallocated batches: every step writes into these rows (no per-game arrays).
        self._obs = np.zeros((num_envs, d), dtype=np.float32)
        self._mask = np.ones((num_envs, n), dtype=np.int8)
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._terminations = np.zeros(num_envs, dtype=np.bool_)
        self._truncations = np.zeros(num_envs, dtype=np.bool_)
        self._autoreset = np.zeros(num_envs, dtype=np.bool_)
        self._players = np.zeros(num_envs, dtype=np.int64)
        self._steps = np.zeros(num_envs, dtype=np.int64)
        self._states: list[GameState | None] = [None] * num_envs
        self._trackers = [RewardTracker(self.reward_config) for _ in range(num_envs)]
        self._rngs: list[np.random.Generator | None] = [None] * num_envs
        self._first_seeds: list[int | None] = [
            None if first_seed is None else first_seed + i for i in range(num_envs)
        ]

    # -- Gymnasium VectorEnv API -------------------------------------------------------------------

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset every game (or those of ``options["reset_mask"]``, a bool array of shape (N,)).

        ``seed``: None (each game draws from its own generator), an int s (game i gets s + i) or a
        list of N ints or Nones."""
        n = self.num_envs
        if seed is None:
            seeds: list[int | None] = [None] * n
        elif isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            seeds = [int(seed) + i for i in range(n)]
        elif isinstance(seed, (list, tuple)) and len(seed) == n:
            seeds = list(seed)
        else:
            raise ValueError(f"seed={seed!r} must be None, an int or a list of {n} ints/Nones (num_envs)")
        which = np.ones(n, dtype=np.bool_)
        if options and "reset_mask" in options:
            which = np.asarray(options["reset_mask"])
            if which.dtype != np.bool_ or which.shape != (n,):
                raise ValueError(f"options['reset_mask'] must be a bool array of shape ({n},)")
        if seed is not None:
            self._np_random, self._np_random_seed = seeding.np_random(seeds[0])
        for i in np.flatnonzero(which):
            self._reset_game(int(i), seeds[i])
            self._terminations[i] = self._truncations[i] = self._autoreset[i] = False
            self._rewards[i] = 0.0
            self._write(int(i), terminal=self._states[i].is_terminal())  # type: ignore[union-attr]
        return self._out_obs(), self._infos(np.flatnonzero(which) if not which.all() else None)

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        states = self._states
        if states[0] is None:
            raise RuntimeError("BBoMVectorEnv.step() before reset(): call reset() first")
        acts = self._check_actions(actions)
        same_step = self.autoreset_mode is AutoresetMode.SAME_STEP
        ended: list[int] = []
        final_obs: dict[int, Any] = {}
        final_info: dict[int, dict[str, Any]] = {}
        max_steps = self.max_steps
        for i in range(self.num_envs):
            if self._autoreset[i]:  # NextStep: this step resets the game that ended last step
                self._reset_game(i, None)
                self._rewards[i] = 0.0
                self._terminations[i] = self._truncations[i] = self._autoreset[i] = False
                self._write(i, terminal=False)
                continue
            state = states[i]
            assert state is not None
            seat = state.current_player()
            state.apply_action(int(acts[i]))  # legality checked above against the mask
            self._steps[i] += 1
            self._rewards[i] = self._trackers[i].step(state)
            terminated = state.over
            truncated = not terminated and max_steps is not None and self._steps[i] >= max_steps
            self._terminations[i] = terminated
            self._truncations[i] = truncated
            self._players[i] = seat if terminated else state.current_player()
            self._write(i, terminal=terminated or truncated)
            if terminated or truncated:
                ended.append(i)
                if same_step:
                    final_obs[i] = self._row_obs(i)
                    final_info[i] = self._final_info(i)
                    self._reset_game(i, None)
                    self._write(i, terminal=False)
                else:
                    self._autoreset[i] = True
        infos = self._infos(None, ended=() if same_step else ended)
        if same_step and ended:
            fo = np.full(self.num_envs, None, dtype=object)
            fi = np.full(self.num_envs, None, dtype=object)
            for i in ended:
                fo[i], fi[i] = final_obs[i], final_info[i]
            present = np.zeros(self.num_envs, dtype=np.bool_)
            present[ended] = True
            infos.update(final_obs=fo, _final_obs=present, final_info=fi, _final_info=present.copy())
        return (
            self._out_obs(),
            self._rewards.copy(),
            self._terminations.copy(),
            self._truncations.copy(),
            infos,
        )

    def action_masks(self) -> np.ndarray:
        """int8 (N, A) mask of the legal actions of every game now (a view of the live buffer)."""
        return self._mask

    @property
    def games(self) -> list[GameState | None]:
        """The N engine states (do not change them between steps)."""
        return self._states

    def render(self) -> tuple[str, ...] | None:
        if self.render_mode != "ansi":
            gym.logger.warn("render() called without render_mode='ansi'")
            return None
        return tuple(str(s) for s in self._states)

    # -- internals ---------------------------------------------------------------------------------

    def _check_actions(self, actions: Any) -> np.ndarray:
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or not np.issubdtype(acts.dtype, np.integer):
            raise TypeError(
                f"actions must be an integer array of shape ({self.num_envs},), "
                f"got dtype {acts.dtype} shape {acts.shape}"
            )
        live = ~self._autoreset
        n = self.layout.n
        bad_range = live & ((acts < 0) | (acts >= n))
        if bad_range.any():
            i = int(np.flatnonzero(bad_range)[0])
            raise _illegal(i, int(acts[i]), self._states[i])
        safe = np.where(live, acts, 0)
        illegal = live & (self._mask[np.arange(self.num_envs), safe] == 0)
        if illegal.any():
            i = int(np.flatnonzero(illegal)[0])
            raise _illegal(i, int(acts[i]), self._states[i])
        return acts

    def _reset_game(self, i: int, seed: int | None) -> None:
        if seed is None and self._rngs[i] is None and self._first_seeds[i] is not None:
            seed = self._first_seeds[i]  # the constructor's seed plays like reset(seed=seed)
        if seed is not None:
            self._rngs[i], _ = seeding.np_random(int(seed))
        elif self._rngs[i] is None:
            self._rngs[i], _ = seeding.np_random(None)
        game_seed = seed if seed is not None else draw_seed(self._rngs[i])  # type: ignore[arg-type]
        state = new_game(self.config.replace(seed=int(game_seed)))
        self._states[i] = state
        self._trackers[i].reset(state)
        self._steps[i] = 0
        self._players[i] = max(state.current_player(), 0)

    def _write(self, i: int, terminal: bool) -> None:
        """Encode game i's observation into obs[i] and its legal moves into mask[i]."""
        state = self._states[i]
        assert state is not None
        row = self._mask[i]
        if terminal:
            row.fill(1)  # never an all-zero mask to a learner (as BBoMGymEnv)
        else:
            row.fill(0)
            row[state.legal_actions()] = 1
        self.encoder.encode(state, int(self._players[i]), out=self._obs[i])

    def _row_obs(self, i: int) -> Any:
        if self.dict_obs:
            return {"observation": self._obs[i].copy(), "action_mask": self._mask[i].copy()}
        return self._obs[i].copy()

    def _out_obs(self) -> Any:
        obs, mask = (self._obs.copy(), self._mask.copy()) if self.copy else (self._obs, self._mask)
        if self.dict_obs:
            return {"observation": obs, "action_mask": mask}
        return obs

    def _final_info(self, i: int) -> dict[str, Any]:
        state = self._states[i]
        assert state is not None
        info: dict[str, Any] = {
            "action_mask": self._mask[i].copy(),
            "player": int(self._players[i]),
            "decision": pending(state).kind,
            "step": int(self._steps[i]),
        }
        if state.over:
            info.update(
                outcome=state.outcome,
                reason=state.reason,
                is_success=state.outcome == "win",
                stats=dict(state.stats),
            )
        return info

    def _infos(self, rows: np.ndarray | None, ended: Any = ()) -> dict[str, Any]:
        """Gymnasium vector infos; ``rows`` None: every game, else only those (a partial reset)."""
        n = self.num_envs
        present = np.ones(n, dtype=np.bool_)
        if rows is not None:
            present = np.zeros(n, dtype=np.bool_)
            present[rows] = True
        decision = np.full(n, None, dtype=object)
        for i in range(n) if rows is None else rows:
            decision[i] = pending(self._states[i]).kind  # type: ignore[arg-type]
        infos: dict[str, Any] = {
            "action_mask": self._mask.copy() if self.copy else self._mask,
            "_action_mask": present,
            "player": self._players.copy(),
            "_player": present.copy(),
            "step": self._steps.copy(),
            "_step": present.copy(),
            "decision": decision,
            "_decision": present.copy(),
        }
        if len(ended):
            done = np.zeros(n, dtype=np.bool_)
            done[list(ended)] = True
            outcome = np.full(n, None, dtype=object)
            reason = np.full(n, None, dtype=object)
            stats = np.full(n, None, dtype=object)
            success = np.zeros(n, dtype=np.bool_)
            for i in ended:
                state = self._states[i]
                assert state is not None
                if state.over:
                    outcome[i], reason[i], stats[i] = state.outcome, state.reason, dict(state.stats)
                    success[i] = state.outcome == "win"
            over = np.array([s is not None for s in outcome]) & done
            if over.any():
                infos.update(
                    outcome=outcome,
                    _outcome=over,
                    reason=reason,
                    _reason=over.copy(),
                    is_success=success,
                    _is_success=over.copy(),
                    stats=stats,
                    _stats=over.copy(),
                )
        return infos


def _illegal(i: int, action: int, state: GameState | None) -> Exception:
    from bbom_env.engine import IllegalActionError

    legal = state.legal_actions() if state is not None else []
    kind = pending(state).kind if state is not None else "none"
    return IllegalActionError(
        f"game {i} of the vector env: action {action} is not legal for the pending decision "
        f"{kind!r}; legal actions: {legal}. No game was changed."
    )
