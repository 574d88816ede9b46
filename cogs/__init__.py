"""The Discord wing: every module that imports ``discord`` (slash commands, buttons, selects,
modals, and every public message) over ``bot.service``.

Loaded by the client as extensions (``cogs.rummy``, ``cogs.admin``: each has ``async def setup``);
nothing here imports the client, its settings or the store: the wing's imports point only down
(service, engine, words, renderers), and ``bot.client`` and ``bot.__main__`` are the only modules
outside it that know both sides. ``base`` types the bot as the cogs see it, ``guard`` is the one
guard every interaction runs under (``ratelimit`` its flood gates), ``lobby``, ``table`` and
``hand`` keep each message with its persistent items and their handlers, ``ui``, ``ledger`` and
``standings`` are shared message text, ``announcer`` says in public what a committed change did
(through ``delivery``, the one place that talks to Discord for it), and ``render_pool`` runs the
renderers off the event loop.
"""
