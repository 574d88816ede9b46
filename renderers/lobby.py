"""The lobby image: the public picture of a game that players are joining, before it starts.

What it is: a fixed-width picture in the table's style, top to bottom: the header (the variant's
name, "lobby", and a ribbon with the lobby's status: open, started, cancelled or expired), the
options in force as chips (the table's labels where the catalog has them, the option's label
and value in words otherwise), the player count ("2 of 2–6 players") with the turn timer, and
one slot per seat: the seated players as avatar discs with their initial and name (the host
crowned), then dashed empty slots up to the variant's maximum (the ones still needed to start
say so).

What it is not: it reads a plain ``LobbyInfo`` (no database row, no Discord objects, no rules);
the bot builds one from its lobby. ``draw_lobby`` returns the ``Scene`` (for tests);
``render_lobby`` encodes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.words.i18n import has_key, option_value, timer_text, translate

from .draw import PROBE, Box, Scene, clean_name
from .encode import Rendered, encode_still
from .theme import CLASSIC, RGB, SEAT_COLOURS, Palette
from .words import KEY_OPTIONS, option_chips, variant_name

__all__ = ["STATUSES", "WIDTH", "LobbyInfo", "LobbyStatus", "draw_lobby", "lobby_chips", "render_lobby"]

WIDTH = 960
MARGIN = 22
GAP = 12
HEADER_H = 66
class LobbyStatus(StrEnum):
    """What the lobby picture's ribbon says (the picture's words, not the stored game status)."""

    OPEN = "open"
    STARTED = "started"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


STATUSES = tuple(LobbyStatus)


@dataclass(frozen=True, slots=True)
class LobbyInfo:
    """What the lobby picture shows. ``options`` are the options in force that differ from the
    variant's defaults, as (name, value) text pairs; ``seats`` the display names of the seated
    players in seat order, ``host`` the host's; ``timer_minutes`` 0 for no turn timer;
    ``invited`` the names of those invited to a rematch (drawn in the first empty slots)."""

    variant: str
    options: tuple[tuple[str, str], ...]
    seats: tuple[str, ...]
    host: str
    min_players: int
    max_players: int
    timer_minutes: float
    status: str = LobbyStatus.OPEN
    invited: tuple[str, ...] = ()  # a rematch's previous players, not seated until they press Join


def lobby_chips(variant: str, options: Sequence[tuple[str, str]], locale: str) -> list[str]:
    """The option chips: the table's labels for its key options (``words.option_chips``), then
    every other option in force in words, as its label and value (``Comodines por baraja: 3``)."""
    chips = option_chips(variant, options, locale)
    labelled = set(KEY_OPTIONS.get(variant, ()))
    chips += [translate("lobby.option_item", locale,
                        label=translate(f"option.{name}", locale) if has_key(f"option.{name}") else name,
                        value=option_value(name, value, locale))
              for name, value in options if name not in labelled]
    return chips


# --- small vector marks (supersampled once, cached) -------------------------------------------------

_SS = 4


@lru_cache(maxsize=64)
def _mark_mask(kind: str, w: int, h: int) -> Image.Image:
    """An antialiased ``w``×``h`` mask: ``ring`` (a dashed circle), ``plus``, ``cross``, ``clock``,
    ``dot`` or ``ribbon`` (a banner whose left end is cut as a swallow tail)."""
    big = Image.new("L", (w * _SS, h * _SS), 0)
    d = ImageDraw.Draw(big)
    W, H = w * _SS, h * _SS
    stroke = max(_SS, round(min(w, h) * 0.09 * _SS))
    if kind == "ring":
        dashes = 14
        for i in range(dashes):
            start = i * 360 / dashes - 90
            d.arc((stroke // 2, stroke // 2, W - 1 - stroke // 2, H - 1 - stroke // 2), start,
                  start + 360 / dashes * 0.6, fill=255, width=stroke)
    elif kind == "plus":
        d.rectangle((0, H / 2 - stroke / 2, W, H / 2 + stroke / 2), fill=255)
        d.rectangle((W / 2 - stroke / 2, 0, W / 2 + stroke / 2, H), fill=255)
    elif kind == "cross":
        d.line((stroke / 2, stroke / 2, W - stroke / 2, H - stroke / 2), fill=255, width=round(stroke * 1.5))
        d.line((stroke / 2, H - stroke / 2, W - stroke / 2, stroke / 2), fill=255, width=round(stroke * 1.5))
    elif kind == "clock":
        width = round(stroke * 1.2)
        d.ellipse((0, 0, W - 1, H - 1), outline=255, width=width)
        cx, cy = W / 2, H / 2
        d.line((cx, cy, cx, H * 0.22), fill=255, width=width)
        d.line((cx, cy, W * 0.72, cy), fill=255, width=width)
    elif kind == "dot":
        d.ellipse((0, 0, W - 1, H - 1), fill=255)
    elif kind == "ribbon":
        notch = H * 0.42
        d.polygon([(0, 0), (W, 0), (W, H), (0, H), (notch, H / 2)], fill=255)
    else:
        raise ValueError(kind)
    return big.resize((w, h), Image.Resampling.BOX)


def _paint(scene: Scene, kind: str, x: float, y: float, w: int, h: int, colour: RGB) -> None:
    scene.draw.bitmap((round(x), round(y)), _mark_mask(kind, w, h), fill=colour)


# --- header ----------------------------------------------------------------------------------------

_STATUS_LOOK: dict[str, tuple[RGB, RGB, str]] = {  # fill, ink, icon
    LobbyStatus.OPEN: (Palette.green_ok, Palette.chip_ink, "dot"),
    LobbyStatus.STARTED: (Palette.gold, Palette.chip_ink, "play"),
    LobbyStatus.CANCELLED: (Palette.red_bad, Palette.chip_ink, "cross"),
    LobbyStatus.EXPIRED: (Palette.ink_faint, Palette.chip_ink, "clock"),
}
RIBBON_H = 38
RIBBON_TEXT = 18


def _ribbon_width(text: str) -> int:
    return 26 + 16 + 8 + PROBE.measure(text, RIBBON_TEXT, "heavy") + MARGIN


def _header(scene: Scene, lobby: LobbyInfo, locale: str) -> None:
    scene.draw.rectangle((0, 0, WIDTH, HEADER_H), fill=Palette.band)
    scene.draw.rectangle((0, HEADER_H - 3, WIDTH, HEADER_H), fill=Palette.gold)
    # The status ribbon, hanging from the right edge.
    fill, ink, icon = _STATUS_LOOK[lobby.status]
    label = translate(f"lobbyimg.status.{lobby.status}", locale).upper()
    rw = _ribbon_width(label)
    rx, ry = WIDTH - rw, (HEADER_H - 3 - RIBBON_H) // 2
    _paint(scene, "ribbon", rx, ry, rw, RIBBON_H, fill)
    ix, iy, s = rx + 26, ry + (RIBBON_H - 16) / 2, 16
    if icon == "play":
        scene.draw.polygon([(ix + 2, iy), (ix + 2 + s * 0.87, iy + s / 2), (ix + 2, iy + s)], fill=ink)
    elif icon == "dot":
        _paint(scene, "dot", ix + 3, iy + 3, s - 6, s - 6, ink)
    else:
        _paint(scene, icon, ix + (1 if icon == "cross" else 0), iy + (1 if icon == "cross" else 0),
               s - (2 if icon == "cross" else 0), s - (2 if icon == "cross" else 0), ink)
    scene.text(ix + s + 8, ry + (RIBBON_H - round(RIBBON_TEXT * 1.21)) / 2, label, RIBBON_TEXT, ink, "heavy")
    scene.mark("status", lobby.status, (rx, ry, WIDTH, ry + RIBBON_H))
    # The variant's name and "lobby".
    room = rx - 20 - MARGIN
    title = variant_name(lobby.variant, locale)
    end = scene.text(MARGIN, 14, title, 30, Palette.ink, "heavy", max_width=room)[2]
    if room - (end - MARGIN) > 60:
        scene.text(end + 14, 22, translate("lobbyimg.title", locale), 22, Palette.ink_soft, "semibold",
                   max_width=rx - 20 - end - 14)


# --- options ---------------------------------------------------------------------------------------

CHIP_SIZE = 17
CHIP_H = 32
CHIP_ROW = CHIP_H + 8
LABEL = 15  # small capitals labels


def _option_rows(lobby: LobbyInfo, locale: str) -> tuple[int, list[list[tuple[str, int]]]]:
    """The chips' left edge (after the "OPTIONS" label) and the chips in rows: (text, width)."""
    left = MARGIN + PROBE.measure(translate("lobbyimg.options", locale).upper(), LABEL, "bold") + 14
    limit = WIDTH - MARGIN - left
    rows: list[list[tuple[str, int]]] = [[]]
    used = 0
    for chip in lobby_chips(lobby.variant, lobby.options, locale):
        pad = PROBE.pill_width("", CHIP_SIZE, height=CHIP_H)
        text = PROBE.fit(chip, CHIP_SIZE, "bold", limit - pad)
        w = PROBE.pill_width(text, CHIP_SIZE, height=CHIP_H)
        if rows[-1] and used + 8 + w > limit:
            rows.append([])
            used = 0
        used += (8 if rows[-1] else 0) + w
        rows[-1].append((text, w))
    return left, rows


