"""The catalogs speak the glossary (docs/glossary.md): one word for each thing, neutral Spanish, rami's French,
no internal name in front of a player, and every command named the way that player's Discord
shows it.

The glossary page is the source of truth: its tables are parsed here, so a word added to a
"Nunca"/"Never" column is enforced from then on.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from fnmatch import fnmatch
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bot.words.i18n import LANGUAGES, LOCALES, _pieces, branches, catalog, placeholders, translate

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = ROOT / "docs" / "glossary.md"
SECTIONS = {"es": "Español", "en": "English", "fr": "Français"}
NEVER = {"Nunca", "Never", "Jamais"}
NEVER_IN = {"Nunca en las claves", "Never in the keys", "Jamais dans les clés"}
OPERATOR = "operator.*"  # start-up messages for whoever runs the bot: they name settings as written


# ----------------------------------------------------------------------------- the glossary


@dataclass
class Rules:
    never: list[str] = field(default_factory=list)  # patterns no text may contain
    never_in: list[tuple[str, list[str]]] = field(default_factory=list)  # (pattern, key globs)


def _section(text: str, title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, f"docs/glossary.md has no section '## {title}'"
    return match.group(1)


def _tables(section: str) -> list[tuple[list[str], list[list[str]]]]:
    """Every table of a section as (header, rows); cells stripped, the separator row dropped."""
    tables, lines = [], []
    for line in [*section.splitlines(), ""]:
        if line.startswith("|"):
            lines.append([c.strip() for c in line.strip().strip("|").split("|")])
        elif lines:
            tables.append((lines[0], [r for r in lines[1:] if not all(set(c) <= set("-: ") for c in r)]))
            lines = []
    return tables


def _ticked(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


@cache
def rules(locale: str) -> Rules:
    out = Rules()
    for header, rows in _tables(_section(GLOSSARY.read_text(encoding="utf-8"), SECTIONS[locale])):
        names = [h.replace("*", "") for h in header]
        for row in rows:
            cells = dict(zip(names, row, strict=False))
            for name in NEVER & cells.keys():
                out.never += _ticked(cells[name])
            for name in NEVER_IN & cells.keys():
                out.never_in += [(p, _ticked(cells[name])) for p in _ticked(row[0])]
    return out


def word(pattern: str) -> re.Pattern[str]:
    """A glossary pattern, matched as whole words and without regard to case."""
    return re.compile(rf"(?<!\w)(?:{pattern})(?!\w)", re.I)


def words_of(text: str) -> str:
    """A text as words: placeholders and code spans (what a player types) left out, every branch of a
    plural kept."""
    out = []
    for kind, body in _pieces(text):
        if kind == "text":
            out.append(body)
        elif (plural := branches(body)) is not None:
            out += [words_of(branch) for branch in plural[1].values()]
        out.append(" ")
    return re.sub(r"`[^`]*`", " ", "".join(out))


def test_the_glossary_parses_into_rules():
    es, en, fr = rules("es"), rules("en"), rules("fr")
    assert {"talon", "séquences?", "deadwood"} <= set(fr.never) and any(p == "isolé\\w*" for p, _ in fr.never_in)
    assert {"pozo", "cog\\w*", "ordenador\\w*", "\\w+[áé]is"} <= set(es.never)
    assert "computer players?" in en.never
    assert any(p == "suelt\\w*" for p, _ in es.never_in) and any(p == "deadwood" for p, _ in en.never_in)
    for pattern in es.never + en.never + fr.never:
        word(pattern)  # each compiles


def _catalog(locale: str) -> dict[str, str]:
    return catalog(locale)


@pytest.mark.parametrize("locale", LOCALES)
def test_no_text_uses_a_word_the_glossary_forbids(locale):
    found = []
    for pattern in rules(locale).never:
        rx = word(pattern)
        found += [(key, m.group(0)) for key, text in _catalog(locale).items() for m in rx.finditer(words_of(text))]
    assert not found, found


@pytest.mark.parametrize("locale", LOCALES)
def test_a_word_with_one_meaning_keeps_out_of_the_other_texts(locale):
    found = []
    for pattern, keys in rules(locale).never_in:
        rx = word(pattern)
        found += [(key, m.group(0)) for key, text in _catalog(locale).items()
                  if any(fnmatch(key, k) for k in keys) for m in rx.finditer(words_of(text))]
    assert not found, found


# ----------------------------------------------------------------------------- nothing internal

INTERNAL = {
    "a rules section": re.compile(r"§"),
    "a library or source": re.compile(r"open\s?spiel|openskill", re.I),
    "the record format's name": re.compile(r"\bRGN\b"),
    "a seat id": re.compile(r"(?<![\w.])[pP]\d+\b"),
    "a snake_case identifier": re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"),
}


@pytest.mark.parametrize("locale", LOCALES)
def test_no_internal_name_reaches_a_player(locale):
    found = []
    for key, text in _catalog(locale).items():
        if fnmatch(key, OPERATOR):
            continue
        plain = words_of(text.replace("`", ""))
        found += [(key, what, m.group(0)) for what, rx in INTERNAL.items() for m in rx.finditer(plain)]
    assert not found, found


@pytest.mark.parametrize("locale", LOCALES)
def test_every_placeholder_is_well_formed(locale):
    for key, text in _catalog(locale).items():
        assert text.count("{") == text.count("}"), (key, text)  # no lone brace
        for kind, body in _pieces(text):
            if kind == "field":
                plural = branches(body)
                if plural is not None:
                    assert "other" in plural[1], (key, body)
                    assert all(not re.search(r"\{(?!\w+\})", b) for b in plural[1].values()), (key, body)
                else:
                    assert re.fullmatch(r"\w+", body), (key, body)
        filled = translate(key, locale, **dict.fromkeys(placeholders(text), "x"))
        assert "{" not in filled and "}" not in filled, (key, filled)


def test_the_checks_see_what_they_look_for():
    """Each check catches the mistake it is there for (on texts written here, not the catalogs)."""
    es = rules("es")
    bad = {"coger": "Roba: no hay nada mejor que coger.", "pozo": "Toma del pozo.",
           "podéis": "Podéis reclamar.", "ordenador": "Un jugador del ordenador."}
    for wrong, text in bad.items():
        assert any(word(p).search(words_of(text)) for p in es.never), wrong
    assert not any(word(p).search(words_of("Toca `tomar` el descarte: te toca.")) for p in es.never)
    for text in ("el muro de OpenSpiel", "(reglas §4.7.5)", "p1 baja", "jokers_per_deck=3"):
        assert any(rx.search(text) for rx in INTERNAL.values()), text
    assert mentions_wrong("Termínala con `/rummy cancel`.", "es")
    assert mentions_wrong("Cámbialo con /rummy-admin settings", "es")
    assert mentions_wrong("Type it in /rummy jugar.", "en")
    assert mentions_wrong("Escríbelas en /rummy nueva opciones: como nombre=valor", "es")
    assert mentions_wrong("Di a qué rummy (variante:) se aplican.", "es")
    assert not mentions_wrong("Usa `/rummy jugar`; `/rummy-admin solo` no; /rummy nueva, en `options:`.", "es")


# ----------------------------------------------------------------------------- commands

@dataclass
class Node:
    names: dict[str, set[str]]  # locale -> the names a client in that locale shows
    children: list[Node] = field(default_factory=list)
    params: dict[str, set[str]] = field(default_factory=dict)

    def child(self, token: str, locale: str) -> Node | None:
        return next((c for c in self.children if token in c.names[locale]), None)


def _names(payload: dict[str, Any]) -> dict[str, set[str]]:
    local = payload.get("name_localizations") or {}
    out = {}
    for language, codes in LANGUAGES.items():
        out[language] = {local[c] for c in codes if c in local} or {payload["name"]}
    return out


def _node(payload: dict[str, Any]) -> Node:
    node = Node(_names(payload))
    for option in payload.get("options", []):
        if option["type"] in (1, 2):  # a subcommand or a subcommand group
            node.children.append(_node(option))
        else:
            for locale, names in _names(option).items():
                node.params.setdefault(locale, set()).update(names)
    return node


@cache
def command_payloads() -> list[dict[str, Any]]:
    """Every slash command's payload as the bot syncs it, translated by its own translator."""
    import discord
    from discord.ext import commands

    from bot.client import CatalogTranslator
    from bot.config import Config
    from cogs import admin, rummy

    async def build() -> list[dict[str, Any]]:
        bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
        bot.config = Config(token="t")  # type: ignore[attr-defined]
        bot.item_patterns = []  # type: ignore[attr-defined]
        await rummy.setup(bot)
        await admin.setup(bot)
        translator = CatalogTranslator()
        return [await c.get_translated_payload(bot.tree, translator) for c in bot.tree.get_commands()]

    return asyncio.run(build())


