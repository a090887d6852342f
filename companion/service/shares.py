"""Each player's own share of the next deal or round, sent from their own phone: the write
that stores it, and records the whole once every seat's is in and the rules accept it.

Six phones may send at the same moment: each waits its turn at the game's row lock, reads
the game as the one before it left it, and stores its share; the one that completes the
set records the deal, through the same steps as the scorer's form (``service.record``).
A share sent twice (a double tap, a replay after the Wi-Fi came back) is stored once; one
sent for a deal already recorded is refused, and says so.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from sqlalchemy import select

from ..rules import RulesError, Unanswered
from ..store.base import db
from ..store.figures import commit_or_conflict
from ..store.games import Game, Seat
from ..store.shares import SeatShare, clear, new_link, pending
from . import _given, _hold, _stored, posted_number

# a commit that lost a race is tried again, with the game as the winner left it
ATTEMPTS = 5


class Shared(Enum):
    WAITING = "waiting"  # stored; other seats are still to send theirs
    RECORDED = "recorded"  # stored, and it completed the deal, which is recorded
    RECOUNT = "recount"  # every share is in, and the whole does not add up: nothing recorded
    ASKED = "asked"  # every share is in and adds up; the table must answer a question first
    REPEATED = "repeated"  # this submission was stored before: nothing new written
    STALE = "stale"  # sent for another deal than the next (recorded or undone since)
    OVER = "over"  # the game is over: there is no next deal


@dataclass(frozen=True)
class Entered:
    outcome: Shared
    game: Game
    number: int  # the deal or round the share was for
    error: RulesError | None = None  # why the table must recount
    asked: tuple[int, ...] = ()  # the seats a question is asked of
    state: Any = None  # the game after the deal, once recorded
    extra: dict[str, Any] = field(default_factory=dict)


def enter(
    game: Game,
    seat: int,
    number: str | None,
    share: Mapping[str, Any] | Callable[[], Mapping[str, Any]],
    submission: str | None,
    combine: Callable[[Mapping[int, Mapping[str, Any]]], Any],
) -> Entered:
    """Store ``seat``'s ``share`` of the deal numbered ``number`` (as the seat's page showed
    it). ``share`` is the share, or what reads it from the form (called once the deal is known
    to be the next: a share sent late is told so before anything about its numbers).
    ``combine`` makes the game's input of every seat's share, or raises the rules'
    ``RulesError`` (recount) or ``Unanswered``."""
    submission = (submission or "")[:64] or None
    for _attempt in range(ATTEMPTS):
        entered = _enter(game, seat, number, share, submission, combine)
        if entered is not None:
            return entered
        game = _fresh(game)
    raise RuntimeError("a share lost the race for its game five times")  # pragma: no cover


def _fresh(game: Game) -> Game:
    db.session.expire_all()
    now = db.session.get(Game, game.id)
    assert now is not None
    return now


def _enter(
    game: Game,
    seat: int,
    number: str | None,
    share: Mapping[str, Any] | Callable[[], Mapping[str, Any]],
    submission: str | None,
    combine: Callable[[Mapping[int, Mapping[str, Any]]], Any],
) -> Entered | None:
    _hold(game)
    # the lock is held now: read the game as the last phone before this one left it
    game = _fresh(game)
    inputs = game.inputs()
    next_number = len(inputs) + 1
    stored = db.session.scalar(select(SeatShare).where(SeatShare.game_id == game.id, SeatShare.submission_id == submission))
    if submission and (stored is not None or _stored(game, submission)):
        return Entered(Shared.REPEATED, game, stored.number if stored else next_number - 1)
    posted = posted_number(number) or next_number
    if posted != next_number:
        return Entered(Shared.STALE, game, posted)
    if game.finished:
        return Entered(Shared.OVER, game, posted)
    share = _given(share)
    row = db.session.get(SeatShare, (game.id, seat)) or SeatShare(game_id=game.id, seat=seat)
    row.number, row.share, row.submission_id = next_number, dict(share), submission
    db.session.add(row)
    db.session.flush()
    shares = {seat: kept.share for seat, kept in pending(game).items()}
    entered = Entered(Shared.WAITING, game, next_number)
    if len(shares) == len(game.seats):
        try:
            entry = combine(shares)
            after = game.played(entry)
        except Unanswered as question:
            entered = Entered(Shared.ASKED, game, next_number, asked=question.seats)
        except RulesError as error:
            entered = Entered(Shared.RECOUNT, game, next_number, error=error)
        else:
            clear(game)
            made = game.input_row(entry)
            made.number, made.submission_id, made.game_id = next_number, submission, game.id
            inputs.append(made)
            entered = Entered(Shared.RECORDED, game, next_number, state=after)
    # who has sent their share shows on every phone's page: the game's version follows
    game.mark_changed()
    if not commit_or_conflict():
        return None
    return entered


def links(game: Game, renew: bool = False) -> list[Seat]:
    """The game's seat links, made the first time they are asked for; ``renew`` makes new
    ones, and the old ones open nothing from then on."""
    seats = list(game.seats)
    if renew or any(seat.link is None for seat in seats):
        for seat in seats:
            seat.link = new_link()
        # the game's pages change with them (the scorer's asks for the shares from then on):
        # a new version, so no phone is answered with a page kept from before
        game.mark_changed()
        db.session.commit()
    return seats


def carry_links(game: Game, again: Game) -> None:
    """A rematch of a game whose players entered their own shares gets seat links of its
    own as it is made (a write of the scorer's), so each player's page can lead there."""
    if game.seats and game.seats[0].link is not None:
        links(again)


def rematch_seat(game: Game, seat: int) -> Seat | None:
    """The seat of this seat's player in the game's rematch, when it has a link: a player's
    own phone follows the table to the next game. Read only (a seat's page is a read): None
    when there is no rematch (or it was deleted), it has no links, or this player is not in it."""
    if game.rematch_id is None:
        return None
    again = db.session.get(Game, game.rematch_id)
    if again is None or type(again) is not type(game):
        return None
    player = game.seats[seat].player_id
    return next((place for place in again.seats if place.player_id == player and place.link), None)
