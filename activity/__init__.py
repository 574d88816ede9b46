"""The Activity wing: the game's table as a web page inside Discord's frame (docs/activity.md; the
contract is ../shared/activity.md), a peer of the chat's ``cogs/`` over the same service.

What it is: ``ActivityServer`` (``server``: the aiohttp app the bot's client starts on its own
event loop), with ``login`` (the OAuth2 code exchange and the HMAC session), ``sockets`` (one
WebSocket per page: its frames), ``tables`` (the ``state`` frame a viewer may see), ``hub``
(the pages by game: woken by this process's commits and by a 250 ms poll of the versions) and
``flood`` (the per-user flood limit). The page itself is ``static/``, built from ``web/``.
What it is not: Discord's library (no ``discord`` import: Discord is reached over HTTP), rules,
checks or SQL (the engine's, the service's and the store's), or the chat.
"""

from __future__ import annotations

from .server import ActivityServer

__all__ = ["ActivityServer"]
