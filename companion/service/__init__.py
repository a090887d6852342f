"""The one write path for every kind of game: start, record, undo, edit, rename, rematch,
and import (``service.imports``).

A view parses its form and hands this module the game and what the table said; each use
case owns the steps every write shares:

- a submission already stored (a double tap, a page sent twice, a queue replayed after
  the Wi-Fi came back) is not stored again;
- an input numbered for another place than the next (the page was out of date) is
  refused, and so is a write whose game another phone changed meanwhile (its version);
- the kind's rules check the input against the game (a ``RulesError`` goes back to the
  view, which shows it on the form with nothing written);
- the rows, and the commit, with the kept figures brought up to date by the session on
  every flush (companion/store/figures.py), never by a call a view could forget;
- the outcome, which the view turns into a page.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any, Generic, TypeVar

from sqlalchemy import select

from ..rules import N_, RulesError
from ..rules.players import clean_name
from ..store import appending, changes
from ..store.base import db
from ..store.figures import commit_or_conflict
from ..store.games import HELD, Game
from ..store.players import Player, player_by_name
from ..store.shares import clear as clear_shares


class Outcome(Enum):
    DONE = "done"  # written
    REPEATED = "repeated"  # this submission was stored before: nothing new written
    STALE = "stale"  # the page was out of date: nothing written
    CONFLICT = "conflict"  # another phone's write won the race: nothing written
    GONE = "gone"  # the input to change or undo is not in the game (any more): nothing written
    TAKEN = "taken"  # a rematch was made already: nothing new written


G = TypeVar("G", bound=Game)


@dataclass(frozen=True)
class Written(Generic[G]):
    outcome: Outcome
    game: G  # as it is now: reloaded after a refusal; the new game after a rematch
    state: Any = None  # the game's state after the write, when it was written
    row: Any = None  # the input written or undone

    @property
    def done(self) -> bool:
        return self.outcome is Outcome.DONE

    def follows(self, shown_version: str | None) -> bool:
        """Whether the page that asked for this write showed the game just before it (its
        ``version``): such a page only has to add the new entry's row."""
        return shown_version == str(self.game.version - 1)


Entry = TypeVar("Entry")
NewGame = TypeVar("NewGame", bound=Game)


def _hold(game: Game) -> None:
    """Take the game's row lock before anything of it is read for a write: two phones writing
    to one game (an edit and an undo) then wait their turn at the game's row, never each at a
    row the other holds (PostgreSQL met such a deadlock in the edit-and-undo race test of the
    score pad, an edit's entries against an undo's). SQLite's writes take the database's
    lock as they begin (a write's first read of the game began it): there it is held already,
    as it is where the request read the game locked (``game_or_404``)."""
    if db.session.get_bind().dialect.name == "sqlite" or game.id in db.session.info.get(HELD, ()):
        return
    db.session.execute(select(Game.id).where(Game.id == game.id).with_for_update())


def _reloaded(game: G) -> G:
    """The game as another phone's write left it."""
    db.session.expire_all()
    now = db.session.get(Game, game.id)
    assert isinstance(now, type(game))
    return now


def _stored(game: Game, submission: str | None) -> bool:
    model = type(game).input_model
    return bool(submission) and db.session.scalar(select(model.id).where(model.submission_id == submission)) is not None


def posted_number(text: str | None) -> int | None:
    """The number a page showed for the input it sends (a deal's, a round's), or None for
    one no page shows: blank, not a whole number, 0, or longer than any game."""
    text = text or ""
    return int(text) if text.isdecimal() and len(text) <= 6 and int(text) >= 1 else None


def _given(entry: Entry | Callable[[], Entry]) -> Entry:
    return entry() if callable(entry) else entry


def start(make: Callable[..., NewGame], *args: Any) -> NewGame:
    """Store a new game, made by its kind's constructor from what the rules checked."""
    game = make(*args)
    db.session.add(game)
    db.session.commit()
    return game


def record(game: G, entry: Any, submission: str | None, number: str | None) -> Written[G]:
    """Append one input (a deal, a turn, a round, the end) as the game's next.

    ``entry`` is the input, or what reads it from the form (called once the submission is
    known to be new and the page current: a refusal for those comes first). ``number`` is
    the number the page showed for it: another number means the page was out of date.
    """
    submission = (submission or "")[:64] or None
    _hold(game)
    # the inputs as the rules take them, not as objects: a new one needs none of the others
    log = game.input_log()
    # a repeat is looked for among the game's inputs as read: one stored by another request
    # since they were read (or in another game) is refused at the commit, and told apart
    # from a conflict there
    if submission and submission in log.submissions:
        return Written(Outcome.REPEATED, game)
    if number and number != str(log.count + 1):
        return Written(Outcome.STALE, game)
    entry = _given(entry)
    after = game.played(entry)
    # the deal is the scorer's whole form: what players' phones sent of it is done with.
    # Cleared before the game is changed: the delete's statement flushes nothing then, and a
    # race lost is found at the commit, as every other
    clear_shares(game)
    row = game.input_row(entry)
    row.number = log.count + 1
    row.submission_id = submission
    # named now, not at the flush: the session finds the game an input belongs to by it
    row.game_id = game.id
    # most inputs leave the game open, and are written as statements; the rest by the flush
    written = appending.append(game, row, after)
    if written is None:
        # the inputs as objects, read now for the flush: their read flushes nothing yet (a
        # flush here, of the table's way of entering, say, bumped the version a second time)
        with db.session.no_autoflush:
            game.inputs().append(row)
        written = commit_or_conflict()
    if not written:
        now = _reloaded(game)
        return Written(Outcome.REPEATED if _stored(now, submission) else Outcome.CONFLICT, now)
    return Written(Outcome.DONE, game, after, row)


