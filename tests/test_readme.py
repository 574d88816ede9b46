"""The READMEs (issue 36): one in English, one in Spanish, each naming the commands as a Discord
client in its language shows them, and each linking to the other.

What a newcomer would notice if this failed: a Spanish page telling them to type ``/rummy new``
while their client shows ``/rummy nueva`` (or the other way round), or no way from one page to the other.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.words.i18n import catalog

ROOT = Path(__file__).resolve().parents[1]
MENTION = re.compile(r"`/(rummy(?:-admin)?)((?:\s+[a-z][a-z-]*)*)")  # `/rummy nueva`, `/rummy-admin torneo nuevo`


def command_names(locale: str) -> set[str]:
    """The names Discord shows in ``locale`` for the commands, groups and subcommands: the catalog's
    ``cmd.*`` texts that are names (lower case, no spaces), as ``bot.client.CatalogTranslator`` gives them."""
    return {text for key, text in catalog(locale).items()
            if key.startswith("cmd.") and not key.endswith(".desc") and re.fullmatch(r"[a-z][a-z-]*", text)}


@pytest.mark.parametrize(("readme", "locale", "other"), [("README.md", "en", "README.es.md"),
                                                        ("README.es.md", "es", "README.md")])
def test_each_readme_names_the_commands_in_its_language_and_links_to_the_other(
        readme: str, locale: str, other: str) -> None:
    text = (ROOT / readme).read_text(encoding="utf-8")
    assert f"]({other})" in text.split("\n\n", 2)[1]  # the link, right under the title
    names = command_names(locale)
    group = catalog(locale)["cmd.tournament"]
    subcommands = {catalog(locale)["cmd.tournament.new"], catalog(locale)["cmd.tournament.manage"]}
    # The paragraph that points to the other README names a few commands as the other language shows them.
    own = "\n\n".join(part for part in text.split("\n\n") if f"]({other})" not in part)
    seen = 0
    for root, words in MENTION.findall(own):
        words = words.split()
        if not words:
            continue
        seen += 1
        assert words[0] in names, (readme, root, words)
        if root == "rummy-admin" and words[0] == group:
            assert words[1:2] and words[1] in subcommands, (readme, root, words)
    assert seen >= 30
    if locale == "es":  # what a newcomer types first, as a Spanish client shows it
        assert "`/rummy nueva variant:gin`" in own and "/rummy new" not in own
