"""Interaction tokens kept while they live (issue 24), on SQLite and PostgreSQL.

What it is: a token that made a message is read back (by place, by message) while it lives, with
its count of follow-ups, and is gone once it expired; the next write deletes expired rows.
What it is not: the choice of a token (tests/cogs/test_anywhere.py).
"""

from __future__ import annotations

from bot.service import TokenRow


async def test_a_token_lives_in_the_database_only_as_long_as_it_lives(env):
    now = env.clock()
    row = TokenRow(11, 500, 1, "secret", now + 780, 1, True)
    await env.svc.tokens.keep_token(row, message_id=900)
    assert [t.interaction_id for t in await env.svc.tokens.live_tokens(500)] == [11]
    assert (await env.svc.tokens.message_token(900)) == row
    await env.svc.tokens.keep_token(TokenRow(11, 500, 1, "secret", now + 780, 2, True), message_id=901)
    assert (await env.svc.tokens.live_tokens(500))[0].sent == 2
    env.clock.advance(781)
    assert await env.svc.tokens.live_tokens(500) == [] and await env.svc.tokens.message_token(900) is None
    await env.svc.tokens.keep_token(TokenRow(12, 500, 1, "other", env.clock() + 780, 0, True))
    left = await env.db.fetchall("SELECT interaction_id FROM interaction_tokens")
    assert [r["interaction_id"] for r in left] == [12]  # the expired one was deleted
    assert not await env.db.fetchall("SELECT message_id FROM token_messages")
