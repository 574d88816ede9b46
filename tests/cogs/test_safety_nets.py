"""The safety nets under every handler (issue 35, ``cogs.items`` and ``cogs.guard``): what fails
where discord.py would only log it is answered privately with the same translated refusal as a
handler's failure, and an autocomplete that fails offers nothing.

What a user would notice if this failed: "This interaction failed" (or "Loading options failed")
after a click on a button whose custom_id the bot could not read, after a command whose option a
transformer refused, or after a view's item failed, with nothing said about why; or a handler
whose options Discord no longer sees because the guard hid its signature.
"""

from __future__ import annotations

import inspect
import logging
import re
from types import SimpleNamespace
from typing import Any, ClassVar, Self

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.config import Config
from bot.service import Refusal
from cogs import admin, hand, rummy
from cogs.guard import Guard, guarded, offering
from cogs.items import Groups, Modal, Persistent, View, install, tree_error
from tests.cogs.test_guard import interaction

GENERIC = "Something failed on our side; nothing changed. Please try again."
NO_GAME = "There is no lobby or game in this channel."
NOT_OFFERED = "That choice was not offered on this message: nothing was done."


class Probe(Persistent[discord.ui.Button[Any]], template=re.compile(r"test:probe:(?P<n>[0-9]+)")):
    """A persistent item like the bot's, whose reading and handling a test decides."""

    handled: ClassVar[list[int]] = []
    reading: ClassVar[Exception | None] = None
    handling: ClassVar[Exception | None] = None

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="probe", custom_id=f"test:probe:{n}"))
        self.n = n

    @classmethod
    def from_groups(cls, groups: Groups) -> Self:
        if cls.reading is not None:
            raise cls.reading
        return cls(groups.number("n"))

    async def handle(self, interaction: discord.Interaction) -> None:
        if self.handling is not None:
            raise self.handling
        self.handled.append(self.n)


async def clicked(it: Any, custom_id: str) -> None:
    """What discord.py does with a click on a persistent item (``ViewStore.schedule_dynamic_item_call``):
    the item made from its custom_id, its interaction check, then its callback."""
    base = discord.ui.Button(label="probe", custom_id=custom_id)
    match = Probe.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    item = await Probe.from_custom_id(it, base, match)
    if await item.interaction_check(it):
        await item.callback(it)


@pytest.fixture(autouse=True)
def fresh_probe() -> None:
    Probe.reading = Probe.handling = None
    Probe.handled = []


async def test_an_item_read_from_its_custom_id_handles_the_click() -> None:
    it = interaction(Guard(None))
    await clicked(it, "test:probe:42")
    assert Probe.handled == [42] and it.sent == []


async def test_a_custom_id_that_cannot_be_read_is_refused_privately_in_the_users_language() -> None:
    Probe.reading = Refusal("not_offered")
    it = interaction(Guard(None))
    await clicked(it, "test:probe:42")
    assert it.sent == [(NOT_OFFERED, True)] and Probe.handled == []


async def test_a_custom_id_that_breaks_the_reader_is_logged_and_answered_without_details(
        caplog: pytest.LogCaptureFixture) -> None:
    Probe.reading = KeyError("secret")
    it = interaction(Guard(None))
    with caplog.at_level(logging.ERROR):
        await clicked(it, "test:probe:42")
    assert it.sent == [(GENERIC, True)]
    assert "interaction 99 failed" in caplog.text and "KeyError" in caplog.text


async def test_the_real_items_read_their_custom_ids_once_in_the_base() -> None:
    """Every persistent item of the bot is made by the base's ``from_custom_id`` (its own
    ``from_groups`` says which groups it reads), and keeps the component clicked (a select's values)."""
    it = interaction(Guard(None))
    state = hand.HandState(7, 3, 0b101, 1)
    base = discord.ui.Select(custom_id=f"rummy:s0:{state.suffix()}", options=[discord.SelectOption(label="a")])
    match = hand.HAND_SELECT_ID.fullmatch(base.custom_id)
    assert match is not None
    made = await hand.HandSelect.from_custom_id(it, base, match)
    assert (made.page, made.state, made.item) == (0, state, base)
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    bot.config = Config(token="t")  # type: ignore[attr-defined]
    bot.item_patterns = []  # type: ignore[attr-defined]
    await rummy.setup(bot)
    await admin.setup(bot)
    items = [cls for cls in Persistent.__subclasses__() if cls is not Probe]
    assert len(items) == len(bot.item_patterns) == 16  # type: ignore[attr-defined]
    assert all("from_custom_id" not in vars(cls) and "callback" not in vars(cls) for cls in items)


async def test_a_failure_in_an_items_callback_outside_the_guard_is_answered_privately() -> None:
    Probe.handling = Refusal("no_game")
    it = interaction(Guard(None))
    await clicked(it, "test:probe:1")
    assert it.sent == [(NO_GAME, True)]
    Probe.handling = ValueError("broken")
    it = interaction(Guard(None))
    await clicked(it, "test:probe:1")
    assert it.sent == [(GENERIC, True)]


async def test_a_failure_in_a_views_callback_is_answered_privately() -> None:
    """A view's own item (not a persistent one): discord.py calls the view's ``on_error``."""
    view = View()
    button: discord.ui.Button[View] = discord.ui.Button(label="x", custom_id="test:plain")

    async def fails(_: discord.Interaction) -> None:
        raise Refusal("no_game")

    button.callback = fails  # type: ignore[method-assign]
    view.add_item(button)
    assert view.timeout is None
    it = interaction(Guard(None))
    it.data = {}
    await view._scheduled_task(button, it)  # where discord.py runs a view's item
    assert it.sent == [(NO_GAME, True)]


