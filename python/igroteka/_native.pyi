"""Types of the native module (``src/lib.rs``), for type checkers.

Kept by hand next to the Rust: ``tests/test_stubs.py`` checks that it names
exactly the module's classes, functions and members, and ``mypy --strict``
checks the package and the README's examples against it (``python/test.sh``).
"""

from collections.abc import Sequence
from typing import Literal, TypedDict, final

import numpy as np
import numpy.typing as npt

Point = tuple[float, float]

class GameDict(TypedDict):
    name: str
    variants: list[str]
    default_variant: str
    players: tuple[str, str]
    notation: str
    default_max_plies: int
    has_endgame_table: bool
    bound: bool

class SpecDict(TypedDict):
    game: str
    variant: str
    num_actions: int
    cell_bound: int
    reserve: bool
    pass_action: int | None
    observation_shape: list[int]
    planes: list[str]
    cells: list[str | None]
    actions_per_ply: int
    default_max_plies: int

class Outcome(TypedDict):
    winner: int | None
    result: str
    score: tuple[int, int] | None
    reason: str
    at_cap: bool

class Playouts(TypedDict):
    games: int
    plies: int
    wins: tuple[int, int]
    draws: int

# The functional form, since "class" is a keyword.
CellView = TypedDict(
    "CellView", {"name": str, "centre": Point, "polygon": list[Point], "class": str}
)

class BoardView(TypedDict):
    width: float
    height: float
    cells: list[CellView]
    labels: list[tuple[str, Point]]
    classes: dict[str, str]
    colours: tuple[str, str]
    reserves: bool

class PiecesView(TypedDict):
    stacks: dict[str, list[tuple[int, str]]]
    reserves: tuple[int, int] | None
    captured: tuple[int, int] | None
    score: tuple[int, int] | None

class IllegalActionError(ValueError):
    """An action or move that is not legal in the state."""

@final
class SearchResult:
    """What a search found."""

    @property
    def move(self) -> str | None: ...
    @property
    def actions(self) -> list[int]: ...
    @property
    def score_kind(self) -> Literal["cp", "win", "loss"]: ...
    @property
    def score(self) -> int: ...
    @property
    def pv(self) -> list[str]: ...
    @property
    def depth(self) -> int: ...
    @property
    def seldepth(self) -> int: ...
    @property
    def nodes(self) -> int: ...
    @property
    def time(self) -> float: ...
    @property
    def nps(self) -> int: ...

@final
class State:
    """A game in progress, from its start or a position text, stopped at a
    ply cap (``max_plies``, default the game's; 0: none)."""

    def __init__(
        self,
        game: str,
        variant: str | None = None,
        position: str | None = None,
        max_plies: int | None = None,
    ) -> None: ...
    @staticmethod
    def from_actions(
        game: str, variant: str, start: str, max_plies: int, actions: Sequence[int]
    ) -> State: ...
    def __reduce__(self) -> tuple[object, tuple[str, str, str, int, list[int]]]: ...
    @property
    def game(self) -> str: ...
    @property
    def variant(self) -> str: ...
    @property
    def spec(self) -> SpecDict: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def observation_shape(self) -> list[int]: ...
    @property
    def current_player(self) -> int | None: ...
    @property
    def side_to_move(self) -> int: ...
    def is_terminal(self) -> bool: ...
    @property
    def outcome(self) -> Outcome | None: ...
    def returns(self) -> tuple[float, float]: ...
    def legal_actions(self) -> list[int]: ...
    def legal_action_mask(self) -> npt.NDArray[np.int8]: ...
    def legal_moves(self) -> list[str]: ...
    def action_to_string(self, action: int) -> str: ...
    def move_to_actions(self, text: str) -> list[int]: ...
    def apply_action(self, action: int) -> None: ...
    def apply_move(self, text: str) -> list[int]: ...
    def undo(self) -> bool: ...
    def clone(self) -> State: ...
    def __copy__(self) -> State: ...
    def __deepcopy__(self, memo: object) -> State: ...
    @property
    def plies(self) -> int: ...
    @property
    def max_plies(self) -> int: ...
    @property
    def history(self) -> list[int]: ...
    @property
    def moves(self) -> list[str]: ...
    @property
    def position(self) -> str: ...
    @property
    def start_position(self) -> str: ...
    def board_text(self) -> str: ...
    def board(self) -> BoardView: ...
    def pieces(self) -> PiecesView: ...
    def move_paths(self) -> list[tuple[str, list[str]]]: ...
    @property
    def route(self) -> tuple[list[str], str] | None: ...
    def route_moves(self) -> list[str]: ...
    def observation(self, player: int | None = None) -> npt.NDArray[np.float32]: ...
    def perft(self, depth: int) -> int: ...
    def perft_divide(self, depth: int) -> list[tuple[str, int]]: ...
    def random_playouts(self, n: int, seed: int = 0, threads: int = 1) -> Playouts: ...
    def random_action(self, seed: int = 0) -> int | None: ...
    def evaluate(self) -> int: ...
    @property
    def zobrist(self) -> int: ...
    def best_move(
        self,
        engine: str = "alphabeta",
        nodes: int | None = None,
        depth: int | None = None,
        movetime: float | None = None,
        seed: int = 0,
        threads: int = 1,
        hash_mb: int = 16,
        use_table: bool = True,
    ) -> SearchResult: ...

@final
class Engine:
    """An engine that keeps its memory from one search to the next."""

    def __init__(
        self,
        engine: str = "alphabeta",
        seed: int = 0,
        threads: int = 1,
        hash_mb: int = 16,
        use_table: bool = True,
    ) -> None: ...
    def best_move(
        self,
        state: State,
        nodes: int | None = None,
        depth: int | None = None,
        movetime: float | None = None,
    ) -> SearchResult: ...
    def new_game(self) -> None: ...

@final
class Batch:
    """``n`` games of one variant stepped together in Rust."""

    def __init__(
        self,
        game: str,
        n: int,
        variant: str | None = None,
        position: str | None = None,
        max_plies: int | None = None,
    ) -> None: ...
    def __len__(self) -> int: ...
    @property
    def spec(self) -> SpecDict: ...
    def state(self, i: int) -> State: ...
    def observations(self) -> npt.NDArray[np.float32]: ...
    def action_masks(self) -> npt.NDArray[np.int8]: ...
    def current_players(self) -> npt.NDArray[np.int8]: ...
    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_]]: ...
    def random_actions(self, seed: int = 0) -> npt.NDArray[np.int64]: ...
    def step_random(self, steps: int, seed: int = 0) -> tuple[int, int]: ...
    def reset(self) -> None: ...

def games() -> list[GameDict]: ...
def spec(game: str, variant: str | None = None) -> SpecDict: ...
def best_move(
    state: State,
    engine: str = "alphabeta",
    nodes: int | None = None,
    depth: int | None = None,
    movetime: float | None = None,
    seed: int = 0,
    threads: int = 1,
    hash_mb: int = 16,
    use_table: bool = True,
) -> SearchResult: ...
