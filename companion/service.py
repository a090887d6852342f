"""One write path for every kind of game: start, record, undo, edit and rematch.

A view parses its form and asks its kind's rules whether the input may be played; then
it hands the rows to this module, which owns the steps every write shares:

- a submission already stored (a double tap, a page sent twice, a queue replayed after
  the Wi-Fi came back) is not stored again;
- an input numbered for another place than the next (the page was out of date) is
  refused, and so is a write whose game another phone changed meanwhile (its version);
- the commit, with the kept figures brought up to date by the session on every flush
  (companion/models.py), never by a call a view could forget;
- the outcome, which the view turns into a page.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from sqlalchemy import select

from . import kinds
from .extensions import db
from .models import Game, commit_or_conflict


class Outcome(Enum):
    DONE = "done"  # written
    REPEATED = "repeated"  # this submission was stored before: nothing new written
    STALE = "stale"  # the page was out of date: nothing written
    CONFLICT = "conflict"  # another phone's write won the race: nothing written


@dataclass(frozen=True)
class Written:
    outcome: Outcome
    game: Game  # as it is now: reloaded after a refusal

    @property
    def done(self) -> bool:
        return self.outcome is Outcome.DONE


def _reloaded(game_id: str) -> Game:
    db.session.expire_all()
    game = db.session.get(Game, game_id)
    assert game is not None
    return game


def _stored(model: Any, submission: str | None) -> bool:
    return bool(submission) and db.session.scalar(select(model.id).where(model.submission_id == submission)) is not None


def posted_number(text: str) -> int | None:
    """The number a page showed for the input it sends (a deal's, a round's), or None for
    one no page shows: blank, not a whole number, 0, or longer than any game."""
    return int(text) if text.isdecimal() and len(text) <= 6 and int(text) >= 1 else None


def start(game: Game) -> Written:
    """Store a new game (a first game, an import of one, or nothing else)."""
    db.session.add(game)
    db.session.commit()
    return Written(Outcome.DONE, game)


def refusal(game: Game, model: Any, submission: str | None, posted_number: str | None) -> Outcome | None:
    """Why an input cannot be appended whatever it holds, before the rules read it: it was
    stored already, or the page that sent it was out of date. None when it may go on."""
    if _stored(model, submission):
        return Outcome.REPEATED
    if posted_number and posted_number != str(len(kinds.of(game).inputs(game)) + 1):
        return Outcome.STALE
    return None


def record(game: Game, row: Any, submission: str | None, posted_number: str | None) -> Written:
    """Append one input (a deal, a turn, a round, the end) as the game's next.

    ``posted_number`` is the number the page showed for it: another number means the
    page was out of date.
    """
    inputs = kinds.of(game).inputs(game)
    model = type(row)
    refused = refusal(game, model, submission, posted_number)
    if refused is not None:
        return Written(refused, game)
    row.number = len(inputs) + 1
    row.submission_id = submission
    # named now, not at the flush: the session finds the game an input belongs to by it
    row.game_id = game.id
    inputs.append(row)
    if not commit_or_conflict():
        game = _reloaded(game.id)
        return Written(Outcome.REPEATED if _stored(model, submission) else Outcome.CONFLICT, game)
    return Written(Outcome.DONE, game)


def undo(game: Game, posted_number: str | None) -> Written:
    """Remove the last input; ``posted_number`` is the one the page showed as last."""
    inputs = kinds.of(game).inputs(game)
    if not inputs or (posted_number and posted_number != str(inputs[-1].number)):
        return Written(Outcome.STALE, game)
    last = inputs.pop()
    db.session.delete(last)
    if not commit_or_conflict():
        return Written(Outcome.CONFLICT, _reloaded(game.id))
    return Written(Outcome.DONE, game)


def edit(game: Game, number: int, change: Callable[[Any], None], posted_version: str | None) -> Written:
    """Change input ``number`` in place (the rules have checked the game after it)."""
    if posted_version and posted_version != str(game.version):
        return Written(Outcome.STALE, game)
    change(kinds.of(game).inputs(game)[number - 1])
    # an input changed, not the game's row: the version is bumped all the same
    db.session.add(game)
    game.mark_changed()
    if not commit_or_conflict():
        return Written(Outcome.CONFLICT, _reloaded(game.id))
    return Written(Outcome.DONE, game)


def rematch(game: Game, again: Game) -> Written:
    """Start ``again`` as this game's rematch, once: a second phone finds it made."""
    db.session.add(again)
    db.session.flush()
    # bumps this game's version: of two phones racing, the second is refused here
    game.rematch_id = again.id
    if not commit_or_conflict():
        return Written(Outcome.CONFLICT, _reloaded(game.id))
    return Written(Outcome.DONE, again)
