"""The pages' languages: English and Dutch (docs/ui.md, "Languages").

Every string a page shows goes through one message catalogue,
``translations/nl/LC_MESSAGES/messages.po``: the templates through
Flask-Babel's gettext, the scripts through ``K.t`` / ``K.tn`` (kroniek.js)
over the same catalogue, served per language as ``/assets/messages.<lang>.js``.

The ``.po`` is compiled in memory when the first app of a process starts
(again only if the file changed), never kept compiled in the repository: a
compiled ``.mo`` beside it could fall behind the text a translator edits, and
a fresh clone would need a build step first.

A page's language: the one the reader chose with the switch in the header
(a cookie, remembered for a year), else the browser's Accept-Language (nl or
en), else English.
"""

from __future__ import annotations

import io
import json
import time
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations
from flask import Flask, g, has_request_context, request
from flask_babel import Babel, Domain, get_locale

from engine.text import SAID

HERE = Path(__file__).resolve().parent
TRANSLATIONS = HERE / "translations"
#: the languages the pages speak; the first is the default
LANGS = ("en", "nl")
#: the cookie the language switch sets
COOKIE = "kroniek_lang"
#: a year: the choice outlasts the browser session
COOKIE_AGE = 365 * 24 * 3600


def po_path(lang: str) -> Path:
    return TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po"


def read_catalog(lang: str):
    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang)


def compile_catalog(catalog) -> Translations:
    """The catalogue as gettext reads it; fuzzy entries are left out, as ``pybabel compile`` leaves them."""
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return Translations(fp=buf, domain="messages")


def js_messages(catalog) -> dict[str, Any]:
    """msgid -> translation (a plural's forms as a list), for ``K.t``; untranslated and fuzzy ones are left out."""
    out: dict[str, Any] = {}
    for m in catalog:
        if not m.id or m.fuzzy:
            continue
        if isinstance(m.id, (tuple, list)):
            forms = list(m.string)
            if all(forms):
                out[m.id[0]] = forms
        elif m.string:
            out[m.id] = m.string
    return out


class CatalogDomain(Domain):
    """Flask-Babel's domain over catalogues compiled in memory at start (no ``.mo`` files)."""

    def __init__(self, translations: dict[str, Translations]):
        super().__init__()
        self.compiled = translations

    def get_translations(self):
        locale = get_locale()
        found = self.compiled.get(str(locale)) if locale is not None else None
        return found if found is not None else Translations()


def select_locale() -> str:
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGS:
        return chosen
    return accepted()


def accepted() -> str:
    """The reader's first language of Accept-Language that Kroniek speaks, "en-GB" as "en" (werkzeug's
    best_match would take a lower-rated exact "nl" over a preferred "en-GB"); English without one."""
    for value, quality in request.accept_languages:
        primary = value.split("-")[0].split("_")[0].lower()
        if quality > 0 and primary in LANGS:
            return primary
    return LANGS[0]


def lang() -> str:
    """The current request's language ("en" or "nl")."""
    locale = get_locale()
    return str(locale) if locale is not None and str(locale) in LANGS else LANGS[0]


#: (the catalogues' files as (path, mtime, size)) -> (compiled catalogues, the scripts' messages)
_LOADED: dict[tuple, tuple[dict[str, Translations], dict[str, str]]] = {}


#: when ``_loaded`` last looked at the files (time.monotonic), and what it found
_LOOKED: list[Any] = [float("-inf"), None]
#: how long the catalogues are taken as they were without a look at their files: a look (a path built and a
#: stat per language) cost ~20 µs of every answer that says a message, on the hot path of an append
LOOK_EVERY_SECONDS = 1.0


def _loaded() -> tuple[dict[str, Translations], dict[str, str]]:
    """The catalogues compiled, and each language's messages script: read once per process while the files
    stay as they are (each app read and compiled them again, ~28 ms of every app's start; the tests start
    hundreds, a server one per worker process). A changed file is seen within ``LOOK_EVERY_SECONDS``."""
    now = time.monotonic()
    if now - _LOOKED[0] < LOOK_EVERY_SECONDS and _LOOKED[1] in _LOADED:
        return _LOADED[_LOOKED[1]]
    codes = [code for code in LANGS if code != LANGS[0]]
    stamp = tuple((code, info.st_mtime_ns, info.st_size) for code in codes for info in [po_path(code).stat()])
    if stamp not in _LOADED:
        catalogs = {code: read_catalog(code) for code in codes}
        scripts = {LANGS[0]: {}}
        scripts.update({code: js_messages(c) for code, c in catalogs.items()})
        messages = {
            code: ("/* The pages' messages in this language, from service/web/translations (K.t in kroniek.js);\n"
                   "   English needs none: the messages are English text. */\n"
                   f"window.KRONIEK_MESSAGES = {json.dumps({'lang': code, 'messages': msgs}, ensure_ascii=False, sort_keys=True)};\n")
            for code, msgs in scripts.items()}
        _LOADED.clear()
        _LOADED[stamp] = ({code: compile_catalog(c) for code, c in catalogs.items()}, messages)
    _LOOKED[:] = [now, stamp]
    return _LOADED[stamp]


