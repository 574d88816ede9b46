"""The Activity's server (activity/): the page and its assets, the code exchange and the session,
the sockets' frames, hidden cards, changes reaching every page, refusals, the flood limit and a
restart, against the fake Discord's Activities (tests/fakediscord/activity.py), with the real
aiohttp server on 127.0.0.1 and a real service on SQLite. Every wait is for a frame, never a sleep.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from activity.tables import card_label
from bot.engine import load_game
from bot.service import GameRow
from bot.store import repo
from tests.activity.server_world import World

DECK = {r + s for r in "A23456789TJQK" for s in "SHDC"}
SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
CODE = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][SHDC])(?![A-Za-z0-9])")
SHOWN = re.compile(r"(10|[2-9JQKA])([♠♥♦♣])")






def cards_named(text: str) -> set[str]:
    """Every card a frame's text names, as a code (``7H``) or as shown to people (``7♥``)."""
    found = set(CODE.findall(text))
    back = {v: k for k, v in SYMBOL.items()}
    found |= {("T" if rank == "10" else rank) + back[suit] for rank, suit in SHOWN.findall(text)}
    return found


async def game_now(world: World, game_id: int) -> tuple[GameRow, Any]:
    row = await world.svc.core.get(game_id)
    assert row is not None and row.record
    return row, load_game(row.record)


def secret_from(game: Any, seat: str | None) -> set[str]:
    """The cards ``seat`` (None: an onlooker) may not see: every card of the deck but its own
    hand, the discard pile and the table."""
    public = set(game.discard_pile) | {c.split("=")[0] for meld in game.table for c in meld}
    own = set(game.hand(seat)) if seat else set()
    return DECK - public - own


async def play_one(world: World, game_id: int) -> int:
    """The acting seat's first legal move, made through the service as the chat makes it (no
    wake: the poll must bring it); the new version."""
    row, game = await game_now(world, game_id)
    seat = game.actors[0]
    user = row.by_seat(seat).user_id
    change = await world.svc.acting.act(world.fake.guild_id, user, game_id, game.legal_moves(seat)[0],
                                        version=row.version)
    return change.game.version


# ---- the page, its assets, the code exchange and the session ----------------------------------------


async def test_page_assets_and_token_exchange(world: World) -> None:
    fake, http = world.fake, world.http
    assert http is not None
    for base in ("", "/.proxy"):
        async with http.get(world.url + base + "/") as r:
            assert r.status == 200 and r.headers["Cache-Control"] == "no-store"
            text = await r.text()
            assert f'data-client="{fake.application_id}"' in text and "__RUMMY_CLIENT_ID__" not in text
        async with http.get(world.url + base + "/assets/app-1a2b.js") as r:
            assert r.status == 200 and "immutable" in r.headers["Cache-Control"]
            assert "max-age=31536000" in r.headers["Cache-Control"]
        async with http.get(world.url + base + "/assets/..%2Findex.html") as r:
            assert r.status == 404
    inst = fake.launch_activity(world.ana, fake.channel_id)
    status, body = await world.post_token(world.ana, inst.instance_id)
    assert status == 200, body
    assert set(body) == {"access_token", "session", "user", "locale"}
    assert body["user"] == {"id": str(world.ana.id), "name": "Ana"} and body["locale"] == "es"
    token_calls = [r for r in fake.requests if r.path.endswith("/oauth2/token")]
    assert token_calls and token_calls[-1].body["grant_type"] == "authorization_code"
    assert "redirect_uri" not in token_calls[-1].body
    async with http.post(world.url + "/.proxy/api/token", json={"code": "nope", "instance_id": inst.instance_id}) as r:
        assert r.status == 401 and (await r.json())["error"] == "refused"
    status, body = await world.post_token(world.ana, "i-no-such-instance")
    assert (status, body["error"]) == (404, "no_instance")
    # The session opens a socket (at /.proxy/ too): welcome with the page's words, then the state.
    page = await world.open_socket("/.proxy/ws")
    session = await world.login(world.ana)
    await page.send(op="hello", session=session, custom_id=None)
    welcome = await page.op("welcome")
    assert welcome["user"] == {"id": str(world.ana.id), "name": "Ana"} and welcome["locale"] == "es"
    assert welcome["words"] and all(k.startswith("activity.page.") for k in welcome["words"])
    assert welcome["words"]["activity.page.hand"] == "Tu mano"
    assert (await page.op("state"))["state"] == "none"


