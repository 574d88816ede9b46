"""Rummy for Discord: the bot package (engine, service, storage)."""
