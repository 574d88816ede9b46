"""A server's settings and house rules (issue 12): what a manager sets once for the server, and
how a new lobby starts from it.

What it is: the ``ServerSettings`` part of ``GameService`` (``service.settings``, no state of its
own): reading a server's settings, a manager's changes (each one audited, all of them in one
transaction, nothing written when one is refused), the members barred from hosting or joining games,
and ``lobby_plan``, the options, timer and public language a new lobby starts with. The checks a
lobby must pass whoever opens it (a closed variant, a barred member, computer players turned off)
are ``check_host``, ``check_player`` and ``check_bots``, which ``games`` calls inside its own
transactions.
What it is not: no SQL (``bot.store.settings``), no Discord, no rules (the engine validates
options through ``options.lobby_options``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.engine import VARIANTS
from bot.store import Store, Transaction, repo
from bot.store import settings as store
from bot.store.rows import AuditAction, ServerConfig
from bot.words.i18n import LOCALES

from .changes import Refusal
from .core import Core
from .options import REASON_LENGTH, clean_text, lobby_options

DEFAULT_TIMER = 5.0  # minutes, when neither the host nor the server chose one
PRESET_NAME = re.compile(r"[a-z0-9_-]{1,20}")
FORGET = "-"  # typed as options: forget the variant's defaults, or the preset


@dataclass(frozen=True)
class SettingsChange:
    """What a manager asks to change; None leaves a setting as it is. ``options`` are the
    ``variant``'s defaults, or the ``preset``'s when one is named (``FORGET`` removes them);
    ``language`` "auto" forgets the server's choice: public messages follow each game's host again."""

    variant: str | None = None
    options: str | None = None
    preset: str | None = None
    open: bool | None = None
    timer_minutes: float | None = None
    bots: bool | None = None
    language: str | None = None


@dataclass(frozen=True)
class LobbyPlan:
    """What a new lobby starts with: the options as stored, the turn timer, the public language."""

    options: str
    timer_minutes: float
    locale: str


def merge_options(*texts: str) -> str:
    """``name=value`` words, later texts overriding earlier ones by name (server defaults, then a
    preset, then what the host typed). Words without ``=`` are kept for the engine to refuse."""
    merged: dict[str, str] = {}
    for text in texts:
        for word in text.split():
            name, eq, _ = word.partition("=")
            merged[name if eq else word] = word
    return " ".join(merged.values())


def preset_name(text: str) -> str:
    name = clean_text(text, 40).lower()
    if not PRESET_NAME.fullmatch(name):
        raise Refusal("bad_preset_name")
    return name


def _timer(minutes: float) -> float:
    lobby_options("basic", "", minutes)  # the lobby's own bounds (0, or 15 seconds to a day)
    return minutes


class ServerSettings:
    """A server's defaults, presets, open variants, computer players, language and bans."""


    def __init__(self, core: Core) -> None:
        self.core = core

    async def server_config(self, guild_id: int) -> ServerConfig:
        return await store.config(self.core.db, guild_id)

    async def change_settings(self, guild_id: int, manager_id: int, change: SettingsChange) -> list[str]:
        """Apply a manager's changes; returns what changed, as the audit log words it
        (``name=value``, one audit row each). Every value is checked before anything is written."""
        writes: list[tuple[str, str, object]] = []  # (kind, key, value)
        variant = change.variant
        if variant is not None and variant not in VARIANTS:
            raise Refusal("settings_variant")
        if variant is None and (change.options is not None or change.preset is not None or change.open is not None):
            raise Refusal("settings_variant")
        if change.preset is not None and change.options is None:
            raise Refusal("preset_needs_options")
        if change.options is not None:
            assert variant is not None
            preset = preset_name(change.preset) if change.preset is not None else ""
            text = None if change.options.strip() == FORGET else lobby_options(variant, change.options, DEFAULT_TIMER)
            if preset and text is None and (variant, preset) not in (await self.server_config(guild_id)).presets:
                raise Refusal("no_preset", name=preset)
            writes.append(("options", f"{variant}:{preset}", text or None))
        if change.open is not None:
            assert variant is not None
            writes.append(("open", variant, change.open))
        if change.timer_minutes is not None:
            writes.append(("timer_minutes", "", _timer(change.timer_minutes)))
        if change.bots is not None:
            writes.append(("bots", "", int(change.bots)))
        if change.language is not None:
            if change.language not in (*LOCALES, "auto"):
                raise Refusal("settings_language")
            writes.append(("language", "", None if change.language == "auto" else change.language))
        done: list[str] = []
        now = self.core.now()
        async with self.core.transaction() as tx:
            await store.lock(tx, guild_id)
            for kind, key, value in writes:
                done.append(await _write(tx, guild_id, kind, key, value))
            for detail in done:
                await repo.add_audit(tx, guild_id, manager_id, AuditAction.SETTINGS, now, detail=detail)
        return done

    async def ban_member(self, guild_id: int, manager_id: int, user_id: int, reason: str) -> None:
        """``user_id`` may no longer host or join games here (audited with the reason); the games
        they already sit in go on."""
        if user_id == manager_id:
            raise Refusal("ban_self")
        text = clean_text(reason, REASON_LENGTH)
        now = self.core.now()
        async with self.core.transaction() as tx:
            await store.lock(tx, guild_id)
            await store.ban(tx, guild_id, user_id, text, manager_id, now)
            await repo.add_audit(tx, guild_id, manager_id, AuditAction.BAN, now, detail=f"{user_id} {text}".strip())

    async def unban_member(self, guild_id: int, manager_id: int, user_id: int) -> None:
        now = self.core.now()
        async with self.core.transaction() as tx:
            await store.lock(tx, guild_id)
            if not await store.unban(tx, guild_id, user_id):
                raise Refusal("not_banned")
            await repo.add_audit(tx, guild_id, manager_id, AuditAction.UNBAN, now, detail=str(user_id))

    async def lobby_plan(self, guild_id: int, host_id: int, variant: str, *, options: str = "",
                         timer_minutes: float | None = None, preset: str | None = None,
                         locale: str = "es") -> LobbyPlan:
        """What ``/rummy new`` opens: the server's defaults for the variant, then the preset, then
        what the host typed; the host's timer or the server's; the public language a manager
        chose, else ``locale`` (the host's Discord language). Refused like the lobby itself would be."""
        config = await self.server_config(guild_id)
        check_host(config, host_id, variant)
        texts = [config.defaults.get(variant, "")]
        if preset:
            name = clean_text(preset, 40).lower()
            if (variant, name) not in config.presets:
                raise Refusal("no_preset", name=name[:20])
            texts.append(config.presets[(variant, name)])
        texts.append(options)
        timer = timer_minutes if timer_minutes is not None else (
            config.timer_minutes if config.timer_minutes is not None else DEFAULT_TIMER)
        return LobbyPlan(merge_options(*texts), timer, config.language or locale)


