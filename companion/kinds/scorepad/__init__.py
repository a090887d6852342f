"""The score pad: plain rounds of points for the other games a table plays that night.

- ``rules``: pure: a pad's setup, its rounds and end, the fold;
- ``models``: the pad's setup beside its game, and each input as entered;
- ``stats``: a player's finished pads, counted from the pads themselves;
- ``forms``: the new-pad and round forms read into the rules' values;
- ``codec``: a pad in a companion/1 file, and in a spreadsheet;
- ``pages``, ``views``: its pages;
- ``kind``: the score pad as the shared pages see it, which ``create_app`` registers.
"""
