"""A game kind is one object, and this is where the shared pages find them.

Each kind (Black Spy, Spy, Scorepad) brings, from its own files, its rules module, its
blueprint, its templates folder, how its inputs are replayed, the figures it keeps for
lists and statistics, and its companion/1 codec; the home page, the new-game page, the
history, the follow page, export and import ask this registry, never ``if kind == …``.
Adding a kind is its own files plus one ``register`` line in ``create_app``.

A kind's templates folder holds ``_line.html`` (one game in a list: its ``line`` macro),
``_live.html`` (what the follow page shows and refreshes) and ``_new.html`` (the form
that starts one, a tab of the new-game page).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from flask import Blueprint, abort

from .rules import Message

if TYPE_CHECKING:
    from .models import Game, KeptFigures


class Input(Protocol):
    """One game of a file, checked whole by its kind's rules and ready to store."""

    kind: ClassVar[str]  # the key of the kind that parsed it

    @property
    def id(self) -> str | None: ...

    @property
    def created_at(self) -> datetime | None: ...

    @property
    def id_replaced(self) -> bool: ...

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def state(self) -> Any: ...


@dataclass(frozen=True)
class Rows:
    """What storing one game of a file writes, besides what every game has: its own
    columns of ``games``, extra columns of each seat, and rows of its own tables."""

    game: Mapping[str, Any]
    seats: tuple[Mapping[str, Any], ...] = ()
    tables: Mapping[Any, list[dict[str, Any]]] = field(default_factory=dict)


@dataclass(frozen=True)
class GameKind:
    key: str  # as games.kind stores it and a companion/1 file names it
    name: Message  # the game's name, said in the reader's language
    following: Message  # the follow page's title
    blueprint: Blueprint
    show: str  # the game page's endpoint, taking game_id
    reference: str | None  # the rules at a glance, if the kind has a rulebook
    inputs: Callable[[Game], list[Any]]  # the game's list of input rows (deals, turns, …), in order
    replay: Callable[[Game], Any]  # the game's inputs folded by its rules
    figures: Callable[[Any], KeptFigures]  # what a list and the statistics keep of a replay
    to_json: Callable[[Game], dict[str, Any]]  # the game in a companion/1 file
    parse: Callable[[dict[str, Any]], Input]  # a game of a file, checked by the rules alone
    rows: Callable[[Any, str, datetime], Rows]  # an Input's rows, for a bulk import
    # what the follow page shows of a game (the kind's _live.html reads it)
    live: Callable[[Game], dict[str, Any]] = lambda game: {}
    csv: Callable[[Iterable[Game]], Iterable[list[Any]]] | None = None  # rows of every deal, if it has deals
    # a player's figures in finished games of this kind over a period, for the player's
    # page (its <folder>/_player_stats.html shows them); None when the page says it already
    player_stats: Callable[[int, Any], Any] | None = None
    # every player's finished games and wins of this kind, by player id, for the list of
    # players; None when the list counts them already
    player_counts: Callable[[], Mapping[int, tuple[int, int]]] | None = None
    # the game as BG Stats names it ({"name", "bggId", "highestWins"}); the kind's name if none
    bgstats: Callable[[Game, Any], dict[str, Any]] | None = None
    # loads the inputs of many games of this kind at once (an export reads every game)
    preload: Callable[[Sequence[Game]], None] | None = None
    # the folder of its templates, named after the kind unless it says otherwise
    folder: str = ""

    @property
    def templates(self) -> str:
        return self.folder or self.key.replace("-", "_")

    def template(self, name: str) -> str:
        return f"{self.templates}/{name}"


_KINDS: dict[str, GameKind] = {}


def register(kind: GameKind) -> GameKind:
    """Make a kind known to the shared pages (create_app does, once per kind)."""
    _KINDS[kind.key] = kind
    return kind


def every() -> list[GameKind]:
    """Every kind, in the order they were registered (the new-game page's tabs)."""
    return list(_KINDS.values())


def named(key: Any) -> GameKind | None:
    """The kind a file or a url names, if there is one (a list or a number is none)."""
    return _KINDS.get(key) if isinstance(key, str) else None


def of(game: Game) -> GameKind:
    return _KINDS[game.kind]


def game_of_kind(game_id: str, kind: GameKind) -> Game:
    """The game at this public id, or 404 when there is none of that kind."""
    from .extensions import db
    from .models import Game

    game = db.get_or_404(Game, game_id)
    if game.kind != kind.key:
        abort(404)
    return game
