// Where a card goes: one function for drags, two taps and the keyboard (the source, then the target).
import * as mv from "./moves.js";
import { isWild } from "./cards.js";

export type Source =
  | { kind: "hand"; cards: string[]; index: number } // index: the grabbed card's place in the shown hand
  | { kind: "stock" }
  | { kind: "discard"; card: string | null; deep: boolean } // deep: a card below the top (visible pile)
  | { kind: "builder"; group: number; index: number; card: string }
  | { kind: "draft"; meld: number; index: number; card: string };

export type Target =
  | { kind: "hand"; index: number | null } // index: the hand card dropped on (reordering)
  | { kind: "stock" }
  | { kind: "discard" }
  | { kind: "meld"; number: number; cards: readonly string[] }
  | { kind: "new-meld"; group: number | null }
  | { kind: "draft-meld"; meld: number }
  | { kind: "draft-new" }
  | { kind: "action"; verb: string };

export type Intent =
  | { kind: "move"; move: string; check: boolean; alternatives: string[] }
  | { kind: "build-add"; cards: string[]; group: number | null }
  | { kind: "build-remove"; group: number; index: number; to: number | null }
  | { kind: "draft-move"; from: { meld: number; index: number } | { hand: string[] }; to: { meld: number } | "new" | "hand" }
  | { kind: "reorder"; cards: string[]; before: number | null }
  | { kind: "none" };

export interface DropContext {
  verbs: readonly string[];
  drafting: boolean;
}

const NONE: Intent = { kind: "none" };

function move(text: string, check = false, alternatives: string[] = []): Intent {
  return { kind: "move", move: text, check, alternatives };
}

export function resolveDrop(src: Source, dst: Target, ctx: DropContext): Intent {
  const has = (v: string): boolean => ctx.verbs.includes(v);
  switch (src.kind) {
    case "stock":
      if ((dst.kind === "hand" || (dst.kind === "action" && dst.verb === "draw")) && has("draw")) return move(mv.plain("draw"));
      return NONE;
    case "discard":
      if (dst.kind === "hand" || (dst.kind === "action" && dst.verb === "take")) {
        if (!has("take")) return NONE;
        return move(mv.take(src.deep ? src.card : null));
      }
      return NONE;
    case "builder":
      if (dst.kind === "hand") return { kind: "build-remove", group: src.group, index: src.index, to: null };
      if (dst.kind === "new-meld" && dst.group !== src.group) return { kind: "build-remove", group: src.group, index: src.index, to: dst.group };
      return NONE;
    case "draft":
      if (!ctx.drafting) return NONE;
      if (dst.kind === "draft-meld" && dst.meld !== src.meld) return { kind: "draft-move", from: { meld: src.meld, index: src.index }, to: { meld: dst.meld } };
      if (dst.kind === "draft-new" || dst.kind === "new-meld") return { kind: "draft-move", from: { meld: src.meld, index: src.index }, to: "new" };
      if (dst.kind === "hand") return { kind: "draft-move", from: { meld: src.meld, index: src.index }, to: "hand" };
      return NONE;
    case "hand":
      return fromHand(src, dst, ctx);
  }
}

function fromHand(src: Extract<Source, { kind: "hand" }>, dst: Target, ctx: DropContext): Intent {
  const has = (v: string): boolean => ctx.verbs.includes(v);
  const one = src.cards.length === 1 ? src.cards[0]! : null;
  if (dst.kind === "hand") return { kind: "reorder", cards: src.cards, before: dst.index };
  if (ctx.drafting) {
    if (dst.kind === "draft-meld") return { kind: "draft-move", from: { hand: src.cards }, to: { meld: dst.meld } };
    if (dst.kind === "draft-new" || dst.kind === "new-meld") return { kind: "draft-move", from: { hand: src.cards }, to: "new" };
    return NONE;
  }
  switch (dst.kind) {
    case "discard":
      if (one === null) return NONE;
      if (has("discard")) return move(mv.oneCard("discard", one));
      if (has("claim")) return move(mv.oneCard("claim", one));
      return NONE;
    case "meld": {
      const swapFits = has("swap") && one !== null && dst.cards.some(isWild);
      if (has("layoff")) return move(mv.layoff(src.cards, dst.number), true, swapFits ? [mv.swap(one!, dst.number)] : []);
      if (swapFits) return move(mv.swap(one!, dst.number), true);
      return NONE;
    }
    case "new-meld":
      if (has("meld")) return { kind: "build-add", cards: src.cards, group: dst.group };
      return NONE;
    case "action":
      if (one !== null && ["discard", "knock", "gin", "claim"].includes(dst.verb) && has(dst.verb)) return move(mv.oneCard(dst.verb, one));
      if (dst.verb === "meld" && has("meld")) return { kind: "build-add", cards: src.cards, group: null };
      return NONE;
    default:
      return NONE;
  }
}