def undo(game: G, number: str | None, phone: str | None = None) -> Written[G]:
    """Remove the last input; ``number`` is the one the page showed as last. The game's
    history keeps what it held, and which phone (``phone``, its session's short id) undid it."""
    _hold(game)
    inputs = game.inputs()
    if not inputs:
        return Written(Outcome.GONE, game)
    last = inputs[-1]
    if number and number != str(last.number):
        return Written(Outcome.STALE, game, row=last)
    # shares sent for the deal after it are for a deal that is not next any more (cleared
    # before the game is changed, as record() does)
    clear_shares(game)
    changes.note(game, last.number, changes.UNDO, game.input_values(last), None, phone)
    inputs.pop()
    db.session.delete(last)
    if not commit_or_conflict():
        return Written(Outcome.CONFLICT, _reloaded(game), row=last)
    return Written(Outcome.DONE, game, game.state(), last)


def edit(game: G, number: int, entry: Any, version: str | None, phone: str | None = None, shown: str | None = None) -> Written[G]:
    """Change input ``number`` in place, as the page that showed the game at ``version``
    asks; every figure after it follows, if the rules allow the game so changed. The game's
    history keeps the values before and after, and which phone changed them.

    A page the game moved on from is out of date, unless the input it changes still reads
    as it showed it (``shown``, its ``as_shown``): a deal another phone recorded meanwhile
    is no reason to refuse an edit of deal 2, and the rules replay the game as it is now."""
    _hold(game)
    inputs = game.inputs()
    if version and version != str(game.version):
        unchanged = bool(shown) and 1 <= number <= len(inputs) and shown == as_shown(game, inputs[number - 1])
        if not unchanged:
            return Written(Outcome.STALE, game)
    if not 1 <= number <= len(inputs):
        return Written(Outcome.GONE, game)
    entry = _given(entry)
    after = game.replaced(number, entry)
    before = game.input_values(inputs[number - 1])
    inputs[number - 1].set_entry(entry)
    changes.note(game, inputs[number - 1].number, changes.EDIT, before, game.input_values(inputs[number - 1]), phone)
    # an input changed, not the game's row: the version is bumped all the same
    db.session.add(game)
    game.mark_changed()
    if not commit_or_conflict():
        now = _reloaded(game)
        return Written(Outcome.GONE if number > len(now.inputs()) else Outcome.CONFLICT, now)
    return Written(Outcome.DONE, game, after, inputs[number - 1])


def as_shown(game: Game, row: Any) -> str:
    """A short mark of what an input reads (its values as the game's history shows them),
    which an edit page sends back with the change (``edit``)."""
    values = json.dumps(game.input_values(row), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(values.encode()).hexdigest()[:16]


def rematch(game: G, make: Callable[[], G]) -> Written[G]:
    """Start the game ``make`` builds as this game's rematch, once: a second tap, or a second
    phone, finds the rematch made (``TAKEN``, with that game)."""
    if game.rematch_id is not None:
        return Written(Outcome.TAKEN, _rematch_of(game))
    again = make()
    db.session.add(again)
    db.session.flush()
    # bumps this game's version: of two phones racing, the second is refused here
    game.rematch_id = again.id
    if not commit_or_conflict():
        now = _reloaded(game)
        if now.rematch_id is not None:
            return Written(Outcome.TAKEN, _rematch_of(now))
        return Written(Outcome.CONFLICT, now)
    return Written(Outcome.DONE, again)


def _rematch_of(game: G) -> G:
    again = db.session.get(Game, game.rematch_id)
    assert isinstance(again, type(game))
    return again


def rename(player: Player, text: str) -> str:
    """Rename a player in every game they are in; the old name. Refused (``RulesError`` on
    the field ``name``) for a name no player may have, or another player's in any case."""
    name = clean_name(text)
    clash = player_by_name(name, other_than=player.id)
    if clash is not None:
        raise RulesError.about("name", N_("There is already a player called %(name)s.", name=clash.name))
    old = player.name
    player.name = name
    db.session.commit()
    return old
