"""Rules at a glance: the short version of each game's rules, for a player at the table.

Every figure on these pages comes from the rules modules; the templates only word them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import fields

from babel.lists import format_list
from flask import Blueprint, render_template, request
from flask_babel import format_decimal

from . import kinds
from .extensions import db
from .i18n import language, say
from .models import Game
from .rules import black_spy as bs
from .rules import spy as sr

bp = Blueprint("reference", __name__, url_prefix="/rules")
GAME_ID = re.compile(r"[A-Za-z0-9]{4,32}")

# what a preset may change, as the classic page compares it with the standard rules
_COMPARED = tuple(field.name for field in fields(bs.RuleSet) if field.name not in ("preset", "custom_end_value"))
# each house rule (RuleSet.house_rules) and the preset's difference it takes the place of
_REPLACED = {"end_value": "end_values", "shoot_rule": "shoot_rule", "first_lead": "first_lead"}


def or_list(values: Iterable[object]) -> str:
    """Numbers or words as the reader's language offers a choice: "1 or 2", "1 o 2"."""
    return format_list([_word(value) for value in values], style="or", locale=language())


def and_list(values: Iterable[object]) -> str:
    """Numbers or words as the reader's language lists them: "green and red"."""
    return format_list([_word(value) for value in values], locale=language())


def _word(value: object) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return format_decimal(value)
    # a rules message (a colour's name, say) in the reader's language
    return str(say(value))


def back_to() -> str | None:
    """The game the reader came from, to offer a way back: an installed app has no back button."""
    game = request.args.get("game", "")
    return game if GAME_ID.fullmatch(game) else None


@bp.get("/black-spy")
def black_spy() -> str:
    """Show Black Spy's rules at a glance for the rule set asked for, standard if unknown."""
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
    low_ranks = range(1, bs.LOW_BLACKS + 1)
    groups = rules.pass_groups()
    directions = {direction for cycle, _ in groups for direction in cycle}
    across = [players for cycle, counts in groups if bs.Pass.ACROSS in cycle for players in counts]
    end_values = {rules.end_value(players) for players in rules.player_counts}
    return render_template(
        "reference/black_spy.html",
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
        low_ranks=low_ranks,
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


def _game_of(game_id: str | None) -> Game | None:
    game = db.session.get(Game, game_id) if game_id else None
    return game if game is not None and kinds.of(game).reference == "reference.black_spy" else None


def differences(rules: bs.RuleSet, standard: bs.RuleSet) -> frozenset[str]:
    """The names of what ``rules`` does differently from ``standard``, the deal total included."""
    changed = {name for name in _COMPARED if getattr(rules, name) != getattr(standard, name)}
    if rules.deal_total != standard.deal_total:
        changed.add("deal_total")
    return frozenset(changed)


@bp.get("/spy")
def spy() -> str:
    """Show Spy's rules at a glance."""
    by_players = []
    for players in range(sr.MIN_PLAYERS, sr.MAX_PLAYERS + 1):
        colours = sr.allowed_colours(players)
        by_players.append(
            {
                "players": players,
                "colours": colours,
                "base_sizes": sorted({sr.base_size(colour, players) for colour in colours}),
                "bombs": sorted({sr.bombs_in_base(colour, players) for colour in colours}),
            }
        )
    return render_template(
        "reference/spy.html",
        min_players=sr.MIN_PLAYERS,
        max_players=sr.MAX_PLAYERS,
        by_players=by_players,
        bomb_2_removed_from=sr.BOMB_2_REMOVED_FROM,
        exposed_moves=sr.EXPOSED_MOVES,
        answers=tuple(sr.Answer),
        targets=sr.TARGET_ORDER,
        last_target=sr.TARGET_ORDER[-1],
        out_reasons=tuple(sr.OutReason),
        or_list=or_list,
        and_list=and_list,
        back_to=back_to(),
    )
