"""JSON objects shaped like Discord's: users, members, roles, channels, the guild, messages, the app.

What this is: functions that turn the fake's records into the payloads discord.py parses, with the
fields it reads unconditionally (e.g. member `flags`, user `avatar`/`discriminator`, message `type`
and `content`, interaction `attachment_size_limit`) and the usual optional ones. Guild-scoped
payloads take the `FakeGuild` they are about (default: the fake's first guild); channels and
messages carry their own channel's guild.

What this is not: state. Everything is read from the `FakeDiscord` passed in; nothing is stored here.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from .records import (
    APPLICATION_COMMAND,
    AttachmentRecord,
    FakeChannel,
    FakeGuild,
    FakeRole,
    FakeUser,
    MessageRecord,
    walk_components,
)

if TYPE_CHECKING:
    from .server import FakeDiscord

# Permission bits.
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
ALL_PERMISSIONS = (1 << 51) - 1
DEFAULT_EVERYONE = sum(
    1 << b for b in (0, 6, 9, 10, 11, 14, 15, 16, 18, 20, 21, 25, 26, 31, 32, 35, 36, 37, 38, 39, 42, 45, 46, 49, 50)
)
BOT_ROLE_PERMISSIONS = sum(1 << b for b in (6, 10, 11, 13, 14, 15, 16, 18, 31, 38))
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
THREAD_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
USE_EXTERNAL_APPS = 1 << 50


def user_json(user: FakeUser) -> dict[str, Any]:
    return {
        "id": str(user.id),
        "username": user.name.lower().replace(" ", "_"),
        "global_name": user.global_name if user.global_name is not None else user.name,
        "discriminator": "0",
        "avatar": None,
        "avatar_decoration_data": None,
        "banner": None,
        "accent_color": None,
        "public_flags": 0,
        "flags": 0,
        "bot": user.bot,
        "system": False,
        "clan": None,
        "primary_guild": None,
        "collectibles": None,
    }


def bot_user_json(fake: FakeDiscord, *, full: bool = False) -> dict[str, Any]:
    data = {
        "id": str(fake.bot_user_id),
        "username": fake.bot_name,
        "global_name": None,
        "discriminator": "4242",
        "avatar": None,
        "avatar_decoration_data": None,
        "banner": None,
        "accent_color": None,
        "public_flags": 0,
        "flags": 0,
        "bot": True,
        "system": False,
        "clan": None,
        "primary_guild": None,
    }
    if full:
        data.update({"verified": True, "mfa_enabled": False, "locale": "en-US", "email": None, "premium_type": 0})
        data["bio"] = ""
    return data


def permissions_for(fake: FakeDiscord, user: FakeUser | None, guild: FakeGuild | None = None) -> int:
    """The member's permissions in `guild` (None: the bot's); no channel overwrites exist in the fake.

    A member in `guild.external_apps_denied` lacks Use External Apps (as a channel overwrite would
    take it away), unless they own the guild or are administrators.
    """
    guild = guild or fake.guild
    if user is None:
        roles = [guild.roles[guild.id], guild.roles[guild.bot_role_id]]
    else:
        if user.id == guild.owner_id:
            return ALL_PERMISSIONS
        roles = [guild.roles[guild.id]] + [guild.roles[r] for r in user.role_ids if r in guild.roles]
    value = 0
    for role in roles:
        value |= role.permissions
    if value & ADMINISTRATOR:
        return ALL_PERMISSIONS
    if user is not None and user.id in guild.external_apps_denied:
        value &= ~USE_EXTERNAL_APPS
    return value


def member_json(
    fake: FakeDiscord, user: FakeUser, *, permissions: bool = False, guild: FakeGuild | None = None
) -> dict[str, Any]:
    guild = guild or fake.guild
    data: dict[str, Any] = {
        "user": user_json(user),
        "roles": [str(r) for r in user.role_ids if r in guild.roles],
        "nick": None,
        "avatar": None,
        "banner": None,
        "premium_since": None,
        "joined_at": user.joined_at,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
        "unusual_dm_activity_until": None,
        "avatar_decoration_data": None,
        "collectibles": None,
    }
    if permissions:
        data["permissions"] = str(permissions_for(fake, user, guild))
    return data


def bot_member_json(fake: FakeDiscord, guild: FakeGuild | None = None) -> dict[str, Any]:
    guild = guild or fake.guild
    return {
        "user": bot_user_json(fake),
        "roles": [str(guild.bot_role_id)],
        "nick": None,
        "avatar": None,
        "banner": None,
        "premium_since": None,
        "joined_at": guild.bot_joined_at,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
        "avatar_decoration_data": None,
    }


def role_json(role: FakeRole) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(role.id),
        "name": role.name,
        "description": None,
        "permissions": str(role.permissions),
        "position": role.position,
        "color": role.color,
        "colors": {"primary_color": role.color, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "managed": role.managed,
        "mentionable": False,
        "icon": None,
        "unicode_emoji": None,
        "flags": 0,
    }
    if role.tags is not None:
        data["tags"] = role.tags
    return data


THREAD_TYPES = (10, 11, 12)  # announcement, public and private threads


def channel_json(fake: FakeDiscord, channel: FakeChannel, *, permissions: int | None = None) -> dict[str, Any]:
    if channel.type in (1, 3):
        # A DM (the bot's, recipient_id; or between users, recipient_ids) or a group DM (type 3).
        ids = [channel.recipient_id] if channel.recipient_id is not None else channel.recipient_ids
        data: dict[str, Any] = {
            "id": str(channel.id),
            "type": channel.type,
            "last_message_id": None,
            "flags": 0,
            "recipients": [user_json(fake.users[i]) for i in ids if i in fake.users],
        }
        if channel.type == 3:
            data.update({"name": channel.name or None, "icon": None, "owner_id": str(channel.owner_id)})
    else:
        data = {
            "id": str(channel.id),
            "type": channel.type,
            "guild_id": str(channel.guild_id),
            "name": channel.name,
            "position": channel.position,
            "parent_id": str(channel.parent_id) if channel.parent_id else None,
            "permission_overwrites": [],
            "topic": channel.topic,
            "nsfw": False,
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "flags": 0,
        }
        if channel.type == 2:
            data.update({"bitrate": 64000, "user_limit": 0, "rtc_region": None})
        if channel.type in THREAD_TYPES:
            owner = channel.owner_id or fake.bot_user_id
            data.update({"owner_id": str(owner), "member_count": 1, "message_count": 0,
                         "thread_metadata": {"archived": channel.archived,
                                             "auto_archive_duration": channel.auto_archive_duration,
                                             "locked": channel.locked,
                                             "archive_timestamp": channel.archive_timestamp or fake.clock.iso()}})
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def guild_json(fake: FakeDiscord, guild: FakeGuild | None = None, *, gateway: bool = True) -> dict[str, Any]:
    """The full guild, as GUILD_CREATE carries it (gateway=True) or GET /guilds/{id} (False)."""
    guild = guild or fake.guild
    members = fake.members(guild)
    data: dict[str, Any] = {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "icon_hash": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(guild.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "widget_enabled": False,
        "verification_level": 1,
        "default_message_notifications": 1,
        "explicit_content_filter": 2,
        "roles": [role_json(r) for r in guild.roles.values()],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "application_id": None,
        "system_channel_id": None if guild.system_channel_id is None else str(guild.system_channel_id),
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "max_presences": None,
        "max_members": 500000,
        "vanity_url_code": None,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": guild.locale,
        "max_video_channel_users": 25,
        "max_stage_video_channel_users": 50,
        "nsfw": False,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "incidents_data": None,
        "hub_type": None,
        "latest_onboarding_question_id": None,
        "home_header": None,
        "inventory_settings": None,
    }
    if gateway:
        data.update(
            {
                "joined_at": guild.bot_joined_at,
                "large": False,
                "unavailable": False,
                "lazy": True,
                "member_count": len(members) + 1,
                "voice_states": [],
                "members": [bot_member_json(fake, guild)] + [member_json(fake, u, guild=guild) for u in members],
                "channels": [channel_json(fake, c) for c in fake.channels.values()
                             if c.guild_id == guild.id and c.type not in THREAD_TYPES],
                "threads": [channel_json(fake, c) for c in fake.channels.values()
                            if c.guild_id == guild.id and c.type in THREAD_TYPES],
                "presences": [],
                "stage_instances": [],
                "guild_scheduled_events": [],
                "soundboard_sounds": [],
                "embedded_activities": [],
                "activity_instances": [],
                "application_command_counts": {},
                "version": 1,
            }
        )
    else:
        data["approximate_member_count"] = len(members) + 1
    return data


def attachment_json(att: AttachmentRecord) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(att.id),
        "filename": att.filename,
        "size": att.size,
        "url": att.url,
        "proxy_url": att.url,
        "content_type": att.content_type,
        "content_scan_version": 0,
    }
    if att.description is not None:
        data["description"] = att.description
    if att.width is not None:
        data.update({"width": att.width, "height": att.height, "placeholder": "", "placeholder_version": 1})
    return data


def author_json(fake: FakeDiscord, msg: MessageRecord) -> dict[str, Any]:
    if msg.author_id == fake.bot_user_id:
        return bot_user_json(fake)
    user = fake.users.get(msg.author_id)
    if user is None:
        return {"id": str(msg.author_id), "username": "unknown", "discriminator": "0", "avatar": None}
    return user_json(user)


def message_json(fake: FakeDiscord, msg: MessageRecord, *, gateway: bool = False) -> dict[str, Any]:
    data: dict[str, Any] = {
        "type": msg.type,
        "content": msg.content,
        "mentions": [],
        "mention_roles": [],
        "attachments": [attachment_json(a) for a in msg.attachments],
        "embeds": msg.embeds,
        "timestamp": msg.timestamp,
        "edited_timestamp": msg.edited_timestamp,
        "flags": msg.flags,
        "components": msg.components,
        "id": str(msg.id),
        "channel_id": str(msg.channel_id),
        "author": author_json(fake, msg),
        "pinned": False,
        "mention_everyone": False,
        "tts": msg.tts,
    }
    if msg.nonce is not None:
        data["nonce"] = msg.nonce
    if msg.webhook_id is not None:
        data["webhook_id"] = str(msg.webhook_id)
    if msg.application_id is not None:
        data["application_id"] = str(msg.application_id)
    if msg.interaction is not None:
        rec = msg.interaction
        meta: dict[str, Any] = {
            "id": str(rec.id),
            "type": rec.type,
            "user": user_json(rec.user),
            "authorizing_integration_owners": dict(rec.owners),
        }
        if rec.type == APPLICATION_COMMAND:
            meta["name"] = rec.data.get("name")
            meta["command_type"] = rec.data.get("type", 1)
        if rec.source_message is not None:
            meta["interacted_message_id"] = str(rec.source_message.id)
        if msg.source == "followup" and rec.original is not None:
            meta["original_response_message_id"] = str(rec.original.id)
        data["interaction_metadata"] = meta
        if rec.type == APPLICATION_COMMAND:
            data["interaction"] = {
                "id": str(rec.id),
                "type": rec.type,
                "name": rec.data.get("name"),
                "user": user_json(rec.user),
            }
    mentions = []
    for uid in sorted({int(x) for x in _user_mentions(msg.content)}):
        user = fake.users.get(uid)
        if user is not None:
            mentions.append(user_json(user))
    data["mentions"] = mentions
    guild = fake.channel_guild(msg.channel_id)
    if gateway and guild is not None:
        data["guild_id"] = str(guild.id)
        if msg.author_id == fake.bot_user_id:
            member = bot_member_json(fake, guild)
        else:
            user = fake.users.get(msg.author_id)
            member = member_json(fake, user, guild=guild) if user else None
        if member is not None:
            member.pop("user", None)
            data["member"] = member
    return data


def _user_mentions(content: str) -> list[str]:
    return re.findall(r"<@!?(\d+)>", content or "")


def application_json(fake: FakeDiscord) -> dict[str, Any]:
    owner = fake.users.get(fake.app_owner_id) or fake.owner
    return {
        "id": str(fake.application_id),
        "name": fake.bot_name,
        "icon": None,
        "description": "Fake application for tests",
        "summary": "",
        "type": None,
        "hook": True,
        "bot_public": True,
        "bot_require_code_grant": False,
        "verify_key": "0" * 64,
        "owner": user_json(owner),
        "team": None,
        "flags": fake.application_flags,
        "bot": bot_user_json(fake),
        "redirect_uris": [],
        "interactions_endpoint_url": None,
        "integration_types_config": {"0": {}, "1": {}},
        "approximate_guild_count": len(fake.guilds),
        "tags": [],
    }


def normalize_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Give every component a numeric `id`, as Discord does when the bot sets none."""
    taken = {c["id"] for c in walk_components(components) if isinstance(c.get("id"), int)}
    counter = 1
    for comp in walk_components(components):
        if not isinstance(comp.get("id"), int):
            while counter in taken:
                counter += 1
            comp["id"] = counter
            taken.add(counter)
    return components


def normalize_embeds(embeds: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"type": "rich", **e} for e in embeds]
