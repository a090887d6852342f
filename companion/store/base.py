"""The database extension and the models' base class, bound to an app in create_app."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    pass


# a write's objects stay loaded after its commit: the page it returns shows them as written
# (the version the flush bumped, the figures it kept) without reading the game again
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
# the models' base class: Flask-SQLAlchemy's, which a type checker sees as the declarative base it extends
if TYPE_CHECKING:
    Model = Base
else:
    Model = db.Model
migrate = Migrate()


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)
