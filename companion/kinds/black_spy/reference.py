"""Black Spy's rules at a glance: the short version for the table, for the rule set asked
for, or for the game the reader came from (its house rules named as such)."""

from __future__ import annotations

from dataclasses import fields

from flask import render_template, request

from companion.store.base import db
from companion.store.games import Game
from companion.web.reference import back_to, or_list

from . import rules as bs
from .models import BlackSpyGame

# what a preset may change, as the classic page compares it with the standard rules
_COMPARED = tuple(field.name for field in fields(bs.RuleSet) if field.name not in ("preset", "custom_end_value"))
# each house rule (RuleSet.house_rules) and the preset's difference it takes the place of
_REPLACED = {"end_value": "end_values", "shoot_rule": "shoot_rule", "first_lead": "first_lead"}


def page() -> str:
    # a Preset is a str enum, so the preset's name finds it; anything else gets the standard
    preset = bs.PRESETS.get(
        bs.Preset(asked) if (asked := request.args.get("rules", "")) in bs.PRESETS else bs.DEFAULT_PRESET, bs.STANDARD
    )
    # from a game played by this preset: that game's rules, its house rules named as such
    game = _game_of(back_to())
    from_game = game is not None and game.rules().preset == preset.preset
    rules = game.rules() if game is not None and from_game else preset
    house = rules.house_rules()
    # what a house rule replaces is the game's rule, not the preset's, so it is not told twice
    changes = differences(preset, bs.STANDARD) - {_REPLACED[name] for name in house}
    groups = rules.pass_groups()
    directions = {direction for cycle, _ in groups for direction in cycle}
    across = [players for cycle, counts in groups if bs.Pass.ACROSS in cycle for players in counts]
    end_values = {rules.end_value(players) for players in rules.player_counts}
    return render_template(
        "black_spy/rules.html",
        rules=rules,
        standard=bs.STANDARD,
        presets=tuple(bs.PRESETS),
        changes=changes,
        by_players=[
            {"players": players, "cards_each": rules.cards_each(players), "end_value": rules.end_value(players)}
            for players in rules.player_counts
        ],
        deck_size=bs.DECK_SIZE,
        passed_cards=bs.PASSED_CARDS,
        pass_groups=groups,
        directions=directions,
        across_players=across,
        across_seats=bs.Pass.ACROSS.receiver(0, across[0]) if across else None,
        single_pass=next(iter(directions)) if len(directions) == 1 else None,
        single_end_value=next(iter(end_values)) if len(end_values) == 1 else None,
        low_ranks=range(1, bs.LOW_BLACKS + 1),
        spy_rank=bs.BLACK_SPY_RANK,
        black_spies=bs.BLACK_SPIES,
        low_blacks=bs.LOW_BLACKS,
        high_blacks=bs.HIGH_BLACKS,
        coloured_spies=bs.COLOURED_SPIES,
        black_cards=bs.BLACK_CARDS,
        coloured_points=bs.COLOURED_SPIES * rules.coloured_spy_points,
        # the page says what a shoot scores even where the preset leaves the rule off
        shooter_score=bs.SHOOTER_SCORE,
        others_score=rules.deal_total,
        or_list=or_list,
        back_to=back_to(),
        from_game=from_game,
        house_rules=house,
    )


def _game_of(game_id: str | None) -> BlackSpyGame | None:
    game = db.session.get(Game, game_id) if game_id else None
    return game if isinstance(game, BlackSpyGame) else None


def differences(rules: bs.RuleSet, standard: bs.RuleSet) -> frozenset[str]:
    """The names of what ``rules`` does differently from ``standard``, the deal total included."""
    changed = {name for name in _COMPARED if getattr(rules, name) != getattr(standard, name)}
    if rules.deal_total != standard.deal_total:
        changed.add("deal_total")
    return frozenset(changed)
