"""The engine's one error type: a refused move, with a stable code for translation.

This module is not about Discord: the bot turns ``code`` and ``params`` into a sentence in the
player's language; ``message`` is only a default English sentence naming the rule.
"""

from __future__ import annotations

from typing import Any


class IllegalMove(Exception):
    """A move or record the rules refuse. The game is left exactly as it was."""

    def __init__(self, code: str, message: str, params: dict[str, Any] | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params: dict[str, Any] = dict(params or {})
        self.line = line

    def __str__(self) -> str:
        return self.message if self.line is None else f"line {self.line}: {self.message}"

    def __repr__(self) -> str:
        return f"IllegalMove(code={self.code!r}, params={self.params!r}, line={self.line!r})"
