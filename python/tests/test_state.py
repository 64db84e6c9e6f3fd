"""The native state API over every game and variant."""

import copy
import pickle

import numpy as np
import pytest

import igroteka
from igroteka import _native

from conftest import GAMES, REPO, VARIANTS, random_states


def test_every_registered_game_has_bindings():
    registered = [g["name"] for g in _native.games()]
    assert registered == GAMES
    assert all(g["bound"] for g in _native.games()), "a registered game has no src/encode.rs impl"
    assert {"otrazhenie", "adiyukh", "focus", "hexdraughts", "stykovka", "city"} <= set(GAMES)


def test_unknown_names_are_refused_with_the_known_ones():
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        igroteka.State("chess")
    with pytest.raises(ValueError, match="focus has no variant 'huge'"):
        igroteka.State("focus", variant="huge")
    with pytest.raises(ValueError):
        igroteka.State("focus", position="not a position")


@pytest.mark.parametrize("game,variant", VARIANTS)
def test_shapes_are_fixed_per_variant(game, variant):
    spec = igroteka.spec(game, variant)
    assert len(spec.planes) == spec.observation_shape[0]
    assert np.prod(spec.observation_shape) == len(spec.planes) * spec.cell_bound
    for state in random_states(game, variant, games=1, max_plies=30):
        for player in (0, 1):
            observation = state.observation(player)
            assert observation.shape == spec.observation_shape
            assert observation.dtype == np.float32
            assert np.isfinite(observation).all()
        mask = state.legal_action_mask()
        assert mask.shape == (spec.num_actions,) and mask.dtype == np.int8
        assert list(np.flatnonzero(mask)) == state.legal_actions()


@pytest.mark.parametrize("game,variant", VARIANTS)
def test_every_legal_move_has_its_own_actions(game, variant):
    """Over random positions: distinct moves have distinct action sequences,
    every first action is legal, and playing a sequence plays its move."""
    spec = igroteka.spec(game, variant)
    checked = 0
    for state in random_states(game, variant, games=3, seed=1):
        if state.is_terminal() or state.route is not None:
            continue
        actions = state.legal_actions()
        assert actions == sorted(set(actions))
        assert all(0 <= a < spec.num_actions for a in actions)
        texts = [state.action_to_string(a) for a in actions]
        assert len(set(texts)) == len(texts)
        sequences = {}
        for move in state.legal_moves():
            sequence = tuple(state.move_to_actions(move))
            assert sequence, move
            assert sequence[0] in actions
            assert sequence not in sequences, (move, sequences.get(sequence))
            sequences[sequence] = move
        assert {s[0] for s in sequences} == set(actions)
        if checked % 7 == 0:
            for sequence, move in sequences.items():
                replay = state.clone()
                for action in sequence:
                    assert replay.current_player == state.current_player
                    replay.apply_action(action)
                assert replay.moves[-1] == move
        checked += 1
    assert checked > 10


@pytest.mark.parametrize("game", ["hexdraughts", "adiyukh", "otrazhenie"])
def test_routes_are_picked_by_the_same_player(game):
    """Moves that share their ends take more actions; the route shows in the
    state, the observation and the legal actions."""
    routed = 0
    for state in random_states(game, None, games=40, seed=2):
        if state.is_terminal() or state.route is not None:
            continue
        for move in state.legal_moves():
            sequence = state.move_to_actions(move)
            if len(sequence) == 1:
                continue
            routed += 1
            replay = state.clone()
            mover = replay.current_player
            replay.apply_action(sequence[0])
            assert replay.route is not None and replay.plies == state.plies
            assert move in replay.route_moves() and len(replay.route_moves()) > 1
            assert replay.current_player == mover
            assert replay.observation()[-2].sum() >= 1 and replay.observation()[-1].sum() == 1
            assert sequence[1] in replay.legal_actions()
            assert replay.move_to_actions(move) == sequence[1:]
            others = [m for m in replay.legal_moves() if m not in replay.route_moves()]
            if others:
                with pytest.raises(igroteka.IllegalActionError):
                    replay.apply_move(others[0])
            with pytest.raises(ValueError, match="route"):
                igroteka.best_move(replay, depth=1)
            finished = replay.clone()
            assert finished.apply_move(move) == sequence[1:] and finished.moves[-1] == move
            for action in sequence[1:]:
                replay.apply_action(action)
            assert replay.route is None and replay.moves[-1] == move
            while replay.plies > state.plies or replay.route is not None:
                replay.undo()
            assert replay.position == state.position and replay.history == state.history
        if routed >= 5:
            break
    assert routed >= 5, f"{game}: too few positions with routes met"


@pytest.mark.parametrize("game,variant", VARIANTS)
def test_text_round_trips(game, variant):
    for state in random_states(game, variant, games=1, seed=3, max_plies=40):
        again = igroteka.State(game, variant=variant, position=state.position)
        assert again.position == state.position
        if state.outcome is not None and state.outcome["at_cap"]:
            continue
        assert again.legal_moves() == state.legal_moves()
        assert again.zobrist == state.zobrist
        if state.route is None:
            assert again.legal_actions() == state.legal_actions()
    final = state
    for copied in (final.clone(), copy.copy(final), copy.deepcopy(final), pickle.loads(pickle.dumps(final))):
        assert copied.position == final.position and copied.history == final.history
        assert copied.moves == final.moves and copied.outcome == final.outcome
    replay = igroteka.State(game, variant=variant, max_plies=40)
    for move in final.moves:
        assert replay.apply_move(move)
    assert replay.position == final.position and replay.history == final.history
    while replay.undo():
        pass
    assert replay.history == [] and replay.position == igroteka.State(game, variant=variant).position


