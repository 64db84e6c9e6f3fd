"""Errors reach the caller as errors: no call aborts, hangs or raises
``PanicException``, Ctrl-C stops every long call, and an engine can be
shared by threads and survive a fork."""

import os
import pickle
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import igroteka


def run_python(code, timeout=30, **kwargs):
    """Runs ``code`` in a fresh interpreter; its exit code, stdout and stderr."""
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                            text=True, timeout=timeout, cwd=os.path.dirname(__file__), **kwargs)
    return result.returncode, result.stdout, result.stderr


LONG_CALLS = {
    "alphabeta depth 40": "igroteka.best_move(state, depth=40)",
    "alphabeta movetime 30": "igroteka.best_move(state, movetime=30)",
    "alphabeta 2 threads": "igroteka.best_move(state, depth=40, threads=2)",
    "mcts movetime 30": "igroteka.best_move(state, engine='mcts', movetime=30)",
    "engine depth 40": "igroteka.Engine().best_move(state, depth=40)",
    "random_playouts": "state.random_playouts(10**7)",
    "random_playouts 2 threads": "state.random_playouts(10**7, threads=2)",
    "perft 9": "state.perft(9)",
    "perft_divide 9": "state.perft_divide(9)",
    "Batch.step_random": "igroteka.Batch('focus', 64).step_random(10**7)",
}


