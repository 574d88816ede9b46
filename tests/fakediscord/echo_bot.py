"""A tiny discord.py bot used only by the fake Discord's self-tests (run as a script by BotProcess).

What this is: a Client + CommandTree that, like the real bot, only sets `discord.http.Route.BASE`
from RUMMY_DISCORD_API, syncs guild commands to RUMMY_DEV_GUILD in setup_hook and answers:
/echo text (public message with a DynamicItem button `echo:<n>` whose click edits the message;
`text` has autocomplete), /secret (ephemeral, with a select that edits it), /slowdefer (ephemeral
defer then followup), /publicdefer (public defer then a followup flagged ephemeral), /late (answers
after 3.5 s), /ask (opens a modal; the submit answers publicly), /steps (edit original, followup
edit and delete, channel send and edit) and /file (sends an attachment). With ECHO_SHARDS="k/n"
(or "j,k/n") it is an AutoShardedClient holding those shards of n, as one process of a cluster;
its `echo:<n>` button works in every guild of its shards and names the process (pid) that answered.

Global commands, synced only with ECHO_GLOBAL=1 (user installs, issue 24): /anywhere text (user
and guild installable, every context; a public answer with an `anywhere:<n>` button whose click
updates it and says whether `is_user_integration()` holds for the clicker), /followups n (answers,
then sends n follow-ups and reports the codes of refused ones in an edit of its answer), /poke
(tries a bot-token post in the channel and answers with what Discord said), /inserver (user
install, servers only), /serveronly (guild install only, every context) and /unset (both installs,
`contexts` left unset).

What this is not: part of the rummy bot, or an example of good bot structure.
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import re

import discord
from discord import app_commands

if os.environ.get("RUMMY_DISCORD_API"):
    discord.http.Route.BASE = os.environ["RUMMY_DISCORD_API"]

GUILD = discord.Object(int(os.environ["RUMMY_DEV_GUILD"]))
SHARDS = os.environ.get("ECHO_SHARDS", "")
GLOBAL = os.environ.get("ECHO_GLOBAL") == "1"
log = logging.getLogger("echo_bot")


def shard_options() -> dict[str, object]:
    if not SHARDS:
        return {}
    ids, count = SHARDS.split("/")
    return {"shard_count": int(count), "shard_ids": [int(x) for x in ids.split(",")]}


class EchoButton(discord.ui.DynamicItem[discord.ui.Button], template=r"echo:(?P<n>[0-9]+)"):
    def __init__(self, n: int) -> None:
        super().__init__(
            discord.ui.Button(label=f"Clicks: {n}", style=discord.ButtonStyle.primary, custom_id=f"echo:{n}")
        )
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> EchoButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(EchoButton(self.n + 1))
        text = (interaction.message.content if interaction.message else "").split(" | ")[0]
        await interaction.response.edit_message(content=f"{text} | clicks: {self.n + 1} (pid {os.getpid()})", view=view)


class AnywhereButton(discord.ui.DynamicItem[discord.ui.Button], template=r"anywhere:(?P<n>[0-9]+)"):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Clicks: {n}", custom_id=f"anywhere:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> AnywhereButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(AnywhereButton(self.n + 1))
        text = (interaction.message.content if interaction.message else "").split(" | ")[0]
        mine = interaction.is_user_integration()
        await interaction.response.edit_message(content=f"{text} | clicks: {self.n + 1} user_integration={mine}",
                                                view=view)


class SecretView(discord.ui.View):
    @discord.ui.select(
        custom_id="secret:pick",
        options=[discord.SelectOption(label=x.upper(), value=x) for x in ("a", "b", "c")],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.edit_message(content=f"picked {select.values[0]}", view=self)


class AskModal(discord.ui.Modal, title="Who are you?"):
    name: discord.ui.TextInput = discord.ui.TextInput(label="Name", custom_id="name", default="Ada", max_length=20)

    def __init__(self) -> None:
        super().__init__(custom_id="ask:modal")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hello {self.name.value}")


class EchoClient(discord.AutoShardedClient if SHARDS else discord.Client):  # type: ignore[misc]
    def __init__(self) -> None:
        super().__init__(
            intents=discord.Intents.default(), allowed_mentions=discord.AllowedMentions.none(), **shard_options()
        )
        self.tree = app_commands.CommandTree(self)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(EchoButton, AnywhereButton)
        await self.tree.sync(guild=GUILD)
        if GLOBAL:
            await self.tree.sync()
        log.info("synced commands")

    async def on_ready(self) -> None:
        log.info("READY as %s", self.user)

    async def on_shard_ready(self, shard_id: int) -> None:
        log.info("shard %s ready", shard_id)

    async def on_resumed(self) -> None:
        log.info("RESUMED")


client = EchoClient()


async def echo_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=f"{current}-{i}", value=f"{current}-{i}") for i in range(3)]


@client.tree.command(guild=GUILD, description="Echo text with a button")
@app_commands.autocomplete(text=echo_autocomplete)
async def echo(interaction: discord.Interaction, text: str) -> None:
    view = discord.ui.View(timeout=None)
    view.add_item(EchoButton(0))
    await interaction.response.send_message(text, view=view)


@client.tree.command(guild=GUILD, description="An ephemeral answer")
async def secret(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("psst", ephemeral=True, view=SecretView())


@client.tree.command(guild=GUILD, description="Ephemeral defer, then a followup")
async def slowdefer(interaction: discord.Interaction) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    await asyncio.sleep(0.2)
    await interaction.followup.send("slow done", ephemeral=True)


@client.tree.command(guild=GUILD, description="Public defer, then a followup flagged ephemeral")
async def publicdefer(interaction: discord.Interaction) -> None:
    await interaction.response.defer()
    await interaction.followup.send("public after all", ephemeral=True)


@client.tree.command(guild=GUILD, description="Answers after 3.5 s")
async def late(interaction: discord.Interaction) -> None:
    await asyncio.sleep(3.5)
    try:
        await interaction.response.send_message("too late")
    except discord.NotFound as exc:
        log.info("late answer refused: %s", exc)


@client.tree.command(guild=GUILD, description="Opens a modal")
async def ask(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(AskModal())


@client.tree.command(guild=GUILD, description="Walks the webhook and channel message routes")
async def steps(interaction: discord.Interaction) -> None:
    await interaction.response.defer()
    await interaction.edit_original_response(content="step 1")
    original = await interaction.original_response()
    extra = await interaction.followup.send("step 2", wait=True)
    await extra.edit(content="step 2b")
    gone = await interaction.followup.send("to delete", ephemeral=True, wait=True)
    await gone.delete()
    assert interaction.channel is not None and isinstance(interaction.channel, discord.TextChannel)
    posted = await interaction.channel.send("step 3")
    await posted.edit(content=f"step 3b after {original.content}")


@client.tree.command(guild=GUILD, description="Sends a file")
async def file(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("a file", file=discord.File(io.BytesIO(b"hello bytes"), "hello.txt"))


@client.tree.command(description="Works wherever the app is installed")
@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
async def anywhere(interaction: discord.Interaction, text: str) -> None:
    view = discord.ui.View(timeout=None)
    view.add_item(AnywhereButton(0))
    await interaction.response.send_message(f"{text} | user_integration={interaction.is_user_integration()}",
                                            view=view)


@client.tree.command(description="Sends n follow-ups")
@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
async def followups(interaction: discord.Interaction, n: int) -> None:
    await interaction.response.send_message("sending")
    sent, refused = 0, []
    for i in range(n):
        try:
            await interaction.followup.send(f"follow-up {i + 1}")
            sent += 1
        except discord.HTTPException as exc:
            refused.append(exc.code)
    await interaction.edit_original_response(content=f"sent {sent} refused {refused}")


@client.tree.command(description="Posts in the channel with the bot token")
@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
async def poke(interaction: discord.Interaction) -> None:
    await interaction.response.defer()
    try:
        channel = interaction.channel
        assert isinstance(channel, discord.abc.Messageable)
        await channel.send("poked")
        outcome = "posted"
    except discord.HTTPException as exc:
        outcome = f"refused {exc.status} {exc.code}"
    await interaction.followup.send(outcome)


@client.tree.command(description="User install, servers only")
@app_commands.allowed_installs(guilds=False, users=True)
@app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
async def inserver(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("in a server")


@client.tree.command(description="Guild install only")
@app_commands.allowed_installs(guilds=True, users=False)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
async def serveronly(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("guild install")


@client.tree.command(description="Contexts left unset")
@app_commands.allowed_installs(guilds=True, users=True)
async def unset(interaction: discord.Interaction) -> None:
    await interaction.response.send_message(f"unset in context {interaction.context}")


if __name__ == "__main__":
    level = getattr(logging, os.environ.get("RUMMY_LOG_LEVEL", "INFO"), logging.INFO)
    client.run(os.environ["DISCORD_TOKEN"], log_level=level, root_logger=True)
