"""The table's language: which one a request speaks, and saying the rules' messages in it.

The language comes from the device's choice (a cookie set from the switcher on every
page), else from the browser's Accept-Language, else English. Player names are data and
never pass through here.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache
from typing import Any, Literal
from urllib.parse import urlsplit

from babel.lists import format_list
from babel.numbers import format_decimal as babel_format_decimal
from babel.support import NullTranslations
from flask import Blueprint, Flask, current_app, flash, g, has_app_context, redirect, request
from flask_babel import Babel, format_date, format_time, get_locale, get_translations, gettext
from werkzeug.wrappers import Response

from ..rules import Either, Message
from .passcode import safe_next

bp = Blueprint("i18n", __name__)
babel = Babel()

# each language named in itself, so a reader finds theirs whatever the page is in
LANGUAGES = {
    "en": "English",
    "es": "Español",
    "it": "Italiano",
    "te": "తెలుగు",
    "az": "Azərbaycanca",
}
DEFAULT = "en"
COOKIE = "lang"
YEAR = 365 * 24 * 3600


def select_locale() -> str:
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    # werkzeug falls back from "es-AR" to "es"
    return request.accept_languages.best_match(LANGUAGES, default=DEFAULT) or DEFAULT


def here() -> str:
    """Where the language switcher brings the reader back to: this page, if it can be
    opened again. A page that answered a form (a refused deal, say) cannot: back to the
    page the form was on."""
    if request.method == "GET":
        return request.full_path.rstrip("?")
    referrer = urlsplit(request.referrer or "")
    if referrer.netloc == request.host and referrer.path:
        return referrer.path + (f"?{referrer.query}" if referrer.query else "")
    return "/"


def language() -> str:
    """The language this request speaks, as a code from ``LANGUAGES``."""
    if not has_app_context():
        return DEFAULT
    code = g.get("_language")
    if code is None:
        code = g._language = str(get_locale() or DEFAULT)
    return str(code)


def catalogue() -> NullTranslations:
    """This request's catalogue, looked up once: a page asks for it hundreds of times."""
    if not has_app_context():
        translations: NullTranslations = get_translations()
        return translations
    found: NullTranslations | None = g.get("_translations")
    if found is None:
        found = g._translations = get_translations()
    return found


@lru_cache(maxsize=8192)
def _decimal(value: int | float, code: str) -> str:
    # a page writes the same few hundred scores many times over; babel parses its number
    # pattern on every call
    return babel_format_decimal(value, locale=code)


def format_decimal(value: int | float) -> str:
    """A number as the reader's language writes it: "1,234", "1.234"."""
    return _decimal(value, language())


def say(value: Any) -> Any:
    """A rules message in the request's language; anything else as it is.

    Parameters that are messages are said too, and lists are joined as the language
    joins them ("A, B and C", "A, B y C").
    """
    if isinstance(value, Message):
        params = {key: _said_param(param) for key, param in value.params.items()}
        found = catalogue()
        if value.plural is not None:
            text = found.ngettext(value.template, value.plural, value.count or 0)
        else:
            text = found.gettext(value.template)
        return text % params if params else text
    return value


def _said_param(value: Any) -> Any:
    if isinstance(value, Message):
        return say(value)
    if isinstance(value, list | tuple):
        style: Literal["or", "standard"] = "or" if isinstance(value, Either) else "standard"
        return format_list([str(_said_param(item)) for item in value], style=style, locale=language())
    if isinstance(value, int) and not isinstance(value, bool):
        return format_decimal(value)
    return value


def when(moment: datetime | None) -> str:
    """A date and time as the reader's language writes them, the month by its name: a table
    of readers used to day/month and month/day reads "Dec 4, 2026" alike (never "12/4/26")."""
    if moment is None:
        return ""
    glue = str(get_locale().datetime_formats["medium"])  # "{1}, {0}": the date, then the time
    return glue.replace("{1}", format_date(moment, "medium")).replace("{0}", format_time(moment, "short"))


def number(value: int | float) -> str:
    return format_decimal(value)


def tenths(value: int | float) -> str:
    """A figure to one decimal place, a half rounded up as a table rounds it: an average of
    36.25 is "36.3" (babel rounds a half to the even digit: "36.2", where 18.75 gave "18.8")."""
    rounded = Decimal(str(value)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    return babel_format_decimal(rounded, "#,##0.0", locale=language())


def either(choices: Sequence[object]) -> str:
    """A choice as the reader's language offers it: "1 or 2", "1 o 2"."""
    return str(say(Message("%(choices)s", choices=Either(choices))))


def names(people: Sequence[str]) -> str:
    """Player names joined as the reader's language joins a list: "Ana, Ben y Cy"."""
    return format_list(list(people), locale=language()) if people else ""


def init_app(app: Flask, translations: str) -> None:
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT)
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = translations
    babel.init_app(app, locale_selector=select_locale)
    # flask-babel's template gettext finds the catalogue anew on every string; these find it once per request
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]  # added by jinja2.ext.i18n, which Flask-Babel loads
        gettext=lambda text: catalogue().ugettext(text),
        ngettext=lambda singular, plural, count: catalogue().ungettext(singular, plural, count),
        newstyle=True,
        pgettext=lambda context, text: catalogue().upgettext(context, text),
        npgettext=lambda context, singular, plural, count: catalogue().unpgettext(context, singular, plural, count),
    )
    # a message put into a translated sentence ({% trans %}, _() with parameters) is said too
    Message.speaker = say
    # as babel.cfg extracts them: a {% trans %} block's layout is not part of its message
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    app.jinja_env.filters["when"] = when
    app.jinja_env.filters["number"] = number
    app.jinja_env.filters["tenths"] = tenths
    app.jinja_env.filters["names"] = names
    app.jinja_env.filters["either"] = either
    app.jinja_env.filters["say"] = say
    app.jinja_env.globals["LANGUAGES"] = LANGUAGES
    app.jinja_env.globals["language"] = language
    app.jinja_env.globals["here"] = here
    app.register_blueprint(bp)

    @app.after_request
    def vary(response: Response) -> Response:
        if response.mimetype == "text/html":
            response.vary.update(("Cookie", "Accept-Language"))
        return response


@bp.post("/language")
def choose() -> Response:
    """Keep this device's language and go back to the page it was chosen on."""
    code = request.form.get("lang", "")
    response = redirect(safe_next(request.form.get("next")), code=303)
    if code not in LANGUAGES:
        flash(gettext("That language is not offered; the page stays as it was."))
    else:
        secure = bool(current_app.config["SESSION_COOKIE_SECURE"] or request.is_secure)
        response.set_cookie(COOKIE, code, max_age=YEAR, samesite="Lax", httponly=True, secure=secure)
    return response


__all__ = ["LANGUAGES", "babel", "init_app", "language", "say", "select_locale", "when"]
