"""The one base of the bot's persistent items, its views and modals, and the safety nets under
every handler (issue 35).

What it is: ``Persistent``, the base of every ``DynamicItem`` the bot sends (the lobby's, the
table's, the hand's, the builder's, a hint's, the game picker's, the managers' confirmations, a
tournament's sign-up buttons). Its ``from_custom_id`` is the only one: the custom_id's named
groups are read into typed values (``Groups``, which each item's ``from_groups`` asks by name),
and the component clicked is kept as it came, a select's values with it (``values``). A failure
there, in ``interaction_check`` or in the callback (each item's ``handle``) goes to its error
hook, ``on_error``. ``View`` and ``Modal`` are the bot's views and modals, whose ``on_error`` is
the same hook, and ``tree_error`` is the command tree's (a transformer, a check, anything around
a command's guarded callback; ``install`` sets it). Each answers the failure as the guard answers
a handler's (``answer_failure``): privately, in the user's language, with the refusal's own
words, or logged with its traceback and answered with the generic sentence (``cogs.guard``).

Where discord.py would leave a failure otherwise (2.4 to 2.7, ``ui/view.py``, ``ui/dynamic.py``,
``app_commands/tree.py``): a ``from_custom_id`` that raises is logged and dropped, an
``interaction_check`` that raises is a silent refusal, a dynamic item's callback that raises is
logged, a view's or modal's item calls ``on_error`` (which only logs), and the tree calls its
``on_error`` (which only logs): each time the player saw "This interaction failed". Autocomplete
cannot be answered in words: ``cogs.guard.offering`` answers a failure with no choices.
What it is not: no handlers (an item's ``handle`` calls its module's guarded handler) and no
checks of a game (``cogs.acting`` and the service).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any, Self, TypeVar, cast

import discord
from discord import app_commands
from discord.ext import commands

from cogs.base import client_of

log = logging.getLogger(__name__)

BaseT = TypeVar("BaseT", bound="discord.ui.Item[Any]")
NEVER = re.compile(r"(?!)")  # the base's own template: it is never registered, only its subclasses


async def answer_failure(interaction: discord.Interaction, error: Exception) -> None:
    """What escaped a handler (or came before one ran), answered through the guard as if the
    handler had raised it: counted, logged, and answered privately in the user's language."""

    async def failed() -> None:
        raise error

    await client_of(interaction).guard.run(interaction, failed())


@dataclass(frozen=True)
class Groups:
    """A custom_id's named groups, read as what they are. The template bounds each group already
    (digits, a few letters), so what is read here is what the bot wrote."""

    match: re.Match[str]

    def text(self, name: str) -> str:
        value = self.match[name]
        if value is None:
            raise ValueError(f"the custom_id {self.match.string!r} has no {name!r}")
        return value

    def number(self, name: str) -> int:
        return int(self.text(name))

    def hex(self, name: str) -> int:
        return int(self.text(name), 16)

    def maybe_text(self, name: str) -> str | None:
        return self.match[name] or None

    def maybe_number(self, name: str) -> int | None:
        value = self.match[name]
        return int(value) if value else None


class Persistent(discord.ui.DynamicItem[BaseT], template=NEVER):
    """A persistent item: it works from its custom_id alone (after a restart too), read once here."""

    failure: Exception | None = None  # why this item's custom_id could not be read, if it could not

    @classmethod
    def from_groups(cls, groups: Groups) -> Self:
        """The item its custom_id describes (each item's own: which groups, read how)."""
        raise NotImplementedError

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> Self:
        try:
            made = cls.from_groups(Groups(match))
        except Exception as exc:
            # discord.py would log this and drop the click: the item is made without its fields
            # and answers why it could not be read, as any handler's failure is answered.
            made = cls.__new__(cls)
            discord.ui.DynamicItem.__init__(made, item)
            made.failure = exc
        made.item = cast(BaseT, item)  # the component clicked, as it came: a select's values with it
        return made

    @property
    def values(self) -> list[str]:
        """What was picked in a select (nothing for a button)."""
        return list(getattr(self.item, "values", None) or [])

    async def handle(self, interaction: discord.Interaction) -> None:
        """The click: each item calls its module's guarded handler."""
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            if self.failure is not None:
                raise self.failure
            await self.handle(interaction)
        except Exception as exc:  # what escaped the guard, or came before it
            await self.on_error(interaction, exc)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        try:
            return await super().interaction_check(interaction)
        except Exception as exc:  # discord.py would refuse the click without a word
            await self.on_error(interaction, exc)
            return False

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
        """The item's error hook: the failure answered privately (``answer_failure``)."""
        await answer_failure(interaction, error)


class View(discord.ui.View):
    """Every view the bot builds: it never times out (its items are persistent and answer from
    their custom_ids), and a failure of one of its items is answered (``on_error``)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    async def on_error(self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item[Any],
                       /) -> None:
        await answer_failure(interaction, error)


class Modal(discord.ui.Modal):
    """Every modal the bot opens; what fails while its submission is read is answered (``on_error``)."""

    # discord.py's own ``Modal.on_error`` takes no item (its ``BaseView``'s does): the same signature here.
    async def on_error(self, interaction: discord.Interaction, error: Exception, /) -> None:  # type: ignore[override]
        await answer_failure(interaction, error)


async def tree_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    """The command tree's error hook: a transformer that refused a value, a check, or what escaped
    a command's guarded callback, answered like a handler's failure. The cause is answered when
    there is one (a ``Refusal`` raised in a transformer says why)."""
    cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error.__cause__
    await answer_failure(interaction, cause if isinstance(cause, Exception) else error)


def install(bot: commands.Bot) -> None:
    """The command tree's safety net (the items', views' and modals' are their classes')."""
    bot.tree.error(tree_error)
