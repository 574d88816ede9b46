"""The Activity in real headless Chromium (issue 38, "Done when"), through the fake Discord's client
frame and its ``discordsays.com`` proxy, against the real bot process serving the Activity.

Each test boots the bot with ``RUMMY_ACTIVITY_PORT``, opens the game's Activity for each player
(``fake.launch_activity`` with the *Open the table* custom_id) and drives the page as people do:
buttons, two taps, mouse drags on a 1280x800 page and finger drags on a 390x844 phone (real touch
input, ``tests/e2e/activity_page.py``). It waits for the contract's hooks (``data-version``,
``data-state``, ``data-turn``, ``data-action``, ``role=alert``), never for time, and reads the
database read-only to know what the engine committed.

What a user would notice if these failed: a drag that does nothing, a deal that cannot be
finished in the Activity, a rearrangement that cannot be played, a spectator who can read a hand
in the page's frames, a chat move the page never shows (or the reverse), a forged frame that moves
someone else's cards, or a page that stays dead after the bot restarts.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import re
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.engine import load_game
from bot.engine.cards import card_code
from tests.browser import chromium
from tests.e2e.activity_page import ActivityBot, TablePage, frames_text
from tests.e2e.helpers import Table, custom_ids, scan_for_leaks, table_turn_current
from tests.fakediscord import FakeDiscord

pytestmark = pytest.mark.e2e

STATIC = Path(__file__).resolve().parents[2] / "activity" / "static"


@pytest.fixture
async def served(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[ActivityBot]:
    users = [fake.add_user(n, locale=loc) for n, loc in
             [("Ana", "es-ES"), ("Bea", "en-US"), ("Carlos", "es-ES"), ("Dani", "en-US")]]
    bot = ActivityBot(fake, tmp_path, users)
    await bot.start()
    try:
        yield bot
    finally:
        await bot.stop()
        assert bot.table is not None
        assert "Traceback" not in bot.table.bot.log_text(), bot.table.bot.log_text()[-3000:]
        assert fake.violations == []


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    async with chromium() as b:
        yield b


async def in_sync(table: Table, *pages: TablePage) -> int:
    """Every page shows the committed version (within a second of the commit); that version."""
    version = table.row()["version"]
    for p in pages:
        await p.wait_exact(version, timeout=1.5)
    return int(version)


def lay_out(table: Table, position: str) -> None:
    """Put a prepared position in the game (as tests/e2e/test_taps_rami.py does): a new version,
    which the pages pick up by themselves (the wing reads the versions of its games 4 times a second)."""
    with sqlite3.connect(table.db_path, timeout=10) as conn:
        conn.execute("UPDATE games SET record = ?, version = version + 1 WHERE id = ?",
                     (load_game(position).record(), table.game_id))


# ---------------------------------------------------------------------------------------------- 1
async def play_gin_turn(table: Table, page: TablePage, seat: str, style: str) -> None:
    """One turn of ``seat`` in its page: the upcard's pass, a draw (by ``style``: a drag of the
    stock onto the hand, or two taps), then the engine's best discard or knock, by a drag onto the
    pile (or onto the Knock button) or by two taps."""
    game = table.game()
    before = await in_sync(table, page)
    actions = await page.actions()  # of the version the page shows now
    if "pass" in actions and "draw" not in actions:  # the upcard's offer: pass it
        await page.press("pass")
        await page.wait_version(before + 1)
        return
    if "draw" in actions:
        if style == "drag":
            await page.drag("[data-zone='stock'] [data-src='stock']", "[data-zone='hand']")
        else:
            await page.tap("[data-zone='stock'] [data-src='stock']")
            await page.wait_for("[data-src='stock'][aria-pressed='true']")  # the first tap picks the stock
            await page.tap("[data-zone='hand'] .handbar")
        before = await page.wait_version(before + 1)
        game = table.game()
    if "done" in await page.actions():  # the defender after a knock: no layoff, done
        await page.press("done")
        await page.wait_version(before + 1)
        return
    best = game.legal_moves(seat)[0]  # the engine lists knocks first, then the discards that leave least deadwood
    verb, card = str(best).split()[:2]
    assert verb in ("discard", "knock", "gin"), best
    await page.locator(f"button[data-action='{verb}']").first.wait_for()
    mine = f"[data-zone='hand'] [data-card='{card}']"
    if verb != "discard":
        if style == "drag":
            await page.drag(mine, f"button[data-action='{verb}']")
        else:
            await page.tap(mine)
            await page.wait_for(f"{mine}[aria-pressed='true']")
            await page.press(verb)
    elif style == "drag":
        await page.drag(mine, "[data-zone='discard']")
    else:
        await page.tap(mine)
        await page.wait_for(f"{mine}[aria-pressed='true']")
        await page.tap("[data-zone='discard']")
    await page.wait_version(before + 1)
    assert card not in table.game().hand(seat)


async def test_two_players_one_on_a_phone_play_a_gin_deal_by_drags_and_taps(served: ActivityBot, browser: Any) -> None:
    table = served.table
    assert table is not None
    ana, bea = served.users[:2]
    table.users = [ana, bea]
    await served.lobby("gin", "target=1")
    desk = await TablePage.open(browser, served, served.launch(ana, "desktop"), ana, phone=False, state="lobby")
    phone = await TablePage.open(browser, served, served.launch(bea, "mobile"), bea, phone=True, state="lobby")
    # The lobby in the page: Bea joins on her phone, Ana (the host) starts on her desktop.
    assert "join" in await phone.actions() and "start" in await desk.actions()
    await phone.press("join")
    await desk.wait_version(2)
    await desk.press("start")
    await desk.wait_state("playing")
    await phone.wait_state("playing")
    assert table.row()["status"] == "playing"
    pages = {table.seat_of(ana): desk, table.seat_of(bea): phone}
    styles = itertools.cycle(["drag", "taps", "taps", "drag"])
    used: set[tuple[str, str]] = set()
    loop = asyncio.get_running_loop()
    began = loop.time()
    turns = 0
    for turns in range(80):  # noqa: B007 (the count is printed)
        game = table.game()
        if game.hand_over or table.row()["status"] != "playing":
            break
        seat = game.actors[0]
        page = pages[seat]
        # The other page made the last move: wait until this one shows it, and that it is this seat's turn.
        await page.wait_version(table.row()["version"])
        await page.wait_for(f"[data-seat='{seat}'][data-turn='true']")
        style = next(styles)
        used.add(("phone" if page is phone else "desktop", style))
        try:
            await play_gin_turn(table, page, seat, style)
        except AssertionError as exc:
            ups = [w.text for w in served.fake.activity_proxy.ws_log if w.direction == "up"][-4:]
            raise AssertionError(f"{style} on the {used}: {exc}; last frames up: {ups}") from None
    # The deal is over (a knock, gin, or the wash): both pages show its result.
    game = table.game()
    assert game.hand_over, "the deal did not end in 80 turns"
    for p in (desk, phone):
        await p.locator("[data-result-seat]").first.wait_for(timeout=3000)
    if table.row()["status"] == "finished":
        await desk.wait_state("ended")
        await phone.wait_state("ended")
    print(f"\ngin: {turns} turns in {loop.time() - began:.1f} s, {table.row()['version']} versions")
    assert used >= {("phone", "drag"), ("phone", "taps"), ("desktop", "drag"), ("desktop", "taps")}, used
    scan_for_leaks(served.fake, table.users)


# ---------------------------------------------------------------------------------------------- 2
RAMI = """[Variant "rami"]
[Options "table_manipulation=true rounds_per_game=1"]
[Seats "{a} {b} {c}"]
[Hand "{a}" "9D 2C KH"]
[Hand "{b}" "8D 3D QS"]
[Hand "{c}" "QC"]
[Table "{a}: 4S 4H 4C 4D | {b}: 5D 6D 7D | {c}: 9C TC JC"]
[Opened "{a} {b} {c}"]
[Stock "2D 7H 5H 8S 9S JD AS 3S 5C 7C 8H KC KS"]
[Discard "2S"]
[Turn "{a}"]
[Phase "draw"]
"""


def rami_position(a: str, b: str, c: str) -> str:
    """``RAMI`` for these seats, the cards it leaves out put at the bottom of the stock (the
    layout would pile them on the discard)."""
    text = RAMI.format(a=a, b=b, c=c)
    rest = load_game(text).discard_pile[:-1]  # every card but the 2♠ on top
    stock = "2D 7H 5H 8S 9S JD AS 3S 5C 7C 8H KC KS"
    return text.replace(f'[Stock "{stock}"]', f'[Stock "{stock} {" ".join(rest)}"]')


async def three_at_a_rami_table(served: ActivityBot, browser: Any) -> tuple[Table, list[TablePage]]:
    """Ana (desktop), Bea (phone) and Carlos (desktop) at a started Rami game with table
    manipulation, laid out where everyone has opened: a rearrangement is there to be made (a
    random deal rarely offers one within a short test)."""
    table = served.table
    assert table is not None
    table.users = served.users[:3]
    await table.open("rami", "table_manipulation=true rounds_per_game=1")
    a, b, c = (table.seat_of(u) for u in table.users)
    lay_out(table, rami_position(a, b, c))
    pages = [await TablePage.open(browser, served, served.launch(u, "mobile" if phone else "desktop"), u, phone=phone)
             for u, phone in zip(table.users, (False, True, False), strict=True)]
    await in_sync(table, *pages)
    return table, pages


async def test_three_play_a_rami_deal_with_a_rearrangement_made_by_dragging(served: ActivityBot, browser: Any) -> None:
    table, (ana, bea, carlos) = await three_at_a_rami_table(served, browser)
    a, b, c = (table.seat_of(u) for u in table.users)
    # Ana draws by dragging the stock onto her hand.
    version = await in_sync(table, ana, bea, carlos)
    await ana.drag("[data-src='stock']", "[data-zone='hand']")
    version = await ana.wait_version(version + 1)
    # The draft table: she drags 4♦ out of the four 4s onto 5♦6♦7♦; both melds stay valid, and the
    # engine says so before she confirms; the draft is played as one `table` move.
    await ana.press("table")
    await ana.wait_for("[data-zone='table'] [data-src^='draft:']")
    await ana.drag("[data-meld='1'] [data-card='4D']", "[data-meld='2']")
    await ana.wait_for("[data-meld='2'] [data-card='4D']")
    await ana.wait_for("[data-zone='table'] p.ok[role='status']")  # the engine's check: a valid table
    assert await ana.locator("[data-meld='1'] [data-card]").count() == 3
    await ana.press("confirm")
    version = await ana.wait_version(version + 1)
    assert [sorted(m) for m in table.game().table] == [["4C", "4H", "4S"], ["4D", "5D", "6D", "7D"], ["9C", "JC", "TC"]]
    assert table.query("SELECT move FROM actions WHERE game_id = ? ORDER BY id DESC LIMIT 1",
                       (table.game_id,))[0]["move"].startswith("table ")
    for p in (bea, carlos):  # the others see the new table at once
        await p.wait_exact(version, timeout=1.5)
        await p.wait_for("[data-meld='2'] [data-card='4D']")
    await ana.drag("[data-zone='hand'] [data-card='KH']", "[data-zone='discard']")
    version = await ana.wait_version(version + 1)
    # Bea, on her phone: draws by two taps, lays 8♦ off on meld 2 by a finger drag, discards by taps.
    await in_sync(table, bea)
    await bea.tap("[data-src='stock']")
    await bea.wait_for("[data-src='stock'][aria-pressed='true']")
    await bea.tap("[data-zone='hand'] .handbar")
    version = await bea.wait_version(version + 1)
    await bea.drag("[data-zone='hand'] [data-card='8D']", "[data-meld='2']")
    version = await bea.wait_version(version + 1)
    assert "8D" in table.game().table[1]
    await bea.tap("[data-zone='hand'] [data-card='QS']")
    await bea.wait_for("[data-zone='hand'] [data-card='QS'][aria-pressed='true']")
    await bea.tap("[data-zone='discard']")
    version = await bea.wait_version(version + 1)
    # Carlos draws, lays Q♣ off on 9♣10♣J♣ and goes out with his last card: the deal and the game end.
    await in_sync(table, carlos)
    await carlos.drag("[data-src='stock']", "[data-zone='hand']")
    version = await carlos.wait_version(version + 1)
    await carlos.drag("[data-zone='hand'] [data-card='QC']", "[data-meld='3']")
    version = await carlos.wait_version(version + 1)
    (last,) = await carlos.hand()
    await carlos.drag(f"[data-zone='hand'] [data-card='{last}']", "[data-zone='discard']")
    for p in (ana, bea, carlos):
        await p.wait_state("ended")
        await p.locator(f"[data-result-seat='{c}'].winner").wait_for()
    assert table.row()["status"] == "finished" and table.game().result.winner == c
    assert a != b != c
    scan_for_leaks(served.fake, table.users)


# ---------------------------------------------------------------------------------------------- 3
def shown_as(card: str) -> list[str]:
    """A card as a frame could carry it: its code, and its face as the move texts write it (10♥)."""
    suits = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    if card == "JK":
        return ["JK"]
    rank = "10" if card[0] == "T" else card[0]
    return [card, f"{rank}{suits[card[1]]}"]


def secrets_in(text: str, hidden: set[str]) -> list[str]:
    found = []
    for card in hidden:
        for form in shown_as(card):
            if re.search(rf"(?<![A-Za-z0-9]){re.escape(form)}(?![A-Za-z0-9])", text):
                found.append(form)
    return found


def hidden_cards(table: Table) -> set[str]:
    """Every card of every hand and of the stock, from the committed record."""
    game = table.game()
    out = {card_code(c) for c in game.stock}
    for seat in game.seats:
        out.update(game.hand(seat))
    return out


def static_file(path: str) -> bytes | None:
    """The shipped file a proxied GET of ``path`` answers with (the page, its assets), if any."""
    rel = path.split("?")[0].removeprefix("/.proxy").lstrip("/") or "index.html"
    file = STATIC / rel
    return file.read_bytes() if file.is_file() else None


async def test_a_spectators_page_and_frames_never_hold_a_hidden_card(served: ActivityBot, browser: Any) -> None:
    table = served.table
    assert table is not None
    ana, bea, _carlos, dani = served.users
    table.users = [ana, bea]
    await table.open("gin", "target=1")
    # Dani is in the instance, with no seat: the only page, so every frame through the proxy is his.
    spectator = await TablePage.open(browser, served, served.launch(dani, "desktop"), dani, phone=False)
    assert await spectator.locator("[data-zone='hand'] [data-card]").count() == 0
    checked_frames = 0
    for step in range(8):
        version = await in_sync(table, spectator)
        hidden = hidden_cards(table)
        assert len(hidden) == 52 - len(table.game().discard_pile)
        # The DOM: no hidden card, by hook, by label or by text.
        shown = await spectator.cards_shown()
        assert not set(shown) & hidden, (step, set(shown) & hidden)
        assert not secrets_in(await spectator.html(), hidden), step
        # Every frame down since the last step was sent at a version no later than this one, when
        # each of these cards was already hidden (nobody takes the discard in this test).
        for text in frames_text(served.fake)[checked_frames:]:
            assert not secrets_in(text, hidden), (step, text[:300])
        checked_frames = len(frames_text(served.fake))
        # The players move in chat: the upcard passed twice, then draws from the stock and discards.
        game = table.game()
        seat = game.actors[0]
        user = table.user_of(seat)
        legal = [str(m) for m in game.legal_moves(seat)]
        discards = [m for m in legal if m.startswith("discard")]
        move = "pass" if "pass" in legal else "draw" if "draw" in legal else discards[0]
        await table.play(user, move)
        await table.wait_until(lambda v=version: table.row()["version"] > v)
    # Every HTTP answer through the proxy is a shipped file (the same for everyone) or holds no secret.
    for answer in served.fake.activity_proxy.http_log:
        if answer.status == 101:
            continue
        if static_file(answer.path) == answer.body or answer.path.split("?")[0] in ("/", "/.proxy/"):
            continue
        assert not secrets_in(answer.body.decode("utf-8", "replace"), hidden_cards(table)), answer.path
    downs = [json.loads(w.text) for w in served.fake.activity_proxy.ws_log if w.direction == "down"]
    assert any(f.get("op") == "state" for f in downs)


# ---------------------------------------------------------------------------------------------- 4
async def test_chat_moves_show_in_the_page_within_a_second_and_page_moves_on_the_chat_table(
        served: ActivityBot, browser: Any) -> None:
    table = served.table
    assert table is not None
    ana, bea = served.users[:2]
    table.users = [ana, bea]
    await table.open("gin", "target=1")
    page = await TablePage.open(browser, served, served.launch(ana, "desktop"), ana, phone=False)
    loop = asyncio.get_running_loop()
    lags: list[float] = []
    while True:  # chat moves (slash commands and the table's buttons) until it is Ana's turn to draw
        game = table.game()
        seat = game.actors[0]
        legal = [str(m) for m in game.legal_moves(seat)]
        version = await in_sync(table, page)
        if seat == table.seat_of(ana) and "draw" in legal:
            break
        user = table.user_of(seat)
        began = loop.time()
        if "pass" in legal:
            sent = await served.fake.click(user, table.table_message(), f"rummy:pass:{table.game_id}:{version}")
        elif "draw" in legal:
            sent = await served.fake.click(user, table.table_message(), f"rummy:draw:{table.game_id}:{version}")
        else:
            sent = await served.fake.slash(user, "rummy play", {"move": game.legal_moves(seat)[0]}, channel=table.place)
        await page.wait_version(version + 1, timeout=3)
        lags.append(loop.time() - began)
        await sent.settled(timeout=15)
    assert lags and max(lags) < 1.0, lags  # from the chat's click or command to the page: under a second
    # Ana draws and discards in the page: the chat's table shows each move (its buttons carry the version).
    for act in ("draw", "discard"):
        version = await in_sync(table, page)
        before = table.table_message()
        shown = (before.id, before.content, tuple(custom_ids(before)))
        began = loop.time()
        if act == "draw":
            await page.drag("[data-src='stock']", "[data-zone='hand']")
        else:
            card = str(table.game().legal_moves(table.seat_of(ana))[0]).split()[1]
            await page.drag(f"[data-zone='hand'] [data-card='{card}']", "[data-zone='discard']")
        await page.wait_version(version + 1)

        def current(m: Any, v: int = version + 1, act: str = act, shown: Any = shown) -> bool:
            ids = custom_ids(m)
            turn = [c for c in ids if c.startswith(("rummy:draw:", "rummy:take:", "rummy:pass:"))]
            return (table.is_table(m) and not m.deleted and (m.id, m.content, tuple(ids)) != shown
                    and table_turn_current(ids, table.game_id, v, False) and (act == "draw") != bool(turn))

        try:  # the chat's table: edited (or posted anew) with the move; Bea's turn buttons after the discard
            await served.fake.wait_for_message(current, timeout=10)
        except TimeoutError:
            m = table.table_message()
            raise AssertionError(f"{act} {version}: {custom_ids(m)} {m.content!r} edits {len(m.edits)}") from None
        print(f"\nthe page's {act} on the chat table after {loop.time() - began:.2f} s")
    print(f"chat moves in the page after {', '.join(f'{x:.2f}' for x in lags)} s")
    scan_for_leaks(served.fake, table.users)


# ---------------------------------------------------------------------------------------------- 5
FORGER = """async ([frames]) => {
  // A second socket from the page's own context, with the page's own session: what a user who
  // opens the console could send. Each frame waits for its answer (or 1.5 s of silence).
  const url = new URL("ws", location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.search = "";
  const ws = new WebSocket(url.toString());
  const got = [];
  let wake = null;
  ws.onmessage = (e) => { got.push(String(e.data)); if (wake) { wake(); wake = null; } };
  await new Promise((ok, ko) => { ws.onopen = ok; ws.onerror = ko; });
  const answers = [];
  for (const f of frames) {
    const before = got.length;
    ws.send(f.text);
    for (let i = 0; i < f.answers; i++) {
      if (got.length < before + i + 1) {
        await Promise.race([new Promise((ok) => { wake = ok; }), new Promise((ok) => setTimeout(ok, 1500))]);
      }
    }
    answers.push(got.slice(before));
  }
  ws.close();
  return answers;
}"""


async def test_forged_socket_messages_change_nothing(served: ActivityBot, browser: Any) -> None:
    table = served.table
    assert table is not None
    ana, bea = served.users[:2]
    table.users = [ana, bea]
    await table.open("gin", "target=1")
    page = await TablePage.open(browser, served, served.launch(ana, "desktop"), ana, phone=False)
    version = await in_sync(table, page)
    # Ana to move or not, one of the two is waiting: her socket plays for her seat only.
    waiting = table.user_of(table.game().actors[0]) is not ana
    record = table.row()["record"]
    session = await page.session()
    assert session and session != "None"
    move = "pass"  # legal for whoever is offered the upcard now
    forged_session = session[:-4] + ("AAAA" if not session.endswith("AAAA") else "BBBB")

    def frame(obj: Any, answers: int = 1) -> dict[str, Any]:
        return {"text": obj if isinstance(obj, str) else json.dumps(obj), "answers": answers}

    frames = [
        frame({"op": "hello", "session": session, "custom_id": f"rummy:activity:{table.game_id}"}, answers=2),
        # a stale version
        frame({"op": "move", "id": "stale", "move": move, "version": version - 1}, answers=2),
        # a move for another seat: there is no seat to name; the fields are ignored, the seat is Ana's
        frame({"op": "move", "id": "seat", "move": move if waiting else "draw", "version": version,
               "seat": table.seat_of(bea), "user": str(bea.id)}),
        # garbage
        frame("not json at all"),
        frame({"op": "move", "id": "nomove", "version": version}),
        frame({"op": "move", "id": "big", "move": "discard " * 400, "version": version}),
        frame({"op": "teleport", "id": "op"}),
        frame({"op": "lobby", "id": "lobby", "action": "start"}),
        # another game: not one of this channel's
        frame({"op": "choose", "id": "other", "game": table.game_id + 1000}),
        frame({"op": "next_deal", "id": "deal", "version": version}),
    ]
    answers = await page.frame.evaluate(FORGER, [frames])
    said = [[json.loads(a) for a in group] for group in answers]
    assert [f["op"] for f in said[0]] == ["welcome", "state"], said[0]
    refused = [next((f for f in group if f["op"] == "refused"), None) for group in said[1:]]
    assert all(r is not None for r in refused), said
    codes = [r["code"] for r in refused if r is not None]
    assert codes[0] == "stale" and codes[2:6] == ["bad_frame"] * 4 and codes[7] == "not_a_choice", codes
    print("\nforged frames refused with", codes)
    assert table.row()["version"] == version and table.row()["record"] == record
    # A forged session is refused before anything is read; the page itself is still fine.
    bad = await page.frame.evaluate(FORGER, [[frame({"op": "hello", "session": forged_session, "custom_id": None})]])
    assert [json.loads(a)["op"] for a in bad[0]] == ["error"], bad
    assert table.row()["version"] == version and table.row()["record"] == record
    await page.wait_exact(version)
    assert (await page.root())["conn"] == "open"


# ---------------------------------------------------------------------------------------------- 6
async def test_after_a_bot_restart_the_pages_reconnect_and_play_on(served: ActivityBot, browser: Any) -> None:
    table = served.table
    assert table is not None
    ana, bea = served.users[:2]
    table.users = [ana, bea]
    await table.open("gin", "target=1")
    desk = await TablePage.open(browser, served, served.launch(ana, "desktop"), ana, phone=False)
    phone = await TablePage.open(browser, served, served.launch(bea, "mobile"), bea, phone=True)
    pages = {table.seat_of(ana): desk, table.seat_of(bea): phone}
    seat = table.game().actors[0]
    await play_gin_turn(table, pages[seat], seat, "taps")  # a move before the restart
    before = await in_sync(table, desk, phone)
    await served.restart()
    # The pages saw their sockets close, and reconnect by themselves (the page's backoff): the
    # restart's recovery is a new version of its own, which they show.
    for p in (desk, phone):
        await p.wait_for("#app[data-conn='open']", timeout=15)
        await p.wait_version(before + 1, timeout=15)
    assert served.boots == 2
    version = await in_sync(table, desk, phone)
    seat = table.game().actors[0]
    await play_gin_turn(table, pages[seat], seat, "drag")  # and a move after it works
    assert table.row()["version"] > version
    await in_sync(table, desk, phone)


# ---------------------------------------------------------------------------------------------- the gallery
GALLERY = Path(__file__).resolve().parents[2] / "docs" / "images"


async def test_gallery_screenshots(served: ActivityBot, browser: Any, tmp_path: Path) -> None:
    """A gin table, a Rami table mid-rearrangement (the draft open, 4♦ moved) and a Dummy table, at
    390x844 and 1280x800, each showing the viewer's hand and the seats: into docs/images as
    activity-<variant>-<w>x<h>.png with RUMMY_GALLERY=1, else into a temporary folder (so the
    Dummy table, played in no other browser test, is drawn on every run)."""
    gallery = GALLERY if os.environ.get("RUMMY_GALLERY") == "1" else tmp_path
    table = served.table
    assert table is not None
    ana = served.users[0]

    async def both(instance: Any) -> list[TablePage]:
        return [await TablePage.open(browser, served, instance, ana, phone=False),
                await TablePage.open(browser, served, instance, ana, phone=True)]

    async def shoot(variant: str, pages: list[TablePage]) -> None:
        for p in pages:
            await p.wait_for(f"[data-variant='{variant}'][data-state='playing'] [data-zone='hand'] [data-card]")
            await p.wait_for("[data-seat][data-turn='true']")
            size = p.page.viewport_size
            shot = gallery / f"activity-{variant}-{size['width']}x{size['height']}.png"
            await p.page.screenshot(path=str(shot))
            assert shot.stat().st_size > 10_000, shot  # a drawn table, not a blank page
            await p.close()

    async def chat_turns(n: int) -> None:
        for _ in range(n):
            game = table.game()
            seat = game.actors[0]
            legal = game.legal_moves(seat)
            pick = next((m for verb in ("meld", "layoff", "pass", "draw", "discard") for m in legal
                         if str(m).split()[0] == verb), legal[0])
            await table.play(table.user_of(seat), str(pick))

    # Gin: a few turns in, Ana's turn to discard.
    table.users = served.users[:2]
    await table.open("gin")
    await chat_turns(6)
    if table.user_of(table.game().actors[0]) is not ana:
        await chat_turns(2)
    instance = served.launch(ana, "desktop")
    pages = await both(instance)
    await shoot("gin", pages)
    # Rami, mid-rearrangement: the draft table open with 4♦ dragged onto 5♦6♦7♦.
    served.fake.activities.instances.clear()
    table.users = served.users[:3]
    await table.open("rami", "table_manipulation=true rounds_per_game=1")
    a, b, c = (table.seat_of(u) for u in table.users)
    lay_out(table, rami_position(a, b, c).replace('[Phase "draw"]', '[Phase "play"]'))
    pages = await both(served.launch(ana, "desktop"))
    for p in pages:
        await in_sync(table, p)
        await p.press("table")
        await p.drag("[data-meld='1'] [data-card='4D']", "[data-meld='2']")
        await p.wait_for("[data-meld='2'] [data-card='4D']")
        await p.wait_for("[data-zone='table'] p.ok[role='status']")
    await shoot("rami", pages)
    # Dummy: a few turns in.
    served.fake.activities.instances.clear()
    table.users = served.users[:3]
    await table.open("dummy")
    await chat_turns(5)
    pages = await both(served.launch(ana, "desktop"))
    await shoot("dummy", pages)
