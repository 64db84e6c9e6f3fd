"""Six abstract board games and their engines, from Rust.

The games (Otrazhenie, Adiyukh, Focus, hexagonal draughts, Stykovka, City),
their variants, rules and engines are the Igroteka crates'; this package
exposes them to Python:

- ``State``: one game in progress, with integer actions over a fixed action
  space, observation tensors, legal-action masks, undo, perft, random
  playouts, and the position text.
- ``Batch``: many games of one variant stepped together in Rust.
- ``best_move`` and ``Engine``: alpha-beta and MCTS, searching without the GIL.
- ``igroteka.openspiel.register()``: every game as an OpenSpiel game.
- ``igroteka.pettingzoo.env(game=...)``: a PettingZoo AEC environment.
- ``igroteka.gymnasium.env(game=...)``: one side against an opponent, for Gymnasium.

Errors are exceptions (``ValueError``, ``IllegalActionError``,
``MemoryError``), never an abort or pyo3's ``PanicException``; long calls
run without the GIL and Ctrl-C stops them (``KeyboardInterrupt``).

See the README for the action mapping and the planes of each game.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._native import Batch, Engine, IllegalActionError, SearchResult, State, best_move
from ._native import games as _games
from ._native import spec as _spec

__all__ = [
    "Batch",
    "Engine",
    "GameInfo",
    "IllegalActionError",
    "SearchResult",
    "Spec",
    "State",
    "best_move",
    "game",
    "games",
    "new_game",
    "spec",
]


@dataclass(frozen=True)
class GameInfo:
    """A game of the registry (the same list the ``igroteka`` binary has)."""

    name: str
    variants: tuple[str, ...]
    default_variant: str
    players: tuple[str, str]
    notation: str
    default_max_plies: int
    has_endgame_table: bool


@dataclass(frozen=True)
class Spec:
    """The fixed shape of a game's variant.

    ``num_actions`` action ids; observations of ``observation_shape``
    (planes first, named in ``planes``); ``cells[i]`` is the name of cell
    index ``i`` (None for a hole); a move from cell ``f`` (or the reserve,
    ``f = cell_bound``) to cell ``t`` is action ``f * cell_bound + t``.
    """

    game: str
    variant: str
    num_actions: int
    cell_bound: int
    reserve: bool
    pass_action: int | None
    observation_shape: tuple[int, ...]
    planes: tuple[str, ...]
    cells: tuple[str | None, ...]
    actions_per_ply: int
    default_max_plies: int

    def max_game_length(self, max_plies: int | None = None) -> int:
        """The most actions a game capped at ``max_plies`` moves can take."""
        plies = self.default_max_plies if max_plies is None else max_plies
        return plies * self.actions_per_ply


def games() -> list[GameInfo]:
    """Every game, the default first."""
    return [
        GameInfo(
            name=g["name"],
            variants=tuple(g["variants"]),
            default_variant=g["default_variant"],
            players=g["players"],
            notation=g["notation"],
            default_max_plies=g["default_max_plies"],
            has_endgame_table=g["has_endgame_table"],
        )
        for g in _games()
        if g["bound"]
    ]


def game(name: str) -> GameInfo:
    """The game called ``name`` (any case)."""
    for info in games():
        if info.name == name.strip().lower():
            return info
    known = ", ".join(g.name for g in games())
    raise ValueError(f"unknown game '{name}' (games: {known})")


def spec(game: str, variant: str | None = None) -> Spec:
    """The action space and observation planes of a game's variant."""
    raw = _spec(game, variant)
    return Spec(
        game=raw["game"],
        variant=raw["variant"],
        num_actions=raw["num_actions"],
        cell_bound=raw["cell_bound"],
        reserve=raw["reserve"],
        pass_action=raw["pass_action"],
        observation_shape=tuple(raw["observation_shape"]),
        planes=tuple(raw["planes"]),
        cells=tuple(raw["cells"]),
        actions_per_ply=raw["actions_per_ply"],
        default_max_plies=raw["default_max_plies"],
    )


def new_game(game: str, variant: str | None = None, position: str | None = None,
             max_plies: int | None = None) -> State:
    """A game from the start of ``variant`` (default: the game's default) or
    from a position text, stopped after ``max_plies`` moves (default: the
    game's ply cap; 0: never)."""
    return State(game, variant=variant, position=position, max_plies=max_plies)
