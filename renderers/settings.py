"""The server settings card (issue 12): a server's house rules as one picture.

What it is: the card ``/rummy-admin settings`` answers with, in the standings' style: a header
with the server's name; the general settings (turn timer, language of the public messages,
computer players); every rummy as a pill, the closed ones dimmed, struck through and marked
"closed"; the default options per rummy and the named presets, each option in the words the lobby
uses (``lobby.option_item`` with the option's phrase, never ``name=value``); and the members barred
from the server's games with their reason. A member who left the server (no display name) shows as
"member 1234…". Long lists stop after ``PRESETS``/``BANNED`` entries with "and N more": the
embed sent beside the picture holds them all.

What it is not: it reads a plain ``SettingsInfo`` (no database, no Discord). The sections are laid
out first (``_Line``: measured, wrapped) and drawn after, so each sits on a panel of its height.
``draw_settings`` returns the ``Scene`` (for tests: regions ``variant``, ``closed``, ``preset``,
``banned``); ``render_settings`` encodes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.engine import VARIANTS
from bot.words.i18n import option_value, timer_text, translate

from .draw import Scene, clean_name
from .encode import Rendered, encode_still
from .theme import CLASSIC, RGB, Palette
from .words import variant_name

__all__ = ["SettingsInfo", "draw_settings", "render_settings"]

WIDTH = 640  # narrower than the ladder: a phone shows it at about 400 px, so 19 px text stays legible
MARGIN = 22
PAD = 16  # inside a section's panel
HEADER_H = 66
HEAD = 17  # a section's heading (upper case)
BODY = 21  # values, names
SMALL = 19  # option lines, reasons
PILL = 20
PRESETS = 8
BANNED = 10
Options = tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class SettingsInfo:
    """A server's settings as the card shows them. ``timer_minutes`` None: the bot's default
    (``default_timer``), 0: no timer; ``language`` None: the server's Discord language;
    ``defaults``: (variant, options) and ``presets``: (variant, name, options), options as
    (name, value) pairs; ``banned``: (user id, display name or None when they left, reason)."""

    server: str
    timer_minutes: float | None = None
    language: str | None = None
    bots: bool = True
    closed: frozenset[str] = frozenset()
    defaults: tuple[tuple[str, Options], ...] = ()
    presets: tuple[tuple[str, str, Options], ...] = ()
    banned: tuple[tuple[int, str | None, str], ...] = ()
    default_timer: float = 5.0


@dataclass
class _Line:
    """One laid-out line: ``text`` at ``x`` (or, for a row of pills, ``pills``: text, key, closed)."""

    x: int
    text: str = ""
    size: int = BODY
    weight: str = "semibold"
    colour: RGB = Palette.ink
    gap: int = 0  # extra space above
    mark: tuple[str, str] | None = None  # the region (kind, key) the line starts
    value: tuple[int, str] | None = None  # a second column: x, text (the general settings)
    pills: list[tuple[str, str, bool]] = field(default_factory=list)

    @property
    def height(self) -> int:
        return (PILL * 2 + 10 if self.pills else round(self.size * 1.45)) + self.gap


def option_texts(options: Options, locale: str) -> list[str]:
    """Options in the lobby's words: "Cómo juega el as en las escaleras: high"."""
    out = []
    for name, value in options:
        out.append(translate("lobby.option_item", locale, label=translate(f"option.{name}", locale),
                             value=option_value(name, value, locale)))
    return out


