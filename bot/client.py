"""The Discord client: start-up, command sync, the clock, shutdown.

What it is: ``RummyBot``, an ``AutoShardedBot``: by default one process holds every shard; with
``RUMMY_SHARD_COUNT``/``RUMMY_SHARD_IDS`` it is one process of a cluster on one PostgreSQL database
(docs/deploy.md), serving only its own shards' guilds, taking its turn to IDENTIFY through the
database, and syncing the commands once per deploy. It opens and migrates the database in
``setup_hook`` (never in ``on_ready``, which fires again after reconnects), makes the service and
the announcer, loads the cogs as
extensions (``cogs.rummy``, ``cogs.admin``: each registers its own commands and persistent
items), syncs the slash commands only when their definition changed (a hash kept in the
database; ``--sync`` forces it), resumes the games that were running (a whole turn for the
player to move, ``GameService.clock.resume``) before the clock starts, and re-posts their tables once
connected. One clock task serves turn timers, reminders, claim windows, lobby expiry, the pause
between deals and scheduled new seasons from the deadlines stored in the database, and hands every
change to the announcer. On SIGTERM it stops gracefully (reliability.md R3): new clicks are
refused (``cogs.guard``), the work in flight (moves, their answers, table edits, the clock's
tick) is finished within ``STOP_GRACE`` seconds, and only then are the gateway, HTTP and the
database closed.
With ``RUMMY_METRICS_PORT`` it serves ``/metrics``, ``/healthz`` and ``/readyz`` (``bot.ops.server``)
from before the gateway connects, handing that server the database check, the shards' readiness
and the game counts; its HTTP trace tells the metrics every Discord REST answer (issue 21).
What it is not: no game rules (``bot.engine``), no SQL (``bot.store``), no pictures
(``renderers``), no messages (``cogs.announcer``, ``cogs``).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import math
import os
import re
import secrets
import time
from collections.abc import Coroutine
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from activity.server import ActivityServer
from bot.config import Config
from bot.ops import logs, metrics
from bot.ops.server import OpsServer
from bot.service import Change, GameService
from bot.store import Store, cluster, health, meta, open_database, repo
from bot.words.i18n import LANGUAGES, catalog
from cogs.announcer import Announcer
from cogs.anywhere import RoutedDelivery, TokenBook, is_place_of_anywhere
from cogs.guard import Guard
from cogs.tournament_news import announce_event

log = logging.getLogger(__name__)

STOP_GRACE = 8.0  # seconds of a graceful stop for work in flight (below a supervisor's usual 10 s)
IDENTIFY_SPACING = 5.5  # Discord: one IDENTIFY per 5 s per max_concurrency bucket, counted on arrival;
# the turn runs from the READY that answered it (so after Discord counted it), plus 0.5 s of clocks
IDENTIFY_LEASE = 15.0  # a claim whose READY never comes (refused, or the process died) frees the bucket
IDENTIFY_POLL = 1.0  # how often a waiting shard asks again (a READY elsewhere can shorten its wait)
EXTENSIONS = ("cogs.rummy", "cogs.admin")
ENTRY_POINT = 4  # PRIMARY_ENTRY_POINT, the command Discord makes for an app's Activity


class CatalogTranslator(app_commands.Translator):
    """Command names, descriptions, options and choices from the catalogs (keys ``cmd.*``, the
    choices' keys), for every Discord locale a language of ``bot.words.i18n.LANGUAGES`` speaks
    (``es-ES``, ``es-419``, ``en-US``, ``en-GB``, ``fr``); other locales see the English defaults."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContext
    ) -> str | None:
        key = string.extras.get("key")
        language = next((lang for lang, codes in LANGUAGES.items() if str(locale.value) in codes), None)
        if not key or language is None:
            return None
        return catalog(language).get(key)


def discord_trace() -> aiohttp.TraceConfig:
    """Every Discord REST answer, told to the metrics: acknowledgements (interaction callbacks),
    error statuses and rate limits (``bot.ops.metrics.discord_response``)."""

    async def on_end(session: aiohttp.ClientSession, context: Any, params: aiohttp.TraceRequestEndParams) -> None:
        metrics.discord_response(params.method, params.url.path, params.response.status,
                                 params.response.headers.get("X-RateLimit-Scope"))

    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(on_end)
    return trace


