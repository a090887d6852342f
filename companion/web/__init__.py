"""The shared web pages and what every page goes through: the home page and the new-game
page, the history and the players, the follow page, the files in and out, the installable
app (manifest, service worker), the passcode, the language, error pages, the kept pages and
their validators, and static files. Nothing here names a kind: every page asks the registry.
"""

from __future__ import annotations

from flask import Flask


def init_app(app: Flask) -> None:
    """Set the shared pages up, once the app's kinds are registered."""
    from .. import paths, registry
    from ..serving import security, trust
    from ..store.changes import latest_changes
    from . import (
        assets,
        deleting,
        errors,
        exchange,
        fragments,
        freshness,
        health,
        history,
        home,
        i18n,
        parts,
        passcode,
        pwa,
        ratelimits,  # noqa: F401  (registers its storage scheme with limits)
        seats,
        sharing,
        watch,
    )
    from .extensions import limiter

    assets.init_app(app)
    sharing.init_app(app)
    errors.init_app(app)
    security.init_app(app)
    trust.init_app(app)
    passcode.init_app(app)
    freshness.init_app(app)
    # after freshness: a follower's poll answered 304 is nothing the limiter counts (it
    # limits the passcode alone), and its check was a tenth of that answer's time
    limiter.init_app(app)
    i18n.init_app(app, str(paths.TRANSLATIONS))
    seats.init_app(app)
    app.after_request(parts.tell_the_page_its_phone)
    for blueprint in (home.bp, exchange.bp, history.bp, watch.bp, pwa.bp, trust.bp, health.bp, deleting.bp):
        app.register_blueprint(blueprint)
    app.add_template_global(registry.of, "kind_of")
    app.add_template_global(registry.every, "every_kind")
    app.jinja_env.globals["LATEST_ROWS"] = fragments.LATEST_ROWS
    app.jinja_env.filters["as_text"] = fragments.as_text
    app.add_template_global(latest_changes)
