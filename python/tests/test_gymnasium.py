"""Every game as a single-agent Gymnasium environment."""

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import igroteka.gymnasium as igroteka_gymnasium  # noqa: E402

from conftest import GAMES  # noqa: E402


@pytest.mark.parametrize("game", GAMES)
def test_check_env_passes(game):
    check_env(igroteka_gymnasium.env(game=game, max_plies=40), skip_render_check=True)


@pytest.mark.parametrize("opponent", ["random", "alphabeta", "mcts", lambda state: state.legal_actions()[0]])
def test_an_episode_against_each_opponent(opponent):
    environment = igroteka_gymnasium.env(game="otrazhenie", opponent=opponent, play_as=1, max_plies=30,
                                         opponent_limits={"nodes": 200}, render_mode="ansi")
    observation, info = environment.reset(seed=3)
    assert environment.state.current_player == 1 and environment.state.plies == 1
    rng = np.random.default_rng(0)
    while True:
        action = rng.choice(np.flatnonzero(observation["action_mask"]))
        observation, reward, terminated, truncated, info = environment.step(action)
        if terminated or truncated:
            break
        assert reward == 0
    assert reward in (-1.0, 0.0, 1.0) and "outcome" in info
    assert isinstance(environment.render(), str)


def test_registered_ids_and_illegal_actions():
    igroteka_gymnasium.register()
    environment = gymnasium.make("igroteka/Focus-v0")
    observation, _ = environment.reset(seed=0)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, _, info = environment.step(illegal)
    assert reward == -1 and terminated and info["illegal_action"] == illegal


def test_engine_opponents_follow_the_seed():
    def first_replies(seed):
        environment = igroteka_gymnasium.env(game="focus", opponent="mcts", play_as=1,
                                             opponent_limits={"nodes": 60})
        return [tuple(environment.reset(seed=seed + k)[0]["observation"].reshape(-1)) for k in range(4)]

    assert first_replies(10) == first_replies(10)
    assert len(set(first_replies(10))) > 1
