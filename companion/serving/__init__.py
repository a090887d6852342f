"""Serving the app at a table: ``companion serve``'s granian listeners for the plain and the
secure address (``granian``), the ASGI front that reads each request's body before a thread
runs the app (``asgi``), the table's own certificate authority (``tls``), the page that
gets a phone to trust it (``trust``), and the headers every answer carries (``security``).
"""
