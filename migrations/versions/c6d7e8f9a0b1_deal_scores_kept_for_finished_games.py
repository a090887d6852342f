"""each deal's scores are kept for a finished game alone: statistics count no open game

A deal added to an open game wrote its players' scores beside it, for statistics that
read finished games only (companion/kinds/black_spy/stats.py). They are now written by
the deal that ends the game, and an open game keeps none: the rows open games hold are
let go. A downgrade gives them back, folded from the deals as the rules score them.

Revision ID: c6d7e8f9a0b1
Revises: b5c6d7e8f9a0
Create Date: 2026-12-05 17:30:00.000000

"""

import json

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "c6d7e8f9a0b1"
down_revision = "b5c6d7e8f9a0"
branch_labels = None
depends_on = None

OPEN_BLACK_SPY = "SELECT id FROM games WHERE kind = 'black-spy' AND finished = :open"


def upgrade():
    op.get_bind().execute(sa.text(f"DELETE FROM deal_scores WHERE game_id IN ({OPEN_BLACK_SPY})"), {"open": False})


def downgrade():
    """Every open game's scores, from a replay of its deals by the pure rules (the tables read as
    they are at this revision)."""
    from companion.kinds.black_spy import rules as bs

    connection = op.get_bind()
    games = (
        connection.execute(
            sa.text(
                "SELECT id, preset, end_value, shoot_rule, first_lead, first_seat FROM games "
                "WHERE kind = 'black-spy' AND finished = :open"
            ),
            {"open": False},
        )
        .mappings()
        .all()
    )
    for game in games:
        names = (
            connection.execute(
                sa.text(
                    "SELECT p.name FROM seats s JOIN players p ON p.id = s.player_id WHERE s.game_id = :game ORDER BY s.position"
                ),
                {"game": game["id"]},
            )
            .scalars()
            .all()
        )
        rules = bs.rule_set(
            game["preset"] or "standard",
            end_value=game["end_value"],
            shoot_rule=game["shoot_rule"],
            first_lead=game["first_lead"],
        )
        entries = []
        for row in connection.execute(
            sa.text("SELECT raw, cards, shooter FROM deals WHERE game_id = :game ORDER BY number"), {"game": game["id"]}
        ).mappings():
            raw, cards = (json.loads(value) if isinstance(value, str) else value for value in (row["raw"], row["cards"]))
            if cards is not None:
                entries.append(
                    bs.CardsEntry(
                        tuple(
                            bs.Cards(c["black_spies"], c["low_blacks"], frozenset(c["high_blacks"]), c["coloured_spies"])
                            for c in cards
                        )
                    )
                )
            else:
                entries.append(bs.PointsEntry(tuple(raw), row["shooter"]))
        state = bs.replay(bs.Setup(rules, tuple(names), game["first_seat"]), entries)
        connection.execute(sa.text("DELETE FROM deal_scores WHERE game_id = :game"), {"game": game["id"]})
        for deal in state.deals:
            for seat in range(len(names)):
                connection.execute(
                    sa.text(
                        "INSERT INTO deal_scores (game_id, number, seat, raw, score, shot) "
                        "VALUES (:game, :number, :seat, :raw, :score, :shot)"
                    ),
                    {
                        "game": game["id"],
                        "number": deal.number,
                        "seat": seat,
                        "raw": deal.raw[seat],
                        "score": deal.scores[seat],
                        "shot": deal.shooter == seat,
                    },
                )
