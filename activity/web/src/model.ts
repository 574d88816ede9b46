// The page's state and every rule of it that is not DOM: frames in, frames out, the selection,
// the meld being built, the draft table. main.ts owns the socket and timers; render.ts draws this.
import { reconcileOrder, sortCards, without, type SortMode } from "./cards.js";
import * as mv from "./moves.js";
import { normalizeState, type ClientFrame, type GameState, type ServerFrame } from "./protocol.js";
import { resolveDrop, type Intent, type Source, type Target } from "./drop.js";
import type { WordKey } from "./words.js";

export type Scope = "global" | "builder" | "draft";

type Pending =
  | { kind: "check"; move: string; alternatives: string[]; scope: Scope; firstReason: string | null }
  | { kind: "draft-check"; seq: number }
  | { kind: "move"; move: string; scope: Scope }
  | { kind: "other" };

export interface Draft {
  melds: string[][];
  hand: string[];
  history: { melds: string[][]; hand: string[] }[];
  seq: number; // bumped by every change
  checkedSeq: number; // the seq the last answer was for
  ok: boolean | null;
  reason: string | null;
  confirming: boolean;
}

export type Selection = { kind: "none" } | { kind: "hand"; idx: number[] } | { kind: "stock" } | { kind: "discard"; card: string | null; deep: boolean } | { kind: "draft"; meld: number; index: number } | { kind: "builder"; group: number; index: number };

export type Conn = "start" | "login" | "connecting" | "open" | "reconnecting" | "failed";

export class Model {
  conn: Conn = "start";
  problem: { key: WordKey; params: Record<string, string> } | null = null;
  words: Record<string, string> = {};
  locale: string | null = null;
  user: { id: string; name: string } | null = null;
  game: GameState | null = null;
  outbox: ClientFrame[] = [];
  relogin = false;
  nextId = 1;
  pending = new Map<number, Pending>();
  refusal: string | null = null;
  hint: { move: string; text: string } | null = null;
  selection: Selection = { kind: "none" };
  builder: string[][] = [[]];
  builderReason: string | null = null;
  draft: Draft | null = null;
  order: string[] = [];
  sortMode: SortMode | "own" = "suit";

  // ---- frames from the server ------------------------------------------------------------------

  receive(frame: ServerFrame): void {
    switch (frame.op) {
      case "welcome":
        this.words = frame.words ?? {};
        this.locale = frame.locale ?? this.locale;
        this.user = frame.user ?? this.user;
        this.conn = "open";
        this.problem = null;
        return;
      case "state":
        this.setState(normalizeState(frame));
        return;
      case "done": {
        const p = this.pending.get(frame.id);
        this.pending.delete(frame.id);
        if (p?.kind === "move") {
          if (p.scope === "builder") this.builder = [[]];
          if (p.scope === "draft") this.draft = null;
          this.builderReason = null;
          this.refusal = null;
        }
        this.selection = { kind: "none" };
        return;
      }
      case "refused": {
        const p = frame.id === null ? undefined : this.pending.get(frame.id);
        if (frame.id !== null) this.pending.delete(frame.id);
        this.showReason(p?.kind === "move" || p?.kind === "check" ? p.scope : "global", frame.reason);
        if (this.draft) this.draft.confirming = false;
        return;
      }
      case "checked":
        this.onChecked(frame.id, frame.ok, frame.reason);
        return;
      case "hint":
        this.pending.delete(frame.id);
        this.hint = { move: frame.move, text: frame.text };
        return;
      case "error":
        if (frame.code === "session_expired") {
          this.relogin = true;
        } else {
          this.conn = "failed";
          this.problem = { key: "activity.page.session_refused", params: { reason: frame.reason } };
        }
        return;
    }
  }

  private showReason(scope: Scope, reason: string): void {
    if (scope === "builder") this.builderReason = reason;
    else if (scope === "draft" && this.draft) {
      this.draft.ok = false;
      this.draft.reason = reason;
    } else this.refusal = reason;
  }

