"""The table's language: chosen by the browser or the device, kept, and spoken everywhere."""

from __future__ import annotations

import re
from datetime import datetime
from html import unescape
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from babel.support import Translations
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from companion.rules import N_, Either, Nn_
from companion.store.base import db
from companion.store.games import Game
from companion.web.i18n import LANGUAGES, say, when
from tests.helpers import post_points, snapshot, start_game

TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"
OTHER_LANGUAGES = [code for code in LANGUAGES if code != "en"]


def catalogue(locale: str) -> Translations:
    loaded = Translations.load(str(TRANSLATIONS), [locale])
    # Translations.load falls back to English when the .mo is missing: that must not pass
    assert isinstance(loaded, Translations) and loaded._catalog, f"no compiled catalogue for {locale}"
    return loaded


@pytest.mark.parametrize("code", OTHER_LANGUAGES)
def test_each_language_has_a_compiled_catalogue_that_says_something_else(code: str) -> None:
    assert catalogue(code).gettext("Language") != "Language"
    assert catalogue(code).gettext("Record deal %(number)s") != "Record deal %(number)s"


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_the_compiled_catalogues_say_what_their_sources_say(code: str) -> None:
    # the .mo files are built by make, never committed: a stale one would test old words
    with (TRANSLATIONS / code / "LC_MESSAGES" / "messages.po").open("rb") as file:
        source = read_po(file, locale=code)
    compiled = catalogue(code)
    for message in source:
        if not message.id or not message.string:
            continue
        if message.pluralizable:
            for form, text in enumerate(message.string):
                assert compiled._catalog[(message.id[0], form)] == text
        else:
            key = message.id if message.context is None else f"{message.context}\x04{message.id}"
            assert compiled._catalog[key] == message.string


def html_lang(html: str) -> str:
    match = re.search(r'<html lang="([^"]+)"', html)
    assert match
    return match.group(1)


def text_of(response) -> str:
    return unescape(response.get_data(as_text=True))


def test_a_browser_asking_for_spanish_gets_spanish(client: FlaskClient) -> None:
    html = text_of(client.get("/", headers={"Accept-Language": "es-AR,es;q=0.9,en;q=0.5"}))
    assert html_lang(html) == "es"
    assert catalogue("es").gettext("Language") in html
    assert catalogue("es").gettext("Language") != "Language"


def test_a_language_nobody_translated_falls_back_to_english(client: FlaskClient) -> None:
    assert html_lang(text_of(client.get("/", headers={"Accept-Language": "fr-FR,de;q=0.8"}))) == "en"


@pytest.mark.parametrize("code", OTHER_LANGUAGES)
def test_the_switcher_keeps_a_language_on_this_device(client: FlaskClient, code: str) -> None:
    response = client.post("/language", data={"lang": code, "next": "/history"})
    assert response.status_code == 303
    assert response.location.endswith("/history")
    cookie = client.get_cookie("lang")
    assert cookie is not None and cookie.value == code and cookie.http_only
    # the device's choice wins over what the browser asks for
    html = text_of(client.get("/", headers={"Accept-Language": "en"}))
    assert html_lang(html) == code
    assert catalogue(code).gettext("Language") in html


def test_an_unknown_language_changes_nothing_and_says_so(client: FlaskClient) -> None:
    client.post("/language", data={"lang": "es", "next": "/"})
    response = client.post("/language", data={"lang": "xx", "next": "/"}, follow_redirects=True)
    assert client.get_cookie("lang").value == "es"
    assert catalogue("es").gettext("That language is not offered; the page stays as it was.") in text_of(response)


def test_the_switcher_never_sends_anyone_to_another_site(client: FlaskClient) -> None:
    response = client.post("/language", data={"lang": "it", "next": "//evil.example/x"})
    assert response.location.endswith("/") and "evil" not in response.location


@pytest.mark.parametrize("path", ["/", "/new", "/history", "/players", "/offline", "/rules/black-spy", "/rules/spy", "/passcode"])
def test_every_page_offers_the_switcher_and_names_its_language(client: FlaskClient, path: str) -> None:
    html = client.get(path, headers={"Accept-Language": "te"}).get_data(as_text=True)
    assert html_lang(html) == "te"
    assert 'action="/language"' in html
    for code, name in LANGUAGES.items():
        assert f'value="{code}" lang="{code}"' in html and name in html


