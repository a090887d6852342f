"""The deck of sixty cards, and that any deal of them scores by the rulebook.

Sixteen cards are black, six of them Black Spies; a deal totals 60 in the standard rules
and 80 in the classic; however the cards fall, counted cards and typed points score alike.

Pure rules: no Flask, no database. Every expected figure comes from the rulebook
(shared/rules/black-spy.md), by way of tests/black_spy_rules_helpers.py, not from the
implementation.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.kinds.black_spy.rules import CLASSIC, STANDARD, Cards, CardsEntry, PointsEntry, score_deal, shoot_candidates
from tests.black_spy_rules_helpers import (
    CLASSIC_COLOURED_SPY,
    CLASSIC_DEAL_TOTAL,
    DECK,
    STANDARD_COLOURED_SPY,
    STANDARD_DEAL_TOTAL,
    card_value,
    players,
)

# --- the deck itself -------------------------------------------------------------------------


def test_the_deck_has_sixty_cards_sixteen_of_them_black_with_six_black_spies():
    assert len(DECK) == 60
    blacks = [card for card in DECK if card[0] == "black"]
    assert len(blacks) == 16
    assert blacks.count(("black", 7)) == 6
    assert sum(card_value(card, STANDARD_COLOURED_SPY) for card in DECK) == STANDARD_DEAL_TOTAL
    assert sum(card_value(card, CLASSIC_COLOURED_SPY) for card in DECK) == CLASSIC_DEAL_TOTAL


def test_each_preset_knows_its_deal_total():
    assert STANDARD.deal_total == STANDARD_DEAL_TOTAL
    assert CLASSIC.deal_total == CLASSIC_DEAL_TOTAL


# --- any way the cards can fall --------------------------------------------------------------


def count_cards(owners: list[int], n: int) -> tuple[Cards, ...]:
    held: list[dict] = [{"black_spies": 0, "low_blacks": 0, "high_blacks": set(), "coloured_spies": 0} for _ in range(n)]
    for (colour, rank), seat in zip(DECK, owners, strict=True):
        mine = held[seat]
        if colour == "black":
            if rank == 7:
                mine["black_spies"] += 1
            elif rank <= 6:
                mine["low_blacks"] += 1
            else:
                mine["high_blacks"].add(rank)
        elif rank == 7:
            mine["coloured_spies"] += 1
    return tuple(
        Cards(
            black_spies=h["black_spies"],
            low_blacks=h["low_blacks"],
            high_blacks=frozenset(h["high_blacks"]),
            coloured_spies=h["coloured_spies"],
        )
        for h in held
    )


@st.composite
def dealt_decks(draw):
    n = draw(st.integers(min_value=3, max_value=6))
    owners = draw(st.lists(st.integers(min_value=0, max_value=n - 1), min_size=60, max_size=60))
    # often enough, one player takes every black card
    shooter = draw(st.none() | st.integers(min_value=0, max_value=n - 1))
    if shooter is not None:
        owners = [shooter if colour == "black" else seat for (colour, _), seat in zip(DECK, owners, strict=True)]
    return n, owners


@settings(max_examples=200, deadline=None)
@given(dealt_decks())
def test_any_deal_of_the_sixty_cards_scores_by_the_rulebook(deal):
    n, owners = deal
    names = players(n)
    cards = count_cards(owners, n)
    blacks = [sum(1 for card, seat in zip(DECK, owners, strict=True) if card[0] == "black" and seat == s) for s in range(n)]
    holder = next((seat for seat in range(n) if blacks[seat] == 16), None)

    for rules, coloured_spy, deal_total, shoots in (
        (STANDARD, STANDARD_COLOURED_SPY, STANDARD_DEAL_TOTAL, True),
        (CLASSIC, CLASSIC_COLOURED_SPY, CLASSIC_DEAL_TOTAL, False),
    ):
        expected_raw = tuple(
            sum(card_value(card, coloured_spy) for card, owner in zip(DECK, owners, strict=True) if owner == seat)
            for seat in range(n)
        )
        by_cards = score_deal(rules, names, CardsEntry(cards))
        assert by_cards.raw == expected_raw
        assert sum(by_cards.raw) == deal_total == rules.deal_total

        shooter = holder if shoots else None
        by_points = score_deal(rules, names, PointsEntry(expected_raw, shooter=shooter))
        assert by_cards == by_points
        assert by_cards.shooter == shooter

        if shooter is None:
            assert by_cards.scores == expected_raw
            assert sum(by_cards.scores) == deal_total
        else:
            assert by_cards.scores == tuple(0 if seat == shooter else deal_total for seat in range(n))
            assert sum(by_cards.scores) == (n - 1) * deal_total
            assert shooter in shoot_candidates(rules, expected_raw)
        if not shoots:
            assert shoot_candidates(rules, expected_raw) == ()
