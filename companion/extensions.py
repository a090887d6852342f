"""Flask extensions, created unbound and bound to an app in create_app."""

from typing import TYPE_CHECKING

from flask_compress import Compress
from flask_htmx import HTMX
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
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
htmx = HTMX()
csrf = CSRFProtect()
compress = Compress()
# limits only what is asked for by name (the passcode); its counts are kept in a file all
# worker processes share (companion/ratelimits.py) unless RATELIMIT_STORAGE_URI names another
limiter = Limiter(key_func=get_remote_address, default_limits=[])
