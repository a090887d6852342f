"""What a page carries from the rules to go on while the server cannot be reached."""

from __future__ import annotations

import re

import pytest

from companion.kinds.black_spy import forms
from companion.kinds.black_spy import rules as bs
from companion.rules import RulesError

PLAYERS = ("Ana", "Ben", "Cy", "Dee")


def fill(sentence: str, /, **values: object) -> str:
    """The page's filling of a sentence's slots (offline-page.js does the same)."""
    return re.sub(r"\{(\w+)\}", lambda slot: str(values[slot.group(1)]), str(sentence))


def refusal(work) -> dict[str, str]:
    with pytest.raises(RulesError) as refused:
        work()
    return {field: str(message) for field, message in refused.value.errors.items()}


def test_the_upcoming_deals_are_the_deals_the_rules_give_after_the_next_one() -> None:
    setup = bs.Setup(bs.STANDARD, PLAYERS, first_dealer=2)
    state = bs.replay(setup, [bs.PointsEntry((20, 15, 25, 0))])
    ahead = bs.upcoming(state, 12)
    assert [info.number for info in ahead] == list(range(3, 15))
    assert ahead == tuple(bs.deal_info(setup, number) for number in range(3, 15))
    # four players pass left, right, across: deal 3 across, and round again from deal 4
    assert [info.pass_.value for info in ahead[:4]] == ["across", "left", "right", "across"]
    assert [info.dealer for info in ahead[:4]] == [0, 1, 2, 3]


def test_a_finished_game_has_no_upcoming_deal() -> None:
    rules = bs.STANDARD.with_house_rules(end_value=10)
    state = bs.replay(bs.Setup(rules, PLAYERS, 0), [bs.PointsEntry((20, 15, 25, 0))])
    assert state.finished
    assert bs.upcoming(state, 12) == ()


@pytest.mark.parametrize("rules", [bs.STANDARD, bs.CLASSIC], ids=["standard", "classic"])
def test_the_checks_carry_the_rule_sets_numbers(rules: bs.RuleSet) -> None:
    checks = forms.deal_checks(rules, PLAYERS)
    assert (checks["deal_total"], checks["least"], checks["most"]) == (rules.deal_total, rules.min_raw, rules.max_raw)
    assert checks["shoot_threshold"] == (rules.shoot_threshold if rules.shoot_rule else None)
    assert checks["counts"] == [[key, most] for key, most, _ in rules.card_counts]


def test_the_checks_sentences_filled_in_are_the_ones_the_rules_say() -> None:
    say = forms.deal_checks(bs.STANDARD, PLAYERS)["say"]

    def points(*texts: str) -> dict[str, str]:
        return refusal(lambda: forms.parse_points(bs.STANDARD, PLAYERS, texts))

    assert points("20", "", "25", "0")["points-1"] == fill(say["missing"], name="Ben")
    assert points("20", "1x", "25", "0")["points-1"] == fill(say["not_whole"], name="Ben", text="1x")
    assert points("2000000000", "15", "25", "0")["points-0"] == fill(say["too_long"], name="Ana")
    assert points("100", "15", "25", "0")["points-0"] == fill(say["impossible"], name="Ana", points=100)
    assert points("20", "15", "25", "1")["total"] == fill(say["sum"], total=61)
    assert points("60", "60", "0", "60")["total"] == fill(say["as_scores"], name="Cy")
    assert forms.deal_checks(bs.STANDARD, PLAYERS)["shoot_scores"][2] == [60, 60, 0, 60]


def test_the_checks_sentences_for_counted_cards_are_the_ones_the_rules_say() -> None:
    say = forms.deal_checks(bs.STANDARD, PLAYERS)["say"]

    def cards(form: dict[str, str], rest: int | None) -> dict[str, str]:
        return refusal(lambda: forms.parse_cards(PLAYERS, form, rest, rules=bs.STANDARD))

    assert cards({"black_spies-0": "x"}, 3)["black_spies-0"] == fill(say["count_not_a_number"]["black_spies"], name="Ana")
    assert cards({"low_blacks-1": "7"}, 3)["low_blacks-1"] == fill(say["count_out_of_range"]["low_blacks"], name="Ben")
    assert cards({"black_spies-0": "4", "black_spies-1": "3", "black_spies-2": "0"}, 3)["black_spies-total"] == fill(
        say["others_took"]["black_spies"], taken=7
    )
    assert cards({}, None)["high-8"] == str(say["high_untaken"]["8"])
    assert cards({}, 0) == {f"black_spies-{seat}": fill(say["row_blank"], name=PLAYERS[seat]) for seat in (1, 2, 3)}
    assert cards({"black_spies-1": "1", "low_blacks-3": "0"}, 0) == {"black_spies-2": fill(say["row_blank"], name="Cy")}
    every_high = {f"high-{card}": "0" for card in bs.HIGH_BLACKS}
    zeros = {f"black_spies-{seat}": "0" for seat in (1, 2, 3)}
    taken = forms.parse_cards(PLAYERS, {**every_high, **zeros, "black_spies-0": "5"}, None, rules=bs.STANDARD)
    checked = refusal(lambda: bs.check_cards(bs.STANDARD, PLAYERS, taken))
    assert checked["black_spies-total"] == fill(say["deck_count"]["black_spies"], total=5)