  setState(s: GameState): void {
    const before = this.game;
    this.game = s;
    const changed = before === null || before.version !== s.version || before.game !== s.game || before.state !== s.state;
    const hand = s.hand ?? [];
    this.order = reconcileOrder(this.order, hand);
    if (changed) {
      this.selection = { kind: "none" };
      this.draft = null;
      this.hint = null;
      this.refusal = null;
      // The meld being built keeps the cards still held.
      let left = [...hand];
      this.builder = this.builder.map((g) =>
        g.filter((c) => {
          const i = left.indexOf(c);
          if (i < 0) return false;
          left = [...left.slice(0, i), ...left.slice(i + 1)];
          return true;
        }),
      );
      if (!s.verbs.includes("meld")) this.builder = [[]];
      if (this.builder.length === 0) this.builder = [[]];
      this.builderReason = null;
    }
  }

  private onChecked(id: number, ok: boolean, reason: string | null): void {
    const p = this.pending.get(id);
    this.pending.delete(id);
    if (!p) return;
    if (p.kind === "draft-check") {
      const d = this.draft;
      if (!d || p.seq !== d.seq) return; // an answer for a table that has changed since
      d.checkedSeq = p.seq;
      d.ok = ok;
      d.reason = ok ? null : reason;
      if (ok && d.confirming) this.sendMove(mv.table(d.melds), "draft");
      else d.confirming = false;
      return;
    }
    if (p.kind !== "check") return;
    if (ok) {
      this.sendMove(p.move, p.scope);
      return;
    }
    const first = p.firstReason ?? reason ?? "";
    const [next, ...rest] = p.alternatives;
    if (next !== undefined) {
      this.sendCheck(next, rest, p.scope, first);
      return;
    }
    this.showReason(p.scope, first);
  }

  // ---- frames to the server --------------------------------------------------------------------

  private id(): number {
    return this.nextId++;
  }

  hello(session: string, customId: string | null): void {
    this.outbox.push({ op: "hello", session, custom_id: customId });
  }

  sendMove(move: string, scope: Scope = "global"): void {
    if (!this.game) return;
    const id = this.id();
    this.pending.set(id, { kind: "move", move, scope });
    this.outbox.push({ op: "move", id, move, version: this.game.version });
  }

  sendCheck(move: string, alternatives: string[], scope: Scope, firstReason: string | null = null): void {
    const id = this.id();
    this.pending.set(id, { kind: "check", move, alternatives, scope, firstReason });
    this.outbox.push({ op: "check", id, move });
  }

  /** Play a move; melds and layoffs are checked first and sent only if the check passes. */
  play(move: string, check: boolean, alternatives: string[] = [], scope: Scope = "global"): void {
    this.refusal = null;
    if (check) this.sendCheck(move, alternatives, scope);
    else this.sendMove(move, scope);
  }

  choose(game: number | string): void {
    this.outbox.push({ op: "choose", game });
  }

  lobby(action: "join" | "leave" | "start" | "bot"): void {
    const id = this.id();
    this.pending.set(id, { kind: "other" });
    this.outbox.push({ op: "lobby", id, action });
  }

  nextDeal(): void {
    if (!this.game) return;
    const id = this.id();
    this.pending.set(id, { kind: "other" });
    this.outbox.push({ op: "next_deal", id, version: this.game.version });
  }

  askHint(): void {
    const id = this.id();
    this.pending.set(id, { kind: "other" });
    this.outbox.push({ op: "hint", id });
  }

  takeOutbox(): ClientFrame[] {
    const out = this.outbox;
    this.outbox = [];
    return out;
  }

  // ---- the hand --------------------------------------------------------------------------------

  get verbs(): readonly string[] {
    return this.game?.verbs ?? [];
  }

  /** The hand as shown: in the player's order, less the cards in the meld being built (or the draft). */
  handView(): string[] {
    const hand = this.game?.hand ?? [];
    const ordered = this.sortMode === "own" ? reconcileOrder(this.order, hand) : sortCards(hand, this.sortMode);
    if (this.draft) return reconcileOrder(ordered, this.draft.hand);
    return without(ordered, this.builder.flat());
  }

  sortBy(mode: SortMode): void {
    this.order = sortCards(this.game?.hand ?? [], mode);
    this.sortMode = mode;
    this.selection = { kind: "none" };
  }

  selectedCards(): string[] {
    const hand = this.handView();
    return this.selection.kind === "hand" ? this.selection.idx.map((i) => hand[i]!).filter((c) => c !== undefined) : [];
  }

  // ---- taps ------------------------------------------------------------------------------------

  /** The source a selection stands for, as a drag of it would be. */
  selectionSource(): Source | null {
    const s = this.selection;
    switch (s.kind) {
      case "hand": {
        const cards = this.selectedCards();
        return cards.length ? { kind: "hand", cards, index: s.idx[0]! } : null;
      }
      case "stock":
        return { kind: "stock" };
      case "discard":
        return { kind: "discard", card: s.card, deep: s.deep };
      case "draft": {
        const card = this.draft?.melds[s.meld]?.[s.index];
        return card ? { kind: "draft", meld: s.meld, index: s.index, card } : null;
      }
      case "builder": {
        const card = this.builder[s.group]?.[s.index];
        return card ? { kind: "builder", group: s.group, index: s.index, card } : null;
      }
      case "none":
        return null;
    }
  }

  /** A hand card tapped (or Enter/Space on it). */
  tapHandCard(index: number): void {
    const s = this.selection;
    if (s.kind === "stock" || s.kind === "discard" || s.kind === "draft" || s.kind === "builder") {
      this.drop(this.selectionSource(), { kind: "hand", index: null });
      return;
    }
    const idx = s.kind === "hand" ? [...s.idx] : [];
    const at = idx.indexOf(index);
    if (at >= 0) idx.splice(at, 1);
    else idx.push(index);
    this.selection = idx.length ? { kind: "hand", idx } : { kind: "none" };
  }

  /** A zone, meld or a face-up card tapped: the second tap of a move, or the first of a draw/take. */
  tapTarget(target: Target, asSource?: Source): void {
    const src = this.selectionSource();
    if (src === null) {
      if (asSource) this.select(asSource);
      return;
    }
    if (asSource && sameSource(src, asSource)) {
      this.selection = { kind: "none" };
      return;
    }
    const intent = this.drop(src, target);
    if (intent.kind === "none") {
      if (asSource) this.select(asSource);
      else this.selection = { kind: "none" };
    }
  }

  select(src: Source): void {
    switch (src.kind) {
      case "stock":
        this.selection = { kind: "stock" };
        return;
      case "discard":
        this.selection = { kind: "discard", card: src.card, deep: src.deep };
        return;
      case "draft":
        this.selection = { kind: "draft", meld: src.meld, index: src.index };
        return;
      case "builder":
        this.selection = { kind: "builder", group: src.group, index: src.index };
        return;
      case "hand":
        return;
    }
  }

  /** Carry out what dropping `src` on `target` means (drag, second tap or keyboard). */
  drop(src: Source | null, target: Target): Intent {
    if (src === null) return { kind: "none" };
    const intent = resolveDrop(src, target, { verbs: this.verbs, drafting: this.draft !== null });
    this.apply(intent);
    return intent;
  }

  apply(intent: Intent): void {
    switch (intent.kind) {
      case "none":
        return;
      case "move":
        this.selection = { kind: "none" };
        this.play(intent.move, intent.check, intent.alternatives);
        return;
      case "build-add": {
        let g = intent.group ?? this.builder.length - 1;
        if (g < 0 || g >= this.builder.length) g = this.builder.length - 1;
        this.builder[g]!.push(...intent.cards);
        this.builderReason = null;
        this.selection = { kind: "none" };
        return;
      }
      case "build-remove": {
        const group = this.builder[intent.group];
        if (!group) return;
        const [card] = group.splice(intent.index, 1);
        if (card !== undefined && intent.to !== null) this.builder[intent.to]?.push(card);
        this.builderReason = null;
        this.selection = { kind: "none" };
        return;
      }
      case "reorder": {
        const hand = this.handView();
        const before = intent.before === null ? null : hand[intent.before] ?? null;
        const rest = without(hand, intent.cards);
        let at = before === null ? rest.length : rest.indexOf(before);
        if (at < 0) at = rest.length;
        const shown = [...rest.slice(0, at), ...intent.cards, ...rest.slice(at)];
        const hidden = without(this.game?.hand ?? [], shown);
        this.order = [...shown, ...hidden];
        this.sortMode = "own";
        this.selection = { kind: "none" };
        return;
      }
      case "draft-move":
        this.draftMove(intent.from, intent.to);
        this.selection = { kind: "none" };
        return;
    }
  }

