"""What people type into a lobby, checked and cleaned before it is stored.

What it is: a lobby's options split into the engine's and the bot's own (``window=``), the turn
timer's bounds, and display names and reasons cleaned of control and bidi characters.
What it is not: no I/O and no rules of play: the engine validates its own options
(``make_rules``) and says which are valid.
"""

from __future__ import annotations

import unicodedata

from bot.engine import make_rules
from bot.engine.options import BOT_OPTIONS

from .changes import Refusal

MIN_TIMER = 0.25  # minutes: the shortest turn timer, 15 seconds
REASON_LENGTH = 100  # a manager's reason for voiding a result, as stored


def split_options(text: str) -> tuple[str, dict[str, int]]:
    """Separate the bot's own options (``window=10``) from the engine's; validates both.

    Raises ``IllegalMove`` with the engine's codes (``bad_option``, ``unknown_option``...) or
    ``Refusal("bad_bot_option")``.
    """
    engine_words, bot_values = [], {}
    for word in text.split():
        name, eq, value = word.partition("=")
        if eq and name in BOT_OPTIONS:
            lo, hi = BOT_OPTIONS[name]
            if not value.isdigit() or not lo <= int(value) <= hi:
                raise Refusal("bad_bot_option", name=name, low=lo, high=hi)
            bot_values[name] = int(value)
        else:
            engine_words.append(word)
    return " ".join(engine_words), bot_values


def lobby_options(variant: str, options: str, timer_minutes: float) -> str:
    """Validate a lobby's variant, options and timer; the options text as stored (non-default
    engine options, then the bot's). The engine refuses unknown variants, names or values, listing
    the valid ones."""
    rules = make_rules(variant, split_options(options)[0])
    # 0: no timer; otherwise from 15 seconds (the clock checks once a second) to a day.
    if not (timer_minutes == 0 or MIN_TIMER <= timer_minutes <= 24 * 60):
        raise Refusal("bad_timer")
    return " ".join(filter(None, [rules.options_text(), _bot_text(options)]))


def clean_text(text: str, limit: int) -> str:
    """Typed text as stored: control, zero-width and bidi characters removed, whitespace runs made
    one space, at most ``limit`` characters (reliability.md §4.4)."""
    kept = "".join(" " if ch.isspace() else ch for ch in text
                   if ch.isspace() or unicodedata.category(ch) not in ("Cc", "Cf", "Zl", "Zp"))
    return " ".join(kept.split())[:limit]


def clean_name(name: str) -> str:
    """A display name as stored: cleaned, at most 32 characters, never empty."""
    return clean_text(name, 32) or "?"


def _bot_text(options: str) -> str:
    return " ".join(w for w in options.split() if w.partition("=")[0] in BOT_OPTIONS)
