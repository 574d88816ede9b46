"""The words floor: the translation catalog and everything a user reads about moves and options.

What it is: pure text in the player's language (Spanish first, English too): ``i18n`` (the
catalog), ``moves`` (refusals, ledger lines, move labels, what a player typed as a ``Move``),
``options`` (a lobby's options in words). What it is not: rules (the engine judges), Discord,
storage or pictures.
"""
