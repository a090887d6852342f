"""Spy's rules, pure: no Flask, no database, no form. The companion keeps the public state of
a game at the table; it never knows, asks for or stores a hidden card (shared/rules/spy.md).

- ``deck``: the colour sets, the bases' sizes and bombs, the targets, the answers, and
  where a Spy stands and what it faces;
- ``setup``: who sits where with which colour, who plays first; the rematch;
- ``state``: what the table can see at a moment: bases, targets, lit bombs, who is out;
- ``answers``: what a look may be answered, and why an answer is refused;
- ``turns``: the public state as a fold over the turns.
"""

from .answers import current_look, looked_at, mirror, possible_answers
from .deck import (
    BOMB_2_REMOVED_FROM,
    BOMB_2_SETS,
    DECK_SIZE,
    EXPOSED_MOVES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SAFES,
    SET_BOMBS,
    SPIES_PER_BASE,
    TARGET_ORDER,
    TOP_SECRETS,
    TWO_PLAYER_COLOURS,
    Answer,
    Colour,
    Facing,
    OutReason,
    Target,
    allowed_colours,
    base_size,
    bombs_in_base,
    card_at,
    faced_slot,
    mirror_slot,
    move_spy,
    other_end,
    slot_of,
)
from .setup import (
    DRAW,
    Setup,
    SpyPlace,
    check_setup,
    draw_first,
    new_setup,
    rematch,
    rematch_first_player,
)
from .state import BaseState, Move, SpyAction, SpyState, Turn, start
from .turns import GameOverError, after_each, after_move, play, replay, take

__all__ = [
    "BOMB_2_REMOVED_FROM",
    "BOMB_2_SETS",
    "DECK_SIZE",
    "DRAW",
    "EXPOSED_MOVES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "SAFES",
    "SET_BOMBS",
    "SPIES_PER_BASE",
    "TARGET_ORDER",
    "TOP_SECRETS",
    "TWO_PLAYER_COLOURS",
    "Answer",
    "BaseState",
    "Colour",
    "Facing",
    "GameOverError",
    "Move",
    "OutReason",
    "Setup",
    "SpyAction",
    "SpyPlace",
    "SpyState",
    "Target",
    "Turn",
    "after_each",
    "after_move",
    "allowed_colours",
    "base_size",
    "bombs_in_base",
    "card_at",
    "check_setup",
    "current_look",
    "draw_first",
    "faced_slot",
    "looked_at",
    "mirror",
    "mirror_slot",
    "move_spy",
    "new_setup",
    "other_end",
    "play",
    "possible_answers",
    "rematch",
    "rematch_first_player",
    "replay",
    "slot_of",
    "start",
    "take",
]