def wrap(text: str, size: int, weight: str, width: int) -> list[str]:
    """``text`` broken at spaces into lines at most ``width`` px wide (a word too long is cut)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if current and Scene.measure(trial, size, weight) > width:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return [Scene.fit(line, size, weight, width) for line in lines] or [""]


def _wrapped(x: int, text: str, size: int, weight: str, colour: RGB, *, gap: int = 0,
             mark: tuple[str, str] | None = None) -> list[_Line]:
    parts = wrap(text, size, weight, WIDTH - MARGIN - PAD - x)
    return [_Line(x, part, size, weight, colour, gap if i == 0 else 0, mark if i == 0 else None)
            for i, part in enumerate(parts)]


def _general(info: SettingsInfo, locale: str) -> list[_Line]:
    if info.timer_minutes is None:
        timer = translate("settingsimg.timer_default", locale, time=timer_text(info.default_timer, locale))
    elif info.timer_minutes == 0:
        timer = translate("settingsimg.timer_none", locale)
    else:
        timer = timer_text(info.timer_minutes, locale)
    rows = (("timer", timer), ("language", translate(f"settingsimg.language.{info.language or 'auto'}", locale)),
            ("bots", translate(f"settingsimg.bots.{'on' if info.bots else 'off'}", locale)))
    left = MARGIN + PAD
    labels = [translate(f"settingsimg.{key}", locale) for key, _ in rows]
    column = left + max(Scene.measure(label, SMALL, "semibold") for label in labels) + 18
    out = []
    for (key, value), label in zip(rows, labels, strict=True):
        parts = wrap(value, BODY, "bold", WIDTH - MARGIN - PAD - column)
        out.append(_Line(left, label, SMALL, "semibold", Palette.ink_soft, 4, ("general", key),
                         (column, parts[0])))
        out += [_Line(left, "", SMALL, value=(column, part)) for part in parts[1:]]
    return out


def _variants(info: SettingsInfo, locale: str) -> list[_Line]:
    """The rummies as pills, in as many rows as they need."""
    rows: list[_Line] = [_Line(MARGIN + PAD, gap=4)]
    x = MARGIN + PAD
    for v in VARIANTS:
        closed = v in info.closed
        text = variant_name(v, locale)
        w = _pill_width(text, closed, locale)
        if rows[-1].pills and x + w > WIDTH - MARGIN - PAD:
            rows.append(_Line(MARGIN + PAD))
            x = MARGIN + PAD
        rows[-1].pills.append((text, v, closed))
        x += w + 10
    return rows


def _options(variant_label: str, options: Options, locale: str, *, mark: tuple[str, str] | None,
             gap: int) -> list[_Line]:
    out = [_Line(MARGIN + PAD, variant_label, BODY, "heavy", Palette.gold, gap, mark)]
    for text in option_texts(options, locale):
        out += _wrapped(MARGIN + PAD + 18, text, SMALL, "semibold", Palette.ink)
    if not options:
        out.append(_Line(MARGIN + PAD + 18, translate("settingsimg.none", locale), SMALL, "semibold",
                         Palette.ink_faint))
    return out


def _more(count: int, locale: str) -> list[_Line]:
    if count <= 0:
        return []
    return [_Line(MARGIN + PAD, translate("settingsimg.more", locale, count=count), SMALL, "semibold",
                  Palette.ink_faint, 6)]


def _none(key: str, locale: str) -> list[_Line]:
    return [_Line(MARGIN + PAD, translate(key, locale), SMALL, "semibold", Palette.ink_faint, 2)]


def _sections(info: SettingsInfo, locale: str) -> list[tuple[str, list[_Line]]]:
    defaults: list[_Line] = []
    for i, (v, options) in enumerate(sorted(info.defaults, key=lambda d: VARIANTS.index(d[0]))):
        defaults += _options(variant_name(v, locale), options, locale, mark=("default", v), gap=10 if i else 2)
    presets: list[_Line] = []
    ordered = sorted(info.presets, key=lambda p: (VARIANTS.index(p[0]), p[1]))
    for i, (v, name, options) in enumerate(ordered[:PRESETS]):
        label = Scene.fit(f"{name} · {variant_name(v, locale)}", BODY, "heavy", WIDTH - 2 * (MARGIN + PAD))
        presets += _options(label, options, locale, mark=("preset", f"{v}:{name}"), gap=10 if i else 2)
    presets += _more(len(ordered) - PRESETS, locale)
    banned: list[_Line] = []
    for i, (user_id, shown, reason) in enumerate(info.banned[:BANNED]):
        who = translate("settingsimg.member", locale, id=str(user_id)[:4])
        name = clean_name(shown, who) if shown else who
        banned.append(_Line(MARGIN + PAD, Scene.fit(name, BODY, "bold", WIDTH - 2 * (MARGIN + PAD)), BODY, "bold",
                            Palette.ink, 8 if i else 2, ("banned", str(user_id))))
        why = clean_name(reason, translate("settingsimg.no_reason", locale))  # typed by a manager: emoji dropped
        banned += _wrapped(MARGIN + PAD + 18, why, SMALL, "semibold", Palette.ink_soft)
    banned += _more(len(info.banned) - BANNED, locale)
    return [("general", _general(info, locale)), ("variants", _variants(info, locale)),
            ("defaults", defaults or _none("settingsimg.none", locale)),
            ("presets", presets or _none("settingsimg.none", locale)),
            ("banned", banned or _none("settingsimg.nobody", locale))]


def _pill_width(text: str, closed: bool, locale: str) -> int:
    """As ``_draw_pills`` draws it: a closed rummy's pill adds the word "closed"."""
    width = 2 * round(PILL * 0.84) + Scene.measure(text, PILL, "bold")
    return width + (10 + Scene.measure(_closed_word(locale), PILL - 2, "heavy") if closed else 0)


