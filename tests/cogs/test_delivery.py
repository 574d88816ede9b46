"""``cogs.delivery``: the one seam between the announcer and Discord, as channel messages.

What a user would notice if these failed: a public message that pings people it should not (a
role, everyone, or anybody at all when it names nobody), a call for a turn that notifies nobody,
buttons left on a cancelled game's table or taken off a table that was only re-drawn, or an end of
a deal posted without its picture.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord

from cogs.delivery import ChannelDelivery
from renderers import Rendered


class Channel:
    """Records what is posted, edited and deleted."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.edits: list[tuple[int, dict[str, Any]]] = []
        self.deleted: list[int] = []

    async def send(self, content: str = "", **kwargs: Any) -> SimpleNamespace:
        self.sent.append({"content": content, **kwargs})
        return SimpleNamespace(id=1000 + len(self.sent))

    def get_partial_message(self, message_id: int) -> Any:
        async def edit(**kwargs: Any) -> None:
            self.edits.append((message_id, kwargs))

        async def delete() -> None:
            self.deleted.append(message_id)

        return SimpleNamespace(edit=edit, delete=delete)


def delivery() -> tuple[ChannelDelivery, Channel, list[int]]:
    channel, places = Channel(), []

    def get_partial_messageable(place: int, **_: Any) -> Channel:
        places.append(place)
        return channel

    client: Any = SimpleNamespace(get_partial_messageable=get_partial_messageable)
    return ChannelDelivery(client), channel, places


PICTURE = Rendered(b"\x89PNG", "png", 1, 1, "table")


async def test_a_post_pings_only_the_users_named_and_nobody_otherwise() -> None:
    seam, channel, places = delivery()
    assert await seam.post(55, "your turn", ping=[7, 8]) == 1001
    assert await seam.post(55, "the game ended") == 1002
    assert places == [55, 55]
    turn, notice = (m["allowed_mentions"].to_dict() for m in channel.sent)
    assert turn["parse"] == [] and turn["users"] == [7, 8]  # never everyone, never a role
    assert notice == {"parse": []}


async def test_a_post_carries_its_picture_buttons_and_embed_and_nothing_it_was_not_given() -> None:
    seam, channel, _ = delivery()
    view, embed = discord.ui.View(), discord.Embed(title="ledger")
    await seam.post(55, "deal over", image=PICTURE, view=view, embed=embed)
    await seam.post(55, "deal over", image=PICTURE, view=None)
    full, bare = channel.sent
    assert full["view"] is view and full["embed"] is embed and full["file"].filename == "table.png"
    assert "view" not in bare and "embed" not in bare and bare["file"].filename == "table.png"


async def test_an_edit_takes_the_buttons_away_only_when_asked() -> None:
    seam, channel, _ = delivery()
    await seam.edit(55, 9, content="cancelled", view=None)
    await seam.edit(55, 9, view=discord.ui.View(), image=PICTURE)
    await seam.edit(55, 9, content="idle")
    (_, cancelled), (_, redrawn), (_, idle) = channel.edits
    assert cancelled == {"content": "cancelled", "view": None}
    assert isinstance(redrawn["view"], discord.ui.View)
    assert [f.filename for f in redrawn["attachments"]] == ["table.png"]
    assert idle == {"content": "idle"}  # the buttons and the picture stay
    await seam.delete(55, 9)
    assert channel.deleted == [9]
