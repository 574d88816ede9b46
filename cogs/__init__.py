"""Discord cogs: thin slash-command and button handlers. No game rules live here."""
