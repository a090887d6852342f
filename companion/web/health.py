"""``GET /healthz``: whether this instance can serve a table now, for a proxy, a platform or
systemd. 200 when its database answers a trivial query within a second, 503 otherwise;
nothing else is said (an outsider learns no version, path or error), no passcode is asked
and no try is counted.
"""

from __future__ import annotations

import threading

from flask import Blueprint, Response
from sqlalchemy import text
from sqlalchemy.engine import Engine

from ..store.base import db

bp = Blueprint("health", __name__)

WITHIN_SECONDS = 1.0

# one question to the database at a time: while a check hangs (a server that does not
# answer takes the connect timeout to give up), the next ones answer 503 at once instead of
# piling threads up behind it
_asking = threading.Lock()


@bp.get("/healthz")
def healthz() -> Response:
    healthy = _answers(db.engine, WITHIN_SECONDS)
    response = Response("ok\n" if healthy else "unavailable\n", 200 if healthy else 503, mimetype="text/plain")
    response.headers["Cache-Control"] = "no-store"
    return response


def _answers(engine: Engine, seconds: float) -> bool:
    if not _asking.acquire(blocking=False):
        return False
    answered = threading.Event()

    def ask() -> None:
        try:
            with engine.connect() as connection:
                connection.execute(text("SELECT 1"))
            answered.set()
        except Exception:  # any failure is "not healthy": the page says no more
            pass
        finally:
            _asking.release()

    threading.Thread(target=ask, name="healthz", daemon=True).start()
    return answered.wait(seconds)