async def test_a_user_not_in_the_instance_is_refused(world: World) -> None:
    inst = world.fake.launch_activity(world.ana, world.fake.channel_id)
    status, body = await world.post_token(world.carlos, inst.instance_id)
    assert (status, body["error"]) == (403, "not_in_instance")
    inst.leave(world.ana)  # the last one left: the instance ended
    status, body = await world.post_token(world.ana, inst.instance_id)
    assert (status, body["error"]) == (404, "no_instance")


async def test_forged_expired_and_missing_sessions_get_an_error(world: World) -> None:
    session = await world.login(world.ana)
    body, mac = session.split(".")
    forged_body = body[:-2] + ("AA" if body[-2:] != "AA" else "BB")
    for bad, code in [(f"{forged_body}.{mac}", "forged"), ("garbage", "forged"), (None, "forged")]:
        page = await world.open_socket()
        await page.send(op="hello", session=bad, custom_id=None)
        assert (await page.op("error"))["code"] == code
    page = await world.open_socket()
    await page.send(op="move", id=1, move="draw", version=1)  # no hello first
    assert (await page.op("error"))["code"] == "no_session"
    world.clock.advance(3601)  # the session's hour is over
    page = await world.open_socket()
    await page.send(op="hello", session=session, custom_id=None)
    error = await page.op("error")
    assert error["code"] == "expired" and error["reason"]
    assert not any(f["op"] in ("welcome", "state") for f in page.frames)


async def test_restart_accepts_the_old_session(world: World) -> None:
    row = await world.new_gin()
    session = await world.login(world.ana, custom_id=f"rummy:activity:{row.id}")
    page = await world.page(world.ana, f"rummy:activity:{row.id}", session=session)
    assert page.states()[-1]["game"] == row.id
    assert world.server is not None
    await world.server.stop()
    await world.start_server()  # a new server (a restarted bot) over the same database
    again = await world.page(world.ana, str(row.id), session=session)  # a bare id names the game too
    state = again.states()[-1]
    assert state["game"] == row.id and state["you"] == "p1" and len(state["hand"]) == 10


# ---- what a page sees --------------------------------------------------------------------------------


async def test_nobody_sees_a_card_they_may_not(world: World) -> None:
    row = await world.new_gin()
    custom = f"rummy:activity:{row.id}"
    ana = await world.page(world.ana, custom)
    bea = await world.page(world.bea, custom)
    carlos = await world.page(world.carlos, custom)  # in the instance, in no seat: an onlooker
    onlooker = carlos.states()[-1]
    assert onlooker["you"] is None and onlooker["hand"] is None and onlooker["verbs"] == []
    assert onlooker["drawn"] is None and onlooker["took"] is None
    assert [s["cards"] for s in onlooker["seats"]] == [10, 10]
    mine = ana.states()[-1]
    assert mine["you"] == "p1" and len(mine["hand"]) == 10 and mine["host"] is True
    assert bea.states()[-1]["host"] is False
    assert set(mine) == set(onlooker) == {
        "op", "state", "game", "version", "variant", "phase", "deal", "you", "host", "choices", "seats", "hand",
        "drawn", "took", "table", "stock", "discard", "revealed", "last", "verbs", "deadline", "result", "over",
        "winners", "labels"}
    assert all(card_label(c, "es") == mine["labels"][c] for c in mine["hand"])
    pages = {"p1": ana, "p2": bea, None: carlos}
    seen = {key: 0 for key in pages}
    version = row.version
    for _ in range(12):
        _, game = await game_now(world, row.id)
        for seat, page in pages.items():
            secret = secret_from(game, seat)
            for text in page.texts[seen[seat]:]:
                assert not cards_named(text) & secret, (seat, cards_named(text) & secret, text)
            seen[seat] = len(page.texts)
        if game.hand_over:
            break
        version = await play_one(world, row.id)
        for page in pages.values():
            await page.wait(lambda f, v=version: f.get("op") == "state" and f["version"] == v)
    _, game = await game_now(world, row.id)
    for seat, page in pages.items():  # the frames of the last move too
        secret = secret_from(game, seat)
        assert not any(cards_named(t) & secret for t in page.texts[seen[seat]:])
    last = carlos.states()[-1]
    assert last["last"] is not None and last["last"]["text"]
    assert version >= row.version + 6  # a dozen moves or the deal's end: draws, takes, discards
    assert cards_named(carlos.texts[-1]) and cards_named(ana.texts[-1]) - cards_named(carlos.texts[-1])