  // ---- the meld being built --------------------------------------------------------------------

  addGroup(): void {
    if (this.builder[this.builder.length - 1]!.length > 0) this.builder.push([]);
  }

  clearBuilder(): void {
    this.builder = [[]];
    this.builderReason = null;
  }

  setBuilderCard(group: number, index: number, card: string): void {
    const g = this.builder[group];
    if (g && g[index] !== undefined) {
      g[index] = card;
      this.builderReason = null;
    }
  }

  builderMove(): string | null {
    const groups = this.builder.filter((g) => g.length > 0);
    return groups.length ? mv.meld(groups) : null;
  }

  /** The meld button: check the meld, then play it. */
  meldNow(): void {
    const move = this.builderMove();
    if (move === null) return;
    this.builderReason = null;
    this.play(move, true, [], "builder");
  }

  // ---- the draft table (rearranging) -----------------------------------------------------------

  startDraft(): void {
    if (!this.game) return;
    this.draft = {
      melds: this.game.table.map((m) => [...m.cards]),
      hand: without(this.game.hand ?? [], []),
      history: [],
      seq: 0,
      checkedSeq: -1,
      ok: null,
      reason: null,
      confirming: false,
    };
    this.builder = [[]];
    this.refusal = null;
    this.selection = { kind: "none" };
  }

  cancelDraft(): void {
    this.draft = null;
    this.selection = { kind: "none" };
  }

  private snapshot(d: Draft): void {
    d.history.push({ melds: d.melds.map((m) => [...m]), hand: [...d.hand] });
  }

  private changed(d: Draft): void {
    d.seq++;
    d.ok = null;
    d.reason = null;
    d.confirming = false;
  }

  draftMove(from: { meld: number; index: number } | { hand: string[] }, to: { meld: number } | "new" | "hand"): void {
    const d = this.draft;
    if (!d) return;
    let cards: string[];
    const next = { melds: d.melds.map((m) => [...m]), hand: [...d.hand] };
    if ("hand" in from) {
      cards = from.hand.filter((c) => next.hand.includes(c));
      if (!cards.length || to === "hand") return;
      next.hand = without(next.hand, cards);
    } else {
      const m = next.melds[from.meld];
      const card = m?.[from.index];
      if (!m || card === undefined) return;
      if (to !== "new" && to !== "hand" && to.meld === from.meld) return;
      m.splice(from.index, 1);
      cards = [card];
    }
    if (to === "hand") next.hand.push(...cards.map((c) => c.split("=")[0]!));
    else if (to === "new") next.melds.push(cards);
    else next.melds[to.meld]?.push(...cards);
    this.snapshot(d);
    // Empty melds disappear (the table move names only what is left).
    d.melds = next.melds.filter((m) => m.length > 0);
    d.hand = next.hand;
    this.changed(d);
  }

  setDraftCard(meld: number, index: number, card: string): void {
    const d = this.draft;
    if (!d || d.melds[meld]?.[index] === undefined) return;
    this.snapshot(d);
    d.melds[meld]![index] = card;
    this.changed(d);
  }

  undoDraft(): void {
    const d = this.draft;
    const last = d?.history.pop();
    if (!d || !last) return;
    d.melds = last.melds;
    d.hand = last.hand;
    this.changed(d);
  }

  draftMoveText(): string | null {
    return this.draft ? mv.table(this.draft.melds) : null;
  }

  /** The live check of the whole draft table (main.ts calls it a moment after each change). */
  checkDraft(): void {
    const d = this.draft;
    if (!d || d.checkedSeq === d.seq) return;
    const id = this.id();
    this.pending.set(id, { kind: "draft-check", seq: d.seq });
    this.outbox.push({ op: "check", id, move: mv.table(d.melds) });
  }

