"""What a kind of game is to the shared pages, and the registry they ask.

A kind (Black Spy, Spy, the score pad, or any other) is a subclass of ``GameKind`` in a
package of its own under ``companion/kinds/``, registered with an app by ``create_app``. The home
page, the new-game page, the history, the players' figures, the follow page, export and
import ask this registry, never ``if kind == …``: adding a kind is its folder and one line
in ``create_app`` (the README says what the folder holds).

A kind's templates folder (``templates/<folder>/``) holds ``_line.html`` (one game in a
list), ``_game.html`` (the game as the follow page shows it, its latest entries only),
``all.html`` (every entry, for the follow page's link to them), ``_new.html`` (its tab of
the new-game page) and ``_player_stats.html`` (a player's figures in its games).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ClassVar, Protocol

from flask import Flask, current_app

from .rules import Message
from .store.games import Game, KeptFigures
from .store.statistics import Period


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
class Column:
    """One figure of a kind in the list of players: its heading, each player's value (by
    player id), what a player without one shows, and a line under the table if it needs one."""

    heading: Message
    values: Mapping[int, int | None]
    missing: int | None = 0
    note: Message | None = None


class GameKind:
    """A kind of game: its identity, its pages, its file format and its figures."""

    key: ClassVar[str]  # as games.kind stores it and a companion/1 file names it
    name: ClassVar[Message]  # the game's name, said in the reader's language
    following: ClassVar[Message]  # the follow page's title
    model: ClassVar[type[Game]]  # its games' class
    folder: ClassVar[str]  # its templates, under templates/
    show: ClassVar[str]  # the game page's endpoint, taking game_id
    reference: ClassVar[str | None] = None  # the rules at a glance, if the kind has a rulebook

    def init_app(self, app: Flask) -> None:
        """Register its blueprint and the template globals its pages read."""
        raise NotImplementedError

    def title(self, game: Game) -> Message | str:
        """A game's title in a list of games: the kind's name, unless its games are named."""
        return self.name

    def template(self, name: str) -> str:
        return f"{self.folder}/{name}"

    # --- the companion/1 file ------------------------------------------------------------

    def to_json(self, game: Game) -> dict[str, Any]:
        """The game in a companion/1 file: its inputs, and what they derive under "derived"."""
        raise NotImplementedError

    def parse(self, data: dict[str, Any]) -> Input:
        """A game of a file, checked by the rules alone (a ``Bad`` or ``RulesError`` if not)."""
        raise NotImplementedError

    def rows(self, item: Any, game_id: str, created: datetime) -> Rows:
        """A parsed game's rows, for a bulk import."""
        raise NotImplementedError

    def figures(self, state: Any) -> KeptFigures:
        """What lists and statistics keep of a replay (the same for a write and an import)."""
        return self.model.kept_figures(state)

    def preload(self, games: Sequence[Game]) -> None:
        """Load the inputs of many games of this kind at once (an export reads every game)."""

    def csv_rows(self, game: Game) -> Iterable[list[Any]]:
        """Its rows in the spreadsheet of every game (``CSV_COLUMNS``): one per player per
        deal or round."""
        return ()

    # --- its pages ----------------------------------------------------------------------

    def new_game(self, values: Mapping[str, str]) -> dict[str, Any]:
        """What its tab of the new-game page needs besides what was typed and its errors."""
        return {}

    def live(self, game: Game) -> dict[str, Any]:
        """What the follow page shows of a game (its ``_game.html`` reads it)."""
        return {"state": game.state(), "messages": []}

    def bgstats(self, game: Game, state: Any) -> dict[str, Any]:
        """The game as BG Stats names it: {"name", "bggId", "highestWins"}."""
        return {"name": str(self.name)}

    # --- each player's own phone (companion/web/seats.py) ---------------------------------
    # whether each player may enter their own share of the next input from their phone;
    # such a kind's templates folder holds ``_seat.html`` (what a seat's page shows of the
    # game, for that player) and ``_seat_form.html`` (the form a player enters a share in)
    seat_shares: ClassVar[bool] = False

    def share_from_form(self, game: Game, seat: int, form: Mapping[str, str]) -> dict[str, Any]:
        """One seat's share as its phone's form says it, as kept until the input is whole
        (a ``RulesError`` naming the fields at fault when it cannot be read)."""
        raise NotImplementedError

    def entry_from_shares(self, game: Game, shares: Mapping[int, Mapping[str, Any]]) -> Any:
        """The input every seat's share makes, for ``service.record``'s path; a
        ``RulesError`` when the whole does not add up, ``Unanswered`` when the table must
        answer something first."""
        raise NotImplementedError

    def entry_name(self, number: int) -> Message:
        """Its input numbered ``number``, as a sentence names it ("deal 4", "round 4")."""
        raise NotImplementedError

    def changed_name(self, number: int, before: Mapping[str, str]) -> Message:
        """The input an edit or undo changed, as the game's history names it: its input
        numbered ``number``, which held ``before`` (each value by what it is of)."""
        return self.entry_name(number)

    def share_words(self, game: Game, share: Mapping[str, Any]) -> str:
        """A share as the table reads it in a list of who sent what ("12", "75, shot")."""
        raise NotImplementedError

    # --- its figures --------------------------------------------------------------------

    def player_columns(self) -> list[Column]:
        """Its columns in the list of players: every player's figures in one query each."""
        return []

    def player_stats(self, player_id: int, period: Period) -> Any:
        """A player's figures in its finished games over a period (its _player_stats.html
        shows them); None when the player has none."""
        return None


# the columns of every game's deals in one spreadsheet (the home page's CSV export)
CSV_COLUMNS = (
    "game_id",
    "date",
    "rule_set",
    "deal",
    "dealer",
    "pass",
    "player",
    "seat",
    "raw_points",
    "score",
    "running_total",
    "shooter",
    # which kind of game the row is of (its key, as a companion/1 file names it): a pad's
    # rows name its game under rule_set and its round under deal; a Spy turn's row, who played
    "kind",
)


def register(app: Flask, kind: GameKind) -> GameKind:
    """Make a kind known to this app's shared pages (create_app does, once per kind)."""
    app.extensions.setdefault(_KINDS, {})[kind.key] = kind
    kind.init_app(app)
    return kind


def every(app: Flask | None = None) -> list[GameKind]:
    """Every kind of this app (or of ``app``), in the order they were registered (the
    new-game page's tabs)."""
    return list(_kinds(app).values())


def named(key: Any) -> GameKind | None:
    """The kind a file or a url names, if there is one (a list or a number is none)."""
    return _kinds().get(key) if isinstance(key, str) else None


def of(game: Game) -> GameKind:
    return _kinds()[game.kind]


# each app knows its own kinds: a test's app may know a kind the others do not
_KINDS = "companion.kinds"


def _kinds(app: Flask | None = None) -> dict[str, GameKind]:
    kinds: dict[str, GameKind] = (app or current_app).extensions[_KINDS]
    return kinds
