"""The one guard every command, button, select and modal goes through.

What it is: ``@guarded``, the decorator on every slash-command callback and every item or modal
handler, and ``Guard``, the state it runs on (one per client, ``bot.guard``). For each
interaction, in this order:

1. a graceful stop is under way (reliability.md R3): nothing new starts, the user is told the bot
   is restarting;
2. the user clicks faster than the flood limit (R20): a private "slow down", and no work at all
   (no database, no render);
3. the handler runs, counted as in flight so that a graceful stop can wait for it (``drain``);
4. what it raises becomes a private answer in the user's language: ``Refusal`` and the engine's
   ``IllegalMove`` say why (seat names from ``interaction.extras["names"]`` when the handler put
   them there), ``Stale`` says the message is out of date and re-posts the table, a Discord
   error is logged (nothing was committed before the acknowledgement), anything else is logged
   with its traceback and answered with a generic sentence.

Handlers are therefore written straight: acknowledge, ask the service, raise ``Refusal`` when
something is wrong. Autocomplete is not guarded (it cannot be answered in words): it asks
``typing_allowed`` and offers nothing to a flooding user, and ``@offering`` offers nothing when
it fails. What fails outside a handler (a custom_id that cannot be read, a transformer) is
answered the same way by the safety nets of ``cogs.items``.
What it is not: no game logic and no public messages (``cogs.announcer``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import logging
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from typing import Any, ParamSpec, TypeVar

import discord

from bot.engine import IllegalMove
from bot.ops import logs, metrics
from bot.ops.ratelimit import REPOST_COOLDOWN, TYPING_BURST, TYPING_RATE, Cooldown, FloodGate
from bot.service import GameStatus, Refusal, Stale
from bot.words.i18n import translate
from bot.words.refusals import refusal_text
from cogs.base import Answered, client_of, user_locale
from cogs.delivery import reply_privately

log = logging.getLogger(__name__)

P = ParamSpec("P")
C = TypeVar("C")  # what an autocomplete offers (a Choice)


def refusal_for(exc: Exception, locale: str, names: Mapping[str, str] | None = None) -> str:
    """The private sentence for what a handler raised."""
    if isinstance(exc, IllegalMove):
        return refusal_text(exc, locale, names)
    if isinstance(exc, Refusal):
        return translate(f"refusal.{exc.code}", locale, **exc.params)
    return translate("refusal.error", locale)


def where(interaction: discord.Interaction) -> tuple[str, float]:
    """Bind the interaction's guild and shard as the log context of its work; its kind and Unix
    creation time for the metrics (test doubles may lack what a real interaction has)."""
    guild = getattr(interaction, "guild_id", None)
    shards = getattr(interaction.client, "shard_count", None) or 1
    logs.bind_interaction(guild, None if guild is None else (guild >> 22) % shards)
    return getattr(getattr(interaction, "type", None), "name", "unknown"), metrics.snowflake_seconds(interaction.id)


class Guard:
    """The flood gates and the count of handlers in flight, shared by every cog of one client."""

    def __init__(self, flood: tuple[float, int] | None) -> None:
        # Every command, click and modal; autocomplete (which cannot be answered in words) apart.
        self.clicks = FloodGate(*flood) if flood else None  # reliability.md R20
        self.typing = FloodGate(TYPING_RATE, TYPING_BURST) if flood else None
        # Per channel, whatever the flood setting: a re-post costs a render and a public message.
        self.reposts = Cooldown(REPOST_COOLDOWN)
        self._in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()

    def typing_allowed(self, user_id: int) -> bool:
        """Whether an autocomplete request of this user is served (else it is offered nothing)."""
        return self.typing is None or self.typing.allow(user_id)

    def repost_wait(self, channel_id: int) -> float:
        """0.0 when the table of ``channel_id`` may be re-posted now (the cooldown starts), else the
        seconds until it may (``/rummy table`` refuses, posting nothing)."""
        return self.reposts.take(channel_id)

    async def run(self, interaction: discord.Interaction, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` (a handler's coroutine, not started yet) for ``interaction`` under the guard;
        its guild and shard are the log context of the work (``bot.ops.logs``), and it is counted by
        kind and outcome (``bot.ops.metrics``)."""
        kind, created = where(interaction)
        if client_of(interaction).stopping:
            # Shutting down (reliability.md R3): nothing new starts; the player is told to retry.
            work.close()
            await reply_privately(interaction, translate("refusal.restarting", user_locale(interaction)))
            metrics.interaction(kind, "restarting", created)
            return
        self._in_flight += 1
        self._idle.clear()
        book = client_of(interaction).tokens
        book.hold(interaction)  # a place the bot is not in: its token shows what happens (issue 24)
        outcome = "error"
        try:
            outcome = await self._run(interaction, work)
            book.settle(interaction)
            await self._show_owed(interaction)
        finally:
            metrics.interaction(kind, outcome, created)
            self._in_flight -= 1
            if self._in_flight == 0:
                self._idle.set()

    async def _run(self, interaction: discord.Interaction, work: Coroutine[Any, Any, None]) -> str:
        """Run the work; its outcome: ok, answered, flood, stale, refused, discord_error or error."""
        if self.clicks is not None and not self.clicks.allow(interaction.user.id):
            # Flooding: answer at once, touch nothing (no database, no render) (reliability.md R20).
            work.close()
            wait = max(1, round(self.clicks.retry_after(interaction.user.id)))
            await reply_privately(interaction, translate("refusal.slow_down", user_locale(interaction), seconds=wait))
            return "flood"
        try:
            await work
        except Answered:  # the handler asked the user something privately: that is its answer
            return "answered"
        except Stale as exc:
            await reply_privately(interaction, translate("refusal.stale", user_locale(interaction)))
            await client_of(interaction).announcer.post_table(exc.game.id, repost=True)
            return "stale"
        except (Refusal, IllegalMove) as exc:
            names = interaction.extras.get("names")
            await reply_privately(interaction, refusal_for(exc, user_locale(interaction), names))
            return "refused"
        except discord.HTTPException as exc:
            # Discord's answer is the whole story (10062: the acknowledgement came too late or the
            # interaction was lost); nothing was committed before the acknowledgement.
            log.warning("Discord refused a reply to interaction %s: %s", interaction.id, exc)
            return "discord_error"
        except Exception as exc:
            log.exception("interaction %s failed", interaction.id)
            await reply_privately(interaction, refusal_for(exc, user_locale(interaction)))
            return "error"
        return "ok"

    async def _show_owed(self, interaction: discord.Interaction) -> None:
        """Where the bot is not a member, a change made with no token to show it (a timer, a
        computer player, a restart) is shown with the next interaction there: the table afresh."""
        client = client_of(interaction)
        place = interaction.channel_id
        if place is None or not client.tokens.take_owed(place):
            return
        for row in await client.service.threads.channel_games(place):
            if row.status in (GameStatus.PLAYING, GameStatus.FINISHED) and row.record:
                try:
                    await client.announcer.post_table(row.id)
                except discord.HTTPException as exc:
                    log.warning("showing the table of game %s failed: %r", row.id, exc)

    async def drain(self, timeout: float) -> int:
        """Wait up to ``timeout`` s for the handlers in flight; the number still running."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), timeout)
        return self._in_flight


def guarded(handler: Callable[P, Coroutine[Any, Any, None]]) -> Callable[P, Coroutine[Any, Any, None]]:
    """Run ``handler`` under its client's guard; its first ``discord.Interaction`` argument is the one
    answered. Goes under ``@group.command(...)`` (and its ``describe``/``choices``) on a slash
    command, and on every item and modal handler. The handler's signature stays visible: to type
    checkers (``P``, the same parameters), to ``inspect.signature`` and to app_commands, which
    reads a command's options from it (``__wrapped__`` and ``__signature__``)."""

    @functools.wraps(handler)
    async def guarded_handler(*args: P.args, **kwargs: P.kwargs) -> None:
        interaction = next(a for a in args if isinstance(a, discord.Interaction))
        await client_of(interaction).guard.run(interaction, handler(*args, **kwargs))

    # app_commands reads the parameters' annotations from the signature and would evaluate these
    # postponed annotations in this module's namespace: hand it the handler's, evaluated in its own.
    guarded_handler.__signature__ = inspect.signature(handler, eval_str=True)  # type: ignore[attr-defined]
    return guarded_handler


def offering(choices: Callable[P, Awaitable[list[C]]]) -> Callable[P, Coroutine[Any, Any, list[C]]]:
    """An autocomplete callback that offers nothing when it fails, instead of leaving Discord
    without an answer ("Loading options failed": discord.py only logs it): the failure is logged
    with its traceback. Goes under ``@command.autocomplete(...)``; the callback's signature stays
    visible, as app_commands counts its parameters."""

    @functools.wraps(choices)
    async def offered(*args: P.args, **kwargs: P.kwargs) -> list[C]:
        try:
            return await choices(*args, **kwargs)
        except Exception:
            log.exception("autocomplete %s failed", getattr(choices, "__qualname__", choices))
            return []

    return offered