@cache
def command_tree() -> Node:
    """Every slash command as Discord receives it: names per locale from the bot's translator."""
    root = Node({language: set() for language in LANGUAGES})
    root.children = [_node(p) for p in command_payloads()]
    return root


def test_the_tree_knows_the_spanish_names():
    tree = command_tree()
    rummy_cmd = tree.child("rummy", "es")
    assert rummy_cmd is not None and rummy_cmd.child("jugar", "es") is rummy_cmd.child("play", "en")
    admin_cmd = tree.child("rummy-admin", "es")
    assert admin_cmd is not None and admin_cmd.child("ajustes", "es") is admin_cmd.child("settings", "en")
    assert rummy_cmd.child("jouer", "fr") is rummy_cmd.child("play", "en")
    assert admin_cmd.child("réglages", "fr") is admin_cmd.child("settings", "en")


def mentions_wrong(text: str, locale: str) -> list[str]:
    """The commands and parameters ``text`` names that a client in ``locale`` does not show."""
    others = [loc for loc in LOCALES if loc != locale]
    tree = command_tree()
    every_param = set().union(*(n.params.get(locale, set()) for n in _walk(tree)))
    wrong = []
    for m in re.finditer(r"(?<![\w/:<])/([\w-]+)((?: [\w-]+:?)*)", text):
        node = tree.child(m.group(1), locale)
        if node is None:
            if any(tree.child(m.group(1), other) is not None for other in others):
                wrong.append(m.group(0))
            continue
        for token in m.group(2).split():
            if token.endswith(":"):
                if not node.children and token[:-1] not in node.params.get(locale, set()):
                    wrong.append(f"{m.group(0)} ({token})")
                break
            step = node.child(token, locale)
            if step is None:
                if any(node.child(token, other) is not None for other in others):
                    wrong.append(m.group(0))
                break
            node = step
    # A parameter named on its own: "(variant:)" or "`options:`".
    for m in re.finditer(r"\((\w+):\)|`(\w+):`", text):
        name = m.group(1) or m.group(2)
        if name not in every_param:
            wrong.append(m.group(0))
    return wrong


