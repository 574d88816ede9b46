// Draws the Model into the page: plain DOM, no inline styles, the contract's hooks (shared/activity.md).
import { face, isWild, roleOpen, wildChoices } from "./cards.js";
import { cardsOf } from "./moves.js";
import type { Model } from "./model.js";
import { choiceId, choiceText, type Choice, type GameState, type Seat, type TableMeld } from "./protocol.js";
import { word, type WordKey } from "./words.js";

type Attrs = Record<string, string | number | boolean | null | undefined>;
type Child = Node | string | null | undefined | false;

export function h(tag: string, attrs: Attrs = {}, ...children: (Child | Child[])[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = String(v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c);
  }
  return el;
}

const VERBS_IN_BAR = ["draw", "take", "pass", "discard", "knock", "gin", "claim", "done", "auto", "cut", "allow", "table"];
const VARIANTS = { basic: 1, wrotham: 1, gin: 1, rami: 1, tradicional: 1, dummy: 1 };
const CARD_VERBS = ["discard", "knock", "gin", "claim"];

export class View {
  constructor(
    readonly root: HTMLElement,
    readonly model: Model,
  ) {}

  w(key: WordKey, params?: Record<string, string | number>): string {
    return word(this.model.words, key, params, this.model.locale);
  }

  label(card: string): string {
    const labels = this.model.game?.labels ?? {};
    return labels[card] ?? labels[card.split("=")[0]!] ?? card;
  }

  seatName(seat: string | null | undefined): string {
    if (!seat) return "";
    return this.model.game?.seats.find((s) => s.seat === seat)?.name ?? seat;
  }

  render(): void {
    const m = this.model;
    const g = m.game;
    const root = this.root;
    root.setAttribute("data-conn", m.conn);
    if (g) {
      root.setAttribute("data-state", g.state);
      root.setAttribute("data-version", String(g.version));
      root.setAttribute("data-variant", g.variant);
    }
    const focusKey = (document.activeElement as HTMLElement | null)?.getAttribute?.("data-key") ?? null;
    const scroll = window.scrollY;
    root.replaceChildren(...this.body());
    if (focusKey) {
      const el = root.querySelector<HTMLElement>(`[data-key="${CSS.escape(focusKey)}"]`);
      el?.focus({ preventScroll: true });
    }
    if (Math.abs(window.scrollY - scroll) > 1) window.scrollTo(0, scroll);
    this.tick();
  }

  /** The countdowns, once a second. */
  tick(): void {
    const now = Date.now() / 1000;
    for (const el of this.root.querySelectorAll<HTMLElement>("[data-deadline]")) {
      const left = Math.max(0, Math.ceil(Number(el.getAttribute("data-deadline")) - now));
      el.textContent = left >= 60 ? `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` : this.w("activity.page.seconds_left", { count: left });
      el.classList.toggle("urgent", left <= 10);
    }
  }

  private body(): Node[] {
    const m = this.model;
    const g = m.game;
    const out: Node[] = [];
    if (m.conn === "failed" || (m.problem && !g)) {
      out.push(
        h("section", { class: "panel notice" },
          h("p", { role: "status" }, m.problem ? this.w(m.problem.key, m.problem.params) : ""),
          h("button", { type: "button", "data-control": "retry", "data-key": "retry", class: "btn" }, this.w("activity.page.retry")),
        ),
      );
      if (!g) return out;
    }
    if (!g) {
      out.push(h("section", { class: "panel notice" }, h("p", { role: "status" }, this.w("activity.page.connecting"))));
      return out;
    }
    if (m.conn === "reconnecting") out.push(h("p", { class: "banner", role: "status" }, this.w("activity.page.reconnecting")));
    switch (g.state) {
      case "none":
        out.push(this.none(g));
        break;
      case "lobby":
        out.push(this.lobby(g));
        break;
      default:
        out.push(...this.playing(g));
    }
    return out;
  }

