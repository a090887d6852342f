"""Black Spy, the companion's own game: a scorekeeper for the Hearts-like game of 3 to 6.

- ``rules/``: pure: rule sets, seating, a deal's entry and score, the fold;
- ``models``: the game's rule set, its deals, and each deal's scores kept for statistics;
- ``stats``: each player's figures over finished games, kept per day;
- ``forms``: the new-game and deal forms read into the rules' values;
- ``codec``: a game in a companion/1 file, and in a spreadsheet;
- ``pages``, ``views``: its pages; ``chart``, ``words``, ``reference``: what they show.
- ``kind``: Black Spy as the shared pages see it, which ``create_app`` registers.
"""
