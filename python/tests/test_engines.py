"""The engines from Python."""

import threading
import time

import pytest

import igroteka

from conftest import GAMES


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("engine,limits", [("alphabeta", {"depth": 2}), ("mcts", {"nodes": 300}),
                                           ("random", {})])
def test_best_move_is_a_legal_move_with_its_actions(game, engine, limits):
    state = igroteka.State(game)
    result = igroteka.best_move(state, engine=engine, **limits)
    assert result.move in state.legal_moves()
    assert result.actions == state.move_to_actions(result.move)
    assert result.score_kind in ("cp", "win", "loss")
    assert result.nodes >= 1 and result.time >= 0
    if engine != "random":
        assert result.pv and result.pv[0] == result.move
    state.apply_move(result.move)


def test_search_is_deterministic_and_needs_a_limit():
    state = igroteka.State("hexdraughts")
    first = igroteka.best_move(state, engine="alphabeta", depth=3)
    assert first.move == igroteka.best_move(state, engine="alphabeta", depth=3).move
    assert first.depth == 3
    with pytest.raises(ValueError, match="limit"):
        igroteka.best_move(state)
    with pytest.raises(ValueError, match="unknown engine"):
        igroteka.best_move(state, engine="minimax", depth=1)


def test_an_engine_keeps_its_memory_through_a_game():
    engine = igroteka.Engine("alphabeta", hash_mb=4)
    state = igroteka.State("city", max_plies=8)
    while not state.is_terminal():
        result = engine.best_move(state, nodes=2000)
        for action in result.actions:
            state.apply_action(action)
    engine.new_game()
    assert state.outcome is not None


def test_an_engine_moved_to_another_game_searches_with_that_games_evaluation():
    # Hexdraughts and adiyukh both default to their learned evaluations: an
    # engine that searched one searches the other as a fresh search does.
    engine = igroteka.Engine("alphabeta", hash_mb=4)
    engine.best_move(igroteka.State("hexdraughts"), depth=3)
    state = igroteka.State("adiyukh")
    state.apply_move(state.legal_moves()[0])
    fresh = igroteka.best_move(state, engine="alphabeta", depth=4, hash_mb=4)
    moved = engine.best_move(state, depth=4)
    assert (moved.move, moved.score, moved.pv) == (fresh.move, fresh.score, fresh.pv)


def test_otrazhenie_plays_from_its_table():
    # One White checker against two Black: the table knows it.
    state = igroteka.State("otrazhenie", position="7B/8/8/3B4/8/8/8/W7 w")
    result = igroteka.best_move(state, engine="alphabeta", depth=1)
    assert result.score_kind in ("win", "loss") or result.score == 0
    assert len(result.pv) == result.depth
    searched = igroteka.best_move(state, engine="alphabeta", depth=1, use_table=False)
    assert searched.depth == 1


def test_the_search_releases_the_gil():
    state = igroteka.State("focus")
    done = []
    searcher = threading.Thread(
        target=lambda: done.append(igroteka.best_move(state, engine="mcts", movetime=0.6)))
    searcher.start()
    ticks = 0
    start = time.perf_counter()
    while searcher.is_alive():
        ticks += 1
        time.sleep(0.001)
    searcher.join()
    assert done and done[0].move in state.legal_moves()
    assert time.perf_counter() - start >= 0.5
    assert ticks > 100  # this thread ran while the engine searched
