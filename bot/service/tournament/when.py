"""When a tournament's sign-up closes and its round 1 starts, as a manager writes it.

What it is: ``parse_when``, which reads one of three forms and gives the moment in Unix seconds:
- minutes from now, as the option always took them (``90``, ``0.5``);
- a duration from now in days, hours and minutes (``2h``, ``1d 3h``, ``1h30m``, ``45 min``,
  ``2 horas``, ``1 día``);
- a Discord timestamp (``<t:1767225600>``, ``<t:1767225600:F>``) or the bare Unix time in it. This
  is how Discord communities name a moment: a timestamp generator gives it in the writer's own
  time zone, and every reader's client shows it in theirs, so the bot never guesses a zone.
Anything else, a moment already past, or one more than ``MAX_AHEAD`` away is refused (a
``Refusal`` naming the forms), so nothing is created.
What it is not: no clock of its own (``now`` is passed in), no storage, no Discord.
"""

from __future__ import annotations

import re
from typing import Final

from ..changes import Refusal
from ..options import clean_text

MAX_AHEAD: Final = 7 * 24 * 3600.0  # a week ahead at most, as the minutes option allowed (10,080)
UNIX_MIN: Final = 1_000_000_000  # a bare number this big is a Unix time (2001), not minutes
UNIT_SECONDS: Final = {"d": 86400.0, "h": 3600.0, "m": 60.0}  # by the unit's first letter
TIMESTAMP = re.compile(r"<t:(?P<at>-?[0-9]{1,13})(?::[tdfr])?>")  # matched on the lowered text
# Units in both languages: d, day(s), día(s); h, hour(s), hora(s); m, min, minute(s), minuto(s).
PART = re.compile(r"(?P<n>[0-9]+(?:[.,][0-9]+)?)\s*(?P<unit>d(?:ays?|[ií]as?)?|h(?:ours?|oras?)?"
                  r"|m(?:in(?:utes?|utos?|s)?)?)(?![a-zñ])")


def parse_when(text: str, now: float) -> float:
    """The moment ``text`` names, after ``now`` and at most ``MAX_AHEAD`` later."""
    raw = text.strip().lower()
    at = _moment(raw, now)
    if at is None:
        raise Refusal("tournament_when", text=clean_text(text, 40))
    if at <= now:
        raise Refusal("tournament_when_past", when=f"<t:{int(at)}:f>")
    if at - now > MAX_AHEAD:
        raise Refusal("tournament_when_far", when=f"<t:{int(at)}:f>")
    return at


def _moment(raw: str, now: float) -> float | None:
    stamp = TIMESTAMP.fullmatch(raw)
    if stamp:
        return float(stamp["at"])
    number = _number(raw)
    if number is not None:
        return number if number >= UNIX_MIN else now + 60 * number
    pos, seconds, unit = 0, 0.0, ""
    for part in PART.finditer(raw):
        if raw[pos:part.start()].strip():
            return None
        value = _number(part["n"])
        assert value is not None
        unit = part["unit"][0]
        seconds += value * UNIT_SECONDS[unit]
        pos = part.end()
    rest = _number(raw[pos:].strip()) if pos and unit == "h" else None
    if rest is not None:  # "1h30": the minutes after the hours
        return now + seconds + 60 * rest
    if pos == 0 or raw[pos:].strip():
        return None
    return now + seconds


def _number(raw: str) -> float | None:
    """A plain number; a comma is a decimal point too, as Spanish writes it (``1,5``)."""
    if not re.fullmatch(r"[0-9]+(?:[.,][0-9]+)?", raw):
        return None
    return float(raw.replace(",", "."))
