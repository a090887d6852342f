"""The ``companion/1`` file: every game's inputs, with what they derive beside them.

A game's inputs sit at its top level, as its kind's codec writes them (the kind is named
in ``"kind"``; a file from before there were kinds holds games of the first kind only);
what they derive is written under ``"derived"`` and ignored on import, where the inputs
are replayed through the rules instead.

- ``reading``: a file's JSON read in words, and its games checked whole by the rules;
- ``writing``: every game written a batch at a time (JSON and CSV), in bounded memory;
- ``fields``: what every kind's codec shares to read a value from a file, in words.

Storing checked games is a write, so it is the service's (companion/service/imports.py).
"""

FORMAT = "companion/1"
