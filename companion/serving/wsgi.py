"""The app for a WSGI server that imports it by name (``companion.serving.wsgi:app``)."""

import os
import signal

from .. import create_app
from .granian import DIE_WITH_PARENT, die_with_parent

if os.environ.get(DIE_WITH_PARENT):
    # a granian worker of `companion serve`: gone with the process that started it,
    # so a killed server never leaves a worker holding its port
    die_with_parent(signal.SIGKILL)

app = create_app()
