"""Every Igroteka game as an OpenSpiel game.

``register()`` registers each game as a Python game of pyspiel, named
``igroteka_<game>`` (``igroteka_focus``, ...), with the parameters
``variant`` (default: the game's default variant), ``max_plies`` (the ply
cap after which the game is adjudicated as the ``igroteka`` tools do;
default: the game's) and ``position`` (a position text to start from;
default: the variant's start). Then::

    import pyspiel, igroteka.openspiel
    igroteka.openspiel.register()
    game = pyspiel.load_game("igroteka_city", {"variant": "8"})

Actions are the package's action ids (see the README); returns are +1/-1/0
(win, loss, draw). ``RolloutEvaluator`` is an MCTS evaluator whose random
rollouts run in Rust.
"""

from __future__ import annotations

import urllib.parse
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel
from open_spiel.python.algorithms import mcts
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from . import GameInfo, Spec, State, games, spec

__all__ = ["RolloutEvaluator", "game_name", "register"]

_PREFIX = "igroteka_"

# What OpenSpiel's game strings cannot hold in a string value, as URL
# escapes: a game string's "variant=8" reads as an int, which pyspiel then
# refuses for a string parameter, and a comma ends the value.
_ESCAPES = {"%": "%25", ",": "%2C", "(": "%28", ")": "%29", "=": "%3D"}


def _escape(text: str) -> str:
    """``text`` as a string value of a game string."""
    text = "".join(_ESCAPES.get(char, char) for char in text)
    try:
        float(text)
    except ValueError:
        if text not in ("True", "False"):
            return text
    return f"%{ord(text[0]):02X}{text[1:]}"


def _unescape(text: str) -> str:
    # No variant name or position text has a '%': one with it was escaped.
    return urllib.parse.unquote(text) if "%" in text else text


def game_name(game: str) -> str:
    """The pyspiel name of an Igroteka game."""
    return _PREFIX + game


def _game_type(info: GameInfo) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=game_name(info.name),
        long_name=f"Igroteka {info.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "variant": info.default_variant,
            "max_plies": info.default_max_plies,
            "position": "",
        },
    )


class IgrotekaGame(pyspiel.Game):
    """One Igroteka game with its parameters (made by ``pyspiel.load_game``).
    ``register`` makes a subclass per game, with its ``game_type``."""

    game_type: pyspiel.GameType

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game_type = self.game_type
        name = game_type.short_name[len(_PREFIX):]
        params = dict(params or {})
        defaults = game_type.parameter_specification
        self.variant = _unescape(str(params.get("variant", defaults["variant"])))
        self.max_plies = int(params.get("max_plies", defaults["max_plies"]))
        self.position = _unescape(str(params.get("position", defaults["position"]))) or None
        # Escaped, so that the game and its states load from its game string.
        params.update(variant=_escape(self.variant), position=_escape(self.position or ""))
        if self.max_plies <= 0:
            raise ValueError("OpenSpiel games need a ply cap: max_plies > 0")
        self.spec = spec(name, self.variant)
        self.name = name
        info = pyspiel.GameInfo(
            num_distinct_actions=self.spec.num_actions,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.spec.max_game_length(self.max_plies),
        )
        super().__init__(game_type, info, params)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return _load_game, (str(self),)

    def new_initial_state(self) -> IgrotekaState:
        native = State(self.name, variant=self.spec.variant, position=self.position,
                       max_plies=self.max_plies)
        return IgrotekaState(self, native)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> Any:
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return BoardObserver(self.spec, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class IgrotekaState(pyspiel.State):
    """An OpenSpiel state over the native ``igroteka.State`` (``.native``)."""

    def __init__(self, game: IgrotekaGame, native: State) -> None:
        super().__init__(game)
        self.native = native

    def current_player(self) -> int:
        player = self.native.current_player
        return pyspiel.PlayerId.TERMINAL if player is None else player

    def _legal_actions(self, player: int) -> list[int]:
        return self.native.legal_actions()

    def _apply_action(self, action: int) -> None:
        self.native.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.native.action_to_string(action)

    def is_terminal(self) -> bool:
        return self.native.is_terminal()

    def returns(self) -> list[float]:
        return list(self.native.returns())

    def __str__(self) -> str:
        return _state_text(self.native)

    def __deepcopy__(self, memo: object) -> Any:
        # OpenSpiel's clone keeps the history (the base class's), which a
        # new state would not.
        return self.clone()


def _state_text(native: State) -> str:
    route = native.route
    if route is None:
        return native.position
    cells, end = route
    return f"{native.position} (route {':'.join(cells)}..{end})"


class BoardObserver:
    """The observation tensor of a state for a player (see the README's planes)."""

    def __init__(self, game_spec: Spec, params: dict[str, Any] | None = None) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        shape = game_spec.observation_shape
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: IgrotekaState, player: int) -> None:
        self.tensor[:] = state.native.observation(player).reshape(-1)

    def string_from(self, state: IgrotekaState, player: int) -> str:
        return _state_text(state.native)


class RolloutEvaluator(mcts.Evaluator):
    """MCTS leaf values from uniformly random games played in Rust (as many
    as ``n_rollouts``, to the end or the ply cap) and uniform priors: the
    evaluator of OpenSpiel's ``RandomRolloutEvaluator``, without Python in
    the loop."""

    def __init__(self, n_rollouts: int = 1, seed: int = 0) -> None:
        self.n_rollouts = n_rollouts
        self._seed = seed

    def evaluate(self, state: IgrotekaState) -> npt.NDArray[np.float64]:
        native = state.native
        if native.is_terminal():
            return np.array(native.returns(), dtype=np.float64)
        self._seed += 1
        result = native.random_playouts(self.n_rollouts, seed=self._seed)
        first = (result["wins"][0] - result["wins"][1]) / max(result["games"], 1)
        return np.array([first, -first], dtype=np.float64)

    def prior(self, state: IgrotekaState) -> list[tuple[int, float]]:
        actions = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(actions)) for action in actions]


def _load_game(game_string: str) -> Any:
    """The game of a game string (unpickling: registers the games first)."""
    register()
    return pyspiel.load_game(game_string)


_registered = False
_classes: list[type[IgrotekaGame]] = []


def register() -> None:
    """Registers every game with pyspiel (once; later calls do nothing)."""
    global _registered
    if _registered:
        return
    for info in games():
        game_type = _game_type(info)
        # A class, as OpenSpiel's own Python games register: pyspiel keeps
        # it to the end of the process.
        cls = type(f"Igroteka{info.name.capitalize()}Game", (IgrotekaGame,), {"game_type": game_type})
        _classes.append(cls)
        pyspiel.register_game(game_type, cls)
    _registered = True
