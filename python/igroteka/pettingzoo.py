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

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import State, spec
from . import game as game_info

__all__ = ["env", "raw_env"]


def env(game: str = "otrazhenie", variant: str | None = None, render_mode: str | None = None,
        max_plies: int | None = None, position: str | None = None):
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

    metadata = {"render_modes": ["ansi", "human"], "name": "igroteka_v0",
                "is_parallelizable": False, "render_fps": 2}

    def __init__(self, game: str = "otrazhenie", variant: str | None = None,
                 render_mode: str | None = None, max_plies: int | None = None,
                 position: str | None = None):
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

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def state(self):
        """The global state: the planes from the first player's side (they
        show whose turn it is)."""
        return self.native.observation(0)

    def observe(self, agent):
        player = self.possible_agents.index(agent)
        observation = self.native.observation(player)
        if self.native.current_player == player:
            mask = self.native.legal_action_mask()
        else:
            mask = np.zeros(self.spec.num_actions, np.int8)
        return {"observation": observation, "action_mask": mask}

    def reset(self, seed=None, options=None):
        self.native = State(self.game, variant=self.variant, position=self.position,
                           max_plies=self.max_plies)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[self.native.current_player]
        if self.render_mode == "human":
            self.render()

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.native.apply_action(int(action))
        if self.native.is_terminal():
            outcome = self.native.outcome
            returns = self.native.returns()
            ended = {agent: True for agent in self.agents}
            if outcome["at_cap"]:
                self.truncations = ended
            else:
                self.terminations = ended
            for player, name in enumerate(self.possible_agents):
                self.rewards[name] = float(returns[player])
                self.infos[name] = {"outcome": outcome}
        else:
            self.agent_selection = self.possible_agents[self.native.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            return None
        text = self.native.board_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass
