"""The Discord client: start-up, command sync, the clock, shutdown.

What it is: ``RummyBot`` opens and migrates the database in ``setup_hook`` (never in ``on_ready``,
which fires again after reconnects), registers the cogs and the dynamic buttons once, syncs the
slash commands only when their definition changed (a hash kept in the database; ``--sync``
forces it), re-posts the tables of running games after a restart, and runs one clock task that
serves turn timers, reminders, claim windows, lobby expiry, the pause between deals and scheduled
new seasons from the deadlines stored in SQLite. On SIGTERM it stops gracefully (reliability.md R3): new clicks are
refused, the work in flight (moves, their answers, table edits, the clock's tick) is finished
within ``STOP_GRACE`` seconds, and only then are the gateway, HTTP and the database closed.
What it is not: no game rules (``bot.engine``), no SQL (``bot.store``), no pictures (``renderers``).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.i18n import catalog
from bot.service import GameService
from bot.store import Database, repo

log = logging.getLogger(__name__)

STOP_GRACE = 8.0  # seconds of a graceful stop for work in flight (below a supervisor's usual 10 s)


class CatalogTranslator(app_commands.Translator):
    """Spanish command names and descriptions from the catalog (keys ``cmd.*``)."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContext
    ) -> str | None:
        key = string.extras.get("key")
        if not key or not str(locale.value).startswith("es"):
            return None
        return catalog("es").get(key)


class RummyBot(commands.Bot):
    def __init__(self, settings: Settings, *, force_sync: bool = False) -> None:
        if settings.api_base:
            # Tests point the unmodified client at a fake Discord on 127.0.0.1 (tests/fakediscord).
            discord.http.Route.BASE = settings.api_base.rstrip("/")
        if settings.gateway:
            import yarl

            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway)
        intents = discord.Intents.none()
        intents.guilds = True
        intents.guild_messages = True  # to know when a table message is buried (no message content)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
        )
        self.settings = settings
        self.force_sync = force_sync
        self.item_patterns: list[re.Pattern[str]] = []  # every DynamicItem's custom_id template
        self.db: Database | None = None
        self.service: GameService | None = None
        self._clock_task: asyncio.Task[None] | None = None
        self.stopping = False  # set on shutdown: interactions are refused from then on

    def add_dynamic_items(self, *items: Any) -> None:
        super().add_dynamic_items(*items)
        self.item_patterns += [item.__discord_ui_compiled_template__ for item in items]

    async def setup_hook(self) -> None:
        self.db = await Database.open(self.settings.db_path)
        self.service = GameService(self.db, bot_delay=self.settings.bot_delay)
        await self.tree.set_translator(CatalogTranslator())
        from cogs.admin import AdminCog
        from cogs.rummy import RummyCog

        cog = RummyCog(self)
        await self.add_cog(cog)
        cog.register_dynamic_items()
        admin = AdminCog(self)
        await self.add_cog(admin)
        admin.register_dynamic_items()
        await self.sync_commands()
        # Only the games running before this start are re-posted (not ones started meanwhile).
        running = [row.id for row in await repo.active_games(self.db) if row.status == "playing"]
        self._clock_task = asyncio.create_task(self._clock(), name="rummy-clock")
        asyncio.create_task(self._after_restart(cog, running), name="rummy-restart")  # noqa: RUF006
        # Rendering is ~1 s of warm-up: do it in a thread so the first table is as fast as the rest.
        from renderers import warm_up

        asyncio.create_task(asyncio.to_thread(warm_up))  # noqa: RUF006

    async def sync_commands(self) -> None:
        """Sync only when the command tree changed since the last sync (or when forced)."""
        assert self.db is not None
        guild = discord.Object(self.settings.dev_guild) if self.settings.dev_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = [cmd.to_dict(self.tree) for cmd in self.tree.get_commands(guild=guild)]
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()
        key = f"commands_hash:{guild.id if guild else 'global'}"
        if not self.force_sync and await repo.get_meta(self.db, key) == digest:
            log.info("slash commands unchanged; not syncing")
            return
        await self.tree.sync(guild=guild)
        async with self.db.transaction() as tx:
            await repo.set_meta(tx, key, digest)
        log.info("slash commands synced (%s)", "guild" if guild else "global")

    async def _after_restart(self, cog: Any, running: list[int]) -> None:
        await self.wait_until_ready()
        await cog.resume_games(running)

    async def _clock(self) -> None:
        """Serve every stored deadline. Polls once a second: deadlines live in SQLite, so a restart
        only delays them by the downtime."""
        await self.wait_until_ready()
        assert self.service is not None
        from cogs.admin import AdminCog
        from cogs.rummy import RummyCog

        while not self.stopping:
            try:
                cog = self.get_cog("RummyCog")
                for game_id in await self.service.due():
                    changes = await self.service.tick(game_id)
                    if isinstance(cog, RummyCog):
                        for change in changes:
                            await cog.announce(change)
                admin = self.get_cog("AdminCog")
                if isinstance(admin, AdminCog):
                    await admin.scheduled_seasons()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("clock tick failed")
            await asyncio.sleep(1.0)

    async def close(self) -> None:
        if not self.stopping:
            self.stopping = True
            log.info("stopping: new interactions are refused; finishing the work in flight")
            await self._finish_in_flight(STOP_GRACE)
        await super().close()
        if self.db is not None:
            await self.db.close()
            self.db = None

    async def _finish_in_flight(self, grace: float) -> None:
        """Let what was already running end while Discord is still reachable: the clock's current
        tick (it leaves its loop at the next check), then every click being handled and every
        pending table edit. Whatever is still running after ``grace`` s is committed already (a
        move is committed before it is announced); only its announcement is lost, and the restart
        re-posts the table."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace
        if self._clock_task is not None and not self._clock_task.done():
            try:
                await asyncio.wait_for(asyncio.shield(self._clock_task), grace)
            except TimeoutError:
                self._clock_task.cancel()
        from cogs.rummy import RummyCog

        cog = self.get_cog("RummyCog")
        left = await cog.drain(max(0.0, deadline - loop.time())) if isinstance(cog, RummyCog) else 0
        if left:
            log.warning("stopping with %d interaction(s) or table edit(s) unfinished", left)
        else:
            log.info("stopped accepting interactions; work in flight finished")