async def _write(tx: Transaction, guild_id: int, kind: str, key: str, value: object) -> str:
    """One change, written; the words the audit log keeps for it."""
    if kind == "options":
        variant, _, preset = key.partition(":")
        await store.set_options(tx, guild_id, variant, preset, value if isinstance(value, str) else None)
        where = f"preset:{variant}:{preset}" if preset else f"options:{variant}"
        return f"{where}={value if value is not None else FORGET}"
    if kind == "open":
        closed = set((await store.config(tx, guild_id)).closed)
        closed = closed - {key} if value else closed | {key}
        await store.set_value(tx, guild_id, "closed_variants", " ".join(v for v in VARIANTS if v in closed))
        return f"open:{key}={'on' if value else 'off'}"
    await store.set_value(tx, guild_id, kind, value)
    if kind == "bots":
        return f"bots={'on' if value else 'off'}"
    if kind == "language":
        return f"language={value or 'auto'}"
    return f"timer={value:g}" if isinstance(value, float) else f"timer={value}"


def check_host(config: ServerConfig, host_id: int, variant: str) -> None:
    """A barred member opens no lobby; a variant the server closed is not opened."""
    check_player(config, host_id)
    if variant in config.closed:
        raise Refusal("variant_closed", variant=variant)


def check_player(config: ServerConfig, user_id: int) -> None:
    ban = next((b for b in config.banned if b.user_id == user_id), None)
    if ban is not None:
        raise Refusal("banned", reason=ban.reason or "-")


def check_bots(config: ServerConfig) -> None:
    if not config.bots:
        raise Refusal("bots_off")


async def config_of(db: Store | Transaction, guild_id: int) -> ServerConfig:
    return await store.config(db, guild_id)