class Language:
    """A language the engines' messages are rendered in (engine.text.Catalog): the pages' catalogue, and the
    language's way of writing numbers (Dutch 0,5 and 1.000)."""

    def __init__(self, code: str, translations: Translations | None) -> None:
        self.code = code
        self.translations = translations

    def gettext(self, message: str) -> str:
        # (gettext's "" is the catalogue's header)
        return self.translations.ugettext(message) if self.translations is not None and message else message

    def ngettext(self, one: str, many: str, n: int) -> str:
        return self.translations.ungettext(one, many, n) if self.translations is not None else (one if n == 1 else many)

    def number(self, value: int | float) -> str:
        if self.translations is None:
            return str(value)  # English as the engines always wrote it
        from babel.numbers import format_decimal
        return format_decimal(value, locale=self.code)


def language(code: str) -> Language:
    """The language ``code`` ("en", "nl") for rendering the engines' messages."""
    compiled, _ = _loaded()
    return Language(code, compiled.get(code))


def api_language() -> Language:
    """The language an API answer speaks: ``?lang=``, else the first of Accept-Language's that Kroniek speaks,
    else English (the API's default; the pages' cookie is theirs, their scripts send Accept-Language)."""
    asked = request.args.get("lang")
    if asked is not None:
        if asked not in LANGS:
            from service.errors import BadRequest
            raise BadRequest(f"lang must be one of {', '.join(LANGS)}, not {asked[:20]!r}", field="lang", location="query")
        return language(asked)
    return language(accepted())


def speaking() -> Language:
    """The language of the answer under way: the request's (``api_language``, worked out once), else English."""
    if not has_request_context():
        return language(LANGS[0])
    found = g.get("kroniek_language")
    if found is None:
        from engine.core import KroniekError

        try:
            found = api_language()
        except KroniekError:  # a ?lang= it does not speak: refused before the view ran (check_lang); English here
            found = language(LANGS[0])
        g.kroniek_language = found
    return found


def said(value: Any) -> Any:
    """JSON's fallback for an engine's message: said in the answer's language (an app's JSON provider and
    the answers encoded with orjson use it)."""
    if isinstance(value, SAID):
        return value.render(speaking())
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def check_lang() -> None:
    """Refuse an API request's ``?lang=`` that Kroniek does not speak (400), before its view runs."""
    if "lang" in request.args and request.path.startswith("/api/"):
        g.kroniek_language = api_language()


def init_app(app: Flask) -> None:
    if "babel" in app.extensions:
        return
    compiled, messages = _loaded()
    babel = Babel(app, locale_selector=select_locale)
    babel.domain_instance = CatalogDomain(compiled)
    app.extensions["kroniek.messages"] = messages


#: Where the marked strings are: gettext in the Python and the templates, K.t / K.tn in the scripts.
METHODS = [("**.py", "python"), ("templates/**.html", "jinja2.ext:babel_extract"), ("static/**.js", "javascript")]
#: K.t(msg, vars) and K.tn(n, one, many, vars); the Python's and the templates' gettext, ngettext
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "t": None, "tn": (2, 3)}
#: The engines' messages (engine/text.py): say(msg, **values), say_n(n, one, many, **values), N_(msg), in the
#: engines and in the service that serves them
SAYING = [HERE.parent.parent / "engine", HERE.parent, HERE.parent.parent / "workers"]
SAY_KEYWORDS = {"say": None, "say_n": (2, 3), "N_": None}


def extract_said(fileobj, keywords, comment_tags, options):
    """Babel's extraction method for the engines' messages, from the syntax tree: every ``say``, ``say_n``
    and ``N_`` call with literal text, also one inside another's arguments (Babel's own Python extractor
    skips those)."""
    import ast

    tree = ast.parse(fileobj.read())
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in SAY_KEYWORDS):
            continue
        texts = [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None for a in node.args]
        spec = SAY_KEYWORDS[node.func.id] or (1,)
        if all(len(texts) >= i and texts[i - 1] is not None for i in spec):
            yield node.lineno, node.func.id, tuple(texts), []


def extract():
    """Every marked string of the pages and of the engines, as a Babel catalogue (what ``pybabel extract`` with these
    methods and keywords finds): the messages the Dutch catalogue must translate."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    catalog = Catalog(project="kroniek", charset="utf-8")
    # a K.t inside a template literal's ${…} counts too
    options = {"templates/**.html": {"extensions": "jinja2.ext.i18n"}, "static/**.js": {"parse_template_string": "true"}}
    for filename, lineno, message, comments, context in extract_from_dir(
            HERE, METHODS, options, KEYWORDS, comment_tags=("TRANSLATORS:",), strip_comment_tags=True):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    for root in SAYING:
        for filename, lineno, message, comments, context in extract_from_dir(
                root, [("**.py", extract_said)], {}, SAY_KEYWORDS, comment_tags=("TRANSLATORS:",), strip_comment_tags=True):
            if (root.name, filename) != ("engine", "text.py"):  # the helpers' own definitions and examples
                catalog.add(message, None, [(f"{root.name}/{filename}", lineno)], auto_comments=comments, context=context)
    return catalog
