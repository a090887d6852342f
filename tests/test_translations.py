"""Every word the app shows goes through the catalogues, and every catalogue is whole."""

from __future__ import annotations

import ast
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from jinja2 import Environment, nodes
from jinja2.ext import i18n

from companion.web import i18n as app_i18n

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
sys.path.insert(0, str(ROOT / "tools"))
import i18n as catalogues  # noqa: E402  (tools/i18n.py)

# attributes a person reads or hears
READ_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt", "label", "aria-description", "hx-confirm"}
LETTER = re.compile(r"[^\W\d_]")
HOLE = "\ufffc"  # what a {{ value }} leaves behind: not a letter


def html_templates() -> list[Path]:
    return sorted(TEMPLATES.rglob("*.html"))


def template_id(path: Path) -> str:
    return str(path.relative_to(TEMPLATES))


def without_jinja(source: str) -> str:
    """The template's own HTML, with every marked message and every expression taken out."""
    source = re.sub(r"\{#.*?#\}", "", source, flags=re.S)
    source = re.sub(r"\{%-?\s*trans\b.*?\{%-?\s*endtrans\s*-?%\}", HOLE, source, flags=re.S)
    source = re.sub(r"\{\{.*?\}\}", HOLE, source, flags=re.S)
    return re.sub(r"\{%.*?%\}", "", source, flags=re.S)


class Words(HTMLParser):
    """Collects text and read attributes that still contain letters."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.skipping += 1
        values = dict(attrs)
        for name, value in attrs:
            # an <input type=submit>'s value is its label; a <button>'s value is never shown
            readable = name in READ_ATTRIBUTES or (
                tag == "input" and name == "value" and values.get("type") in ("submit", "button")
            )
            readable |= name == "content" and values.get("name") == "description"
            if readable and value and LETTER.search(value):
                self.found.append(f'{tag} {name}="{value}"')

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self.skipping and LETTER.search(data):
            self.found.append(data.strip())


def unmarked_literals(source: str) -> list[str]:
    """String constants a template prints without translating: {{ "won" if x else "lost" }}."""
    environment = Environment(extensions=[i18n])
    found = []

    def printed(node: nodes.Node) -> None:
        if isinstance(node, nodes.Const) and isinstance(node.value, str) and LETTER.search(node.value):
            found.append(node.value)
        elif isinstance(node, nodes.CondExpr):
            printed(node.expr1)
            if node.expr2 is not None:
                printed(node.expr2)
        elif isinstance(node, nodes.Concat):
            for part in node.nodes:
                printed(part)
        elif isinstance(node, nodes.Add | nodes.Mod):
            printed(node.left)
        elif isinstance(node, nodes.Or | nodes.And):
            printed(node.left)
            printed(node.right)
        elif isinstance(node, nodes.Filter) and node.node is not None:
            printed(node.node)

    for output in environment.parse(source).find_all(nodes.Output):
        for child in output.nodes:
            if not isinstance(child, nodes.TemplateData):
                printed(child)
    return found


@pytest.mark.parametrize("path", html_templates(), ids=template_id)
def test_every_word_in_a_template_is_marked_for_translation(path: Path) -> None:
    source = path.read_text()
    words = Words()
    words.feed(without_jinja(source))
    assert words.found == [], f"unmarked text in {template_id(path)}"
    assert unmarked_literals(source) == [], f"unmarked strings printed by {template_id(path)}"


def test_the_template_check_finds_an_unmarked_word() -> None:
    # the check above must be able to fail
    words = Words()
    words.feed(without_jinja('<p>{{ _("Marked") }} <b title="Unmarked">{{ name }}</b> left</p>'))
    assert words.found == ['b title="Unmarked"', "left"]
    assert unmarked_literals('{{ "won" if x else _("lost") }}') == ["won"]
    assert unmarked_literals('{{ x or "none" }}{{ "Won"|upper }}{{ _("Fine")|upper }}') == ["none", "Won"]


def rules_and_views() -> list[Path]:
    return sorted((ROOT / "companion").rglob("*.py"))


def said_without_a_message(path: Path) -> list[str]:
    """Sentences handed to a person that are plain strings, not N_ messages or gettext."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        # errors["field"] = "A sentence." : a form error that never passes through gettext
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(target, ast.Subscript) and getattr(target.value, "id", "") == "errors" for target in node.targets)
            and isinstance(node.value, ast.JoinedStr | ast.Constant)
        ):
            found.append(f"{path.name}:{node.lineno}")
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        said = {
            "RulesError": node.args[:1],
            "GameOverError": node.args[:1],
            "about": node.args[1:2],
            "flash": node.args[:1],
            "_Bad": node.args[:1],
            "ImportRefused": node.args[:1],
            "render_game": [keyword.value for keyword in node.keywords if keyword.arg == "message"],
        }.get(name, [])
        for argument in said:
            if isinstance(argument, ast.JoinedStr) or (isinstance(argument, ast.Constant) and isinstance(argument.value, str)):
                found.append(f"{path.name}:{node.lineno}")
            if isinstance(argument, ast.List) and any(isinstance(item, ast.JoinedStr | ast.Constant) for item in argument.elts):
                found.append(f"{path.name}:{node.lineno}")
    return found


@pytest.mark.parametrize("path", rules_and_views(), ids=lambda path: str(path.relative_to(ROOT)))
def test_every_sentence_the_code_says_is_a_translatable_message(path: Path) -> None:
    assert said_without_a_message(path) == []


def test_the_code_check_finds_a_plain_sentence(tmp_path: Path) -> None:
    source = tmp_path / "view.py"
    source.write_text(
        'flash(f"Deal {n} undone.")\nraise RulesError(N_("fine"))\nraise RulesError.about("x", "Plain.")\n'
        'errors["total"] = f"Adds up to {n}."\nerrors["total"] = N_("fine")\n'
    )
    assert sorted(said_without_a_message(source)) == ["view.py:1", "view.py:3", "view.py:4"]


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory):
    return catalogues.extract(tmp_path_factory.mktemp("pot") / "messages.pot")


@pytest.mark.parametrize("locale", catalogues.LOCALES)
def test_every_catalogue_has_every_message_translated(extracted, locale: str) -> None:
    assert catalogues.problems(extracted, locale) == []


def test_the_languages_offered_are_the_catalogues_kept() -> None:
    assert set(app_i18n.LANGUAGES) == set(catalogues.LOCALES)


def test_a_translation_may_move_the_markup_but_never_add_any() -> None:
    assert catalogues.same_markup("Pass <strong>left</strong>.", "<strong>A la izquierda</strong>.")
    assert not catalogues.same_markup("Undo", "<b>Deshacer</b>")
    assert not catalogues.same_markup("Undo", 'Deshacer "todo"')
    assert not catalogues.same_markup("Pass <strong>left</strong>.", "A la izquierda.")
