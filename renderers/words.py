"""What the images say: variant names, option chips, moves and outcomes, through the catalog.

What it is: the only place the renderers turn view data into words; every label comes from
``bot.words.i18n.translate``. Moves come back as *parts*: strings and 1-tuples holding a card code,
which ``Scene.rich`` draws as small card chips, so "bea descarta K♠" shows a real suit.

What it is not: no drawing, and no rules: it reads the view's option names and RGN move text and
knows nothing of what they do.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.engine import IllegalMove, Verb, parse_line
from bot.words.i18n import format_number, has_key, translate

from .draw import clean_name, is_card_code

__all__ = ["KEY_OPTIONS", "Part", "display_name", "label_parts", "move_parts", "option_chips", "outcome_text",
           "turn_rows", "variant_name"]

Part = str | tuple[str]

KEY_OPTIONS: dict[str, tuple[str, ...]] = {
    "basic": ("game_end", "scoring_mode", "ace_mode", "multiple_melds_per_turn", "going_rummy"),
    "wrotham": ("scoring_mode", "ace_mode", "multiple_melds_per_turn", "going_rummy"),
    "gin": ("target", "knock_limit", "gin_bonus", "undercut_bonus"),
    "rami": ("scoring_mode", "first_meld_min", "discard_mode", "table_manipulation", "identities"),
    "tradicional": ("game_end", "opt1_pozo_visible", "opt2_rummy_call", "opt3_ace_high_low", "opt4_continuous",
                    "opt5_two_turns"),
    "dummy": ("cut_ins", "contract_sizes", "game_end"),
}
"""Per variant, the options worth a chip on the table header, in order. The catalog decides which
values show (a value with no ``opt.<name>.<value>`` text, such as a default, shows nothing)."""


def variant_name(variant: str, locale: str) -> str:
    key = f"variant.{variant}"
    return translate(key, locale) if has_key(key) else variant


def display_name(seat: str, names: Mapping[str, str] | None) -> str:
    """The name shown for a seat: the caller's display name (what the font can draw), else the id."""
    return clean_name(names.get(seat, seat), seat) if names else seat


def option_chips(variant: str, options: Sequence[tuple[str, str]], locale: str) -> list[str]:
    """The header's option labels for ``variant``, from the options in force."""
    values = dict(options)
    chips = []
    for name in KEY_OPTIONS.get(variant, ()):
        if name not in values:
            continue
        value = values[name]
        head, _, num = value.partition(":")
        for key, params in ((f"opt.{name}.{value}", {}), (f"opt.{name}.{head}", {"n": num}),
                            (f"opt.{name}", {"value": value})):
            if has_key(key):
                text = translate(key, locale, **params)
                if text:
                    chips.append(text)
                break
    return chips


_SENTINEL = "\x00"
_SUBJECT = "\x01"  # stands for the seat's name while a move's words are put together


def _with_cards(key: str, locale: str, cards: list[Part], *, placeholder: str = "cards", **params: str) -> list[Part]:
    """Translate ``key`` and put the card parts where its ``{cards}`` (or other ``placeholder``) is."""
    text = translate(key, locale, **{placeholder: _SENTINEL}, **params)
    out: list[Part] = []
    pieces = text.split(_SENTINEL)
    for i, piece in enumerate(pieces):
        if piece:
            out.append(piece)
        if i < len(pieces) - 1:
            out.extend(cards)
    return out


def _card_parts(words: Sequence[str]) -> list[Part]:
    """Card codes as chips; ``|`` between melds and anything else as text."""
    out: list[Part] = []
    for w in words:
        if w == "|":
            out.append("  |  ")
        elif is_card_code(w):
            out.append((w.upper(),))
        else:
            out.append(f" {w} ")
    return out


