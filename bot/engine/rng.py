"""The engine's own pseudo-random generator and shuffle (notation.md "Shuffling").

It is SHAKE-256 in counter mode: block ``k`` of stream ``(seed, deal, purpose)`` is the first
512 bytes of ``shake_256(b"rummy-rgn/1|<seed>|<deal>|<purpose>|<k>")``, read as 64 big-endian
64-bit words, used in order.
``randbelow(n)`` rejects words at or above the largest multiple of ``n`` below 2**64, so it is
unbiased; the shuffle is Fisher-Yates from the last index down, position 0 being the top card.
Only ``hashlib`` is used, so a record replays identically on every Python version. This module is
not a source of production seeds: those come from ``secrets`` (``new_seed``).
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from collections.abc import MutableSequence
from typing import TypeVar

T = TypeVar("T")
_TWO64 = 1 << 64
_WORDS = struct.Struct(">64Q")


class DealRandom:
    """Deterministic stream of 64-bit words for one (seed, deal, purpose)."""

    __slots__ = ("_block", "_prefix", "_words")

    def __init__(self, seed: str | int, deal: int, purpose: str = "deal") -> None:
        self._prefix = f"rummy-rgn/1|{seed}|{deal}|{purpose}|".encode()
        self._block = 0
        self._words: list[int] = []

    def _refill(self) -> None:
        digest = hashlib.shake_256(self._prefix + str(self._block).encode()).digest(512)
        self._block += 1
        self._words = list(reversed(_WORDS.unpack(digest)))

    def next_word(self) -> int:
        if not self._words:
            self._refill()
        return self._words.pop()

    def randbelow(self, n: int) -> int:
        """Uniform integer in ``[0, n)``."""
        limit = _TWO64 - _TWO64 % n
        while True:
            word = self.next_word()
            if word < limit:
                return word % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates in place: for i from the last index down to 1, swap i with randbelow(i + 1)."""
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _TWO64 - _TWO64 % n
            while True:  # randbelow(n), inlined: this loop is the cost of every deal
                if not self._words:
                    self._refill()
                word = self._words.pop()
                if word < limit:
                    break
            j = word % n
            items[i], items[j] = items[j], items[i]


def new_seed() -> str:
    """A production seed from the operating system's CSPRNG."""
    return str(secrets.randbits(64))