async def test_a_move_plays_and_reaches_every_page(world: World) -> None:
    row = await world.new_gin()
    custom = f"rummy:activity:{row.id}"
    pages = {u.id: await world.page(u, custom) for u in (world.ana, world.bea, world.carlos)}
    _, game = await game_now(world, row.id)
    seat = game.actors[0]
    mover = row.by_seat(seat).user_id
    first = pages[mover].states()[-1]
    assert first["verbs"] and set(first["verbs"]) <= {"take", "pass", "draw"}
    move = game.legal_moves(seat)[0]
    marks = {u: len(p.frames) for u, p in pages.items()}
    await pages[mover].send(op="move", id="m1", move=str(move), version=row.version)
    done = await pages[mover].op("done", id="m1")
    assert done["version"] == row.version + 1
    for user, page in pages.items():  # within a second, every page has the new table
        state = await page.wait(lambda f: f.get("op") == "state" and f["version"] == row.version + 1,
                                timeout=1.0, after=marks[user])
        assert state["last"]["seat"] == seat
    stored = await world.svc.core.get(row.id)
    assert stored is not None and stored.version == row.version + 1
    assert [c.game.id for c in world.announced] == [row.id]  # the chat hears of it, once


async def test_stale_and_illegal_moves_change_nothing(world: World) -> None:
    row = await world.new_gin()
    custom = f"rummy:activity:{row.id}"
    _, game = await game_now(world, row.id)
    seat = game.actors[0]
    user = world.ana if row.by_seat(seat).user_id == world.ana.id else world.bea
    other = world.bea if user is world.ana else world.ana
    page = await world.page(user, custom)
    await page.send(op="move", id=1, move=str(game.legal_moves(seat)[0]), version=row.version - 1)
    refused = await page.op("refused", id=1)
    assert refused["code"] == "stale" and refused["version"] == row.version and refused["reason"]
    await page.send(op="move", id=2, move="fly away", version=row.version)
    assert (await page.op("refused", id=2))["code"] in ("bad_move", "unknown_move")
    await page.send(op="move", id=3, move="discard 2X", version=row.version)
    assert (await page.op("refused", id=3))["reason"]
    watcher = await world.page(other, custom)  # not their turn: the service's refusal, translated
    await watcher.send(op="move", id=4, move="draw", version=row.version)
    refusal = await watcher.op("refused", id=4)
    assert refusal["code"] == "not_your_turn" and "turn" in refusal["reason"].lower()  # Bea reads English
    await page.send(op="check", id=5, move="knock 2X")
    checked = await page.op("checked", id=5)
    assert checked["ok"] is False and checked["reason"]
    await page.send(op="check", id=6, move=str(game.legal_moves(seat)[0]))
    assert (await page.op("checked", id=6)) == {"op": "checked", "id": 6, "ok": True, "reason": None}
    await page.send(op="nonsense", id=7)
    assert (await page.op("refused", id=7))["code"] == "bad_frame"
    stored = await world.svc.core.get(row.id)
    assert stored is not None and stored.version == row.version and stored.record == row.record
    assert world.announced == []


