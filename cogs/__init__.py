"""Cogs: the thin Discord layer (slash commands, buttons, selects, modals) over ``bot.service``.

Loaded by the client as extensions (``cogs.rummy``, ``cogs.admin``: each has ``async def setup``);
nothing here imports the client or the store. ``base`` types the bot as the cogs see it,
``guard`` is the one guard every interaction runs under, ``lobby``, ``table`` and ``hand`` keep
each message with its persistent items and their handlers, ``ui`` and ``standings`` are shared
message text.
"""
