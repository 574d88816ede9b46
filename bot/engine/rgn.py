"""Reading RGN text (notation.md "A record", "Moves"): tags, move lines and deal markers.

This module only splits text into tags and moves and writes them back; what a move means is the
game's business (``game.py``), so nothing here knows a rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

from .errors import IllegalMove

_TAG = re.compile(r'^\[\s*([A-Za-z]+)((?:\s+"[^"]*")+)\s*\]$')
_ARG = re.compile(r'"([^"]*)"')
SEAT_RE = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


@dataclass(slots=True)
class RecordText:
    """A parsed record: header tags in order, then moves and ``[Deal "n"]`` markers in order."""

    tags: list[tuple[str, list[str], int]] = field(default_factory=list)
    # ("move", seat, text, line) or ("deal", "", n, line)
    body: list[tuple[str, str, str, int]] = field(default_factory=list)


def strip_comment(line: str) -> str:
    s = line.strip()
    if s.startswith("#"):
        return ""
    cut = s.find(" #")
    return (s[:cut] if cut >= 0 else s).strip()


def parse_record(text: str) -> RecordText:
    rec = RecordText()
    seen_move = False
    for n, raw in enumerate(text.splitlines(), start=1):
        line = strip_comment(raw)
        if not line:
            continue
        if line.startswith("["):
            m = _TAG.match(line)
            if not m:
                raise IllegalMove("bad_record", f"cannot read the tag {line!r}", {"text": line}, line=n)
            name, args = m.group(1), _ARG.findall(m.group(2))
            if name == "Deal" and seen_move:
                if not args[0].isdigit():
                    raise IllegalMove("bad_record", "a deal number must be a number", {"text": line}, line=n)
                rec.body.append(("deal", "", args[0], n))
            elif seen_move:
                raise IllegalMove("bad_record", f"the tag {name} must come before the moves", {"tag": name}, line=n)
            else:
                rec.tags.append((name, args, n))
            continue
        seat, _, move = line.partition(" ")
        if not SEAT_RE.match(seat) or not move.strip():
            raise IllegalMove("bad_record", f"cannot read the move line {line!r}", {"text": line}, line=n)
        seen_move = True
        rec.body.append(("move", seat, " ".join(move.split()), n))
    return rec


def parse_number(text: str) -> int | Fraction:
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise IllegalMove("bad_record", f"{text!r} is not a number", {"text": text}) from None
    return int(value) if value.denominator == 1 else value


def write_number(value: int | Fraction) -> str:
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    return str(value)


def parse_seat_map(text: str) -> dict[str, str]:
    """``"ana=92 bea=19/2"`` -> ``{"ana": "92", "bea": "19/2"}``."""
    out: dict[str, str] = {}
    for word in text.split():
        k, eq, v = word.partition("=")
        if not eq:
            raise IllegalMove("bad_record", f"{word!r}: write seat=value", {"text": word})
        out[k] = v
    return out


def tag_line(name: str, *args: str) -> str:
    return "[" + name + "".join(f' "{a}"' for a in args) + "]"


def split_melds(text: str) -> list[list[str]]:
    """``"5C 6C 7C | 9D 9S 9H"`` -> two lists of words; an empty group is refused."""
    groups = [g.split() for g in text.split("|")]
    if any(not g for g in groups):
        raise IllegalMove("bad_move", "an empty meld between '|' separators", {"text": text})
    return groups
