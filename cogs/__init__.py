"""Cogs: the thin Discord layer (slash commands, buttons, selects, modals) over ``bot.service``."""