def test_pages_say_which_languages_they_vary_by(client: FlaskClient) -> None:
    vary = client.get("/").headers["Vary"]
    assert "Cookie" in vary and "Accept-Language" in vary


def test_a_refused_deal_is_explained_in_the_tables_language(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client)
    client.post("/language", data={"lang": "es", "next": "/"})
    before = snapshot(app)
    response = post_points(client, game_id, [10, 10, 10, 10])
    assert response.status_code == 422
    expected = catalogue("es").gettext("The points add up to %(total)s, not %(deal_total)s: check each player's count.") % {
        "total": "40",
        "deal_total": "60",
    }
    assert expected in text_of(response)
    assert snapshot(app) == before


def test_the_card_counting_table_is_headed_in_the_tables_language(client: FlaskClient) -> None:
    game_id = start_game(client)
    html = client.get(f"/black-spy/{game_id}?mode=cards", headers={"Accept-Language": "es"}).get_data(as_text=True)
    headings = re.findall(r'<th scope="col">([^<]*)', html.split('class="cards-table"', 1)[1].split("</thead>", 1)[0])
    # the rules' names of the counts, said in Spanish, their ranges held whole by word joiners
    assert [heading.strip().replace("\u2060", "") for heading in headings][1:4] == [
        "Espías negros",
        "negros 1–6",
        "Espías de color",
    ]


def test_player_names_are_never_translated(client: FlaskClient) -> None:
    # names that are also words of the app stay as the table typed them
    game_id = start_game(client, names=("Language", "Undo", "Deal", "Pass"))
    client.post("/language", data={"lang": "az", "next": "/"})
    html = text_of(client.get(f"/black-spy/{game_id}"))
    for name in ("Language", "Undo", "Deal", "Pass"):
        assert name in html


@pytest.mark.parametrize("code", ["te", "az", "es", "it"])
def test_plurals_follow_each_languages_rule(app: Flask, code: str) -> None:
    singular, plural = "Imported %(num)s game.", "Imported %(num)s games."
    translations = catalogue(code)
    with app.test_request_context(headers={"Cookie": f"lang={code}"}):
        one, many = say(Nn_(singular, plural, 1)), say(Nn_(singular, plural, 2))
    assert one == translations.ngettext(singular, plural, 1) % {"num": "1"}
    assert many == translations.ngettext(singular, plural, 2) % {"num": "2"}
    assert one != many


@pytest.mark.parametrize("code", ["es", "it"])
def test_spanish_and_italian_say_a_round_million_their_own_way(app: Flask, code: str) -> None:
    # CLDR gives both a third form, for exact millions: "1.000.000 de partidas"
    singular, plural = "Imported %(num)s game.", "Imported %(num)s games."
    with app.test_request_context(headers={"Cookie": f"lang={code}"}):
        million, two = say(Nn_(singular, plural, 1_000_000)), say(Nn_(singular, plural, 2))
    assert million == catalogue(code).ngettext(singular, plural, 1_000_000) % {"num": "1.000.000"}
    assert million.replace("1.000.000", "N") != two.replace("2", "N")


def test_a_choice_is_said_with_the_languages_or(app: Flask) -> None:
    message = N_("Pick a colour: %(colours)s.", colours=Either([N_("green"), N_("red"), N_("blue")]))
    assert message == "Pick a colour: green, red, or blue."
    with app.test_request_context(headers={"Accept-Language": "it"}):
        said = say(message)
    it = catalogue("it")
    assert f"{it.gettext('red')} o {it.gettext('blue')}" in said


def test_a_rules_message_is_said_with_its_parameters_said_too(app: Flask) -> None:
    message = N_("Pick a colour: %(colours)s.", colours=[N_("green"), N_("red")])
    assert message == "Pick a colour: green and red."
    es = catalogue("es")
    with app.test_request_context(headers={"Accept-Language": "es"}):
        said = say(message)
    assert es.gettext("green") in said and es.gettext("red") in said
    assert said.startswith(es.gettext("Pick a colour: %(colours)s.").split("%")[0])