  private none(g: GameState): HTMLElement {
    const choices = g.choices ?? [];
    return h("section", { class: "panel" },
      h("h1", {}, this.w(choices.length ? "activity.page.choose_title" : "activity.page.none_title")),
      h("p", {}, choices.length ? this.w("activity.page.choose_text") : this.w("activity.page.none_text")),
      choices.length
        ? h("ul", { class: "choices" },
            choices.map((c) => {
              const id = choiceId(c);
              const text = this.choiceLabel(c);
              return h("li", {}, h("button", { type: "button", class: "btn", "data-action": "choose", "data-game": String(id), "data-key": `choose:${id}`, "aria-label": text }, text));
            }),
          )
        : null,
    );
  }

  private choiceLabel(c: Choice): string {
    const own = choiceText(c);
    if (own) return own;
    const id = String(choiceId(c));
    if (typeof c !== "object" || c === null) return this.w("activity.page.choice", { game: id });
    const parts = [c.variant && c.variant in VARIANTS ? this.w(`activity.page.variant.${c.variant}` as WordKey) : this.w("activity.page.choice", { game: id })];
    if (c.state === "lobby") parts.push(this.w("activity.page.lobby_title"));
    if (c.players?.length) parts.push(c.players.join(", "));
    return parts.join(" · ");
  }

  private lobby(g: GameState): HTMLElement {
    const seated = g.you !== null && g.seats.some((s) => s.seat === g.you);
    const buttons: HTMLElement[] = [];
    const button = (action: string, key: WordKey): HTMLElement =>
      h("button", { type: "button", class: "btn", "data-action": action, "data-key": `lobby:${action}`, "aria-label": this.w(key) }, this.w(key));
    buttons.push(seated ? button("leave", "activity.page.leave") : button("join", "activity.page.join"));
    if (g.host) buttons.push(button("bot", "activity.page.bot"), button("start", "activity.page.start"));
    return h("section", { class: "panel lobby" },
      h("h1", {}, this.w("activity.page.lobby_title"), " · ", this.variantName(g)),
      h("p", {}, this.w(g.host ? "activity.page.lobby_host" : "activity.page.lobby_text"),
        g.deadline ? h("span", { class: "countdown", "data-deadline": String(g.deadline), role: "timer" }) : null),
      this.seats(g),
      h("div", { class: "buttons" }, buttons),
      this.refusal(),
    );
  }

  private variantName(g: GameState): string {
    const key = `activity.page.variant.${g.variant}` as WordKey;
    return g.variant in VARIANTS ? this.w(key) : g.variant;
  }

  private playing(g: GameState): Node[] {
    const m = this.model;
    const out: Node[] = [];
    const turn = g.seats.find((s) => s.turn);
    const mine = turn !== undefined && turn.seat === g.you;
    out.push(
      h("header", { class: "top" },
        h("span", { class: "title" }, this.variantName(g), g.deal ? ` · ${this.w("activity.page.deal", { n: g.deal })}` : ""),
        g.state === "playing" && turn
          ? h("span", { class: mine ? "turnnote mine" : "turnnote" }, mine ? this.w("activity.page.your_turn") : this.w("activity.page.turn_of", { name: turn.name }),
              g.deadline ? h("span", { class: "countdown", "data-deadline": String(g.deadline), role: "timer" }) : null)
          : null,
      ),
    );
    out.push(this.seats(g));
    if (g.last?.text) out.push(h("p", { class: "lastline", role: "status" }, g.last.text));
    const refusal = this.refusal();
    if (refusal) out.push(refusal);
    if (m.hint) out.push(h("p", { class: "hint", role: "status" }, this.w("activity.page.hint_text", { text: m.hint.text })));
    if (g.result) out.push(this.result(g));
    if (g.state === "ended" || g.over) out.push(this.ended(g));
    out.push(h("section", { class: "board" }, this.piles(g), this.table(g)));
    const revealed = this.revealed(g);
    if (revealed) out.push(revealed);
    if (g.hand !== null && !m.draft && g.verbs.includes("meld")) out.push(this.builder());
    out.push(this.actions(g));
    out.push(this.hand(g));
    return out;
  }

