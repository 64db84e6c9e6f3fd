"""Every game and variant as an OpenSpiel game."""

import copy
import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import igroteka  # noqa: E402
import igroteka.openspiel as igroteka_openspiel  # noqa: E402
from open_spiel.python.algorithms import mcts  # noqa: E402

from conftest import GAMES, VARIANTS  # noqa: E402

igroteka_openspiel.register()


def load(game, **params):
    return pyspiel.load_game(igroteka_openspiel.game_name(game), params)


def test_every_game_is_registered():
    names = set(pyspiel.registered_names())
    assert {f"igroteka_{game}" for game in GAMES} <= names
    igroteka_openspiel.register()  # a second call does nothing


@pytest.mark.parametrize("game,variant", VARIANTS)
def test_random_sim_test_passes(game, variant):
    spiel_game = load(game, variant=variant)
    spec = igroteka.spec(game, variant)
    assert spiel_game.num_distinct_actions() == spec.num_actions
    assert spiel_game.observation_tensor_shape() == list(spec.observation_shape)
    pyspiel.random_sim_test(spiel_game, num_sims=2, serialize=True, verbose=False)


def test_parameters_in_the_game_string():
    game = pyspiel.load_game("igroteka_hexdraughts(variant=blocked-draw,max_plies=30)")
    state = game.new_initial_state()
    assert state.native.variant == "blocked-draw" and state.native.max_plies == 30
    assert game.max_game_length() == 30 * igroteka.spec("hexdraughts").actions_per_ply
    # Variant names that are numbers need the dict form (pyspiel reads "8" as an int).
    city = pyspiel.load_game("igroteka_city", {"variant": "8"})
    assert city.new_initial_state().native.variant == "8"
    start = pyspiel.load_game("igroteka_otrazhenie", {"position": "7B/8/8/3B4/8/8/8/W7 w"})
    assert str(start.new_initial_state()) == "7B/8/8/3B4/8/8/8/W7 w"


def test_state_api_matches_the_native_state():
    game = load("focus")
    state = game.new_initial_state()
    native = igroteka.State("focus")
    assert state.legal_actions() == native.legal_actions()
    assert state.legal_actions_mask() == list(native.legal_action_mask())
    np.testing.assert_array_equal(
        np.asarray(state.observation_tensor(0)), native.observation(0).reshape(-1))
    action = state.legal_actions()[5]
    assert state.action_to_string(0, action) == native.action_to_string(action)
    clone = state.clone()
    clone.apply_action(action)
    assert clone.current_player() == 1 and state.current_player() == 0
    assert clone.history() == [action]


@pytest.mark.parametrize("game", GAMES)
def test_mcts_bot_plays_a_game_to_the_end(game):
    spiel_game = load(game, max_plies=40)
    bots = [
        mcts.MCTSBot(spiel_game, 2.0, 20, igroteka_openspiel.RolloutEvaluator(n_rollouts=2, seed=1),
                     random_state=np.random.RandomState(1)),
        mcts.MCTSBot(spiel_game, 2.0, 20, igroteka_openspiel.RolloutEvaluator(n_rollouts=2, seed=2),
                     random_state=np.random.RandomState(2)),
    ]
    state = spiel_game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    assert sum(state.returns()) == 0
    assert state.native.outcome is not None


def test_mcts_with_openspiels_own_rollouts():
    spiel_game = load("otrazhenie", max_plies=20)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = mcts.MCTSBot(spiel_game, 2.0, 10, evaluator, random_state=np.random.RandomState(0))
    state = spiel_game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    assert state.returns() in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize("game", GAMES)
def test_games_and_states_pickle(game):
    spiel_game = load(game, max_plies=50)
    again = pickle.loads(pickle.dumps(spiel_game))
    assert again == spiel_game and str(again) == str(spiel_game)
    state = spiel_game.new_initial_state()
    for _ in range(5):
        state.apply_action(state.legal_actions()[-1])
    copied = pickle.loads(pickle.dumps(state))
    assert copied.history() == state.history()
    assert copied.native.position == state.native.position


@pytest.mark.parametrize("game", ["hexdraughts", "focus", "city"])
def test_a_game_from_a_position_loads_from_its_game_string(game):
    native = igroteka.State(game)
    for _ in range(3):
        native.apply_action(native.random_action(seed=1))
    spiel_game = load(game, position=native.position, variant=native.variant)
    again = pyspiel.load_game(str(spiel_game))
    assert again.new_initial_state().native.position == native.position
    assert again.new_initial_state().native.variant == native.variant
    state = spiel_game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    assert pickle.loads(pickle.dumps(state)).native.position == state.native.position
    pyspiel.random_sim_test(spiel_game, num_sims=1, serialize=True, verbose=False)


def test_deepcopy_keeps_the_history():
    state = load("city").new_initial_state()
    state.apply_action(state.legal_actions()[0])
    copied = copy.deepcopy(state)
    assert copied.history() == state.history() and copied.native is not state.native
    copied.apply_action(copied.legal_actions()[0])
    assert len(state.history()) == 1 and len(copied.history()) == 2
