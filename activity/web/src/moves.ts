// RGN move text (notation.md "Moves"), without the seat: what the server's `move` and `check` take.

export const NO_ARG_VERBS = ["draw", "pass", "done", "auto", "cut", "allow"] as const;
/** Verbs played with one card from hand. `gin` is not a notation verb: a knock with nothing unmelded is gin. */
export const ONE_CARD_VERBS = ["discard", "knock", "gin", "claim"] as const;

export function plain(verb: string): string {
  return verb;
}

export function take(card?: string | null): string {
  return card ? `take ${card}` : "take";
}

export function meld(groups: readonly (readonly string[])[]): string {
  const parts = groups.filter((g) => g.length > 0).map((g) => g.join(" "));
  return `meld ${parts.join(" | ")}`;
}

export function layoff(cards: readonly string[], meldNumber: number): string {
  return `layoff ${cards.join(" ")} to ${meldNumber}`;
}

export function swap(card: string, meldNumber: number): string {
  return `swap ${card} to ${meldNumber}`;
}

export function table(melds: readonly (readonly string[])[]): string {
  return `table ${melds
    .filter((m) => m.length > 0)
    .map((m) => m.join(" "))
    .join(" | ")}`;
}

/** `discard KS`, `knock KS`, `claim KS`; `gin KS` is written as the knock it is. */
export function oneCard(verb: string, card: string): string {
  return `${verb === "gin" ? "knock" : verb} ${card}`;
}

/** The cards a move text names (for highlighting the last move): every card-looking word. */
export function cardsOf(move: string): string[] {
  return move
    .split(/[\s|:]+/)
    .slice(1)
    .filter((w) => /^(JK|[2-9TJQKA][SHDC]|10[SHDC])(=[2-9TJQKA0]{1,2}[SHDC]?)?$/i.test(w))
    .map((w) => w.toUpperCase());
}