def _options(scene: Scene, y0: int, left: int, rows: list[list[tuple[str, int]]], locale: str) -> None:
    scene.text(MARGIN, y0 + (CHIP_H - round(LABEL * 1.21)) / 2, translate("lobbyimg.options", locale).upper(),
               LABEL, Palette.ink_faint, "bold")
    if not rows[0]:
        scene.text(left, y0 + (CHIP_H - round(19 * 1.21)) / 2, translate("lobbyimg.defaults", locale), 19,
                   Palette.ink_soft, "semibold", max_width=WIDTH - MARGIN - left)
        return
    for r, row in enumerate(rows):
        x = left
        for text, w in row:
            box = scene.pill(x, y0 + r * CHIP_ROW, text, CHIP_SIZE, Palette.chip, Palette.chip_ink, height=CHIP_H)
            scene.mark("option", text, box)
            x += w + 8


# --- seats -----------------------------------------------------------------------------------------

SLOT_MAX_W = 200
SLOT_H = 150
DISC = 58
NAME_SIZES = (19, 17, 15)  # a long name steps down before it is cut with an ellipsis


def _count_text(lobby: LobbyInfo, locale: str) -> str:
    n = len(lobby.seats)
    if lobby.min_players == lobby.max_players:
        return translate("lobbyimg.count_exact", locale, count=n, max=lobby.max_players)
    return translate("lobbyimg.count", locale, count=n, min=lobby.min_players, max=lobby.max_players)


