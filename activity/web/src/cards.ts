// Cards in the game notation (notation.md): "7H", "TD", "JK", and wilds in melds "JK=8H", "JK=7", "2C=7".

export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"] as const;
export const SUITS = ["S", "H", "D", "C"] as const;

export interface Card {
  code: string; // as written, e.g. "JK=8H"
  base: string; // the physical card, e.g. "JK"
  rank: string | null; // its natural rank (null for a joker)
  suit: string | null; // its natural suit (null for a joker)
  joker: boolean;
  as: string | null; // what a wild stands for: "8H", "7" (suit open), or null
}

export function parseCard(code: string): Card {
  const text = code.trim().toUpperCase();
  const [base0, as0] = text.split("=", 2) as [string, string | undefined];
  const base = base0.startsWith("10") ? "T" + base0.slice(2) : base0;
  const joker = base === "JK";
  return {
    code: as0 === undefined ? base : `${base}=${as0}`,
    base,
    rank: joker ? null : base.slice(0, 1),
    suit: joker ? null : base.slice(1, 2),
    joker,
    as: as0 === undefined || as0 === "" ? null : as0,
  };
}

export function isWild(code: string): boolean {
  const c = parseCard(code);
  return c.joker || c.as !== null;
}

/** A wild whose role is still open: a bare joker, or one that names only a rank (`JK=7`). */
export function roleOpen(code: string): boolean {
  const c = parseCard(code);
  if (!isWild(code)) return false;
  return c.as === null || c.as.length === 1;
}

/** The card a meld member counts as ("JK=8H" → "8H"; "JK=7" → "7"; "7H" → "7H"; "JK" → null). */
export function standsFor(code: string): string | null {
  const c = parseCard(code);
  if (c.as !== null) return c.as;
  return c.joker ? null : c.base;
}

export function rankIndex(rank: string): number {
  return RANKS.indexOf(rank as (typeof RANKS)[number]);
}

export function suitIndex(suit: string): number {
  return SUITS.indexOf(suit as (typeof SUITS)[number]);
}

export const SUIT_SYMBOL: Record<string, string> = { S: "♠", H: "♥", D: "♦", C: "♣" };

export function rankText(rank: string): string {
  return rank === "T" ? "10" : rank;
}

/** What the face shows: rank and suit symbol ("10", "♥"); a joker shows "★" and what it stands for. */
export function face(code: string): { rank: string; suit: string; red: boolean; joker: boolean; as: string } {
  const c = parseCard(code);
  const wild = c.joker || c.as !== null;
  // A wild that stands for a card shows that card in its corner (what a meld reads), and a star.
  const shown = c.as !== null && c.as.length >= 1 ? c.as : c.joker ? null : c.base;
  if (shown === null) return { rank: "JK", suit: "★", red: false, joker: true, as: "" };
  const rank = rankText(shown.slice(0, 1));
  const suit = SUIT_SYMBOL[shown.slice(1, 2)] ?? "";
  return {
    rank,
    suit,
    red: !wild && (c.suit === "H" || c.suit === "D"),
    joker: wild,
    as: wild ? (c.joker ? "★" : rankText(c.rank ?? "") + (SUIT_SYMBOL[c.suit ?? ""] ?? "")) : "",
  };
}

export type SortMode = "suit" | "rank";

/** A key sorting cards by suit then rank, or by rank then suit; jokers last. */
export function sortKey(code: string, mode: SortMode): number {
  const c = parseCard(code);
  if (c.joker) return 1000;
  const r = rankIndex(c.rank ?? "");
  const s = suitIndex(c.suit ?? "");
  return mode === "suit" ? s * 20 + r : r * 10 + s;
}

export function sortCards(cards: readonly string[], mode: SortMode): string[] {
  return cards
    .map((c, i) => ({ c, i }))
    .sort((a, b) => sortKey(a.c, mode) - sortKey(b.c, mode) || a.i - b.i)
    .map((x) => x.c);
}

/** Remove one occurrence of each of `take` from `from` (a multiset difference). */
export function without(from: readonly string[], take: readonly string[]): string[] {
  const out = [...from];
  for (const t of take) {
    const i = out.indexOf(t);
    if (i >= 0) out.splice(i, 1);
  }
  return out;
}

/**
 * Keep a player's own order of their hand across states: cards still held stay where they were,
 * new cards go to the end (duplicates of multi-deck games are matched one for one).
 */
export function reconcileOrder(previous: readonly string[], hand: readonly string[]): string[] {
  const left = [...hand];
  const out: string[] = [];
  for (const c of previous) {
    const i = left.indexOf(c);
    if (i >= 0) {
      out.push(c);
      left.splice(i, 1);
    }
  }
  return [...out, ...left];
}

/**
 * The cards a wild in `meld` (its other members) may stand for: for a set, its rank in each
 * missing suit; for a run, every missing rank of its suit the wilds can reach. Empty when the
 * meld says nothing yet.
 */
export function wildChoices(others: readonly string[]): string[] {
  const wilds = others.filter((c) => isWild(c) && (standsFor(c) === null || standsFor(c)!.length === 1)).length + 1;
  const known = others.map(standsFor).filter((x): x is string => x !== null && x.length === 2);
  const rankOnly = others.map(standsFor).filter((x): x is string => x !== null && x.length === 1);
  if (known.length === 0 && rankOnly.length === 0) return [];
  const ranks = new Set([...known.map((k) => k[0]!), ...rankOnly]);
  const suits = new Set(known.map((k) => k[1]!));
  if (ranks.size === 1) {
    const rank = [...ranks][0]!;
    const missing = SUITS.filter((s) => !suits.has(s)).map((s) => rank + s);
    // A two-card "set" of one suit could also be a run: only when the suits repeat nothing.
    if (suits.size === 1 && known.length === 1) {
      return [...missing, ...runChoices(known, wilds)].filter((c, i, a) => a.indexOf(c) === i);
    }
    return missing;
  }
  if (suits.size === 1) return runChoices(known, wilds);
  return [];
}

function runChoices(known: readonly string[], wilds: number): string[] {
  const suit = known[0]![1]!;
  const idx = known.map((k) => rankIndex(k[0]!));
  const lo = Math.min(...idx);
  const hi = Math.max(...idx);
  const out: string[] = [];
  // Ranks 0..13, where 13 is the ace above the king.
  for (let r = Math.max(0, lo - wilds); r <= Math.min(13, hi + wilds); r++) {
    const rank = RANKS[r % 13]!;
    if (idx.includes(r % 13) && r !== 13) continue;
    if (r === 13 && idx.includes(0)) continue;
    const span = Math.max(hi, r) - Math.min(lo, r) + 1;
    const gaps = span - known.length - 1;
    if (gaps <= wilds - 1) out.push(rank + suit);
  }
  return out.filter((c, i, a) => a.indexOf(c) === i);
}