  private refusal(): HTMLElement | null {
    const r = this.model.refusal;
    return r ? h("p", { class: "refusal", role: "alert", "data-refusal": "" }, r) : null;
  }

  private seats(g: GameState): HTMLElement {
    const last = g.last?.seat ?? null;
    return h("ul", { class: "seats" },
      g.seats.map((s: Seat) => {
        const name = s.seat === g.you ? this.w("activity.page.seat_you", { name: s.name }) : s.name;
        const bits = g.state === "lobby" ? [] : [this.w("activity.page.seat_cards", { count: s.cards }), this.w("activity.page.seat_total", { total: String(s.total) })];
        return h("li", {
            class: ["seat", s.turn ? "turn" : "", s.seat === last ? "last" : "", s.seat === g.you ? "you" : ""].join(" ").trim(),
            "data-seat": s.seat, "data-turn": s.turn ? "true" : null, "data-cards": String(s.cards),
            "aria-label": [name, ...bits].join(", "),
          },
          h("span", { class: "name" }, name),
          bits.length ? h("span", { class: "count" }, bits.map((b) => h("span", {}, b))) : null,
          s.dealer || s.bot || s.opened || (s.contract !== null && s.contract !== undefined)
            ? h("span", { class: "tags" },
                s.dealer ? h("span", { class: "tag" }, this.w("activity.page.dealer")) : null,
                s.bot ? h("span", { class: "tag" }, this.w("activity.page.bot_tag")) : null,
                s.opened ? h("span", { class: "tag" }, this.w("activity.page.opened")) : null,
                s.contract !== null && s.contract !== undefined ? h("span", { class: "tag" }, this.w("activity.page.contract", { n: String(s.contract) })) : null,
              )
            : null,
        );
      }),
    );
  }

  /** A face-up card. `src`: its drag/tap source key; `drop`: the target it stands for. */
  card(code: string, opts: { src?: string; drop?: string; key?: string; selected?: boolean; extra?: string; focus?: boolean } = {}): HTMLElement {
    const f = face(code);
    const cls = ["card", f.red ? "red" : "", f.joker ? "joker" : "", opts.selected ? "selected" : "", opts.src ? "movable" : "", opts.extra ?? ""].join(" ").replace(/\s+/g, " ").trim();
    const focusable = opts.focus ?? Boolean(opts.src);
    return h("div", {
        class: cls, "data-card": code, "aria-label": this.label(code),
        role: focusable ? "button" : null, tabindex: focusable ? "0" : null,
        "aria-pressed": opts.src ? (opts.selected ? "true" : "false") : null,
        "data-src": opts.src, "data-drop": opts.drop, "data-key": opts.key ?? opts.src,
      },
      h("span", { class: "rank", "aria-hidden": "true" }, f.rank),
      h("span", { class: "suit", "aria-hidden": "true" }, f.suit),
      f.as ? h("span", { class: "as", "aria-hidden": "true" }, f.as) : h("span", { class: "pip", "aria-hidden": "true" }, f.suit),
    );
  }