def _closed_word(locale: str) -> str:
    return translate("settingsimg.closed", locale).upper()


def _draw_pills(scene: Scene, line: _Line, y: int, locale: str) -> None:
    """Open rummies on light pills; a closed one dark, its name struck through and "CLOSED" beside
    it in red (the word left unstruck, so it reads at a glance)."""
    x = line.x
    h = PILL * 2
    pad = round(h * 0.42)
    for text, key, closed in line.pills:
        w = _pill_width(text, closed, locale)
        box = (x, y + 4, x + w, y + 4 + h)
        fill, ink = (Palette.panel_resigned, Palette.ink_soft) if closed else (Palette.chip, Palette.chip_ink)
        scene.rrect(box, h / 2, fill)
        name = scene.text(x + pad, y + 4 + (h - round(PILL * 1.21)) / 2, text, PILL, ink, "bold")
        scene.mark("variant", key, box)
        if closed:
            scene.mark("closed", key, box)
            mid = (name[1] + name[3]) // 2
            scene.draw.line((name[0] - 3, mid, name[2] + 3, mid), fill=Palette.ink_soft, width=2)
            scene.text(name[2] + 10, y + 4 + (h - round((PILL - 2) * 1.21)) / 2, _closed_word(locale), PILL - 2,
                       Palette.red_bad, "heavy")
        x = box[2] + 10


def _draw_line(scene: Scene, line: _Line, y: int, locale: str) -> None:
    y += line.gap
    if line.pills:
        _draw_pills(scene, line, y, locale)
        return
    if line.text:
        box = scene.text(line.x, y, line.text, line.size, line.colour, line.weight)
        if line.mark is not None:
            scene.mark(*line.mark, box)
    if line.value is not None:
        x, text = line.value
        scene.text(x, y - (BODY - line.size) // 2, text, BODY, Palette.ink, "bold")


def draw_settings(info: SettingsInfo, *, locale: str = "es") -> Scene:
    sections = _sections(info, locale)
    heights = [HEAD + 14 + sum(line.height for line in lines) + PAD for _, lines in sections]
    height = HEADER_H + 14 + sum(h + 12 for h in heights) + 30
    scene = Scene.new(WIDTH, height, CLASSIC)
    scene.draw.rectangle((0, 0, WIDTH, HEADER_H), fill=Palette.band)
    scene.draw.rectangle((0, HEADER_H - 3, WIDTH, HEADER_H), fill=Palette.gold)
    title = translate("settingsimg.title", locale)
    room = WIDTH - 2 * MARGIN - scene.measure(title, 22, "semibold") - 16
    server = clean_name(info.server, title)
    scene.text(MARGIN, 14, server, 30, Palette.ink, "heavy", max_width=room)
    scene.text(WIDTH - MARGIN, 22, title, 22, Palette.ink_soft, "semibold", align="right")
    y = HEADER_H + 14
    for (key, lines), h in zip(sections, heights, strict=True):
        scene.rrect((MARGIN, y, WIDTH - MARGIN, y + h), 12, Palette.panel)
        scene.text(MARGIN + PAD, y + 12, translate(f"settingsimg.{key}", locale).upper(), HEAD, Palette.ink_soft,
                   "heavy")
        scene.mark("section", key, (MARGIN, y, WIDTH - MARGIN, y + h))
        line_y = y + HEAD + 14 + 4
        for line in lines:
            _draw_line(scene, line, line_y, locale)
            line_y += line.height
        y += h + 12
    scene.text(WIDTH / 2, y + 2, translate("settingsimg.help", locale), 17, Palette.ink_soft, "semibold",
               align="centre")
    return scene


def render_settings(info: SettingsInfo, *, locale: str = "es") -> Rendered:
    """The settings card as an encoded image (``settings.png``)."""
    return encode_still(draw_settings(info, locale=locale).image, "settings")


def info_options(text: str) -> Options:
    """Stored options (``name=value`` words) as the card's pairs."""
    return tuple((n, v) for n, eq, v in (w.partition("=") for w in text.split()) if eq)
