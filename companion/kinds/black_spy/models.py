"""Black Spy's rows: the game's rule set, each deal as the table entered it, and each
deal's scores kept from the replay for statistics in SQL. Everything else is derived."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar, cast

from sqlalchemy import JSON, ForeignKey, Index, String, Table, UniqueConstraint, delete, insert, inspect, select, update
from sqlalchemy.orm import Mapped, mapped_column, relationship

from companion.store.base import Model, utcnow
from companion.store.games import Game, KeptFigures, Seat
from companion.store.players import player_named

from . import rules as bs

KEY = "black-spy"


class Deal(Model):
    """One deal as the table entered it: raw points, or the cards each player took."""

    __tablename__ = "deals"
    # an input of its game: a change to it rewrites the game's kept figures (companion/store/figures.py)
    input_of_game = True
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    number: Mapped[int]
    # raw points by seat, for a deal entered by points
    raw: Mapped[list[int] | None] = mapped_column(JSON)
    # per seat {"black_spies", "low_blacks", "high_blacks", "coloured_spies"}, by cards
    cards: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)
    # the seat the table said took all 16 black cards (points entry only)
    shooter: Mapped[int | None]
    # one per form shown: a replayed or double-tapped post is recorded once
    submission_id: Mapped[str | None] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    # what an entry is read from, in a row or in this object (Game.input_log reads rows)
    entry_columns: ClassVar[tuple[str, ...]] = ("raw", "cards", "shooter")

    @staticmethod
    def entry_of(values: Any) -> bs.DealEntry:
        if values.cards is not None:
            return bs.CardsEntry(tuple(cards_from_json(taken) for taken in values.cards))
        return bs.PointsEntry(raw=tuple(values.raw or ()), shooter=values.shooter)

    def entry(self) -> bs.DealEntry:
        return self.entry_of(self)

    def set_entry(self, entry: bs.DealEntry) -> None:
        if isinstance(entry, bs.CardsEntry):
            self.cards = [cards_to_json(taken) for taken in entry.cards]
            self.raw, self.shooter = None, None
        else:
            self.raw, self.shooter, self.cards = list(entry.raw), entry.shooter, None


class DealScore(Model):
    """One player's result in one deal, kept from the replay for statistics in SQL."""

    __tablename__ = "deal_scores"
    __table_args__ = (Index("ix_deal_scores_game_seat", "game_id", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    seat: Mapped[int]
    raw: Mapped[int]
    score: Mapped[int]
    shot: Mapped[bool]


SCORES = cast(Table, DealScore.__table__)


class BlackSpyGame(Game):
    """A game of Black Spy: its rule set (the preset and the table's house rules) and its deals."""

    __mapper_args__ = {"polymorphic_identity": KEY}  # noqa: RUF012  (SQLAlchemy reads it off the class)
    input_collections: ClassVar[tuple[str, ...]] = ("deals",)
    input_model: ClassVar[Any] = Deal

    # None: the preset's own
    preset: Mapped[str | None] = mapped_column(String(16))
    end_value: Mapped[int | None]
    shoot_rule: Mapped[bool | None]
    first_lead: Mapped[str | None] = mapped_column(String(16))
    # how the table enters its deals ("points" or "cards"): as it recorded the last one, so
    # that the game page opens on that form after a reload, an edit or an undo
    entry_mode: Mapped[str | None] = mapped_column(String(8))

    deals: Mapped[list[Deal]] = relationship(order_by="Deal.number", cascade="all, delete-orphan")
    scores: Mapped[list[DealScore]] = relationship(cascade="all, delete-orphan")

    def rules(self) -> bs.RuleSet:
        return bs.rule_set(
            self.preset or bs.DEFAULT_PRESET,
            end_value=self.end_value,
            shoot_rule=self.shoot_rule,
            first_lead=self.first_lead,
        )

    def setup(self) -> bs.Setup:
        return bs.Setup(rules=self.rules(), players=self.player_names, first_dealer=self.first_seat)

    def entries(self) -> list[bs.DealEntry]:
        return self.logged_entries()

    def state(self) -> bs.GameState:
        return bs.replay(self.setup(), self.entries())

    def inputs(self) -> list[Deal]:
        return self.deals

    def played(self, entry: bs.DealEntry) -> bs.GameState:
        """The game after one more deal; the rules refuse it once the game is over."""
        return bs.record(self.setup(), self.entries(), entry)

    def replaced(self, number: int, entry: bs.DealEntry) -> bs.GameState:
        """The game with deal ``number`` as the table now says it; every later figure follows."""
        return bs.edit(self.setup(), self.entries(), number - 1, entry)

    def input_values(self, row: Deal) -> dict[str, str]:
        # each player's raw points, as typed or as their cards count
        rules, entry = self.rules(), row.entry()
        if isinstance(entry, bs.CardsEntry):
            raw = [taken.points(rules) for taken in entry.cards]
        else:
            raw = list(entry.raw)
        values = {name: str(points) for name, points in zip(self.player_names, raw, strict=True)}
        if entry.shooter is not None:
            values[self.player_names[entry.shooter]] += f" ({bs.BLACK_CARDS})"
        return values

    def input_row(self, entry: bs.DealEntry) -> Deal:
        deal = Deal()
        deal.set_entry(entry)
        return deal

    @classmethod
    def kept_figures(cls, state: bs.GameState) -> KeptFigures:
        seats = range(state.setup.size)
        return KeptFigures(
            finished=state.finished,
            rounds=len(state.deals),
            next_seat=None if state.next is None else state.next.dealer,
            totals=tuple(state.totals),
            won=tuple(seat in state.winners for seat in seats),
        )

    def keep_more(self, state: bs.GameState) -> None:
        """Keep each deal's scores while the game is finished, for its players' statistics
        (stats.py counts finished games alone): the deal that ends the game writes them, and
        an undo that opens it again lets them go. An open game keeps none, so the write of
        every few minutes, a deal added to an open game, writes none (store/appending.py:
        0.3 ms of a deal's POST on PostgreSQL, a round trip and six rows)."""
        rows = score_rows(state) if state.finished else []
        session = inspect(self).session
        if session is None or self in session.new or "scores" in self.__dict__:
            self._keep_loaded_scores(rows)
        elif rows:
            self._keep_stored_scores(rows)
        else:
            # none kept while open; some from before (a game kept then, reopened now)
            session.execute(delete(DealScore).where(DealScore.game_id == self.id))

    def keep_appended(self, state: bs.GameState, row: Deal) -> None:
        """A deal added to a game that stays open (store/appending.py): nothing to keep."""

    def _keep_stored_scores(self, rows: Sequence[dict[str, Any]]) -> None:
        """A finished game already stored (the deal that ended it, an edit of it): its kept
        scores read as plain rows and the difference written in statements. A Python object per
        deal and seat (300 in a 50-deal game of six) was a quarter of a deal's POST
        (benchmarks/profile_page.py deal-post)."""
        session = inspect(self).session
        assert session is not None
        kept = {
            (number, seat): (score_id, (raw, score, shot))
            for score_id, number, seat, raw, score, shot in session.execute(
                select(DealScore.id, DealScore.number, DealScore.seat, DealScore.raw, DealScore.score, DealScore.shot).where(
                    DealScore.game_id == self.id
                )
            )
        }
        added, changed = [], []
        for row in rows:
            found = kept.pop((row["number"], row["seat"]), None)
            if found is None:
                added.append({"game_id": self.id, **row})
            elif found[1] != (row["raw"], row["score"], row["shot"]):
                changed.append({"id": found[0], "raw": row["raw"], "score": row["score"], "shot": row["shot"]})
        if added:
            # the table's insert on the connection, not the session's bulk insert of objects'
            # rows: the deal that ends a game of 60 deals of six writes 360 (5.6 → 4.5 ms on SQLite)
            session.connection().execute(insert(SCORES), added)
        if changed:
            session.execute(update(DealScore), changed)
        if kept:
            session.execute(delete(DealScore).where(DealScore.id.in_([score_id for score_id, _ in kept.values()])))

    def _keep_loaded_scores(self, rows: Sequence[dict[str, Any]]) -> None:
        """As keep_more, through the collection: a new game's, or one already loaded."""
        kept = {(score.number, score.seat): score for score in self.scores}
        for row in rows:
            score = kept.pop((row["number"], row["seat"]), None)
            if score is None:
                self.scores.append(DealScore(**row))
            elif (score.raw, score.score, score.shot) != (row["raw"], row["score"], row["shot"]):
                # set only what changed: each set is an event and a history entry, and in a
                # long game all but the new deal's rows are the same
                score.raw, score.score, score.shot = row["raw"], row["score"], row["shot"]
        for gone in kept.values():
            self.scores.remove(gone)

    @classmethod
    def started(
        cls, setup: bs.Setup, house: HouseRules, entries: Sequence[bs.DealEntry] = (), seen: datetime | None = None
    ) -> BlackSpyGame:
        """A new game's rows, seated as the setup says (and its deals, for an imported one)."""
        game = cls(
            preset=house.preset,
            end_value=house.end_value,
            shoot_rule=house.shoot_rule,
            first_lead=house.first_lead,
            first_seat=setup.first_dealer,
        )
        game.seats = [Seat(position=position, player=player_named(name, seen)) for position, name in enumerate(setup.players)]
        for number, entry in enumerate(entries, start=1):
            deal = Deal(number=number)
            deal.set_entry(entry)
            game.deals.append(deal)
        return game

    def house_rules(self) -> HouseRules:
        return HouseRules(self.preset or bs.DEFAULT_PRESET.value, self.end_value, self.shoot_rule, self.first_lead)


@dataclass(frozen=True)
class HouseRules:
    """A game's rule set as stored: the preset and what the table changed."""

    preset: str
    end_value: int | None = None
    shoot_rule: bool | None = None
    first_lead: str | None = None


def score_rows(state: bs.GameState) -> list[dict[str, Any]]:
    """Each deal's result for each seat, as deal_scores keeps them (without their game)."""
    return [
        {"number": deal.number, "seat": seat, "raw": deal.raw[seat], "score": deal.scores[seat], "shot": deal.shooter == seat}
        for deal in state.deals
        for seat in range(state.setup.size)
    ]


def cards_to_json(taken: bs.Cards) -> dict[str, Any]:
    return {
        "black_spies": taken.black_spies,
        "low_blacks": taken.low_blacks,
        "high_blacks": sorted(taken.high_blacks),
        "coloured_spies": taken.coloured_spies,
    }


def cards_from_json(data: dict[str, Any]) -> bs.Cards:
    return bs.Cards(
        black_spies=data["black_spies"],
        low_blacks=data["low_blacks"],
        high_blacks=frozenset(data["high_blacks"]),
        coloured_spies=data["coloured_spies"],
    )


def share_to_json(share: bs.Share) -> dict[str, Any]:
    """A player's pending share of a deal as companion/store/shares.py keeps it."""
    kept: dict[str, Any] = {"shot": share.shot}
    if share.cards is not None:
        kept["cards"] = cards_to_json(share.cards)
    else:
        kept["points"] = share.points
    return kept


def share_from_json(data: dict[str, Any]) -> bs.Share:
    cards = data.get("cards")
    return bs.Share(points=data.get("points"), cards=None if cards is None else cards_from_json(cards), shot=data.get("shot"))