  private piles(g: GameState): HTMLElement {
    const m = this.model;
    const sel = m.selection;
    const stockLabel = this.w("activity.page.stock_count", { count: g.stock });
    const stock = h("div", {
        class: ["pile", "stock", sel.kind === "stock" ? "selected" : "", g.verbs.includes("draw") ? "live" : ""].join(" ").trim(),
        "data-zone": "stock", "data-drop": "stock",
      },
      h("div", {
          class: g.stock > 0 ? "card back movable" : "card empty", role: "button", tabindex: "0", "aria-label": stockLabel,
          "data-src": g.stock > 0 ? "stock" : null, "data-key": "stock", "aria-pressed": sel.kind === "stock" ? "true" : "false",
        },
        h("span", { class: "n", "aria-hidden": "true" }, String(g.stock)),
      ),
      h("span", { class: "caption", "aria-hidden": "true" }, this.w("activity.page.stock")),
    );
    const d = g.discard;
    const lastCards = g.last?.move.startsWith("discard") || g.last?.move.startsWith("knock") ? cardsOf(g.last.move) : [];
    const pileLabel = d.count ? this.w("activity.page.discard_count", { count: d.count }) : this.w("activity.page.discard_empty");
    const cards: HTMLElement[] = [];
    if (d.visible.length) {
      d.visible.forEach((c, i) => {
        const top = i === d.visible.length - 1;
        const selected = sel.kind === "discard" && (top ? !sel.deep : sel.deep && sel.card === c);
        cards.push(this.card(c, { src: top ? "discard:top" : `discard:${i}`, selected, extra: top && lastCards.includes(c) ? "lastmove" : "" }));
      });
    } else if (d.top) {
      cards.push(this.card(d.top, { src: "discard:top", selected: sel.kind === "discard", extra: lastCards.includes(d.top) ? "lastmove" : "" }));
    } else {
      cards.push(h("div", { class: "card empty", "aria-hidden": "true" }));
    }
    const discard = h("div", {
        class: ["pile", "discard", d.visible.length > 1 ? "spread" : "", g.verbs.includes("discard") ? "live" : ""].join(" ").trim(),
        "data-zone": "discard", "data-drop": "discard", role: "group", "aria-label": pileLabel, tabindex: d.top ? null : "0", "data-key": "discard-zone",
      },
      h("div", { class: "cards" }, cards),
      h("span", { class: "caption", "aria-hidden": "true" }, d.count > 1 ? `${this.w("activity.page.discard")} (${d.count})` : this.w("activity.page.discard")),
    );
    return h("div", { class: "piles" }, stock, discard);
  }

  private table(g: GameState): HTMLElement {
    const m = this.model;
    const draft = m.draft;
    const lastCards = g.last && /^(meld|layoff|table|swap)\b/.test(g.last.move) ? cardsOf(g.last.move) : [];
    const melds: HTMLElement[] = [];
    if (draft) {
      const origins = m.draftOrigins();
      draft.melds.forEach((cards, i) => {
        const els = cards.map((c, j) => {
          const isFromHand = origins[i]?.[j] ?? false;
          const selected = m.selection.kind === "draft" && m.selection.meld === i && m.selection.index === j;
          const el = this.card(c, { src: `draft:${i}:${j}`, selected, extra: isFromHand ? "fromhand" : "" });
          return roleOpen(c) ? h("div", { class: "wild" }, el, this.picker(c, cards.filter((_, x) => x !== j), `draft:${i}:${j}`)) : el;
        });
        const number = i + 1;
        const name = this.w("activity.page.meld", { n: number });
        melds.push(h("div", {
            class: cards.length < 3 ? "meld draft short" : "meld draft", "data-meld": String(number), "data-drop": `draft-meld:${i}`,
            role: "button", tabindex: "0", "data-key": `draft-meld:${i}`, "aria-label": `${name}: ${cards.map((c) => this.label(c)).join(", ")}`,
          },
          h("span", { class: "mhead", "aria-hidden": "true" }, h("span", { class: "num" }, String(number))),
          h("div", { class: "cards" }, els),
        ));
      });
      melds.push(h("div", {
          class: "meld new", "data-zone": "new-meld", "data-drop": "draft-new", role: "button", tabindex: "0", "data-key": "draft-new",
          "aria-label": this.w("activity.page.draft_new"),
        },
        h("span", { class: "caption" }, "+ ", this.w("activity.page.draft_new")),
      ));
    } else {
      g.table.forEach((t: TableMeld) => {
        const owner = t.owner ? this.seatName(t.owner) : null;
        const name = owner ? this.w("activity.page.meld_owner", { n: t.number, name: owner }) : this.w("activity.page.meld", { n: t.number });
        const lastHere = g.last?.move.includes(`to ${t.number}`) || (lastCards.length > 0 && t.cards.some((c) => lastCards.includes(c)));
        melds.push(h("div", {
            class: lastHere ? "meld lastmove" : "meld", "data-meld": String(t.number), "data-drop": `meld:${t.number}`,
            role: "button", tabindex: "0", "data-key": `meld:${t.number}`, "aria-label": `${name}: ${t.cards.map((c) => this.label(c)).join(", ")}`,
          },
          h("span", { class: "mhead", "aria-hidden": "true" }, h("span", { class: "num" }, String(t.number)), owner ? h("span", { class: "owner" }, owner) : null),
          h("div", { class: "cards" }, t.cards.map((c) => this.card(c, { extra: lastCards.includes(c) ? "lastmove" : "" }))),
        ));
      });
    }
    const status: HTMLElement[] = [];
    if (draft) {
      status.push(h("h2", {}, this.w("activity.page.draft_title")));
      if (draft.ok === false && draft.reason) status.push(h("p", { class: "refusal", role: "alert", "data-refusal": "" }, draft.reason));
      else if (draft.ok === true && draft.checkedSeq === draft.seq) status.push(h("p", { class: "ok", role: "status" }, this.w("activity.page.draft_ok")));
      else if (draft.seq > 0) status.push(h("p", { class: "checking", role: "status" }, this.w("activity.page.checking")));
    }
    return h("section", { class: draft ? (draft.ok === false ? "table drafting invalid" : "table drafting") : "table", "data-zone": "table", "aria-label": this.w("activity.page.table") },
      status,
      melds.length ? h("div", { class: "melds" }, melds) : h("p", { class: "empty" }, this.w("activity.page.table_empty")),
    );
  }