class RummyBot(commands.AutoShardedBot):
    def __init__(self, config: Config, *, force_sync: bool = False) -> None:
        if config.api_base:
            # Tests point the unmodified client at a fake Discord on 127.0.0.1 (tests/fakediscord).
            discord.http.Route.BASE = config.api_base.rstrip("/")
        if config.gateway:
            import yarl

            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(config.gateway)
        # The bot never joins a voice channel: discord.py's warnings that voice's libraries are
        # missing (PyNaCl, davey) would only be two alarming lines at every start.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        intents = discord.Intents.none()
        intents.guilds = True
        intents.guild_messages = True  # to know when a table message is buried (no message content)
        # discord.py's default shard_ids (None: every shard) is not in its own annotation: left out then
        shards: dict[str, Any] = {} if config.shard_ids is None else {"shard_ids": list(config.shard_ids)}
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            shard_count=config.shard_count,
            http_trace=discord_trace(),
            **shards,
        )
        self.config = config
        self.force_sync = force_sync
        self.item_patterns: list[re.Pattern[str]] = []  # every persistent item's custom_id (cogs.base)
        self.guard = Guard(config.flood)
        self.db: Store | None = None
        self._identify_buckets = 1  # Discord's max_concurrency, read in setup_hook
        self._identify_claims: dict[int, tuple[int, str]] = {}  # shard -> (bucket, owner) until its READY
        self._service: GameService | None = None
        self._announcer: Announcer | None = None
        self._clock_task: asyncio.Task[None] | None = None
        self._restart_task: asyncio.Task[None] | None = None  # posts the resumed games' tables
        self.stopping = False  # set on shutdown: interactions are refused from then on
        # Places the bot is not a member of are reached through interaction tokens (issue 24).
        self.tokens = TokenBook(config.token_lifetime, servers=config.news_by_token)
        self._alarm = asyncio.Event()  # set when a commit writes a deadline (``_deadline_written``)
        self._soonest = math.inf  # the soonest deadline written since the clock's pass began
        self._ready_shards: set[int] = set()  # READY (or resumed) and not disconnected since: /readyz
        self._ops: OpsServer | None = None  # /metrics, /healthz, /readyz when RUMMY_METRICS_PORT is set
        self._activity: ActivityServer | None = None  # the Activity's page and sockets when RUMMY_ACTIVITY_PORT is set
        self._counted_at = -math.inf  # when the game gauges were last refreshed

    @property
    def service(self) -> GameService:
        assert self._service is not None, "the service is made in setup_hook"
        return self._service

    @property
    def announcer(self) -> Announcer:
        assert self._announcer is not None, "the announcer is made in setup_hook"
        return self._announcer

    async def setup_hook(self) -> None:
        self.db = await open_database(self.config.database)
        if self.config.metrics_port is not None:  # up before the gateway: /readyz says "not yet" meanwhile
            self._ops = OpsServer(self.config.metrics_host, self.config.metrics_port, healthy=self._healthy,
                                  ready=self.shards_ready, refresh=self._refresh_gauges)
            await self._ops.start()
        self._service = GameService(self.db, bot_delay=self.config.bot_delay, shards=self.config.shards,
                                    member_games=self.config.member_games, server_games=self.config.server_games,
                                    idle_days=self.config.idle_days)
        self._service.threads.thread_archive_after = self.config.thread_archive_after
        self._service.endings.forbidden_grace = self.config.forbidden_grace  # patience with refused posts
        self._service.core.on_deadline = self._deadline_written
        self.tokens.keeper = self._service.tokens  # tokens of places the bot is not in, kept while they live
        _, _, limits = await self.http.get_bot_gateway()
        self._identify_buckets = max(1, int(limits.get("max_concurrency", 1)))
        held = "every shard" if self.config.shard_ids is None else (
            f"shards {', '.join(map(str, self.config.shard_ids))} of {self.config.shard_count}")
        log.info("this process holds %s (%s database)", held,
                 "PostgreSQL" if self.config.database_url else "SQLite")
        delivery = RoutedDelivery(self, self.tokens, news_by_token=self.config.news_by_token)
        self._announcer = Announcer(self, self._service, delivery)
        self.add_listener(self._announcer.count_message, "on_message")
        if self.config.activity_port is not None:
            await self._serve_activity(self._announcer)
        await self.tree.set_translator(CatalogTranslator())
        for name in EXTENSIONS:
            await self.load_extension(name)
        await self.sync_commands()
        # Servers with results from before the skill ratings get them once (issue 12).
        await self.service.ratings.replay_pending_ratings()
        # Recovery comes before the clock serves any deadline: a turn whose timer ran out while
        # the bot was down is given back whole, not timed out at the first tick.
        # Every record in play is loaded first (reliability R23): one that no longer loads is
        # quarantined and said once, instead of failing at every tick.
        # What a crash between a commit and its post left unsaid (a game's end, a quarantine
        # notice) is posted once connected (issue 15, hole 6); read before the check below adds
        # its own quarantines, which it announces itself.
        owed = await self.service.endings.owed_announcements()
        quarantined = await self.service.clock.check_records()
        resumed = owed + quarantined + await self._resume_games()
        self.tokens.places.update(c.game.place for c in resumed if is_place_of_anywhere(c.game.guild_id))
        self._clock_task = asyncio.create_task(self._clock(), name="rummy-clock")
        self._restart_task = asyncio.create_task(self._announce_resumed(resumed), name="rummy-restart")
        # Rendering is ~1 s of warm-up: do it in a thread so the first table is as fast as the rest.
        from renderers import warm_up

        asyncio.create_task(asyncio.to_thread(warm_up))  # noqa: RUF006

    async def _serve_activity(self, announcer: Announcer) -> None:
        """The Activity's wing on this process's loop (docs/activity.md): its moves are announced in
        chat as the chat's are, and every change this process announces wakes its pages at once."""
        assert self.application_id is not None and self.config.activity_port is not None
        self._activity = ActivityServer(
            self.service, api_base=discord.http.Route.BASE, application_id=self.application_id,
            client_secret=self.config.client_secret, bot_token=self.config.token, host=self.config.activity_host,
            port=self.config.activity_port, announce=announcer.announce, flood=self.config.flood)
        await self._activity.start()
        announcer.activity = True
        announcer.watchers.append(self._activity.wake)
        log.info("the Activity is served on %s:%s", self.config.activity_host, self._activity.port)

    async def sync_commands(self) -> None:
        """Sync only when the command tree changed since the last sync (or when forced), once per
        deploy: the processes of a cluster start together, and only the first to claim the new
        tree's hash in the database syncs it. A server that had the commands copied to it as the
        dev server (``RUMMY_DEV_GUILD``) and is no longer it has its copies removed first."""
        assert self.db is not None
        await self.clear_former_dev_guilds()
        guild = discord.Object(self.config.dev_guild) if self.config.dev_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = [cmd.to_dict(self.tree) for cmd in self.tree.get_commands(guild=guild)]
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()
        key = meta.command_key(guild.id if guild else None)
        async with self.db.transaction() as tx:
            replaced = await cluster.claim_command_sync(tx, key, digest, force=self.force_sync)
        if replaced is None:
            log.info("slash commands unchanged; not syncing")
            return
        try:
            await (self.tree.sync(guild=guild) if guild is not None else self.sync_global_commands())
        except BaseException:
            async with self.db.transaction() as tx:  # not synced after all: the next start tries again
                await repo.set_meta(tx, key, replaced)
            raise
        log.info("slash commands synced (%s)", "guild" if guild else "global")

    async def sync_global_commands(self) -> None:
        """The global bulk overwrite, keeping Discord's own Entry Point command: an app with
        Activities has one (type 4, which discord.py has no type for), and an overwrite that leaves
        it out is refused (400, code 50240; ../shared/activity.md). It is sent back as Discord gave it."""
        assert self.application_id is not None
        stored: list[Any] = list(await self.http.get_global_commands(self.application_id))
        kept = [c for c in stored if c.get("type") == ENTRY_POINT]
        if not kept:
            await self.tree.sync()
            return
        translator = self.tree.translator
        commands = self.tree.get_commands()
        payload: list[Any] = ([await c.get_translated_payload(self.tree, translator) for c in commands]
                              if translator else [c.to_dict(self.tree) for c in commands])
        await self.http.bulk_upsert_global_commands(self.application_id, payload=[*payload, *kept])

    async def clear_former_dev_guilds(self) -> None:
        """Commands copied to a dev server stay there, beside the global ones, until replaced: each
        server the database says holds a copy (its command hash) and is not ``RUMMY_DEV_GUILD`` now
        gets an empty list (Discord's bulk overwrite with ``[]``), and is forgotten. A server the
        bot has left (403, 404) is forgotten too; any other failure is tried again at the next start."""
        assert self.db is not None
        for guild_id in await meta.command_guilds(self.db):
            if guild_id == self.config.dev_guild:
                continue
            try:
                await self.tree.sync(guild=discord.Object(guild_id))  # nothing is registered for it: []
            except (discord.Forbidden, discord.NotFound) as exc:
                log.info("former dev server %s is out of reach (%s); forgetting its commands", guild_id, exc.status)
            except discord.HTTPException as exc:
                log.warning("could not remove the slash commands of former dev server %s: %s", guild_id, exc)
                continue
            else:
                log.info("slash commands removed from former dev server %s", guild_id)
            async with self.db.transaction() as tx:
                await meta.forget_command_guild(tx, guild_id)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Take this shard's turn to IDENTIFY through the database: Discord allows one IDENTIFY per
        5 seconds in each ``shard_id % max_concurrency`` bucket, counted over every process of the
        bot, so the processes of a cluster starting together wait for each other instead of being
        refused. discord.py sends the IDENTIFY as soon as this returns; the turn stays held until
        its READY (``on_shard_connect``) or the lease runs out."""
        assert self.db is not None
        shard = shard_id or 0
        bucket = shard % self._identify_buckets
        owner = f"{os.getpid()}:{shard}:{secrets.token_hex(4)}"
        while True:
            async with self.db.transaction() as tx:
                wait = await cluster.claim_identify(tx, bucket, owner, time.time, lease=IDENTIFY_LEASE,
                                                    spacing=IDENTIFY_SPACING)
            if wait <= 0:
                self._identify_claims[shard] = (bucket, owner)
                log.info("shard %s identifying (bucket %s)", shard_id, bucket)
                return
            await asyncio.sleep(min(wait, IDENTIFY_POLL))

    async def on_shard_connect(self, shard_id: int) -> None:
        """READY: Discord has counted this shard's IDENTIFY, so the bucket's next one may follow
        ``IDENTIFY_SPACING`` from now rather than at the end of the lease."""
        log.info("shard %s connected", shard_id)
        claim = self._identify_claims.pop(shard_id, None)
        if claim is None or self.db is None:
            return
        try:
            async with self.db.transaction() as tx:
                await cluster.identify_counted(tx, claim[0], claim[1], time.time, spacing=IDENTIFY_SPACING)
        except Exception:  # the lease still frees the bucket; a READY is never lost over this
            log.exception("could not record shard %s's IDENTIFY turn", shard_id)

    async def on_shard_ready(self, shard_id: int) -> None:
        self._ready_shards.add(shard_id)
        logs.set_shard_count(self.shard_count)
        log.info("shard %s ready", shard_id)

    async def on_shard_resumed(self, shard_id: int) -> None:
        self._ready_shards.add(shard_id)
        log.info("shard %s resumed", shard_id)

    async def on_shard_disconnect(self, shard_id: int) -> None:
        self._ready_shards.discard(shard_id)
        log.info("shard %s disconnected", shard_id)

    # ------------------------------------------------------------------ operations (issue 21)
    def shards_ready(self) -> bool:
        """/readyz: every shard this process holds is READY, and not stopping."""
        return self.is_ready() and not self.stopping and bool(self.shards) and all(
            sid in self._ready_shards and not info.is_closed() for sid, info in self.shards.items())

    async def _healthy(self) -> None:
        """/healthz: the database answers (the loop does, since this runs on it)."""
        assert self.db is not None
        await health.ping(self.db)

    async def _refresh_gauges(self) -> None:
        """/metrics: the shards' state every scrape, the game counts at most every 10 s (a scan)."""
        metrics.set_shards((sid, sid in self._ready_shards and not info.is_closed(), info.latency)
                           for sid, info in self.shards.items())
        if self.db is not None and time.monotonic() - self._counted_at >= 10.0:
            self._counted_at = time.monotonic()
            metrics.set_games(*await health.game_counts(self.db, self.config.shards))

    # ------------------------------------------------------------------ places that go away
    # A game's channel or thread deleted, or the bot out of the server: its games end unscored
    # (status 'abandoned', audited), their deadlines cleared, and nothing more is posted there
    # (issue 15, hole 2). A channel the bot can no longer post in is found by the announcer.
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._abandon(self.service.endings.abandon_channel(channel.id), f"channel {channel.id} deleted")

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        thread = payload.thread_id
        await self._abandon(self.service.endings.abandon_channel(thread), f"thread {thread} deleted")

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self._abandon(self.service.endings.abandon_guild(guild.id), f"left server {guild.id}")

    async def _abandon(self, work: Coroutine[Any, Any, list[Change]], why: str) -> None:
        try:
            for change in await work:
                log.warning("game %s abandoned: %s", change.game.id, why)
        except Exception:
            log.exception("abandoning the games after %s failed", why)

    async def _resume_games(self) -> list[Change]:
        """Every game that was running when the bot stopped, resumed by the service (a whole turn
        for the player to move: nobody loses a turn to our downtime)."""
        resumed = []
        for game_id in await self.service.reading.running_games():
            try:
                change = await self.service.clock.resume(game_id)
            except Exception:
                log.exception("could not resume game %s", game_id)
                continue
            if change is not None:
                resumed.append(change)
        return resumed

    async def _announce_resumed(self, resumed: list[Change]) -> None:
        """Once connected: each resumed game's table is posted afresh with the restart note (and
        each game quarantined at start-up says so in its channel)."""
        await self.wait_until_ready()
        for change in resumed:
            try:
                await self.announcer.announce(change)
            except Exception:
                log.exception("could not post the table of resumed game %s", change.game.id)

    async def _clock(self) -> None:
        """Serve every stored deadline of this process's guilds. Polls at least once a second, and at
        the next deadline when it is sooner: deadlines live in the database, so a restart only
        delays them by the downtime."""
        await self.wait_until_ready()
        while not self.stopping:
            self._soonest = math.inf  # the deadlines written from here on are this pass's or wake the next
            try:
                due = await self.service.clock.due()
            except Exception:
                log.exception("clock: reading the due games failed")
                due = []
            # Each game fails alone: one game's error never stops the others nor the seasons.
            for game_id in due:
                try:
                    for change in await self.service.clock.tick(game_id):
                        await self.announcer.announce(change)
                except Exception:
                    log.exception("clock tick of game %s failed", game_id)
            try:
                await self._tournaments()
            except Exception:
                log.exception("clock: reading the due tournaments failed")
            try:
                await self._new_seasons()
            except Exception:
                log.exception("clock: starting the scheduled seasons failed")
            try:
                await self._archive_threads()
            except Exception:
                log.exception("clock: archiving the threads of ended games failed")
            await self._doze(await self._until_next_deadline())

    def _deadline_written(self, at: float) -> None:
        """The service committed a change whose next deadline is ``at``: the clock wakes for it."""
        self._soonest = min(self._soonest, at)
        self._alarm.set()

    async def _doze(self, wait: float) -> None:
        """The clock's sleep between passes: ``wait`` seconds, or less when a deadline written since
        the pass began (by a tick of the pass or by a person's move meanwhile) is due sooner. A
        person's move that hands the turn to a computer player gets it played after the player's
        own pause, not at the next poll; a run of computer players' moves with no pause
        (RUMMY_BOT_DELAY=0) goes on at once. Only committed changes shorten the sleep, so a
        deadline past that nothing here serves (another process's) never makes it poll in a loop."""
        loop = asyncio.get_running_loop()
        end = loop.time() + wait
        while True:
            self._alarm.clear()
            end = min(end, loop.time() + self._soonest - time.time())
            remaining = end - loop.time()
            if remaining <= 0:
                return
            try:
                await asyncio.wait_for(self._alarm.wait(), remaining)
            except TimeoutError:
                return

    async def _until_next_deadline(self) -> float:
        """How long the clock sleeps: until the next stored deadline when it is under a second away
        (a computer player's short pause is served on time, not at the next whole second), else a
        second. A deadline already past was this pass's work, or another process's (a cluster):
        it waits the whole second rather than polling the database in a loop."""
        try:
            nxt = await self.service.clock.next_deadline()
        except Exception:
            log.exception("clock: reading the next deadline failed")
            return 1.0
        wait = 1.0 if nxt is None else nxt - time.time()
        return 1.0 if wait <= 0 else min(1.0, max(0.02, wait))

    async def _tournaments(self) -> None:
        """Serve each due tournament (issue 22): check-in, the start, a round's tables and end, the
        next round, the podium; each event fails alone."""
        for event_id in await self.service.tournaments.rounds.tournaments_due():
            try:
                for change in await self.service.tournaments.rounds.tournament_tick(event_id):
                    await announce_event(self.announcer, self.service, change)
            except Exception:
                log.exception("clock tick of tournament %s failed", event_id)

    async def _archive_threads(self) -> None:
        """Archive the threads of games that ended ``RUMMY_THREAD_ARCHIVE_AFTER`` ago (issue 12);
        the time is stored, so a restart only delays it."""
        for row in await self.service.threads.threads_to_archive():
            await self.announcer.archive_thread(row)

    async def _new_seasons(self) -> None:
        """Roll over every server whose scheduled season boundary passed; the new season is
        committed before it is announced, and a failed post loses nothing."""
        for guild_id in await self.service.records.due_seasons():
            done = await self.service.records.scheduled_season(guild_id)
            if done is None:
                continue
            ending, season, schedule = done
            try:
                await self.announcer.announce_season(schedule.channel_id, guild_id, ending, season.number,
                                                     schedule.locale)
            except discord.HTTPException as exc:
                log.warning("season %s of server %s started; announcing it failed: %s", season.number, guild_id, exc)

    async def close(self) -> None:
        if not self.stopping:
            self.stopping = True
            if self.db is not None:  # else it never started (a refused token): nothing is in flight
                log.info("stopping: new interactions are refused; finishing the work in flight")
                await self._finish_in_flight(STOP_GRACE)
        await super().close()
        if self._ops is not None:
            await self._ops.stop()
        if self._activity is not None:
            await self._activity.stop()
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
        for task in (self._clock_task, self._restart_task):
            if task is None or task.done():
                continue
            if not self.is_ready():  # it waits for a connection that will not come now
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
                continue
            try:
                await asyncio.wait_for(asyncio.shield(task), max(0.0, deadline - loop.time()))
            except TimeoutError:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        left = await self.guard.drain(max(0.0, deadline - loop.time()))
        if self._activity is not None:  # the Activity's moves in hand, announced in chat as they finish
            left += await self._activity.drain(max(0.0, deadline - loop.time()))
        # A handler's last act may be to ask for a table edit: wait for those after the handlers.
        if self._announcer is not None:
            left += await self._announcer.drain(max(0.0, deadline - loop.time()))
        if left:
            log.warning("stopping with %d interaction(s) or table edit(s) unfinished", left)
        else:
            log.info("stopped accepting interactions; work in flight finished")
