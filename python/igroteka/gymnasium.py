"""Every Igroteka game as a single-agent Gymnasium environment: the agent
plays one side, an opponent the other.

::

    from igroteka.gymnasium import env
    e = env(game="city", opponent="random")          # or "alphabeta", "mcts", a function
    observation, info = e.reset(seed=0)
    while True:
        action = e.action_space.sample(observation["action_mask"])
        observation, reward, terminated, truncated, info = e.step(action)
        if terminated or truncated:
            break

Observations and actions are those of the package (see the README): a dict
of ``observation`` (float32 planes from the agent's side) and
``action_mask`` (int8). The reward is +1/-1/0 at the end from the agent's
side; an end at the ply cap is a truncation (with the adjudicated result as
the reward); an illegal action ends the episode with reward -1 and
``info["illegal_action"]``. ``register()`` adds the ids
``igroteka/<Game>-v0`` (``gymnasium.make("igroteka/Focus-v0")``).
"""

from __future__ import annotations

from typing import Any, Callable, Union

import gymnasium
import numpy as np
from gymnasium import spaces

from . import Engine, State, games, spec

__all__ = ["GameEnv", "env", "register"]

Opponent = Union[str, Callable[[State], int]]
# "observation" (float32) and "action_mask" (int8) arrays.
Observation = dict[str, Any]


def env(game: str = "otrazhenie", **kwargs: Any) -> GameEnv:
    """A ``GameEnv`` of ``game``; the keyword arguments are ``GameEnv``'s."""
    return GameEnv(game=game, **kwargs)


class GameEnv(gymnasium.Env[Observation, np.int64]):
    """One side of a game against ``opponent``: ``"random"`` (uniform over
    the legal actions, seeded by ``reset``), ``"alphabeta"`` or ``"mcts"``
    (the engines, with ``opponent_limits``, default ``{"nodes": 1000}``,
    seeded by ``reset`` too),
    or a function from the state to an action. ``play_as`` is the agent's
    player (0 moves first)."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 2}

    def __init__(self, game: str = "otrazhenie", variant: str | None = None,
                 opponent: Opponent = "random", play_as: int = 0,
                 max_plies: int | None = None, position: str | None = None,
                 render_mode: str | None = None, opponent_limits: dict[str, Any] | None = None):
        self.spec_ = spec(game, variant)
        self.game, self.variant = self.spec_.game, self.spec_.variant
        self.max_plies, self.position = max_plies, position
        if play_as not in (0, 1):
            raise ValueError("play_as is 0 or 1")
        self.play_as = play_as
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.opponent = opponent
        self.opponent_limits = opponent_limits or {"nodes": 1000}
        self._engine = Engine(opponent) if opponent in ("alphabeta", "mcts") and isinstance(opponent, str) else None
        if isinstance(opponent, str) and opponent != "random" and self._engine is None:
            raise ValueError(f"unknown opponent {opponent!r}: 'random', 'alphabeta', 'mcts' or a function")
        high = np.ones(self.spec_.observation_shape, np.float32)
        for plane, name in enumerate(self.spec_.planes):
            if "reserve" in name or "captured" in name:
                high[plane] = 255.0  # a count (Focus: reserve, captured)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(low=0.0, high=high, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.spec_.num_actions,), dtype=np.int8),
        })
        self.action_space = spaces.Discrete(self.spec_.num_actions)
        self.state: State | None = None

    def _game(self) -> State:
        if self.state is None:
            raise RuntimeError("reset() the environment first")
        return self.state

    def _observation(self) -> Observation:
        state = self._game()
        return {"observation": state.observation(self.play_as),
                "action_mask": state.legal_action_mask()}

    def _opponent_moves(self) -> None:
        state = self._game()
        while not state.is_terminal() and state.current_player != self.play_as:
            if self._engine is not None:
                for action in self._engine.best_move(state, **self.opponent_limits).actions:
                    state.apply_action(action)
            elif callable(self.opponent):
                state.apply_action(int(self.opponent(state)))
            else:
                state.apply_action(int(self.np_random.choice(state.legal_actions())))

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        self.state = State(self.game, variant=self.variant, position=self.position,
                           max_plies=self.max_plies)
        if self._engine is not None and isinstance(self.opponent, str):
            # A new game, seeded as the rest of the episode.
            self._engine = Engine(self.opponent, seed=int(self.np_random.integers(2**63)))
        self._opponent_moves()
        return self._observation(), {}

    def step(self, action: int | np.integer[Any]
             ) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        state = self._game()
        action = int(action)
        if action not in state.legal_actions():
            return self._observation(), -1.0, True, False, {"illegal_action": action}
        state.apply_action(action)
        self._opponent_moves()
        outcome = state.outcome
        reward = float(state.returns()[self.play_as]) if outcome else 0.0
        terminated = outcome is not None and not outcome["at_cap"]
        truncated = outcome is not None and outcome["at_cap"]
        info: dict[str, Any] = {"outcome": outcome} if outcome else {}
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, info

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        if self.render_mode == "human":
            print(self.state.board_text())
            return None
        return self.state.board_text()


def register() -> None:
    """Registers ``igroteka/<Game>-v0`` for every game with Gymnasium."""
    for info in games():
        env_id = f"igroteka/{info.name.capitalize()}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="igroteka.gymnasium:GameEnv",
                               kwargs={"game": info.name})
