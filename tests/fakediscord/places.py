"""Where an interaction happens, and what Discord derives from it: user installs and their limits.

What this is: the rules of Discord's installation and interaction contexts, as pure functions of
the fake's state — whether the bot is in a channel (a server it joined, its own DM) or not (group
DMs, DMs between two users, servers that never added it); the interaction `context` (0 GUILD,
1 BOT_DM, 2 PRIVATE_CHANNEL); which commands the client shows there (`contexts` and
`integration_types` of the command, the user's own install of the app) and the
`authorizing_integration_owners` they carry; the owners of a component interaction (those of the
interaction that created the message it is on); `app_permissions`; and forced-ephemeral replies
in servers without the bot for members who lack Use External Apps.

Sources (discord-api-docs, snapshot c98d64b): receiving-and-responding.mdx ("Interaction Context
Types", "Authorizing Integration Owners Object", `app_permissions` footnote, "Create Followup
Message"), application-commands.mdx ("Contexts"), permissions.mdx (USE_EXTERNAL_APPS), the
change log of 2024-06-27 ("User-Installed Apps General Availability").

Choices where the documentation is silent (each keeps a strict bot working):
- A global command without `contexts` is shown in servers and the bot's DM only, never in
  private channels: issue 24 reports that leaving `contexts` unset does not reach group DMs.
- A command the bot never registered is shown only in servers the bot is in (the driver guesses
  its option types there, as before); anywhere else the driver refuses it.
- In a server without the bot, `app_permissions` is the member's permissions limited to what an
  app without a bot member may use in responses (Attach Files, Embed Links, Mention Everyone,
  Use External Emojis); `default_member_permissions` only binds the server's own install.

What this is not: state (everything is read from the `FakeDiscord` passed in) or protocol code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import payloads
from .records import (
    BOT_DM_CONTEXT,
    GUILD_CONTEXT,
    GUILD_INSTALL,
    PRIVATE_CHANNEL_CONTEXT,
    USER_INSTALL,
    FakeChannel,
    FakeGuild,
    FakeUser,
    MessageRecord,
)

if TYPE_CHECKING:
    from .server import FakeDiscord

# Permission bits (developers/topics/permissions.mdx).
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
USE_EXTERNAL_APPS = payloads.USE_EXTERNAL_APPS
# "app_permissions includes ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE permissions for (G)DMs
# with other users, and additionally includes USE_EXTERNAL_EMOJIS for DMs with the app's bot user".
PRIVATE_CHANNEL_APP_PERMISSIONS = ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE
BOT_DM_APP_PERMISSIONS = PRIVATE_CHANNEL_APP_PERMISSIONS | USE_EXTERNAL_EMOJIS
EXTERNAL_APP_PERMISSIONS = BOT_DM_APP_PERMISSIONS
DEFAULT_CONTEXTS = (GUILD_CONTEXT, BOT_DM_CONTEXT)  # a command that declares no `contexts`
CONTEXT_NAMES = {
    GUILD_CONTEXT: "a server", BOT_DM_CONTEXT: "the bot's DM", PRIVATE_CHANNEL_CONTEXT: "a private channel"
}


class CommandNotShown(PermissionError):
    """The Discord client would not offer this command to this user here (wrong context, install
    type not declared, app not installed by the user): no interaction is sent."""


def bot_in_guild(fake: FakeDiscord, guild: FakeGuild | int | None) -> bool:
    """The bot is a member of the guild (it was added and not removed)."""
    if guild is None:
        return False
    gid = guild.id if isinstance(guild, FakeGuild) else int(guild)
    target = fake.guilds.get(gid)
    return target is not None and target.bot_member and gid not in fake.left_guilds


def is_bot_dm(channel: FakeChannel) -> bool:
    return channel.type == 1 and channel.recipient_id is not None


def bot_in_channel(fake: FakeDiscord, channel: FakeChannel) -> bool:
    """The bot can read and write this channel with its token: a channel of a guild it is in, or
    its own DM with a user. Never a group DM, a DM between users or a server without it."""
    if channel.guild_id is not None:
        return bot_in_guild(fake, channel.guild_id)
    return is_bot_dm(channel)


def context_of(channel: FakeChannel) -> int:
    if channel.guild_id is not None:
        return GUILD_CONTEXT
    return BOT_DM_CONTEXT if is_bot_dm(channel) else PRIVATE_CHANNEL_CONTEXT


def check_presence(fake: FakeDiscord, user: FakeUser, channel: FakeChannel) -> None:
    """A user can only act where they are: a member of the guild, a recipient of the (group) DM."""
    if channel.guild_id is not None:
        guild = fake.guilds[channel.guild_id]
        if user.id not in guild.member_ids:
            raise ValueError(f"{user!r} is not a member of {guild!r} (use add_user or add_member)")
    elif is_bot_dm(channel):
        if channel.recipient_id != user.id:
            raise ValueError(f"{user!r} is not in the bot's DM {channel.id} (with user {channel.recipient_id})")
    elif user.id not in channel.recipient_ids:
        raise ValueError(f"{user!r} is not a recipient of private channel {channel.id} ({channel.recipient_ids})")


def declared_contexts(cmd: dict[str, Any]) -> set[int]:
    """The interaction contexts a stored command is shown in (see the module docstring for unset)."""
    if cmd.get("guild_id"):
        return {GUILD_CONTEXT}  # guild commands exist only in their guild
    contexts = cmd.get("contexts")
    if contexts is None:
        return {GUILD_CONTEXT} if cmd.get("dm_permission") is False else set(DEFAULT_CONTEXTS)
    return {int(c) for c in contexts}


def command_owners(
    fake: FakeDiscord, user: FakeUser, channel: FakeChannel, name: str, cmd: dict[str, Any] | None
) -> dict[str, str]:
    """`authorizing_integration_owners` of a command used by `user` in `channel`, or CommandNotShown.

    A key is present only if the app is installed that way (the guild install: the bot is in the
    server, or the bot's DM; the user install: `install_for_user`), the command declares that
    integration type, and the command declares this interaction context.
    """
    context = context_of(channel)
    where = CONTEXT_NAMES[context]
    if cmd is None:
        if context == GUILD_CONTEXT and bot_in_guild(fake, channel.guild_id):
            return {str(GUILD_INSTALL): str(channel.guild_id)}
        raise CommandNotShown(f"/{name} is not registered where {user.name} could use it in {where}: "
                              "Discord would not show it")
    if context not in declared_contexts(cmd):
        raise CommandNotShown(f"/{name} does not declare context {context} ({where}) in its contexts "
                              f"{cmd.get('contexts')}: Discord would not show it to {user.name}")
    if cmd.get("guild_id"):
        types = {GUILD_INSTALL}
    else:
        types = {int(t) for t in cmd.get("integration_types") or [GUILD_INSTALL]}
    owners: dict[str, str] = {}
    if GUILD_INSTALL in types:
        if context == GUILD_CONTEXT and bot_in_guild(fake, channel.guild_id):
            owners[str(GUILD_INSTALL)] = str(channel.guild_id)
        elif context == BOT_DM_CONTEXT:
            owners[str(GUILD_INSTALL)] = "0"
    if USER_INSTALL in types and user.id in fake.user_installs:
        owners[str(USER_INSTALL)] = str(user.id)
    if not owners:
        why = []
        if context == GUILD_CONTEXT and not bot_in_guild(fake, channel.guild_id):
            why.append("the bot is not in this server")
        if USER_INSTALL not in types:
            why.append(f"the command's integration_types {sorted(types)} leave out USER_INSTALL")
        elif user.id not in fake.user_installs:
            why.append(f"{user.name} has not installed the app (install_for_user)")
        raise CommandNotShown(f"/{name} cannot be used by {user.name} in {where}: {'; '.join(why)}: "
                              "Discord would not show it")
    return owners


def message_owners(fake: FakeDiscord, message: MessageRecord) -> dict[str, str]:
    """Owners of a component interaction: those of the interaction that created the message (a
    friend clicking the installer's table carries the installer's {"1": id}); a channel message
    the bot posted itself carries its guild install."""
    if message.interaction is not None:
        return dict(message.interaction.owners)
    channel = fake.channels.get(message.channel_id)
    if channel is not None and channel.guild_id is not None:
        return {str(GUILD_INSTALL): str(channel.guild_id)}
    return {str(GUILD_INSTALL): "0"}


def app_permissions(fake: FakeDiscord, user: FakeUser, channel: FakeChannel) -> int:
    """What the app may do in the interaction's place (the interaction's `app_permissions`)."""
    context = context_of(channel)
    if context == BOT_DM_CONTEXT:
        return BOT_DM_APP_PERMISSIONS
    if context == PRIVATE_CHANNEL_CONTEXT:
        return PRIVATE_CHANNEL_APP_PERMISSIONS
    guild = fake.guilds[channel.guild_id or 0]
    if bot_in_guild(fake, guild):
        return payloads.permissions_for(fake, None, guild)
    return payloads.permissions_for(fake, user, guild) & EXTERNAL_APP_PERMISSIONS


def forced_ephemeral(fake: FakeDiscord, user: FakeUser, channel: FakeChannel) -> bool:
    """Use External Apps: "When disabled, users will still be allowed to use their apps but the
    responses will be ephemeral. This only applies to apps not also installed to the server."""
    if channel.guild_id is None or bot_in_guild(fake, channel.guild_id):
        return False
    guild = fake.guilds[channel.guild_id]
    return not payloads.permissions_for(fake, user, guild) & USE_EXTERNAL_APPS
