"""Tests of the bot's storage (``bot.store``) and of ``bot.service.GameService``."""