  /** Confirm: play the table move once a check of this very draft has passed. */
  confirmDraft(): void {
    const d = this.draft;
    if (!d) return;
    if (d.ok === true && d.checkedSeq === d.seq) {
      this.sendMove(mv.table(d.melds), "draft");
      return;
    }
    d.confirming = true;
    d.checkedSeq = -1;
    this.checkDraft();
  }

  /** Cards of the draft that come from the hand (the table move's difference). */
  draftFromHand(): string[] {
    if (!this.draft) return [];
    const origins = this.draftOrigins();
    return this.draft.melds.flatMap((m, i) => m.filter((_, j) => origins[i]![j]));
  }

  /** For each draft card, whether it comes from the hand: table cards match by their code first, then by the card alone. */
  draftOrigins(): boolean[][] {
    const d = this.draft;
    if (!d || !this.game) return [];
    const left = this.game.table.flatMap((m) => m.cards);
    const out = d.melds.map((m) => m.map(() => true));
    d.melds.forEach((m, i) =>
      m.forEach((c, j) => {
        const k = left.indexOf(c);
        if (k >= 0) {
          left.splice(k, 1);
          out[i]![j] = false;
        }
      }),
    );
    d.melds.forEach((m, i) =>
      m.forEach((c, j) => {
        if (!out[i]![j]) return;
        const base = c.split("=")[0]!;
        const k = left.findIndex((t) => t.split("=")[0] === base);
        if (k >= 0) {
          left.splice(k, 1);
          out[i]![j] = false;
        }
      }),
    );
    return out;
  }
}

/** A `data-src` key of the page ("hand:3", "stock", "discard:top", "discard:2", "draft:1:0", "builder:0:2") as a Source. */
export function sourceOf(model: Model, key: string): Source | null {
  const [kind, a, b] = key.split(":");
  const n = Number(a);
  const m = Number(b);
  switch (kind) {
    case "hand": {
      const hand = model.handView();
      const card = hand[n];
      if (card === undefined) return null;
      const sel = model.selection.kind === "hand" && model.selection.idx.includes(n) ? model.selectedCards() : [card];
      return { kind: "hand", cards: sel, index: n };
    }
    case "stock":
      return { kind: "stock" };
    case "discard": {
      const d = model.game?.discard;
      if (!d) return null;
      if (a === "top" || a === undefined) return { kind: "discard", card: d.top, deep: false };
      const card = d.visible[n];
      if (card === undefined) return null;
      return { kind: "discard", card, deep: n < d.visible.length - 1 };
    }
    case "draft": {
      const card = model.draft?.melds[n]?.[m];
      return card === undefined ? null : { kind: "draft", meld: n, index: m, card };
    }
    case "builder": {
      const card = model.builder[n]?.[m];
      return card === undefined ? null : { kind: "builder", group: n, index: m, card };
    }
    default:
      return null;
  }
}

/** A `data-drop` key ("hand", "hand:3", "discard", "stock", "meld:2", "new-meld", "new-meld:1", "draft-meld:0", "draft-new", "action:knock") as a Target. */
export function targetOf(model: Model, key: string): Target | null {
  const [kind, a] = key.split(":");
  switch (kind) {
    case "hand":
      return { kind: "hand", index: a === undefined ? null : Number(a) };
    case "stock":
      return { kind: "stock" };
    case "discard":
      return { kind: "discard" };
    case "meld": {
      const number = Number(a);
      const meld = model.game?.table.find((t) => t.number === number);
      return meld ? { kind: "meld", number, cards: meld.cards } : null;
    }
    case "new-meld":
      return { kind: "new-meld", group: a === undefined ? null : Number(a) };
    case "draft-meld":
      return { kind: "draft-meld", meld: Number(a) };
    case "draft-new":
      return { kind: "draft-new" };
    case "action":
      return a ? { kind: "action", verb: a } : null;
    default:
      return null;
  }
}

function sameSource(a: Source, b: Source): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === "discard" && b.kind === "discard") return a.card === b.card && a.deep === b.deep;
  if (a.kind === "draft" && b.kind === "draft") return a.meld === b.meld && a.index === b.index;
  if (a.kind === "builder" && b.kind === "builder") return a.group === b.group && a.index === b.index;
  return a.kind === "stock";
}
