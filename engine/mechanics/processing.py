"""Processing actions, with rollback of a rejected one, programmed moves, and the export log.

:class:`ActionProcessing` is a part of :class:`engine.game.Game`: :meth:`ActionProcessing.process`
is the only way a game changes.
"""

from __future__ import annotations

import copy
import copyreg
import importlib
import io
import pickle
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar

from .. import actions as A
from ..errors import GAME_OVER, UNKNOWN, EngineBug, GameError
from ..hooks import TitleHooks
from ..map.tiles import Tile

if TYPE_CHECKING:
    from ..game import Game

T = TypeVar("T")


class ActionProcessing(TitleHooks):
    """Applying actions to the game."""

    # not pickled: the title data, the save itself, and the logs (append-only: cut on restore;
    # a save holds the game log's length)
    _STATE_SKIP = ("data", "rules", "_checkpoint", "action_log", "_trial_start", "log")
    checkpoint_every = 1
    _checkpoint: tuple[int, bytes] | None  # (actions in the log, the state then); set once saved
    _trial_start: tuple[int, bytes]  # (position stamp, the state then): where trials start from
    position_stamp: int  # see engine.game.Game
    process_only: bool

    # ------------------------------------------------------------------ processing
    def process(self, action: A.Action, *, safe: bool = True) -> None:
        """Apply ``action``; on :class:`GameError` (a refusal) or :class:`EngineBug` (an unexpected
        failure) the state is left exactly as it was
        (when ``safe``; replay of a trusted log passes ``safe=False`` for speed).

        Rollback: the state is saved (pickled) before the action, and a rejected action restores
        it. A game that changes only through this method (no positions set by hand, like the
        bot's live games) may set ``checkpoint_every`` to N > 1: its state is then saved only
        every N actions, and a rejected action restores the last save and replays the actions
        processed since (``action_log``)."""
        if not safe:
            self._process_with_autos(action)
            return
        mark = len(self.action_log)
        saved = self.__dict__.get("_checkpoint")
        if self.checkpoint_every <= 1 or saved is None or not 0 <= mark - saved[0] < self.checkpoint_every:
            self._checkpoint = (mark, self._snapshot())
        try:
            self._process_with_autos(action)
        except GameError:
            self._rollback(mark)
            raise
        except Exception as exc:  # an engine bug must not corrupt a live game either
            self._rollback(mark)
            raise EngineBug(action.type, exc) from exc

    def accepts(self, action: A.Action) -> bool:
        """Whether the game would take ``action`` now. It is tried and undone: the game is left
        exactly as it was (objects that point back to it still do)."""
        return self.preview(action, lambda game: True) is not None

    def preview(self, action: A.Action, read: Callable[[Game], T]) -> T | None:
        """What ``read`` sees of the game once ``action`` is processed (None when it is refused):
        a choice's effect told before it is made. The game is left exactly as it was."""
        mark = len(self.action_log)
        before = self.__dict__.get("_checkpoint")
        self._checkpoint = (mark, self._position_snapshot())
        try:
            self.process(action, safe=False)
            return read(self.as_game())
        except GameError:
            return None
        finally:
            self._rollback(mark)
            self._checkpoint = before

    def _process_with_autos(self, action: A.Action) -> None:
        """An action and the automatic actions recorded with it (programmed moves that
        fired); destination checks are applied by the title from the recorded list."""
        self._process(action)
        generated = list(self.auto_done)
        recorded = [a for a in action.auto_actions if a.type != "destination_connection"]
        for auto in recorded:
            self._process(auto)
        if self.live and not recorded:
            generated += self._run_programs()
        self.record(action, generated)
        self.auto_done = generated

    def _run_programs(self) -> list[A.Action]:
        """Carry out programmed stock-round moves for whoever is to act (live play only)."""
        from ..programs import programmed_action

        done: list[A.Action] = []
        for _ in range(4 * len(self.players) + 4):
            auto = programmed_action(self.as_game())
            if auto is None:
                break
            self._process(auto)
            done.append(auto)
            done.extend(self.auto_done)
        return done

    def record(self, action: A.Action, generated: list[A.Action]) -> None:
        """Keep the processed action for export, with the automatic actions 18xx.games needs
        to replay it (our computed destination checks) when the action did not carry them."""
        data = action.to_dict()
        data["id"] = len(self.action_log) + 1
        if generated and not any(a.type == "destination_connection" for a in action.auto_actions):
            data.setdefault("auto_actions", []).extend(a.to_dict() for a in generated)
        self.action_log.append(data)
        for key, value in self.export_fill.items():  # what the action left out (or gave as 0)
            if not data.get(key):
                data[key] = value
        self.export_fill = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        clone = self.as_game().__class__.__new__(self.as_game().__class__)
        memo[id(self)] = clone
        memo[id(self.data)] = self.data
        for k, v in self.__dict__.items():
            if k not in ("_checkpoint", "_trial_start"):  # a copy saves its own state when it first needs to
                clone.__dict__[k] = v if k in ("data", "rules") else copy.deepcopy(v, memo)
        return clone

    def _position_snapshot(self) -> bytes:
        """The state now, saved once per position of a game that only ``process`` changes
        (``Game.process_only``; ``Game.position_stamp`` names the position): the trials of one
        position (each dividend kind's effect) all start from the same save."""
        if not self.process_only:
            return self._snapshot()
        kept = self.__dict__.get("_trial_start")
        if kept is None or kept[0] != self.position_stamp:
            kept = self._trial_start = (self.position_stamp, self._snapshot())
        return kept[1]

    def _snapshot(self) -> bytes:
        # the game itself and its title data stay shared: objects that point back to the game
        # (rounds, steps) must keep pointing at this very game after a restore
        keep = {k: v for k, v in self.__dict__.items() if k not in self._STATE_SKIP}
        keep[_LOG_LENGTH] = len(self.log)
        buf = io.BytesIO()
        _StatePickler(buf, self.as_game()).dump(keep)
        return buf.getvalue()

    def _rollback(self, mark: int) -> None:
        """Back to the state before ``action_log[mark]``: the last save, then the actions since."""
        assert self._checkpoint is not None
        at, saved = self._checkpoint
        log = self.action_log
        state = _StateUnpickler(io.BytesIO(saved), self.as_game()).load()
        lines = self.log[:state.pop(_LOG_LENGTH)]
        for key in [k for k in self.__dict__ if k not in self._STATE_SKIP]:
            del self.__dict__[key]
        self.__dict__.update(state)
        self.log = lines
        self.action_log = log[:at]
        live, self.live = self.live, False  # programmed moves come from the record
        try:
            for raw in log[at:mark]:
                self._process_with_autos(A.Action.from_dict(raw))
        finally:
            self.live = live

    def _process(self, action: A.Action) -> None:
        self.recorded_auto = {a.type: a for a in action.auto_actions}
        self.auto_done: list[A.Action] = []
        if isinstance(action, A.Message):
            return
        if isinstance(action, (A.ProgramBuyShares, A.ProgramSharePass, A.ProgramDisable)):
            self.set_program(action)
            return
        if self.finished:
            raise GameError("The game is over", GAME_OVER)
        if isinstance(action, A.EndGame):
            self.end_game("manually_ended")
            return
        self.round.process(action)
        self.action_count += 1
        self.after_action(action)
        if self.end_pending and not self.finished:
            # an end that takes effect once the action is through (a bankruptcy: the round has
            # already moved on to whoever is next, as on 18xx.games)
            self.end_game(self.end_pending)
            return
        self.advance_rounds()

    def round_key(self) -> tuple[Any, ...]:
        """Identifies the current round (stable across state snapshots)."""
        return (self.turn, self.round.name if self.round else "", self.round_num)

    def set_program(self, action: A.Action) -> None:
        """Record (or cancel) a player's programmed stock-round move; allowed any time."""
        if action.entity not in self.player_by_id:
            raise GameError("Only players can program moves", UNKNOWN, entity=action.entity)
        if isinstance(action, A.ProgramDisable):
            self.programs.pop(action.entity, None)
            self.program_marks.pop(action.entity, None)
        else:
            self.programs[action.entity] = action
            rnd = self.round
            self.program_marks[action.entity] = (self.round_key(), rnd.sales)