def _sigint_as_in_a_terminal():
    """Run in the child before it starts: a job started in the background
    (`cmd &` in a script) inherits SIGINT ignored, and a Python started so
    raises no KeyboardInterrupt; a Python started from a terminal does."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("call", LONG_CALLS.values(), ids=LONG_CALLS.keys())
def test_ctrl_c_stops_a_long_call(call):
    code = f"""
        import sys, igroteka
        state = igroteka.State("focus")
        try:
            print("ready", flush=True)
            {call}
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(3)
        """
    child = subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, cwd=os.path.dirname(__file__),
                             preexec_fn=_sigint_as_in_a_terminal)
    try:
        assert child.stdout.readline() == "ready\n"
        time.sleep(0.3)
        child.send_signal(signal.SIGINT)
        sent = time.perf_counter()
        out, err = child.communicate(timeout=10)
        waited = time.perf_counter() - sent
    finally:
        child.kill()
        child.wait()
    assert child.returncode == 3, (out, err)
    assert out == "interrupted\n"
    assert waited < 3.0


def test_an_engine_shared_by_two_threads_takes_turns():
    code = """
        import threading, igroteka
        engine = igroteka.Engine("alphabeta")
        state = igroteka.State("hexdraughts")
        results = []
        def search():
            results.append(engine.best_move(state, movetime=0.5))
        other = threading.Thread(target=search)
        other.start()
        for _ in range(3):
            results.append(engine.best_move(state, depth=3))
            engine.new_game()
        other.join()
        assert len(results) == 4 and all(r.move in state.legal_moves() for r in results)
        print("ok")
        """
    code_, out, err = run_python(code, timeout=30)
    assert (code_, out) == (0, "ok\n"), err


def test_ctrl_c_stops_a_thread_waiting_for_a_busy_engine():
    code = """
        import os, threading, igroteka
        engine = igroteka.Engine("alphabeta")
        state = igroteka.State("focus")
        threading.Thread(target=lambda: engine.best_move(state, movetime=4)).start()
        try:
            print("ready", flush=True)
            engine.best_move(state, depth=2)
        except KeyboardInterrupt:
            os._exit(3)
        os._exit(0)
        """
    child = subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], stdout=subprocess.PIPE,
                             text=True, cwd=os.path.dirname(__file__), preexec_fn=_sigint_as_in_a_terminal)
    try:
        assert child.stdout.readline() == "ready\n"
        time.sleep(0.3)
        child.send_signal(signal.SIGINT)
        # Long before the other thread's search of 4 s ends.
        assert child.wait(timeout=2) == 3
    finally:
        child.kill()
        child.wait()


def test_a_fork_while_another_thread_searches():
    code = """
        import os, threading, time, igroteka
        engine = igroteka.Engine("alphabeta", use_table=True)
        state = igroteka.State("otrazhenie")
        searcher = threading.Thread(target=lambda: engine.best_move(state, movetime=1.5))
        searcher.start()
        time.sleep(0.2)
        pid = os.fork()
        if pid == 0:
            engine.best_move(state, depth=2)
            igroteka.best_move(state, depth=2)
            engine.new_game()
            os._exit(7)
        _, status = os.waitpid(pid, 0)
        searcher.join()
        engine.best_move(state, depth=2)
        print(os.waitstatus_to_exitcode(status))
        """
    code_, out, err = run_python(code, timeout=20)
    assert (code_, out) == (0, "7\n"), err


# Arguments a caller may pass by mistake, and what they must raise.
HOSTILE = [
    ("igroteka.best_move(state, depth=1, hash_mb=10**6)", ValueError),
    ("igroteka.best_move(state, depth=1, hash_mb=0)", ValueError),
    ("igroteka.best_move(state, depth=1, threads=3000)", ValueError),
    ("igroteka.best_move(state, depth=1, threads=0)", ValueError),
    ("igroteka.best_move(state, movetime=1e300)", ValueError),
    ("igroteka.best_move(state, movetime=-1)", ValueError),
    ("igroteka.best_move(state, movetime=float('nan'))", ValueError),
    ("igroteka.Engine(hash_mb=2**40)", ValueError),
    ("igroteka.Engine(threads=10**5)", ValueError),
    ("igroteka.Batch('city', 10**9)", MemoryError),
    ("igroteka.Batch('city', 2**62)", MemoryError),
    ("igroteka.Batch('city', 2**64)", OverflowError),
    ("state.random_playouts(10, threads=10**5)", ValueError),
    ("state.random_playouts(10, threads=0)", ValueError),
    ("state.perft(10**9)", ValueError),
    ("state.perft_divide(2**31)", ValueError),
    ("state.apply_action(-1)", igroteka.IllegalActionError),
    ("state.apply_action(2**70)", OverflowError),
]


def test_hostile_arguments_raise_errors_in_a_subprocess():
    """Each call once aborted the interpreter or raised PanicException."""
    code = f"""
        import igroteka
        state = igroteka.State("city")
        for call, expected in {[(call, expected.__name__) for call, expected in HOSTILE]!r}:
            try:
                eval(call)
            except BaseException as error:
                assert type(error).__name__ == expected, (call, repr(error))
            else:
                raise AssertionError(call + " raised nothing")
        print("ok")
        """
    code_, out, err = run_python(code, timeout=60)
    assert (code_, out) == (0, "ok\n"), err


def test_apply_action_names_the_action_given():
    with pytest.raises(igroteka.IllegalActionError, match="action -1 is not legal"):
        igroteka.State("focus").apply_action(-1)


def test_under_a_memory_limit_errors_are_memory_errors():
    code = """
        import resource, igroteka
        state = igroteka.State("focus")
        igroteka.best_move(state, depth=1)
        # Room for little more than what is in use now.
        with open("/proc/self/statm") as statm:
            used = int(statm.read().split()[0]) * resource.getpagesize()
        limit = used + (600 << 20)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        for call in ("igroteka.best_move(state, depth=1, hash_mb=1024)",
                     "igroteka.Engine(hash_mb=1024).best_move(state, depth=1)",
                     "igroteka.Batch('city', 10**7)",
                     "igroteka.Batch('focus', 3 * 10**5).observations()"):
            try:
                eval(call)
            except MemoryError:
                pass
            else:
                raise AssertionError(call + " raised nothing")
        # More threads than fit are refused.
        for call in ("igroteka.best_move(state, movetime=0.1, threads=256)",
                     "igroteka.Engine(threads=256).best_move(state, movetime=0.1)",
                     "state.random_playouts(1000, threads=256)"):
            try:
                eval(call)
            except MemoryError:
                pass
            else:
                raise AssertionError(call + " raised nothing")
        # A few threads search or are refused (their heaps, once made, stay
        # reserved), again and again, and one thread still searches.
        for _ in range(3):
            try:
                assert igroteka.best_move(state, movetime=0.1, threads=3).move in state.legal_moves()
                assert state.random_playouts(100, threads=3)["games"] == 100
            except MemoryError:
                pass
        assert igroteka.best_move(state, movetime=0.1).move in state.legal_moves()
        print("ok")
        """
    code_, out, err = run_python(code, timeout=60)
    assert (code_, out) == (0, "ok\n"), err


class Alarm(Exception):
    pass


def _alarm(signum, frame):
    raise Alarm


PUBLIC_CALLS = [
    ("State", lambda v: igroteka.State(v)),
    ("State variant", lambda v: igroteka.State("focus", variant=v)),
    *[(f"State position {g.name}", lambda v, g=g.name: igroteka.State(g, position=v)) for g in igroteka.games()],
    ("State max_plies", lambda v: igroteka.State("city", max_plies=v)),
    ("State.from_actions", lambda v: igroteka.State.from_actions("city", "16", "", 0, v)),
    ("apply_action", lambda v: igroteka.State("city").apply_action(v)),
    ("apply_move", lambda v: igroteka.State("city").apply_move(v)),
    ("move_to_actions", lambda v: igroteka.State("city").move_to_actions(v)),
    ("action_to_string", lambda v: igroteka.State("focus").action_to_string(v)),
    ("observation", lambda v: igroteka.State("focus").observation(v)),
    ("random_action", lambda v: igroteka.State("focus").random_action(v)),
    ("perft", lambda v: igroteka.State("city").perft(v)),
    ("perft_divide", lambda v: igroteka.State("city").perft_divide(v)),
    ("random_playouts n", lambda v: igroteka.State("city").random_playouts(v)),
    ("random_playouts seed", lambda v: igroteka.State("city").random_playouts(1, seed=v)),
    ("random_playouts threads", lambda v: igroteka.State("city").random_playouts(4, threads=v)),
    ("best_move engine", lambda v: igroteka.best_move(igroteka.State("city"), engine=v, nodes=10)),
    ("best_move nodes", lambda v: igroteka.best_move(igroteka.State("city"), nodes=v)),
    ("best_move depth", lambda v: igroteka.best_move(igroteka.State("city"), depth=v)),
    ("best_move movetime", lambda v: igroteka.best_move(igroteka.State("city"), movetime=v)),
    ("best_move seed", lambda v: igroteka.best_move(igroteka.State("city"), engine="mcts", nodes=10, seed=v)),
    ("best_move threads", lambda v: igroteka.best_move(igroteka.State("city"), nodes=10, threads=v)),
    ("best_move hash_mb", lambda v: igroteka.best_move(igroteka.State("city"), nodes=10, hash_mb=v)),
    ("Engine", lambda v: igroteka.Engine(v)),
    ("Engine seed", lambda v: igroteka.Engine("mcts", seed=v).best_move(igroteka.State("city"), nodes=10)),
    ("Engine threads", lambda v: igroteka.Engine(threads=v)),
    ("Engine hash_mb", lambda v: igroteka.Engine(hash_mb=v)),
    ("Engine.best_move", lambda v: igroteka.Engine().best_move(igroteka.State("city"), nodes=v)),
    ("Batch game", lambda v: igroteka.Batch(v, 2)),
    ("Batch n", lambda v: igroteka.Batch("city", v)),
    ("Batch position", lambda v: igroteka.Batch("city", 2, position=v)),
    ("Batch max_plies", lambda v: igroteka.Batch("city", 2, max_plies=v)),
    ("Batch.state", lambda v: igroteka.Batch("city", 2).state(v)),
    ("Batch.step", lambda v: igroteka.Batch("city", 2).step(v)),
    ("Batch.step pair", lambda v: igroteka.Batch("city", 2).step([v, v])),
    ("Batch.random_actions", lambda v: igroteka.Batch("city", 2).random_actions(v)),
    ("Batch.step_random", lambda v: igroteka.Batch("city", 2).step_random(v)),
    ("Batch.step_random seed", lambda v: igroteka.Batch("city", 2).step_random(1, seed=v)),
    ("spec", lambda v: igroteka.spec(v)),
    ("spec variant", lambda v: igroteka.spec("city", v)),
    ("game", lambda v: igroteka.game(v)),
    ("new_game", lambda v: igroteka.new_game("city", max_plies=v)),
]

HOSTILE_VALUES = [-1, 0, 2**31, 2**32, 2**63, 2**64, -2**63, 10**30, 1e300, float("nan"), float("inf"),
                  -0.5, "", "\x00", "(,=)", "a" * 5000, "8", "Ж:Жé 1", "W:W" + "Ж" * 9, None, [], [-1] * 3,
                  [2**40], b"\xff", np.array([1, 2]), np.array([[1, 2]]), np.array(["a", "b"]), object()]
# Every game's start position, given to every other game.
HOSTILE_VALUES += [igroteka.State(g.name).position for g in igroteka.games()]


@pytest.mark.parametrize("name,call", PUBLIC_CALLS, ids=[name for name, _ in PUBLIC_CALLS])
def test_every_public_call_turns_hostile_arguments_into_errors(name, call):
    """Whatever it is given, a call returns or raises an ordinary exception
    (``PanicException`` is no ``Exception``); a long one is stopped by a
    signal, as Ctrl-C would."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        for value in HOSTILE_VALUES:
            signal.setitimer(signal.ITIMER_REAL, 0.2)
            try:
                call(value)
            except (Exception, Alarm):
                pass
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
    finally:
        signal.signal(signal.SIGALRM, previous)


