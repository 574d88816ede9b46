// The page: login through Discord's Embedded App SDK, the socket, and the wiring of clicks, keys
// and drags to the Model (docs/activity.md, "The page's protocol").
import { DiscordSDK } from "@discord/embedded-app-sdk";
import { installDrag } from "./drag.js";
import { Model, sourceOf, targetOf } from "./model.js";
import { backoff, exchange, HttpError, sessionKey, socketUrl } from "./net.js";
import type { ServerFrame } from "./protocol.js";
import { View } from "./render.js";

const root = document.getElementById("app")!;
const model = new Model();
const view = new View(root, model);
model.locale = navigator.language;

let sdk: DiscordSDK | null = null;
let socket: WebSocket | null = null;
let attempts = 0;
let reconnectTimer: ReturnType<typeof setTimeout> | null = null;
let draftTimer: ReturnType<typeof setTimeout> | null = null;
let dragging = false;
let dirty = false;
let loggingIn = false;

function session(): string | null {
  if (!sdk) return null;
  try {
    return sessionStorage.getItem(sessionKey(sdk.instanceId));
  } catch {
    return null;
  }
}

function storeSession(value: string | null): void {
  if (!sdk) return;
  try {
    if (value === null) sessionStorage.removeItem(sessionKey(sdk.instanceId));
    else sessionStorage.setItem(sessionKey(sdk.instanceId), value);
  } catch {
    /* storage may be off: the session then lives in memory only */
  }
  memorySession = value;
}
let memorySession: string | null = null;

/** After every change: send what the model queued, redraw (not mid-drag), schedule the draft's check. */
function update(): void {
  flush();
  if (model.relogin) {
    model.relogin = false;
    storeSession(null);
    socket?.close();
    void login();
  }
  const d = model.draft;
  if (d && d.checkedSeq !== d.seq && d.seq > 0 && !d.confirming) {
    if (draftTimer) clearTimeout(draftTimer);
    draftTimer = setTimeout(() => {
      draftTimer = null;
      model.checkDraft();
      update();
    }, 350);
  }
  if (dragging) dirty = true;
  else view.render();
}

function flush(): void {
  const frames = model.takeOutbox();
  if (!frames.length) return;
  if (socket && socket.readyState === WebSocket.OPEN) {
    for (const f of frames) socket.send(JSON.stringify(f));
  }
}

function fail(key: "activity.page.outside_discord" | "activity.page.not_configured" | "activity.page.login_failed", reason = ""): void {
  model.conn = "failed";
  model.problem = { key, params: { reason } };
  update();
}

async function login(): Promise<void> {
  if (!sdk || loggingIn) return;
  loggingIn = true;
  model.conn = "login";
  try {
    const { code } = await sdk.commands.authorize({
      client_id: sdk.clientId,
      response_type: "code",
      state: "",
      prompt: "none",
      scope: ["identify"],
    });
    const answer = await exchange(code, sdk.instanceId);
    if (answer.locale) model.locale = answer.locale;
    if (answer.user) model.user = answer.user;
    await sdk.commands.authenticate({ access_token: answer.access_token });
    storeSession(answer.session);
    loggingIn = false;
    connect();
  } catch (e) {
    loggingIn = false;
    const reason = e instanceof HttpError ? `${e.status} ${e.message}` : e instanceof Error ? e.message : String(e);
    fail("activity.page.login_failed", reason);
  }
}

function connect(): void {
  const s = session() ?? memorySession;
  if (!s) {
    void login();
    return;
  }
  if (reconnectTimer) clearTimeout(reconnectTimer);
  reconnectTimer = null;
  if (model.conn !== "reconnecting") model.conn = "connecting";
  const ws = new WebSocket(socketUrl(location.href));
  socket = ws;
  ws.addEventListener("open", () => {
    model.hello(s, sdk?.customId ?? null);
    update();
  });
  ws.addEventListener("message", (ev) => {
    let frame: ServerFrame;
    try {
      frame = JSON.parse(String(ev.data)) as ServerFrame;
    } catch {
      return;
    }
    if (frame.op === "welcome") attempts = 0;
    model.receive(frame);
    update();
  });
  ws.addEventListener("close", () => {
    if (socket !== ws) return;
    socket = null;
    model.pending.clear();
    if (model.conn === "failed" || loggingIn) {
      update();
      return;
    }
    attempts++;
    model.conn = "reconnecting";
    update();
    reconnectTimer = setTimeout(connect, backoff(attempts) * 1000);
  });
}

// ---- clicks, keys and drags ----------------------------------------------------------------------