_LOG_LENGTH = " log length"  # (in a save: no attribute has this name)


class _StatePickler(pickle.Pickler):
    """Pickles a game's state; the game itself, modules (title data) and tiles by reference."""

    def __init__(self, file: io.BytesIO, game: Game):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.dispatch_table = {**copyreg.dispatch_table, ModuleType: _module_ref, type(game): _game_ref,
                               Tile: _tile_ref}


class _StateUnpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, game: Game):
        super().__init__(file)
        self.game = game

    def find_class(self, module: str, name: str) -> Any:
        if module == __name__ and name == "_this_game":
            return lambda: self.game
        return super().find_class(module, name)


def _this_game() -> Game:
    raise RuntimeError("stands for the game whose state is being restored (_StateUnpickler)")


def _game_ref(game: Game) -> tuple[Any, ...]:
    return _this_game, ()


def _module_ref(module: ModuleType) -> tuple[Any, ...]:
    return importlib.import_module, (module.__name__,)


# Tiles are immutable and shared (the title's tiles and their rotations, engine.map.tiles): a save
# names each one instead of copying it, and a restore puts back the very tile (copying them was
# most of the time a save and a restore took). Each tile saved is kept here, so that its id
# names it for as long as the process runs; tiles are made once per kind and rotation, so this
# holds a few thousand at most.
_SAVED_TILES: dict[int, Tile] = {}


def _tile_ref(tile: Tile) -> tuple[Any, ...]:
    key = id(tile)
    if _SAVED_TILES.setdefault(key, tile) is not tile:  # (cannot happen: a kept tile keeps its id)
        raise RuntimeError("two tiles saved under one id")
    return _saved_tile, (key,)


def _saved_tile(key: int) -> Tile:
    return _SAVED_TILES[key]