def test_illegal_action_error_pickles():
    error = pickle.loads(pickle.dumps(igroteka.IllegalActionError("action 3 is not legal here")))
    assert type(error) is igroteka.IllegalActionError and str(error) == "action 3 is not legal here"


def _illegal_in_a_worker(_):
    igroteka.State("city").apply_action(10**6)


def test_illegal_action_error_reaches_a_multiprocessing_parent():
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(1) as pool:
        with pytest.raises(igroteka.IllegalActionError, match="action 1000000"):
            pool.map(_illegal_in_a_worker, [0])


def test_a_batch_step_with_an_illegal_action_moves_no_game():
    batch = igroteka.Batch("focus", 3)
    actions = batch.random_actions(seed=1)
    before = [batch.state(i).history for i in range(3)]
    with pytest.raises(igroteka.IllegalActionError, match="game 2"):
        batch.step([actions[0], actions[1], -5])
    assert [batch.state(i).history for i in range(3)] == before
    batch.step(actions)
    assert [batch.state(i).history for i in range(3)] == [[a] for a in actions]


def test_random_playouts_on_one_thread_starts_no_thread():
    """An MCTS evaluator calls it per leaf: a thread per call cost 13-42 us."""
    code = """
        import resource, igroteka
        state = igroteka.State("city")
        expected = state.random_playouts(20, seed=3)
        with open("/proc/self/statm") as statm:
            used = int(statm.read().split()[0]) * resource.getpagesize()
        # No room for a thread's stack.
        limit = used + (1 << 20)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        assert state.random_playouts(20, seed=3) == expected
        try:
            state.random_playouts(20, seed=3, threads=2)
        except MemoryError:
            print("ok")
        """
    code_, out, err = run_python(code)
    assert (code_, out) == (0, "ok\n"), err
    state = igroteka.State("city")
    assert state.random_playouts(40, seed=3) == state.random_playouts(40, seed=3)
    assert state.random_playouts(40, seed=3, threads=3)["games"] == 40
