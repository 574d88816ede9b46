import { test } from "node:test";
import assert from "node:assert/strict";
import { backoff, exchange, HttpError, socketUrl } from "../src/net.js";

test("the socket is `ws` beside the page, at / and at /.proxy/", () => {
  assert.equal(socketUrl("http://127.0.0.1:8080/?frame_id=1&instance_id=2"), "ws://127.0.0.1:8080/ws");
  assert.equal(socketUrl("https://123.discordsays.com/.proxy/?frame_id=1"), "wss://123.discordsays.com/.proxy/ws");
  assert.equal(socketUrl("https://x.example/.proxy/index.html#a"), "wss://x.example/.proxy/ws");
});

test("reconnects wait 1 s, 2 s, ... at most 5 s", () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6, 20].map(backoff), [1, 2, 3, 4, 5, 5, 5]);
});

test("the token exchange posts the code and instance to api/token", async () => {
  const calls: [string, RequestInit | undefined][] = [];
  const ok = (async (url: string, init?: RequestInit) => {
    calls.push([url, init]);
    return new Response(JSON.stringify({ access_token: "t", session: "s", user: { id: "1", name: "Ana" }, locale: "es" }), { status: 200 });
  }) as unknown as typeof fetch;
  const answer = await exchange("c0de", "i-1", ok);
  assert.equal(answer.session, "s");
  assert.equal(calls[0]![0], "api/token");
  assert.equal(calls[0]![1]!.method, "POST");
  assert.deepEqual(JSON.parse(String(calls[0]![1]!.body)), { code: "c0de", instance_id: "i-1" });
  const refused = (async () => new Response(JSON.stringify({ error: "invalid_grant" }), { status: 401 })) as unknown as typeof fetch;
  await assert.rejects(exchange("x", "i", refused), (e: unknown) => e instanceof HttpError && e.status === 401 && e.message === "invalid_grant");
});
