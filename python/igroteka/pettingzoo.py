"""Every Igroteka game as a PettingZoo AEC environment.

::

    from igroteka.pettingzoo import env
    e = env(game="focus", render_mode="ansi")
    e.reset(seed=0)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else e.action_space(agent).sample(mask)
        e.step(action)

Agents are ``player_0`` (the side that moves first) and ``player_1``. Each
observation is a dict: ``observation`` (float32, the game's planes from the
agent's side, see the README) and ``action_mask`` (int8, 1 for each legal
action of the agent to act, zeros for the other). Rewards are +1/-1/0 at
the end. A game that ends by the rules is a termination; one stopped at
the ply cap (``max_plies``, default the game's) is a truncation, with the
game's adjudicated result as the rewards (a draw for most games; Adiyukh
scores the position). ``env.unwrapped.native`` is the game (an
``igroteka.State``); ``state()`` is the first player's observation. A multi-jump with several routes between the same
two cells takes more than one action: the same agent acts again.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import State, spec
from . import game as game_info

__all__ = ["env", "raw_env"]


def env(game: str = "otrazhenie", variant: str | None = None, render_mode: str | None = None,
        max_plies: int | None = None, position: str | None = None) -> Any:
    """The environment with PettingZoo's usual wrappers for board games (an
    illegal action ends the game with reward -1; actions are checked to be
    in range; the AEC order is enforced)."""
    environment = raw_env(game=game, variant=variant, render_mode=render_mode,
                          max_plies=max_plies, position=position)
    environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    return wrappers.OrderEnforcingWrapper(environment)


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's name for the unwrapped class)
    """The unwrapped environment."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "name": "igroteka_v0",
                "is_parallelizable": False, "render_fps": 2}

    def __init__(self, game: str = "otrazhenie", variant: str | None = None,
                 render_mode: str | None = None, max_plies: int | None = None,
                 position: str | None = None) -> None:
        super().__init__()
        info = game_info(game)
        self.game = info.name
        self.spec = spec(info.name, variant)
        self.variant = self.spec.variant
        self.max_plies = info.default_max_plies if max_plies is None else max_plies
        self.position = position
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"igroteka_{self.game}_v0")
        self.possible_agents = ["player_0", "player_1"]
        high = np.ones(self.spec.observation_shape, np.float32)
        for plane, name in enumerate(self.spec.planes):
            if "reserve" in name or "captured" in name:
                high[plane] = 255.0  # a count (Focus: reserve, captured)
        observation = spaces.Dict({
            "observation": spaces.Box(low=0.0, high=high, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.spec.num_actions,), dtype=np.int8),
        })
        self.observation_spaces = {agent: observation for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.spec.num_actions)
                              for agent in self.possible_agents}
        self.state_space = observation["observation"]
        # The game (``igroteka.State``); ``state()`` is PettingZoo's global state.
        self.native: State | None = None

    def _game(self) -> State:
        if self.native is None:
            raise RuntimeError("reset() the environment first")
        return self.native

    def _agent(self, player: int | None) -> str:
        if player is None:
            raise RuntimeError("the game is over: no agent acts")
        return self.possible_agents[player]

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def state(self) -> npt.NDArray[np.float32]:
        """The global state: the planes from the first player's side (they
        show whose turn it is)."""
        return self._game().observation(0)

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        native = self._game()
        player = self.possible_agents.index(agent)
        observation = native.observation(player)
        if native.current_player == player:
            mask = native.legal_action_mask()
        else:
            mask = np.zeros(self.spec.num_actions, np.int8)
        return {"observation": observation, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.native = native = State(self.game, variant=self.variant, position=self.position,
                                     max_plies=self.max_plies)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self._agent(native.current_player)
        if self.render_mode == "human":
            self.render()

    def step(self, action: int | np.integer[Any] | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        native = self._game()
        self._cumulative_rewards[agent] = 0.0
        native.apply_action(int(action))  # type: ignore[arg-type]  # None only for a dead agent
        outcome = native.outcome if native.is_terminal() else None
        if outcome is not None:
            returns = native.returns()
            ended = {agent: True for agent in self.agents}
            if outcome["at_cap"]:
                self.truncations = ended
            else:
                self.terminations = ended
            for player, name in enumerate(self.possible_agents):
                self.rewards[name] = float(returns[player])
                self.infos[name] = {"outcome": outcome}
        else:
            self.agent_selection = self._agent(native.current_player)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self._game().board_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