  private picker(code: string, others: string[], key: string): HTMLElement {
    const base = code.split("=")[0]!;
    const current = code.includes("=") ? code.split("=")[1]! : "";
    const choices = wildChoices(others);
    if (current && !choices.includes(current)) choices.unshift(current);
    const sel = h("select", { class: "picker", "data-picker": key, "data-base": base, "aria-label": this.w("activity.page.joker_as"), "data-key": `picker:${key}` },
      h("option", { value: "" }, this.w("activity.page.joker_open")),
      choices.map((c) => h("option", { value: c, selected: c === current }, c.length === 2 ? this.label(c) + ` (${face(c).rank}${face(c).suit})` : c)),
    );
    return sel;
  }

  private builder(): HTMLElement {
    const m = this.model;
    const groups = m.builder;
    const any = groups.some((gr) => gr.length > 0);
    return h("section", {
        class: m.builderReason ? "builder invalid" : "builder", "data-zone": "new-meld", "data-drop": "new-meld",
        role: "group", "aria-label": this.w("activity.page.new_meld"),
      },
      any || groups.length > 1 ? h("h2", {}, this.w("activity.page.new_meld")) : null,
      h("div", { class: "groups" },
        groups.map((gr, gi) =>
          h("div", {
              class: "group", "data-drop": `new-meld:${gi}`, role: "button", tabindex: "0", "data-key": `new-meld:${gi}`,
              "aria-label": groups.length > 1 ? this.w("activity.page.new_meld_group", { n: gi + 1 }) : this.w("activity.page.new_meld"),
            },
            gr.length === 0 ? h("span", { class: "caption" }, this.w("activity.page.new_meld_hint")) : null,
            gr.map((c, i) => {
              const selected = m.selection.kind === "builder" && m.selection.group === gi && m.selection.index === i;
              const el = this.card(c, { src: `builder:${gi}:${i}`, selected });
              return isWild(c) && roleOpen(c) ? h("div", { class: "wild" }, el, this.picker(c, gr.filter((_, x) => x !== i), `builder:${gi}:${i}`)) : el;
            }),
          ),
        ),
      ),
      m.builderReason ? h("p", { class: "refusal", role: "alert", "data-refusal": "" }, m.builderReason) : null,
      any
        ? h("div", { class: "buttons" },
            h("button", { type: "button", class: "btn primary", "data-action": "meld", "data-key": "action:meld", "aria-label": this.w("activity.page.verb.meld") }, this.w("activity.page.verb.meld")),
            h("button", { type: "button", class: "btn", "data-control": "group", "data-key": "control:group", "aria-label": this.w("activity.page.add_group") }, "+ ", this.w("activity.page.add_group")),
            h("button", { type: "button", class: "btn quiet", "data-control": "clear", "data-key": "control:clear", "aria-label": this.w("activity.page.clear") }, this.w("activity.page.clear")),
          )
        : null,
    );
  }

