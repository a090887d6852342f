"""The kinds of game, one package each: everything of a kind (its rules, models, forms,
pages, codec, statistics and words) lives in its folder, and its templates in
``templates/<kind>/``. Kinds do not import one another; the shell imports none of them,
but ``create_app``, which registers them (companion/registry.py says what a kind is).
"""