def move_parts(move: str, names: Mapping[str, str] | None, locale: str, *, took: str | None = None,
               who: str | None = None) -> list[Part]:
    """A move line (``"bea discard KS"``) as words and card chips, e.g. ``["bea descarta ", ("KS",)]``.

    ``took`` names the card a bare ``take`` took (the replay knows it; the table may not); ``who``
    replaces the seat's name in the words."""
    try:
        seat, typed = parse_line(move)
    except IllegalMove:
        return [move]  # not a move line: shown as it is
    verb, cards = typed.verb, list(typed.cards)
    who = display_name(seat, names) if who is None else who
    if verb is Verb.TAKE and (cards or took):
        return _with_cards("move.take_card", locale, _card_parts(cards or [took or ""]), seat=who)
    if verb is Verb.KNOCK:
        return _with_cards("move.knock", locale, _card_parts(cards), seat=who)
    if verb.needs_target:
        return _with_cards(f"move.{verb}", locale, _card_parts(cards), seat=who, meld=str(typed.target))
    if verb is Verb.MELD:
        words = [w for meld in typed.melds for w in ("|", *meld)][1:]
        return _with_cards("move.meld", locale, _card_parts(words), seat=who)
    if verb in (Verb.DISCARD, Verb.CLAIM):
        return _with_cards(f"move.{verb}", locale, _card_parts(cards), seat=who)
    key = f"move.{verb}"
    if has_key(key):
        return [translate(key, locale, seat=who)]
    return [f"{who} {typed}"]


def label_parts(move: str, locale: str, *, added: Sequence[str] = ()) -> list[Part]:
    """A move line as the label of a move to make (``"Descartar "``, then the card's chip), the
    words of the buttons and of a hint (``describe.*``), with no seat in it. For a rearranged
    table (``table``), ``added``: the cards it puts down from the hand (its melds are not listed:
    the picture shows them)."""
    try:
        _seat, typed = parse_line(move)
    except IllegalMove:
        return [move]
    verb, cards = typed.verb, list(typed.cards)
    if verb is Verb.TABLE:
        if added:
            return _with_cards("hintimg.table_with", locale, _card_parts(added))
        return [translate("hintimg.table_move", locale)]
    if verb is Verb.MELD and typed.melds:
        words = [w for meld in typed.melds for w in ("|", *meld)][1:]
        return _with_cards("describe.meld", locale, _card_parts(words), placeholder="melds")
    if verb is Verb.TAKE and cards:
        return _with_cards("describe.take_card", locale, _card_parts(cards), placeholder="card")
    if verb.needs_target and cards:
        key = "card" if verb is Verb.SWAP else "cards"
        return _with_cards(f"describe.{verb}", locale, _card_parts(cards), placeholder=key, number=str(typed.target))
    if verb in (Verb.DISCARD, Verb.CLAIM, Verb.KNOCK) and cards:
        return _with_cards(f"describe.{verb}", locale, _card_parts(cards), placeholder="card")
    key = f"describe.{verb}"
    return [translate(key, locale)] if has_key(key) else [str(typed)]


def turn_rows(lines: Sequence[str], names: Mapping[str, str] | None,
              locale: str) -> list[tuple[str | None, list[Part]]]:
    """Record lines (``"bea draw"``, ``"bea discard KS"``…) as one row per turn: consecutive lines
    of one seat become (seat, the moves without the seat's name, joined by " · "), e.g.
    ``("bea", ["roba del mazo", " · ", "descarta ", ("KS",)])``; a move whose words do not start
    with the name keeps its whole sentence, and a line that is not a move is a row of its own
    (seat None)."""
    rows: list[tuple[str | None, list[Part]]] = []
    for line in lines:
        try:
            seat: str | None = parse_line(line)[0]
        except IllegalMove:
            rows.append((None, [line]))
            continue
        parts = move_parts(line, names, locale, who=_SUBJECT)
        first = parts[0] if parts else ""
        if isinstance(first, str) and first.startswith(_SUBJECT) and _SUBJECT not in first[1:]:
            rest = first[len(_SUBJECT):].lstrip(" :")
            head: list[Part] = [rest] if rest else []
            parts = head + parts[1:]
        else:
            parts = move_parts(line, names, locale)
        if rows and rows[-1][0] == seat and seat is not None:
            rows[-1][1].extend([" · ", *parts])
        else:
            rows.append((seat, parts))
    return rows


def outcome_text(outcome: str, winner: str | None, names: Mapping[str, str] | None, locale: str) -> str:
    """The headline of a finished deal ("¡Gin de ana!")."""
    key = f"result.outcome.{outcome}"
    if winner is None and has_key(key + ".none"):
        return translate(key + ".none", locale)
    if not has_key(key):
        return outcome
    return translate(key, locale, winner=display_name(winner, names) if winner else "")


def points_text(value: object, locale: str, *, signed: bool = False) -> str:
    """A score for display; ``signed`` puts a + before positive numbers."""
    text = format_number(value, locale)  # type: ignore[arg-type]
    return "+" + text if signed and not text.startswith("\u2212") and text != "0" else text