  private hand(g: GameState): HTMLElement {
    const m = this.model;
    if (g.hand === null) return h("section", { class: "hand spectator" }, h("p", {}, this.w("activity.page.spectator")));
    const cards = m.handView();
    const selected = m.selection.kind === "hand" ? m.selection.idx : [];
    let drawnLeft = [g.drawn, g.took].filter((c): c is string => Boolean(c));
    let hinted = m.hint ? cardsOf(m.hint.move) : [];
    const els = cards.map((c, i) => {
      const k = drawnLeft.indexOf(c);
      const fresh = k >= 0;
      if (fresh) drawnLeft = [...drawnLeft.slice(0, k), ...drawnLeft.slice(k + 1)];
      const x = hinted.indexOf(c);
      if (x >= 0) hinted = [...hinted.slice(0, x), ...hinted.slice(x + 1)];
      const extra = [fresh ? "fresh" : "", x >= 0 ? "hinted" : ""].join(" ");
      return this.card(c, { src: `hand:${i}`, drop: `hand:${i}`, selected: selected.includes(i), extra });
    });
    const live = m.selection.kind === "stock" || m.selection.kind === "discard" || m.selection.kind === "draft";
    const sortBtn = (mode: "suit" | "rank", key: WordKey): HTMLElement =>
      h("button", { type: "button", class: m.sortMode === mode ? "btn small on" : "btn small", "data-control": `sort-${mode}`, "data-key": `sort-${mode}`, "aria-label": this.w(key), "aria-pressed": m.sortMode === mode ? "true" : "false" }, this.w(key));
    return h("section", {
        class: live ? "hand live" : "hand", "data-zone": "hand", "data-drop": "hand", role: "group", tabindex: "0", "data-key": "hand-zone",
        "aria-label": this.w("activity.page.hand_count", { count: cards.length }),
      },
      h("div", { class: "handbar" },
        h("h2", { "aria-hidden": "true" }, this.w("activity.page.hand"), h("span", { class: "n" }, ` · ${cards.length}`)),
        selected.length ? h("span", { class: "selcount", role: "status" }, this.w("activity.page.selected", { count: selected.length })) : null,
        h("span", { class: "sorts" }, sortBtn("suit", "activity.page.sort_suit"), sortBtn("rank", "activity.page.sort_rank")),
      ),
      h("div", { class: "cards" }, els),
    );
  }

