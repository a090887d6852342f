"""The web extensions, created unbound and bound to an app in create_app."""

from flask_compress import Compress
from flask_htmx import HTMX
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_wtf.csrf import CSRFProtect

htmx = HTMX()
csrf = CSRFProtect()
compress = Compress()
# limits only what is asked for by name (the passcode); its counts are kept in a file all
# worker processes share (companion/web/ratelimits.py) unless RATELIMIT_STORAGE_URI names another
limiter = Limiter(key_func=get_remote_address, default_limits=[])
