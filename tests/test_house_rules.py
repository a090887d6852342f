"""House rules: a rule set says what the table changed from its preset, and nothing else."""

from __future__ import annotations

import pytest

from companion.kinds.black_spy import rules as bs


@pytest.mark.parametrize("preset", list(bs.PRESETS.values()), ids=lambda rules: rules.preset.value)
def test_a_preset_as_it_comes_has_no_house_rules(preset: bs.RuleSet) -> None:
    assert preset.house_rules() == frozenset()


@pytest.mark.parametrize("preset", [preset.value for preset in bs.Preset])
def test_a_house_rule_that_repeats_the_preset_is_no_house_rule(preset: str) -> None:
    rules = bs.PRESETS[bs.Preset(preset)]
    same = bs.rule_set(preset, shoot_rule=rules.shoot_rule, first_lead=rules.first_lead.value)
    assert same.house_rules() == frozenset()


def test_an_end_value_every_player_count_already_ends_at_is_no_house_rule() -> None:
    (end_value,) = set(bs.CLASSIC.end_values.values())
    assert bs.rule_set("classic", end_value=end_value).house_rules() == frozenset()


def test_an_end_value_of_one_player_count_changes_the_others() -> None:
    # the standard rules end a 4-player game at 150, but a 3-player one elsewhere
    assert bs.rule_set("standard", end_value=bs.STANDARD.end_value(4)).house_rules() == {"end_value"}


def test_each_house_rule_is_named_once() -> None:
    rules = bs.rule_set("classic", end_value=50, shoot_rule=True, first_lead="dealer-right")
    assert rules.house_rules() == {"end_value", "shoot_rule", "first_lead"}
    assert bs.rule_set("standard", shoot_rule=False).house_rules() == {"shoot_rule"}
    assert bs.rule_set("standard", first_lead="dealer-left").house_rules() == {"first_lead"}