  private actions(g: GameState): HTMLElement {
    const m = this.model;
    const btns: HTMLElement[] = [];
    const btn = (attrs: Attrs, text: string, primary = false): HTMLElement =>
      h("button", { type: "button", "aria-label": text, ...attrs, class: [String(attrs["class"] ?? "btn"), primary ? "primary" : ""].join(" ").trim() }, text);
    if (m.draft) {
      btns.push(btn({ "data-action": "confirm", "data-key": "action:confirm", disabled: m.draft.seq === 0 }, this.w("activity.page.confirm"), true));
      btns.push(btn({ "data-action": "undo", "data-key": "action:undo", disabled: m.draft.history.length === 0 }, this.w("activity.page.undo")));
      btns.push(btn({ "data-control": "cancel", "data-key": "control:cancel" }, this.w("activity.page.cancel")));
    } else {
      const one = m.selectedCards().length === 1;
      for (const v of g.verbs) {
        if (!VERBS_IN_BAR.includes(v)) continue;
        const key = `activity.page.verb.${v}` as WordKey;
        const needsCard = CARD_VERBS.includes(v);
        btns.push(btn({ "data-action": v, "data-key": `action:${v}`, "data-drop": needsCard ? `action:${v}` : null, class: needsCard && !one ? "btn wants" : "btn" }, this.w(key), v === "draw" || (needsCard && one)));
      }
      if (g.result && !g.over && g.state === "playing") btns.push(btn({ "data-action": "next-deal", "data-key": "action:next-deal" }, this.w("activity.page.next_deal"), true));
      if (g.hand !== null && g.verbs.length && g.state === "playing") btns.push(btn({ "data-action": "hint", "data-key": "action:hint", class: "btn quiet" }, this.w("activity.page.hint")));
    }
    return h("nav", { class: btns.length ? "actions" : "actions empty", "aria-label": this.w("activity.page.title") }, btns);
  }

  private revealed(g: GameState): HTMLElement | null {
    const r = g.revealed ?? [];
    if (!r.length || g.result) return null;
    const rows: HTMLElement[] = [];
    const loose: string[] = [];
    for (const item of r) {
      if (typeof item === "string") loose.push(item);
      else if (item && typeof item === "object") {
        const o = item as { seat?: string; cards?: unknown };
        const cards = Array.isArray(o.cards) ? o.cards.filter((c): c is string => typeof c === "string") : [];
        rows.push(h("div", { class: "row" }, h("span", { class: "name" }, this.seatName(o.seat)), h("div", { class: "cards small" }, cards.map((c) => this.card(c)))));
      }
    }
    if (loose.length) rows.push(h("div", { class: "cards small" }, loose.map((c) => this.card(c))));
    return h("section", { class: "revealed", "aria-label": this.w("activity.page.revealed") }, h("h2", {}, this.w("activity.page.revealed")), rows);
  }

  private result(g: GameState): HTMLElement {
    const r = g.result!;
    return h("section", { class: "panel result", "aria-label": this.w("activity.page.result_title") },
      h("h2", {}, this.w("activity.page.result_title"),
        g.deadline && !g.over ? h("span", { class: "countdown", "data-deadline": String(g.deadline), role: "timer" }) : null),
      h("ul", { class: "rseats" },
        r.seats.map((s) =>
          h("li", { class: s.seat === r.winner ? "winner" : "", "data-result-seat": s.seat },
            h("div", { class: "rhead" },
              h("span", { class: "name" }, s.name),
              s.points !== undefined ? h("span", { class: "points" }, this.w("activity.page.result_points", { points: String(s.points) })) : null,
              s.count !== undefined ? h("span", { class: "deadwood" }, this.w("activity.page.result_deadwood", { count: String(s.count) })) : null,
            ),
            s.melds?.length ? h("div", { class: "rmelds" }, s.melds.map((ml) => h("div", { class: "cards small" }, ml.map((c) => this.card(c))))) : null,
            (s.deadwood ?? s.hand)?.length ? h("div", { class: "cards small dead" }, (s.deadwood ?? s.hand ?? []).map((c) => this.card(c))) : null,
          ),
        ),
      ),
      r.ledger.length ? h("ul", { class: "ledger" }, r.ledger.map((line) => h("li", {}, line))) : null,
    );
  }

  private ended(g: GameState): HTMLElement {
    const names = (g.winners ?? []).map((s) => this.seatName(s)).join(", ");
    return h("section", { class: "panel ended" },
      h("h2", {}, this.w("activity.page.game_over")),
      names ? h("p", { class: "winners" }, this.w("activity.page.winners", { names })) : null,
    );
  }
}
