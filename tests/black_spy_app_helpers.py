"""Helpers shared by the tests of the Black Spy pages, driven as a phone's browser would.

``page``: a Black Spy game's page, whole, as a browser gets it at the game's address.
"""

from __future__ import annotations

from flask.testing import FlaskClient


def page(client: FlaskClient, game_id: str) -> str:
    return client.get(f"/black-spy/{game_id}").get_data(as_text=True)