def _timer_text(lobby: LobbyInfo, locale: str) -> str:
    if lobby.timer_minutes and lobby.timer_minutes > 0:
        return translate("lobbyimg.timer", locale, time=timer_text(lobby.timer_minutes, locale))
    return translate("lobbyimg.timer_none", locale)


def _count_line(scene: Scene, y: int, lobby: LobbyInfo, locale: str) -> None:
    """"2 of 2–6 players" on the left, the turn timer (a clock and the minutes) on the right."""
    timer = _timer_text(lobby, locale)
    tw = scene.measure(timer, 19, "semibold")
    tw = min(tw, WIDTH // 2 - MARGIN - 26)
    tx = WIDTH - MARGIN - tw
    _paint(scene, "clock", tx - 26, y + 3, 18, 18, Palette.ink_soft)
    scene.text(tx, y + 1, timer, 19, Palette.ink_soft, "semibold", max_width=tw)
    scene.text(MARGIN, y, _count_text(lobby, locale), 21, Palette.ink, "bold", max_width=tx - 26 - 20 - MARGIN)


def _slot_count(lobby: LobbyInfo) -> int:
    """Seats shown: the seated, then empty slots up to the maximum while the lobby matters (a
    started game shows only who plays), the invited in the first of them."""
    if lobby.status == LobbyStatus.STARTED:
        return max(1, len(lobby.seats))
    return max(lobby.max_players, len(lobby.seats) + len(lobby.invited), 1)


def _seat_name(name: str, i: int, locale: str) -> str:
    return clean_name(name, translate("lobbyimg.player", locale, n=i + 1))


def _slots(scene: Scene, y0: int, lobby: LobbyInfo, locale: str) -> None:
    n = _slot_count(lobby)
    inner = WIDTH - 2 * MARGIN
    gap = GAP if n <= 6 else 10
    slot_w = min(SLOT_MAX_W, (inner - gap * (n - 1)) / n)
    x0 = MARGIN + (inner - slot_w * n - gap * (n - 1)) / 2
    host_seen = False
    for i in range(n):
        x = round(x0 + i * (slot_w + gap))
        box = (x, y0, round(x0 + i * (slot_w + gap) + slot_w), y0 + SLOT_H)
        if i < len(lobby.seats):
            host = lobby.seats[i] == lobby.host and not host_seen
            host_seen = host_seen or host
            _seat(scene, box, lobby.seats[i], i, host, locale)
        else:
            k = i - len(lobby.seats)
            _empty(scene, box, i, lobby, locale,
                   invited=lobby.invited[k] if k < len(lobby.invited) and lobby.status == LobbyStatus.OPEN else None)


def _seat(scene: Scene, box: Box, raw: str, i: int, host: bool, locale: str) -> None:
    x0, y0, x1, _y1 = box
    name = _seat_name(raw, i, locale)
    if host:
        scene.rrect(box, 14, Palette.panel_acting, outline=Palette.gold, width=2)
    else:
        scene.rrect(box, 14, Palette.panel, outline=Palette.felt_line, width=1)
    scene.mark("seat", raw, box)
    cx = (x0 + x1) / 2
    dy = y0 + 14
    if host:
        scene.ellipse((cx - DISC / 2 - 3, dy - 3, cx + DISC / 2 + 3, dy + DISC + 3), Palette.gold)
    scene.ellipse((cx - DISC / 2, dy, cx + DISC / 2, dy + DISC), SEAT_COLOURS[i % len(SEAT_COLOURS)])
    scene.text(cx, dy + (DISC - round(27 * 1.21)) / 2, name[:1].upper(), 27, Palette.chip_ink, "heavy",
               align="centre")
    room = x1 - x0 - 14
    size = next((s for s in NAME_SIZES if scene.measure(name, s, "bold") <= room), NAME_SIZES[-1])
    scene.text(cx, dy + DISC + 10 + (NAME_SIZES[0] - size) * 0.6, name, size, Palette.ink, "bold", align="centre",
               max_width=room)
    if host:
        label = translate("lobbyimg.host", locale)
        icon: str | None = "crown"
        room = x1 - x0 - 10
        w = scene.pill_width(label, 13, height=24, icon=icon)
        if w > room:
            icon = None
            label = scene.fit(label, 13, "bold", room - scene.pill_width("", 13, height=24))
            w = scene.pill_width(label, 13, height=24)
        pill = scene.pill(cx - w / 2, dy + DISC + 42, label, 13, Palette.gold, Palette.chip_ink, height=24,
                          icon=icon)
        scene.mark("host", raw, pill)


def _empty(scene: Scene, box: Box, i: int, lobby: LobbyInfo, locale: str, *, invited: str | None = None) -> None:
    """An empty slot; with ``invited``, kept for that player: their initial in the dashed ring,
    their name, and "Invited" (it is no seat until they press Join)."""
    x0, y0, x1, _y1 = box
    scene.rrect(box, 14, Palette.felt_dark)
    scene.mark("invited" if invited is not None else "empty", invited if invited is not None else str(i), box)
    cx = (x0 + x1) / 2
    dy = y0 + 14
    needed = i < lobby.min_players
    ring = Palette.ink_soft if needed and lobby.status == LobbyStatus.OPEN else Palette.ink_faint
    _paint(scene, "ring", cx - DISC / 2, dy, DISC, DISC, ring)
    if invited is not None:
        name = _seat_name(invited, i, locale)
        scene.text(cx, dy + (DISC - round(27 * 1.21)) / 2, name[:1].upper(), 27, Palette.ink_soft, "heavy",
                   align="centre")
        scene.text(cx, dy + DISC + 8, name, NAME_SIZES[-1], Palette.ink_soft, "bold", align="centre",
                   max_width=x1 - x0 - 14)
        scene.text(cx, dy + DISC + 32, translate("lobbyimg.seat_invited", locale), 14, ring, "semibold",
                   align="centre", max_width=x1 - x0 - 14)
        return
    if lobby.status == LobbyStatus.OPEN:
        _paint(scene, "plus", cx - 9, dy + DISC / 2 - 9, 18, 18, ring)
    key = "lobbyimg.seat_needed" if needed else "lobbyimg.seat_free"
    scene.text(cx, dy + DISC + 12, translate(key, locale), 16, ring, "semibold", align="centre",
               max_width=x1 - x0 - 14)


# --- the whole lobby -------------------------------------------------------------------------------


def draw_lobby(lobby: LobbyInfo, *, locale: str = "es") -> Scene:
    """Draw the lobby (``lobby.status`` must be one of ``STATUSES``)."""
    if lobby.status not in STATUSES:
        raise ValueError(f"status must be one of {STATUSES}, not {lobby.status!r}")
    left, rows = _option_rows(lobby, locale)
    options_h = CHIP_H + CHIP_ROW * (len(rows) - 1)
    y_options = HEADER_H + 16
    y_count = y_options + options_h + 18
    y_slots = y_count + 36
    scene = Scene.new(WIDTH, y_slots + SLOT_H + 20, CLASSIC)
    _header(scene, lobby, locale)
    _options(scene, y_options, left, rows, locale)
    scene.draw.line((MARGIN, y_count - 10, WIDTH - MARGIN, y_count - 10), fill=Palette.felt_line, width=1)
    _count_line(scene, y_count, lobby, locale)
    _slots(scene, y_slots, lobby, locale)
    return scene


def render_lobby(lobby: LobbyInfo, *, locale: str = "es") -> Rendered:
    """The lobby as an encoded image (``lobby.png``)."""
    return encode_still(draw_lobby(lobby, locale=locale).image, "lobby")
