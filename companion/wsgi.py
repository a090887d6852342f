"""The app for a WSGI server that imports it by name (``companion.wsgi:app``)."""

from . import create_app

app = create_app()
