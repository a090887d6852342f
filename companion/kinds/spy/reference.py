"""Spy's rules at a glance: the short version for the table, every figure from its rules."""

from __future__ import annotations

from flask import render_template

from companion.web.reference import and_list, back_to, or_list

from . import rules as sr


def page() -> str:
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
        "spy/rules.html",
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
