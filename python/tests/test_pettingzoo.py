"""Every game and variant as a PettingZoo AEC environment."""

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

import igroteka  # noqa: E402
from igroteka.pettingzoo import env, raw_env  # noqa: E402

from conftest import VARIANTS  # noqa: E402


@pytest.mark.parametrize("game,variant", VARIANTS)
def test_api_test_passes(game, variant):
    api_test(env(game=game, variant=variant, render_mode="ansi"), num_cycles=300)


def test_observations_masks_and_render():
    environment = env(game="focus", render_mode="ansi")
    environment.reset(seed=0)
    observation, reward, termination, truncation, info = environment.last()
    spec = igroteka.spec("focus")
    assert observation["observation"].shape == spec.observation_shape
    assert observation["action_mask"].dtype == np.int8
    assert observation["action_mask"].sum() == 68
    assert environment.agent_selection == "player_0"
    assert "reserve" in environment.render()
    other = environment.observe("player_1")
    assert other["action_mask"].sum() == 0


def test_cap_is_a_truncation_and_rules_end_a_termination():
    environment = env(game="otrazhenie", max_plies=4)
    environment.reset()
    for agent in environment.agent_iter():
        observation, reward, termination, truncation, info = environment.last()
        if termination or truncation:
            assert truncation and not termination
            assert info["outcome"]["at_cap"]
            environment.step(None)
            continue
        environment.step(int(np.flatnonzero(observation["action_mask"])[0]))
    # White takes both Black checkers: the game ends by the rules.
    environment = raw_env(game="otrazhenie", position="7B/8/8/8/8/8/8/W6B w")
    environment.reset()
    state = environment.native
    capture = next(m for m in state.legal_moves() if "x" in m)
    environment.step(state.move_to_actions(capture)[0])
    assert environment.rewards["player_0"] in (0.0, 1.0)


def test_illegal_actions_lose():
    environment = env(game="city")
    environment.reset()
    mask = environment.observe("player_0")["action_mask"]
    environment.step(int(np.flatnonzero(mask == 0)[0]))
    assert environment.terminations["player_0"]
    assert environment.rewards["player_0"] == -1


def test_state_is_the_global_state():
    environment = env(game="hexdraughts")
    environment.reset(seed=0)
    state = environment.state()
    assert state.shape == igroteka.spec("hexdraughts").observation_shape
    assert environment.unwrapped.state_space.contains(state)
    environment.step(int(np.flatnonzero(environment.last()[0]["action_mask"])[0]))
    assert (environment.state() != state).any()