def test_dates_are_written_as_the_language_writes_them(app: Flask) -> None:
    new_year_eve = datetime(2026, 12, 31, 20, 5)
    written = {}
    for code in ("en", "es", "te"):
        with app.test_request_context(headers={"Accept-Language": code}):
            written[code] = when(new_year_eve)
    # the month by its name: a table used to day/month and one used to month/day read it alike
    assert written["en"].startswith("Dec 31, 2026")
    assert written["es"].startswith("31 dic 2026")
    assert len(set(written.values())) == 3


def test_the_game_list_dates_each_game_in_the_readers_language(app: Flask, client: FlaskClient) -> None:
    start_game(client)
    with app.app_context():
        created = db.session.scalars(select(Game.created_at)).one()
    for code in ("en", "it"):
        with app.test_request_context(headers={"Accept-Language": code}):
            expected = when(created)
        assert expected in text_of(client.get("/", headers={"Accept-Language": code}))


def test_a_rules_word_put_into_a_translated_sentence_is_translated_too(app: Flask) -> None:
    label = N_("Top Secret 2")
    with app.test_request_context(headers={"Accept-Language": "es"}):
        block = app.jinja_env.from_string("{% trans target=label %}Next target: <strong>{{ target }}</strong>{% endtrans %}")
        call = app.jinja_env.from_string('{{ _("Next target: <strong>%(target)s</strong>", target=label) }}')
        in_block, in_call = block.render(label=label), call.render(label=label)
    spanish = catalogue("es").gettext("Top Secret 2")
    assert spanish != "Top Secret 2"
    assert f"<strong>{spanish}</strong>" in in_block and f"<strong>{spanish}</strong>" in in_call


def test_a_name_with_markup_or_percent_signs_is_shown_as_typed(client: FlaskClient) -> None:
    game_id = start_game(client, names=("<b>Ana</b>", "50%", "%(x)s", "Dee"))
    client.post("/language", data={"lang": "it", "next": "/"})
    html = client.get(f"/black-spy/{game_id}").get_data(as_text=True)
    assert "<b>Ana</b>" not in html and "&lt;b&gt;Ana&lt;/b&gt;" in html
    assert "50%" in html and "%(x)s" in html


def test_switching_language_on_a_page_that_answered_a_form_returns_to_the_form(client: FlaskClient) -> None:
    refused = client.post("/black-spy/new", data={"player-0": "Ana"}, headers={"Referer": "http://localhost/new?game=black-spy"})
    assert refused.status_code == 422
    back = re.search(r'name="next" value="([^"]*)"', refused.get_data(as_text=True)).group(1)
    assert unescape(back) == "/new?game=black-spy"
    assert client.get(unescape(back)).status_code == 200


@pytest.mark.parametrize("target", ["/\nX", "/\\evil.example", "/\r\nSet-Cookie: x=1"])
def test_the_switcher_refuses_a_way_back_no_header_can_carry(client: FlaskClient, target: str) -> None:
    response = client.post("/language", data={"lang": "es", "next": target})
    assert response.status_code == 303
    assert response.location.endswith("/")


@pytest.mark.parametrize(
    ("code", "expected"), [("en", ["36.3", "18.8", "21.3", "1,234.6"]), ("es", ["36,3", "18,8", "21,3", "1.234,6"])]
)
def test_an_average_is_rounded_as_a_table_rounds_a_half_up(app: Flask, code: str, expected: list[str]) -> None:
    from companion.web.i18n import tenths

    with app.test_request_context(headers={"Cookie": f"lang={code}"}):
        assert [tenths(value) for value in (36.25, 18.75, 21.25, 1234.55)] == expected


def test_what_is_left_to_the_end_is_written_as_the_language_writes_numbers(client: FlaskClient) -> None:
    game_id = start_game(client, end_value="2000")
    post_points(client, game_id, [20, 15, 25, 0])
    standings = client.get(f"/black-spy/{game_id}").get_data(as_text=True)
    assert "1,980 to go" in standings and "2,000 to go" in standings
    client.set_cookie("lang", "es")
    spanish = text_of(client.get(f"/black-spy/{game_id}"))
    # Read in the page's words: the form's hex marks may hold any four digits.
    assert "faltan 1.980" in spanish and "faltan 2.000" in spanish
    assert not re.search(r"\b1980\b", spanish)
