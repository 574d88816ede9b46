"""The managers' new-season confirmation (reliability.md R15): who may confirm, and until when.

What a user would notice if this failed: a member without Manage Server, or another manager than
the one who asked, ending the season; a confirmation left in a channel working days later.
"""

from __future__ import annotations

from cogs.admin import CONFIRM_SECONDS, confirmation_refusal


def refusal(**kw: object) -> str | None:
    args = {"clicker": 5, "manager": 5, "until": 1000.0 + CONFIRM_SECONDS, "now": 1000.0, "allowed": True}
    args.update(kw)
    found = confirmation_refusal(**args)  # type: ignore[arg-type]
    return None if found is None else found.code


def test_the_manager_who_asked_confirms_in_time() -> None:
    assert refusal() is None
    assert refusal(now=1000.0 + CONFIRM_SECONDS) is None


def test_anyone_else_late_or_without_the_permission_is_refused() -> None:
    assert refusal(clicker=6) == "not_your_confirmation"
    assert refusal(now=1001.0 + CONFIRM_SECONDS) == "confirmation_expired"
    assert refusal(allowed=False) == "managers_only"  # e.g. the permission was taken away meanwhile
    assert refusal(allowed=False, clicker=6, now=10**9) == "managers_only"
