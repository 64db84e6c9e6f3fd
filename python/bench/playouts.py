"""Random playouts per second: Rust, the native Python API, and OpenSpiel.

For each game (default variant, from the start, to the end or the game's
ply cap, uniformly random moves) it measures, on one thread:

- ``rust``: plain Rust (``cargo run --release --example rust_playouts``);
- ``native``: ``State.random_playouts`` from Python: the playouts run in
  Rust, Python only starts them (the same seeds play the same games as
  ``rust``, which the plies columns show);
- ``py-step``: a Python loop over the native state, one
  ``legal_actions()`` / ``random.choice`` / ``apply_action()`` per ply;
- ``batch``: ``Batch.step`` of 256 games with ``Batch.random_actions``,
  per ply of one game (the vectorised path);
- ``openspiel``: the same Python loop through OpenSpiel's Python-game
  wrapper (``pyspiel.load_game("igroteka_<game>")``), if open_spiel is
  installed.

Each figure is the best of ``--repeat`` runs (the machine may be shared);
the Rust and native runs alternate.
Run from the repository root::

    python python/bench/playouts.py [--games 200] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from typing import Any, Callable

import igroteka

# Nanoseconds per ply, and the plies played.
Figure = tuple[float, int]

HERE = os.path.dirname(os.path.abspath(__file__))
CRATE = os.path.dirname(HERE)


def rust_figures(games: int, seed: int) -> dict[str, Figure]:
    """ns per ply and plies of the Rust example, by game."""
    env = dict(os.environ)
    env.setdefault("CARGO_TARGET_DIR", os.path.join(CRATE, "target"))
    try:
        output = subprocess.run(
            ["cargo", "run", "--quiet", "--release", "--example", "rust_playouts", "--", str(games), str(seed)],
            cwd=CRATE, env=env, check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        print(f"(no Rust figure: {error})", file=sys.stderr)
        return {}
    figures = {}
    for line in output.splitlines():
        words = line.split()
        fields = dict(zip(words[1::2], words[2::2]))
        figures[words[0]] = (float(fields["ns_per_ply"]), int(fields["plies"]))
    return figures


def best(runs: int, measure: Callable[[], Figure]) -> Figure:
    """The lowest ns/ply of `runs` measurements, with the last plies count."""
    results = [measure() for _ in range(runs)]
    return min(r[0] for r in results), results[-1][1]


def native(name: str, games: int, seed: int) -> Figure:
    state = igroteka.State(name)
    start = time.perf_counter()
    result = state.random_playouts(games, seed=seed)
    return (time.perf_counter() - start) * 1e9 / result["plies"], result["plies"]


def python_steps(make_state: Callable[[], Any], games: int) -> Figure:
    rng = random.Random(1)
    plies = 0
    start = time.perf_counter()
    for _ in range(games):
        state = make_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            plies += 1
    return (time.perf_counter() - start) * 1e9 / plies, plies


def batch(name: str, plies: int, width: int = 256) -> Figure:
    games = igroteka.Batch(name, width)
    rounds = max(1, plies // width)
    start = time.perf_counter()
    for seed in range(rounds):
        games.step(games.random_actions(seed))
    return (time.perf_counter() - start) * 1e9 / (rounds * width), rounds * width


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="playouts per game and figure")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (the best counts)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    try:
        import pyspiel

        import igroteka.openspiel
        igroteka.openspiel.register()
    except ImportError:
        pyspiel = None

    # Rust and native alternate, so that both meet the same load.
    rust: dict[str, Figure] = {}
    native_best: dict[str, Figure] = {}
    for _ in range(args.repeat):
        for game, (ns, plies) in rust_figures(args.games, args.seed).items():
            if game not in rust or ns < rust[game][0]:
                rust[game] = (ns, plies)
        for info in igroteka.games():
            ns, plies = native(info.name, args.games, args.seed)
            if info.name not in native_best or ns < native_best[info.name][0]:
                native_best[info.name] = (ns, plies)

    header = (f"{'game':<12}{'rust ns/ply':>12}{'native':>9}{'ratio':>7}{'playouts/s':>11}{'plies r/n':>16}"
              f"{'py-step':>10}{'overhead':>10}{'batch':>8}{'openspiel':>11}{'os/py':>7}")
    print(header)
    for info in igroteka.games():
        name = info.name
        native_ns, native_plies = native_best[name]
        step_games = max(2, args.games // 20)
        step_ns, _ = best(args.repeat, lambda: python_steps(lambda: igroteka.State(name), step_games))
        batch_ns, _ = best(args.repeat, lambda: batch(name, 20000))
        rust_ns, rust_plies = rust.get(name, (float("nan"), 0))
        if pyspiel is not None:
            game = pyspiel.load_game(igroteka.openspiel.game_name(name))
            os_ns, _ = best(args.repeat, lambda: python_steps(game.new_initial_state, step_games))
        else:
            os_ns = float("nan")
        playouts_per_second = args.games * 1e9 / (native_ns * native_plies)
        print(f"{name:<12}{rust_ns:>12.0f}{native_ns:>9.0f}{native_ns / rust_ns:>7.2f}{playouts_per_second:>11.0f}"
              f"{rust_plies:>8}/{native_plies:<7}{step_ns:>10.0f}{step_ns - rust_ns:>10.0f}"
              f"{batch_ns:>8.0f}{os_ns:>11.0f}{os_ns / step_ns:>7.1f}")
    print("ns per ply of one game; ratio = native / rust; playouts/s = native, one thread; "
          "overhead = py-step - rust; os/py = openspiel / py-step")


if __name__ == "__main__":
    main()
