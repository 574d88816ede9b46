"""A fake Discord (REST + gateway on 127.0.0.1) for running the real bot process in tests.

What this is: the package's exports — `FakeDiscord` (server, state and driver API), `BotProcess`
(run `python -m bot` against it), and the records tests read (`FakeGuild`, `FakeUser`,
`MessageRecord`, `InteractionRecord`, `ModalRecord`, `GatewaySession`, `IdentifyRecord`, …) and
`shard_for` (Discord's sharding formula), and `CommandNotShown` (a command the Discord client would
not offer there), and the request budget's `RateLimits`, `Bucket` and `RateLimitRecord` (budget.py:
requests by token kind and route, Discord's rate limits). See server.py for the driver API, rest.py
/ gateway.py for what is modelled (gateway.py also lists where its sharding differs from Discord's)
and places.py for user installs (contexts, authorizing owners, app permissions), activity.py and
activity_proxy.py for Activities (OAuth2, instances, LAUNCH_ACTIVITY, the discordsays.com proxy
and the client frame).

What this is not: a pytest plugin. Tests build their own fixtures from these pieces.
"""

from .activity import Activities, ActivityInstance
from .activity_proxy import ActivityProxy, FrameSession
from .budget import Bucket, RateLimitRecord, RateLimits
from .gateway import GatewaySession
from .places import CommandNotShown
from .process import BotProcess
from .records import (
    AttachmentRecord,
    EditRecord,
    FakeChannel,
    FakeGuild,
    FakeUser,
    IdentifyRecord,
    InitialResponse,
    InteractionRecord,
    MessageRecord,
    ModalRecord,
    RequestRecord,
    shard_for,
)
from .server import FakeDiscord, Fault

ECHO_BOT = __file__.rsplit("/", 1)[0] + "/echo_bot.py"

__all__ = [
    "ECHO_BOT",
    "Activities",
    "ActivityInstance",
    "ActivityProxy",
    "AttachmentRecord",
    "BotProcess",
    "Bucket",
    "CommandNotShown",
    "EditRecord",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeUser",
    "Fault",
    "FrameSession",
    "GatewaySession",
    "IdentifyRecord",
    "InitialResponse",
    "InteractionRecord",
    "MessageRecord",
    "ModalRecord",
    "RateLimitRecord",
    "RateLimits",
    "RequestRecord",
    "shard_for",
]