async def test_a_failure_while_a_modal_is_submitted_is_answered_privately() -> None:
    class Failing(Modal, title="probe"):
        async def on_submit(self, interaction: discord.Interaction) -> None:
            raise Refusal("no_game")

    it = interaction(Guard(None))
    await Failing()._scheduled_task(it, [], {})  # where discord.py runs a modal's submission
    assert it.sent == [(NO_GAME, True)]
    assert issubclass(hand.RearrangeModal, Modal)


class Refusing(app_commands.Transformer):
    async def transform(self, interaction: discord.Interaction, value: str) -> str:
        raise Refusal("no_game")


class Breaking(app_commands.Transformer):
    async def transform(self, interaction: discord.Interaction, value: str) -> str:
        raise RuntimeError("a transformer's bug")


@app_commands.command(name="refused", description="probe")
async def refused_command(interaction: discord.Interaction, value: app_commands.Transform[str, Refusing]) -> None:
    raise AssertionError("never reached: its option is refused first")


@app_commands.command(name="broken", description="probe")
async def broken_command(interaction: discord.Interaction, value: app_commands.Transform[str, Breaking]) -> None:
    raise AssertionError("never reached: its option fails first")


@pytest.mark.parametrize(("command", "answer"), [(refused_command, NO_GAME), (broken_command, GENERIC)])
async def test_a_transformer_failure_gets_the_translated_private_refusal(command: Any, answer: str) -> None:
    """discord.py reads a command's options before its guarded callback runs, and hands a
    transformer's failure to the tree's ``on_error`` (``CommandTree._call``), which
    ``cogs.items.install`` sets, as ``cogs.rummy``'s setup does."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    install(bot)
    it = interaction(Guard(None))
    with pytest.raises(app_commands.TransformerError) as failed:
        await command._invoke_with_namespace(it, SimpleNamespace(value="x"))
    await bot.tree.on_error(it, failed.value)
    assert it.sent == [(answer, True)]


async def test_the_bots_tree_has_the_safety_net() -> None:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    bot.config = Config(token="t")  # type: ignore[attr-defined]
    bot.item_patterns = []  # type: ignore[attr-defined]
    await rummy.setup(bot)
    assert bot.tree.on_error is tree_error


async def test_a_failing_autocomplete_offers_nothing_and_every_autocomplete_has_the_net(
        caplog: pytest.LogCaptureFixture) -> None:
    @offering
    async def choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        raise RuntimeError("the database went away")

    with caplog.at_level(logging.ERROR):
        assert await choices(interaction(Guard(None)), "ab") == []
    assert "autocomplete" in caplog.text and "RuntimeError" in caplog.text
    assert list(inspect.signature(choices).parameters) == ["interaction", "current"]
    # Every autocomplete the bot registers is wrapped (discord.py would answer nothing at all).
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    bot.config = Config(token="t")  # type: ignore[attr-defined]
    bot.item_patterns = []  # type: ignore[attr-defined]
    await rummy.setup(bot)
    await admin.setup(bot)
    netted = offering(choices).__code__
    found = []
    for group in bot.tree.get_commands():
        for command in group.walk_commands():  # type: ignore[union-attr]
            for name, param in getattr(command, "_params", {}).items():
                if param.autocomplete is not None:
                    found.append(f"{command.qualified_name} {name}")
                    assert param.autocomplete.__code__ is netted, found[-1]
    assert {"rummy play move", "rummy new preset", "rummy new options", "rummy replay game", "rummy record game",
            "rummy-admin void game", "rummy-admin undo entry", "rummy-admin tournament manage event"} <= set(found)


async def test_a_real_autocomplete_whose_service_fails_offers_nothing() -> None:
    async def broken(*_: Any, **__: Any) -> Any:
        raise RuntimeError("the database went away")

    client = SimpleNamespace(service=SimpleNamespace(threads=SimpleNamespace(in_thread=broken)), guard=Guard(None),
                             get_guild=lambda _guild_id: object())
    cog = rummy.RummyCog(client)  # type: ignore[arg-type]
    it = SimpleNamespace(client=client, user=SimpleNamespace(id=1), guild_id=1, channel_id=5,
                         locale=discord.Locale("en-US"))
    assert await cog.play_autocomplete(it, "dis") == []  # type: ignore[arg-type]


async def _handler(interaction: discord.Interaction, game_id: int, *, version: int | None = None) -> None:
    """A handler as the cogs write them."""


async def test_the_guard_keeps_the_signature_it_wraps_visible() -> None:
    wrapped = guarded(_handler)
    assert inspect.signature(wrapped) == inspect.signature(_handler, eval_str=True)
    assert wrapped.__wrapped__ is _handler and wrapped.__name__ == "_handler"  # type: ignore[attr-defined]
    assert wrapped.__doc__ == _handler.__doc__
    # The bot's own: app_commands reads a command's options from it, and a handler's callers see it.
    params = inspect.signature(hand.hand_button).parameters
    assert list(params) == ["interaction", "verb", "arg", "state", "reading"]
    assert params["state"].annotation is hand.HandState and params["reading"].default is None
    assert list(inspect.signature(rummy.RummyCog.play.callback).parameters) == ["self", "interaction", "move"]