async def test_frames_beyond_the_flood_limit_are_refused(world: World) -> None:
    row = await world.new_gin()
    page = await world.page(world.ana, f"rummy:activity:{row.id}")
    for i in range(12):  # the burst is 8: the rest are refused at once
        await page.send(op="check", id=i, move="draw")
    slow = await page.wait(lambda f: f.get("op") == "refused" and f.get("code") == "slow_down")
    assert slow["reason"] and slow["version"] == row.version
    answered = [f for f in page.frames if f.get("op") in ("checked", "refused")]
    await page.wait(lambda f: len([g for g in page.frames if g.get("op") in ("checked", "refused")]) >= 12)
    answered = [f for f in page.frames if f.get("op") in ("checked", "refused")]
    assert sum(f.get("code") == "slow_down" for f in answered) >= 3
    stored = await world.svc.core.get(row.id)
    assert stored is not None and stored.version == row.version


async def test_a_chat_move_reaches_the_page_through_the_poll(world: World) -> None:
    row = await world.new_gin()
    page = await world.page(world.carlos, f"rummy:activity:{row.id}")
    version = await play_one(world, row.id)  # through the service, as the chat does; nothing wakes the page
    state = await page.wait(lambda f: f.get("op") == "state" and f["version"] == version, timeout=1.0)
    assert state["state"] == "playing"


# ---- which game, the lobby, the next deal ------------------------------------------------------------


async def test_the_channel_game_a_choice_and_the_lobby(world: World) -> None:
    fake, svc = world.fake, world.svc
    lobby = (await svc.games.open_lobby(guild_id=fake.guild_id, channel_id=fake.channel_id, host_id=world.ana.id,
                                        host_name="Ana", variant="gin", timer_minutes=5)).game
    ana = await world.page(world.ana)  # no custom_id: the channel's one game
    state = ana.states()[-1]
    assert (state["state"], state["game"], state["you"], state["host"]) == ("lobby", lobby.id, "p1", True)
    bea = await world.page(world.bea)
    await bea.send(op="lobby", id="j", action="join")
    assert (await bea.op("done", id="j"))["version"] == lobby.version + 1
    await ana.wait(lambda f: f.get("op") == "state" and len(f["seats"]) == 2, timeout=1.0)
    await bea.send(op="lobby", id="s", action="start")  # only the host starts
    assert (await bea.op("refused", id="s"))["code"]
    await ana.send(op="lobby", id="s", action="start")
    await ana.op("done", id="s")
    playing = await bea.wait(lambda f: f.get("op") == "state" and f["state"] == "playing", timeout=1.0)
    assert playing["you"] == "p2" and len(playing["hand"]) == 10
    # A second game in a thread of the channel: a page there chooses between them.
    thread = fake.add_thread(fake.channel_id)
    other = (await svc.games.open_lobby(guild_id=fake.guild_id, channel_id=fake.channel_id,
                                        host_id=world.carlos.id, host_name="Carlos", variant="rami",
                                        threaded=True)).game
    await svc.threads.set_thread(other.id, thread)
    carlos = await world.page(world.carlos)
    none = carlos.states()[-1]
    assert none["state"] == "none" and none["game"] is None
    assert [(c["game"], c["state"]) for c in none["choices"]] == [(lobby.id, "playing"), (other.id, "lobby")]
    assert none["choices"][0]["players"] == ["Ana", "Bea"]
    await carlos.send(op="choose", id="c", game=other.id + 1000)
    assert (await carlos.op("refused", id="c"))["code"] == "not_a_choice"
    await carlos.send(op="choose", id="c2", game=other.id)
    chosen = await carlos.wait(lambda f: f.get("op") == "state" and f["game"] == other.id)
    assert chosen["variant"] == "rami" and chosen["state"] == "lobby"
    # A launch naming another place's game shows this channel's games instead.
    stranger = await world.page(world.bea, "rummy:activity:999999")
    assert stranger.states()[-1]["state"] == "none"


