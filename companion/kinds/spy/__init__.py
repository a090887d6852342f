"""Spy, the deduction game of 2 to 4: the companion keeps its public state at the table.

- ``rules/``: pure: the deck and bases, the seating, the fold over the turns;
- ``models``: where tracked Spies start, and each turn as the table played it;
- ``stats``: each player's finished games and wins, kept per day;
- ``forms``: the new-game and turn forms read into the rules' values;
- ``codec``: a game in a companion/1 file;
- ``pages``, ``views``: its pages; ``words``, ``reference``: what they show;
- ``kind``: Spy as the shared pages see it, which ``create_app`` registers.
"""
