"""Black Spy in a companion/1 file: its inputs, what they derive, and reading them back.

A game's inputs sit at its top level (rules, players, first dealer, deals by raw points
or by cards); what they derive is written under ``"derived"`` and ignored on import,
where the inputs are replayed through the rules instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any, ClassVar

from companion.exchange.fields import (
    Bad,
    field_of,
    listed,
    names,
    optional,
    parse_id,
    parse_time,
    shown,
    spreadsheet_text,
    timestamp,
    whole,
)
from companion.registry import Rows
from companion.rules import N_, Nn_

from . import rules as bs
from .models import KEY, BlackSpyGame, Deal, DealScore, cards_from_json, score_rows

# deals one game of a file may hold: far above any real game's
MAX_DEALS = 1_000


@dataclass(frozen=True)
class BlackSpyInput:
    """One Black Spy game of a file, checked against the rules and ready to store."""

    kind: ClassVar[str] = KEY

    id: str | None  # None: the game gets a new id
    created_at: datetime | None
    preset: str
    end_value: int | None
    shoot_rule: bool | None
    first_lead: str | None
    setup: bs.Setup
    entries: tuple[bs.DealEntry, ...]
    state: bs.GameState
    id_replaced: bool = False  # the file's id was too short or malformed to keep
    # the game's history of edits and undos, as the file holds it (store/changes.py)
    changes: tuple[dict[str, Any], ...] = ()

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players


def to_json(game: BlackSpyGame) -> dict[str, Any]:
    names = game.player_names
    state = game.state()
    rules = state.setup.rules
    deals: list[dict[str, Any]] = []
    for deal in game.deals:
        if deal.cards is not None:
            deals.append({"cards": dict(zip(names, deal.cards, strict=True)), "shooter": None})
        else:
            shooter = None if deal.shooter is None else names[deal.shooter]
            deals.append({"raw": dict(zip(names, deal.raw or [], strict=True)), "shooter": shooter})
    return {
        "id": game.id,
        "kind": KEY,
        "rules": {
            "preset": game.preset,
            "end_value": game.end_value,
            "shoot_rule": game.shoot_rule,
            "first_lead": game.first_lead,
        },
        "players": list(names),
        "first_dealer": names[game.first_seat],
        "created_at": timestamp(game.created_at),
        "deals": deals,
        "derived": derived_json(state, rules),
    }


def derived_json(state: bs.GameState, rules: bs.RuleSet) -> dict[str, Any]:
    names = state.setup.players

    def by_name(values: Sequence[int]) -> dict[str, int]:
        return dict(zip(names, values, strict=True))

    nxt = state.next
    return {
        "end_value": state.end_value,
        "deal_total": rules.deal_total,
        "finished": state.finished,
        "winners": [names[seat] for seat in state.winners],
        "totals": by_name(state.totals),
        "deals": [
            {
                "number": deal.number,
                "dealer": names[deal.info.dealer],
                "pass": deal.info.pass_.value,
                "raw": by_name(deal.raw),
                "shooter": None if deal.shooter is None else names[deal.shooter],
                "scores": by_name(deal.scores),
                "totals": by_name(deal.totals),
            }
            for deal in state.deals
        ],
        "next": None
        if nxt is None
        else {
            "number": nxt.number,
            "dealer": names[nxt.dealer],
            "pass": nxt.pass_.value,
            "cards_each": nxt.cards_each,
        },
    }


def csv_rows(game: BlackSpyGame) -> Iterable[list[Any]]:
    """One row per player per deal of a Black Spy game, for a spreadsheet (``registry.CSV_COLUMNS``)."""
    state = game.state()
    players = state.setup.players
    rule_set = game.preset or bs.DEFAULT_PRESET.value
    if game.end_value is not None:
        rule_set += f" (end {game.end_value})"
    for deal in state.deals:
        for seat, name in enumerate(players):
            yield [
                game.id,
                game.created_at.date().isoformat(),
                rule_set,
                deal.number,
                spreadsheet_text(players[deal.info.dealer]),
                deal.info.pass_.value,
                spreadsheet_text(name),
                seat + 1,
                deal.raw[seat],
                deal.scores[seat],
                deal.totals[seat],
                "yes" if deal.shooter == seat else "no",
                KEY,
            ]


def _parse_entry(deal: Any, players: tuple[str, ...]) -> bs.DealEntry:
    if not isinstance(deal, dict):
        raise Bad(N_("a deal must be an object"))
    if "cards" in deal and deal["cards"] is not None:
        cards = deal["cards"]
        if not isinstance(cards, dict) or set(cards) != set(players):
            raise Bad(N_("cards must name exactly the players %(players)s", players=list(players)))
        taken = []
        for name in players:
            row = cards[name]
            if not isinstance(row, dict):
                raise Bad(N_("%(name)s's cards must be an object", name=name))
            high = row.get("high_blacks", [])
            if not isinstance(high, list):
                raise Bad(N_("%(name)s's high_blacks must be a list", name=name))
            taken.append(
                cards_from_json(
                    {
                        "black_spies": whole(row.get("black_spies", 0), partial(field_of, name, "black_spies")),
                        "low_blacks": whole(row.get("low_blacks", 0), partial(field_of, name, "low_blacks")),
                        "high_blacks": [whole(card, partial(field_of, name, "high_blacks")) for card in high],
                        "coloured_spies": whole(row.get("coloured_spies", 0), partial(field_of, name, "coloured_spies")),
                    }
                )
            )
        return bs.CardsEntry(tuple(taken))
    raw = deal.get("raw")
    if not isinstance(raw, dict) or set(raw) != set(players):
        raise Bad(N_("raw must name exactly the players %(players)s", players=list(players)))
    shooter = deal.get("shooter")
    if shooter is not None and (not isinstance(shooter, str) or shooter not in players):
        raise Bad(N_("the shooter %(name)s is not a player", name=shown(shooter)))
    return bs.PointsEntry(
        raw=tuple(whole(raw[name], partial(field_of, name, "points")) for name in players),
        shooter=None if shooter is None else players.index(shooter),
    )


def parse(data: dict[str, Any]) -> BlackSpyInput:
    rules_data = data.get("rules", {})
    if not isinstance(rules_data, dict):
        raise Bad(N_("rules must be an object"))
    preset = rules_data.get("preset", bs.DEFAULT_PRESET.value)
    if not isinstance(preset, str):
        raise Bad(N_("rules.preset must be a string"))
    end_value = optional(rules_data.get("end_value"), int, N_("rules.end_value"))
    shoot_rule = optional(rules_data.get("shoot_rule"), bool, N_("rules.shoot_rule"))
    first_lead = optional(rules_data.get("first_lead"), str, N_("rules.first_lead"))
    rules = bs.rule_set(preset, end_value=end_value, shoot_rule=shoot_rule, first_lead=first_lead)
    players = names(data)
    dealer = data.get("first_dealer")
    if not isinstance(dealer, str) or dealer not in players:
        raise Bad(N_("the first dealer %(name)s is not one of the players", name=shown(dealer)))
    setup = bs.new_setup(rules, players, players.index(dealer))
    if setup.players != tuple(players):
        raise Bad(N_("player names must be trimmed and distinct"))
    deals = listed(
        data,
        "deals",
        MAX_DEALS,
        Nn_("a game may have at most %(num)s deal", "a game may have at most %(num)s deals", MAX_DEALS),
    )
    entries = []
    for number, deal in enumerate(deals, start=1):
        try:
            entries.append(_parse_entry(deal, setup.players))
        except Bad as error:
            raise Bad(N_("deal %(number)s: %(problem)s", number=number, problem=error.message)) from None
    state = bs.replay(setup, entries)  # raises, naming the deal, if any deal breaks the rules
    game_id, replaced = parse_id(data.get("id"))
    return BlackSpyInput(
        id=game_id,
        created_at=parse_time(data.get("created_at")),
        preset=rules.preset.value,
        end_value=end_value,
        shoot_rule=shoot_rule,
        first_lead=first_lead,
        setup=setup,
        entries=tuple(entries),
        state=state,
        id_replaced=replaced,
    )


def rows(item: BlackSpyInput, game_id: str, created: datetime) -> Rows:
    """The rows of one checked game of a file, for a bulk import."""
    deals = []
    for number, entry in enumerate(item.entries, start=1):
        stored = Deal(number=number)
        stored.set_entry(entry)
        deals.append(
            {
                "game_id": game_id,
                "number": number,
                "raw": stored.raw,
                "cards": stored.cards,
                "shooter": stored.shooter,
                "created_at": created,
                "submission_id": None,
            }
        )
    return Rows(
        game={
            "preset": item.preset,
            "end_value": item.end_value,
            "shoot_rule": item.shoot_rule,
            "first_lead": item.first_lead,
            "first_seat": item.setup.first_dealer,
        },
        # each deal's scores, for statistics, kept for a finished game alone (models.py keep_more)
        tables={
            Deal: deals,
            DealScore: [{"game_id": game_id, **score} for score in score_rows(item.state) if item.state.finished],
        },
    )
