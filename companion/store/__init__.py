"""Shared persistence: the game every kind extends, its seats and players, the figures a
game keeps beside its inputs, and how a write reaches SQLite or PostgreSQL.

A kind adds its own game class (single-table inheritance on ``games``), its input rows and
its statistics in its own package; nothing here names a kind.
"""