def _walk(node: Node) -> list[Node]:
    return [node, *(n for c in node.children for n in _walk(c))]


@pytest.mark.parametrize("locale", LOCALES)
def test_commands_are_named_as_the_players_client_shows_them(locale):
    found = [(key, bad) for key, text in _catalog(locale).items() for bad in mentions_wrong(text, locale)]
    assert not found, found


# ----------------------------------------------------------------------------- texts put together in code


@pytest.mark.parametrize("locale", LOCALES)
def test_the_lobby_picture_says_every_option_in_words(locale):
    from bot.engine.options import OPTION_SPECS, OptionSpec
    from renderers.lobby import lobby_chips

    for variant, specs in OPTION_SPECS.items():
        for spec in specs:
            chips = lobby_chips(variant, [(spec.name, OptionSpec.write(spec.default))], locale)
            assert not any(INTERNAL["a snake_case identifier"].search(c) for c in chips), (variant, chips)


def test_every_language_s_command_names_pass_discords_limits():
    """The payloads the translator makes, in every language, as the fake Discord (which refuses what
    Discord refuses: names 1-32 word characters, lowercase; descriptions 1-100) receives them."""
    from tests.fakediscord.limits import check_commands

    payloads = command_payloads()
    assert check_commands(payloads) == []
    rummy_cmd = next(p for p in payloads if p["name"] == "rummy")
    assert {"es-ES", "es-419", "en-US", "en-GB", "fr"} <= set(rummy_cmd["name_localizations"])
    assert rummy_cmd["description_localizations"]["fr"] == translate("cmd.rummy.desc", "fr")
    names = {o["name_localizations"]["fr"] for o in rummy_cmd["options"]}
    assert {"nouvelle", "jouer", "règles", "main"} <= names
