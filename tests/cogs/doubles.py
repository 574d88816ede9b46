"""What a test double of the client needs since issue 24 (play anywhere).

``SERVER_MEMBER``: the attributes to add to a ``SimpleNamespace`` client so that its interactions
come from a server the bot is a member of (``get_guild`` finds it), with an empty ``TokenBook``
(nothing goes through interaction tokens there).
"""

from __future__ import annotations

from typing import Any

from cogs.anywhere import TokenBook

SERVER_MEMBER: dict[str, Any] = {"get_guild": lambda _guild_id: object(), "tokens": TokenBook()}