async def test_the_next_deal_and_a_hint(world: World) -> None:
    fake = world.fake
    lobby = (await world.svc.games.open_lobby(guild_id=fake.guild_id, channel_id=fake.channel_id,
                                              host_id=world.ana.id, host_name="Ana", variant="gin")).game
    await world.svc.games.add_bot(lobby.id, world.ana.id)  # a computer player: hints are given
    row = (await world.svc.games.start(lobby.id, world.ana.id, seed="3")).game
    page = await world.page(world.ana, f"rummy:activity:{row.id}")
    await page.send(op="hint", id="h")
    answer = await page.wait(lambda f: f.get("id") == "h", timeout=5.0)
    _, game = await game_now(world, row.id)
    if "p1" in game.actors:
        assert answer["op"] == "hint" and answer["move"] and answer["text"]
    else:
        assert answer["op"] == "refused" and answer["code"] == "hint_not_your_turn"
    await page.send(op="next_deal", id="n", version=row.version)
    assert (await page.op("refused", id="n"))["code"] == "deal_not_over"


async def test_store_reads_on_both_backends_are_one_query(world: World) -> None:
    a = await world.new_gin()
    versions = await world.server.reads.versions([a.id, a.id + 500])  # type: ignore[union-attr]
    assert versions == {a.id: a.version}
    games = await repo.get_game(world.svc.core.db, a.id)
    assert games is not None
    assert [r.id for r in await world.server.reads.channel_games(world.fake.guild_id, world.fake.channel_id)] \
        == [a.id]  # type: ignore[union-attr]
    assert await world.server.reads.channel_games(-world.fake.channel_id, world.fake.channel_id) == []  # type: ignore[union-attr]


def test_card_labels() -> None:
    assert card_label("7H", "es") == "7 de corazones" and card_label("7H", "en") == "7 of hearts"
    assert card_label("AS", "es") == "as de picas" and card_label("TD", "en") == "10 of diamonds"
    assert card_label("JK", "es") == "comodín"
    assert card_label("JK=8H", "es") == "comodín como 8 de corazones"
    assert card_label("2C=7", "en") == "2 of clubs as 7"


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_activity_store_queries(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    from bot.service import GameService
    from bot.store import Database, open_database
    from bot.store import activity as store

    db = await (Database.open(tmp_path / "r.db") if backend == "sqlite"
                else open_database(request.getfixturevalue("pg_url")))
    try:
        svc = GameService(db)
        guild, channel, thread = 7, 100, 555
        one = (await svc.games.open_lobby(guild_id=guild, channel_id=channel, host_id=1, host_name="a",
                                          variant="gin")).game
        two = (await svc.games.open_lobby(guild_id=guild, channel_id=channel, host_id=2, host_name="b",
                                          variant="gin", threaded=True)).game
        await svc.threads.set_thread(two.id, thread)
        elsewhere = (await svc.games.open_lobby(guild_id=8, channel_id=channel + 1, host_id=3, host_name="c",
                                                variant="gin")).game
        assert [r.id for r in await store.place_channel_games(db, guild, channel)] == [one.id, two.id]
        assert [r.id for r in await store.place_channel_games(db, guild, thread)] == [two.id]
        assert await store.place_channel_games(db, 8, channel) == []
        ids = [one.id, two.id, elsewhere.id, 10_000, *range(20_000, 21_200)]  # more than one chunk
        got = await store.versions(db, ids)
        assert got == {r.id: r.version for r in [await svc.core.row(g.id) for g in (one, two, elsewhere)]}
        await svc.games.cancel(one.id, 1)
        assert [r.id for r in await store.place_channel_games(db, guild, channel)] == [two.id]
    finally:
        await db.close()
