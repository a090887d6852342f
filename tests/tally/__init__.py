"""A fourth kind of game that lives only in the tests: a tally, one number per player per
round, three rounds, the highest total wins. It proves that a kind costs one folder: it
plugs into every shared page (home, new game, history, players, follow, export, import)
without a line of the shell changed for it (tests/test_a_fourth_kind.py).

Its rows sit in tables of its own metadata, made by the test that uses them: the real
migrations know nothing of it, as a kind's own migration would ship with it.
"""