def perft_data(game):
    """(position text or None, moves, variant, {depth: count}) from the game
    crate's own perft table."""
    for line in (REPO / "crates" / game / "tests" / "data" / "perft.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        position, variant, counts = (part.strip() for part in line.split("|"))
        moves = []
        if position.startswith("startpos"):
            words = position.split()
            moves = words[2:] if len(words) > 1 and words[1] == "moves" else []
            position = None
        counts = dict(tuple(int(x) for x in pair.split(":")) for pair in counts.split())
        yield position, moves, variant, counts


@pytest.mark.parametrize("game", GAMES)
def test_perft_equals_the_rust_figures(game):
    checked = 0
    for position, moves, variant, counts in list(perft_data(game))[:4]:
        state = igroteka.State(game, variant=variant, position=position)
        for move in moves:
            state.apply_move(move)
        for depth, count in counts.items():
            if count <= 200_000:
                assert state.perft(depth) == count, (position, variant, depth)
                checked += 1
        small = [d for d, c in counts.items() if c <= 5_000]
        if small:
            divide = state.perft_divide(max(small))
            assert sum(n for _, n in divide) == counts[max(small)]
    assert checked >= 2


@pytest.mark.parametrize("game", GAMES)
def test_random_playouts_are_seeded_and_end(game):
    state = igroteka.State(game, max_plies=60)
    first = state.random_playouts(20, seed=5)
    assert first == state.random_playouts(20, seed=5)
    assert first["games"] == 20 == sum(first["wins"]) + first["draws"]
    assert 0 < first["plies"] <= 20 * 60
    split = state.random_playouts(20, seed=5, threads=2)
    assert split["games"] == 20


@pytest.mark.parametrize("game", GAMES)
def test_outcome_returns_and_the_cap(game):
    capped = igroteka.State(game, max_plies=3)
    while not capped.is_terminal():
        capped.apply_action(capped.legal_actions()[0])
    outcome = capped.outcome
    assert capped.current_player is None and capped.legal_actions() == []
    assert capped.plies == 3 or not outcome["at_cap"]
    assert sum(capped.returns()) == 0
    assert outcome["result"] in ("1-0", "0-1", "1/2-1/2")
    with pytest.raises(igroteka.IllegalActionError):
        capped.apply_action(0)
    state = igroteka.State(game, max_plies=0)
    assert state.outcome is None and state.returns() == (0.0, 0.0)


def test_the_game_score_comes_with_the_outcome():
    # Adiyukh scores the position at its end (13 of 24 pieces wins).
    state = igroteka.State("adiyukh", max_plies=4)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[-1])
    assert state.outcome["at_cap"] and state.outcome["score"] is not None
    winner = state.outcome["winner"]
    expected = (0.0, 0.0) if winner is None else ((1.0, -1.0) if winner == 0 else (-1.0, 1.0))
    assert state.returns() == expected


def test_describe_gives_board_and_pieces():
    cells = {"adiyukh": 64, "city": 81, "focus": 52, "hexdraughts": 80, "otrazhenie": 64, "stykovka": 64}
    for game, count in cells.items():
        state = igroteka.State(game)
        board = state.board()
        assert len(board["cells"]) == count
        assert set(board["classes"]) >= {c["class"] for c in board["cells"]}
        pieces = state.pieces()
        assert pieces["stacks"] and all(
            owner in (0, 1) and isinstance(kind, str) for stack in pieces["stacks"].values() for owner, kind in stack
        )
        paths = dict(state.move_paths())
        assert sorted(paths) == sorted(state.legal_moves())
    assert igroteka.State("focus").pieces()["reserves"] == (0, 0)


def test_observation_planes_of_focus():
    state = igroteka.State("focus")
    spec = state.spec
    observation = state.observation(0)
    planes = spec["planes"]
    own_top = observation[planes.index("own piece, level 0 from the top")]
    opponent_top = observation[planes.index("opponent piece, level 0 from the top")]
    assert own_top.sum() == opponent_top.sum() == 18
    assert observation[planes.index("observer to move")].all()
    assert observation[planes.index("observer is the first player")].all()
    assert not state.observation(1)[planes.index("observer to move")].any()
    assert (state.observation(1)[planes.index("own piece, level 0 from the top")] == opponent_top).all()


def test_batch_steps_many_games():
    batch = igroteka.Batch("otrazhenie", 8, max_plies=6)
    spec = igroteka.spec("otrazhenie")
    assert len(batch) == 8
    assert batch.observations().shape == (8, *spec.observation_shape)
    masks = batch.action_masks()
    assert masks.shape == (8, spec.num_actions) and (masks.sum(axis=1) == 24).all()
    assert (batch.current_players() == 0).all()
    ended = 0
    for step in range(12):
        actions = batch.random_actions(seed=step)
        assert all(batch.action_masks()[np.arange(8), actions] == 1)
        rewards, terminated, truncated = batch.step(actions)
        assert rewards.shape == (8, 2) and (rewards.sum(axis=1) == 0).all()
        ended += int((terminated | truncated).sum())
    assert ended >= 8  # every game reached the cap at least once and restarted
    assert batch.state(0).plies < 6
    with pytest.raises(igroteka.IllegalActionError):
        batch.step([0] * 8)
    with pytest.raises(ValueError):
        batch.step([0] * 3)
    games, played = batch.step_random(10, seed=1)
    assert played == 80 and games >= 8
    batch.reset()
    assert batch.state(3).plies == 0
