"""What one companion/1 file may hold.

A file is read whole and checked before anything is written, so its size bounds the
work of an import: these bounds keep that work, and a refusal's page, small. They sit
far above any real table's history (a club's year of Black Spy is a few thousand
games of under a hundred deals; a game of Spy, a hundred turns).
"""

from __future__ import annotations

# games in one file; a larger history goes in several files
MAX_GAMES = 20_000
# a companion/1 file nests six levels deep; a few more for what a newer version adds
MAX_DEPTH = 16
# digits of a whole number: more than any score, and than a database's 64-bit integer
MAX_DIGITS = 18
# problems a refusal lists one by one; the rest are counted
MAX_PROBLEMS_LISTED = 20
