"""Shared helpers: every game and variant, and the repository's data."""

from pathlib import Path

import igroteka

REPO = Path(__file__).resolve().parents[2]

GAMES = [g.name for g in igroteka.games()]
VARIANTS = [(g.name, v) for g in igroteka.games() for v in g.variants]


def random_states(game, variant, games=3, seed=0, max_plies=None):
    """Every state met in a few seeded random games (the end included)."""
    for n in range(games):
        state = igroteka.State(game, variant=variant, max_plies=max_plies)
        step = 0
        while True:
            yield state
            if state.is_terminal():
                break
            state = state.clone()
            state.apply_action(state.random_action(seed=seed * 100_003 + n * 1_009 + step))
            step += 1
