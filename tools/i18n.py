"""The translation catalogues: extract the messages, update the .po files, compile them.

    python tools/i18n.py extract   # read the code and templates into translations/messages.pot,
                                   # merge it into every .po (new messages appear untranslated)
    python tools/i18n.py compile   # .po -> .mo, what the app reads (make serve/test run this)
    python tools/i18n.py check     # list what a catalogue is missing; exit 1 if anything is

English is the language of the code, so its catalogue is filled from the messages
themselves; the other languages are written by people who read them.
"""

from __future__ import annotations

import copy
import re
import subprocess
import sys
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "translations"
TEMPLATE = TRANSLATIONS / "messages.pot"
SOURCE = "en"
LOCALES = ("en", "es", "it", "te", "az")
KEYWORDS = ("N_", "Nn_:1,2")


def po_path(locale: str) -> Path:
    return TRANSLATIONS / locale / "LC_MESSAGES" / "messages.po"


def extract(output: Path = TEMPLATE) -> Catalog:
    """Read every message the app can show into a .pot file, and return it."""
    command = [sys.executable, "-m", "babel.messages.frontend", "-q", "extract", "-F", str(ROOT / "babel.cfg")]
    for keyword in KEYWORDS:
        command += ["-k", keyword]
    command += ["--sort-output", "--omit-header", "-o", str(output), "."]
    subprocess.run(command, cwd=ROOT, check=True)
    with output.open("rb") as file:
        return read_po(file)


def update(template: Catalog) -> None:
    for locale in LOCALES:
        path = po_path(locale)
        if path.exists():
            with path.open("rb") as file:
                catalog = read_po(file, locale=locale)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(
                locale=locale,
                project="companion",
                header_comment=f"# The companion's messages in {Locale.parse(locale).english_name}.",
                last_translator="the companion's translators",
                language_team=Locale.parse(locale).english_name,
            )
        # a fuzzy header would stop the catalogue being compiled at all
        catalog.fuzzy = False
        created = catalog.creation_date
        # a fresh copy each time: babel's update shares the template's message objects
        catalog.update(copy.deepcopy(template), no_fuzzy_matching=True)
        # the date of the catalogue, not of this run: an extract that finds nothing new changes nothing
        catalog.creation_date = created
        # messages no longer in the code go, rather than linger as comments
        catalog.obsolete.clear()
        if locale == SOURCE:
            for message in catalog:
                if message.id:
                    message.string = message.id if isinstance(message.id, str) else tuple(message.id)
        with path.open("wb") as file:
            # where each message is used, by file: context for translators without line-number churn
            write_po(file, catalog, sort_output=True, width=100, include_lineno=False)


def compile_all() -> None:
    for locale in LOCALES:
        path = po_path(locale)
        files = ["-i", str(path), "-o", str(path.with_suffix(".mo")), "-l", locale]
        subprocess.run([sys.executable, "-m", "babel.messages.frontend", "-q", "compile", *files], check=True)


def problems(template: Catalog, locale: str) -> list[str]:
    """What the locale's catalogue lacks or gets wrong, one line each."""
    path = po_path(locale)
    if not path.exists():
        return [f"{locale}: no catalogue at {path.relative_to(ROOT)}"]
    with path.open("rb") as file:
        catalog = read_po(file, locale=locale)
    found = []
    expected_forms = Catalog(locale=locale).num_plurals
    if catalog.num_plurals != expected_forms:
        found.append(f"{locale}: Plural-Forms has {catalog.num_plurals} forms; the language has {expected_forms}")
    for wanted in template:
        if not wanted.id:
            continue
        message = catalog.get(wanted.id, wanted.context)
        name = f"{locale}: {wanted.id if isinstance(wanted.id, str) else wanted.id[0]!r}"
        if message is None:
            found.append(f"{name} is missing")
            continue
        if message.fuzzy:
            found.append(f"{name} is fuzzy")
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings) or (wanted.pluralizable and len(strings) != expected_forms):
            found.append(f"{name} is not translated (in every plural form)")
        for error in message.check(catalog):
            found.append(f"{name}: {error}")
        english = wanted.id if isinstance(wanted.id, tuple) else (wanted.id,)
        if any(not same_markup(english[0], string) for string in strings if string):
            found.append(f'{name} has other markup than the English (tags, or a " < > & it lacks)')
    return found


TAG = re.compile(r"<[^>]*>")


def same_markup(english: str, translated: str) -> bool:
    """A translation is printed as HTML: it may move the English tags, never add any.

    >>> same_markup("Pass <strong>left</strong>", "Pasa a la <strong>izquierda</strong>")
    True
    >>> same_markup("Undo", 'Deshacer "ya"'), same_markup("Undo", "<b>Deshacer</b>")
    (False, False)
    """
    if sorted(TAG.findall(english)) != sorted(TAG.findall(translated)):
        return False
    bare_english, bare_translated = TAG.sub("", english), TAG.sub("", translated)
    return all(bare_translated.count(char) <= bare_english.count(char) for char in '"<>&')


def main(argv: list[str]) -> int:
    command = argv[0] if argv else ""
    if command == "extract":
        update(extract())
    elif command == "compile":
        compile_all()
    elif command == "check":
        template = extract(TRANSLATIONS / ".check.pot")
        (TRANSLATIONS / ".check.pot").unlink()
        found = [line for locale in LOCALES for line in problems(template, locale)]
        print("\n".join(found) or "every catalogue is complete")
        return 1 if found else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