function control(el: HTMLElement): void {
  const action = el.getAttribute("data-action");
  const ctl = el.getAttribute("data-control");
  const g = model.game;
  if (ctl) {
    switch (ctl) {
      case "retry":
        model.problem = null;
        if (sdk) {
          storeSession(null);
          void login();
        } else location.reload();
        break;
      case "sort-suit":
        model.sortBy("suit");
        break;
      case "sort-rank":
        model.sortBy("rank");
        break;
      case "group":
        model.addGroup();
        break;
      case "clear":
        model.clearBuilder();
        break;
      case "cancel":
        model.cancelDraft();
        break;
    }
    update();
    return;
  }
  if (!action || !g) return;
  switch (action) {
    case "choose":
      model.choose(el.getAttribute("data-game") ?? "");
      break;
    case "join":
    case "leave":
    case "start":
    case "bot":
      model.lobby(action);
      break;
    case "next-deal":
      model.nextDeal();
      break;
    case "hint":
      model.askHint();
      break;
    case "confirm":
      model.confirmDraft();
      break;
    case "undo":
      model.undoDraft();
      break;
    case "table":
      model.startDraft();
      break;
    case "meld": {
      const picked = model.selectedCards();
      if (picked.length) model.apply({ kind: "build-add", cards: picked, group: null });
      model.meldNow();
      break;
    }
    case "take":
      if (model.selection.kind === "discard" && model.selection.deep) model.drop(model.selectionSource(), { kind: "hand", index: null });
      else model.play("take", false);
      break;
    case "discard":
    case "knock":
    case "gin":
    case "claim": {
      const src = model.selectionSource();
      if (src?.kind === "hand" && src.cards.length === 1) model.drop(src, { kind: "action", verb: action });
      else model.refusal = view.w("activity.page.select_card");
      break;
    }
    default:
      model.play(action, false);
  }
  update();
}

function tap(el: HTMLElement): void {
  const src = el.getAttribute("data-src");
  if (src?.startsWith("hand:")) {
    model.tapHandCard(Number(src.split(":")[1]));
  } else if (src) {
    const s = sourceOf(model, src);
    // A face-up card's own place: the pile, its meld, its group.
    const zone = el.parentElement?.closest<HTMLElement>("[data-drop]")?.getAttribute("data-drop") ?? "";
    const t = targetOf(model, zone);
    if (s && t) model.tapTarget(t, s);
    else if (s) model.select(s);
  } else {
    const key = el.getAttribute("data-drop");
    const t = key ? targetOf(model, key) : null;
    if (t) model.tapTarget(t);
  }
  update();
}

root.addEventListener("click", (e) => {
  const t = e.target as HTMLElement;
  if (t.closest("select")) return;
  const button = t.closest<HTMLElement>("button");
  if (button && root.contains(button)) {
    if (!button.hasAttribute("disabled")) control(button);
    return;
  }
  const el = t.closest<HTMLElement>("[data-src], [data-drop]");
  if (el && root.contains(el)) tap(el);
});

root.addEventListener("keydown", (e) => {
  if (e.key !== "Enter" && e.key !== " ") return;
  const t = e.target as HTMLElement;
  if (t.tagName === "BUTTON" || t.tagName === "SELECT") return;
  if (t.hasAttribute("data-src") || t.hasAttribute("data-drop")) {
    e.preventDefault();
    tap(t);
  }
});

root.addEventListener("change", (e) => {
  const t = e.target as HTMLSelectElement;
  const key = t.getAttribute("data-picker");
  if (!key) return;
  const [kind, a, b] = key.split(":");
  const base = t.getAttribute("data-base") ?? "JK";
  const card = t.value ? `${base}=${t.value}` : base;
  if (kind === "draft") model.setDraftCard(Number(a), Number(b), card);
  else if (kind === "builder") model.setBuilderCard(Number(a), Number(b), card);
  update();
});

installDrag(root, {
  drop(src, target) {
    const s = sourceOf(model, src);
    const t = targetOf(model, target);
    if (s && t) model.drop(s, t);
    flush();
  },
  started() {
    dragging = true;
  },
  ended() {
    dragging = false;
    dirty = false;
    update();
  },
});

setInterval(() => view.tick(), 1000);

// ---- start ---------------------------------------------------------------------------------------

async function start(): Promise<void> {
  const clientId = document.querySelector<HTMLMetaElement>('meta[name="rummy-client-id"]')?.content ?? "";
  view.render();
  if (!clientId || clientId.startsWith("__")) {
    fail("activity.page.not_configured");
    return;
  }
  const q = new URLSearchParams(location.search);
  if (!q.get("frame_id") || !q.get("instance_id")) {
    fail("activity.page.outside_discord");
    return;
  }
  try {
    sdk = new DiscordSDK(clientId);
    await sdk.ready();
  } catch (e) {
    fail("activity.page.login_failed", e instanceof Error ? e.message : String(e));
    return;
  }
  if (session()) connect();
  else await login();
}

void start();
