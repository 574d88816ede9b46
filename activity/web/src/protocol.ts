// The frames of the page's WebSocket (docs/activity.md, "The page's protocol").

export interface Seat {
  seat: string;
  name: string;
  cards: number;
  turn: boolean;
  total: string | number;
  bot?: boolean;
  dealer?: boolean;
  opened?: boolean;
  contract?: number | string | null;
}

export interface TableMeld {
  number: number;
  owner: string | null;
  kind?: string;
  cards: string[];
}

export interface ResultSeat {
  seat: string;
  name: string;
  hand?: string[];
  melds?: string[][];
  deadwood?: string[];
  count?: number | string;
  points?: number | string;
}

export interface DealResult {
  outcome?: string;
  winner?: string | null;
  seats: ResultSeat[];
  ledger: string[];
}

/** A game offered when several are played in the channel: the server sends `{game, variant, state, players}`. */
export type Choice =
  | number
  | string
  | { game?: number | string; id?: number | string; variant?: string; state?: string; players?: string[]; name?: string; label?: string; title?: string; text?: string };

export interface GameState {
  op: "state";
  state: "none" | "lobby" | "playing" | "ended";
  game: number | null;
  version: number;
  variant: string; // "" when no game is shown
  phase?: string;
  deal?: number;
  you: string | null;
  host?: boolean;
  choices?: Choice[];
  seats: Seat[];
  hand: string[] | null;
  drawn?: string | null;
  took?: string | null;
  table: TableMeld[];
  stock: number;
  discard: { top: string | null; count: number; visible: string[] };
  revealed?: unknown[];
  last?: { seat: string; move: string; text: string } | null;
  verbs: string[];
  deadline?: number | null;
  result?: DealResult | null;
  over?: boolean;
  winners?: string[];
  labels: Record<string, string>;
}

export type ServerFrame =
  | { op: "welcome"; user: { id: string; name: string }; locale: string; words: Record<string, string> }
  | GameState
  | { op: "done"; id: number; version: number }
  | { op: "refused"; id: number | null; code: string; reason: string; version?: number }
  | { op: "checked"; id: number; ok: boolean; reason: string | null }
  | { op: "hint"; id: number; move: string; text: string }
  | { op: "error"; code: string; reason: string };

export type ClientFrame =
  | { op: "hello"; session: string; custom_id: string | null }
  | { op: "choose"; game: number | string }
  | { op: "check"; id: number; move: string }
  | { op: "move"; id: number; move: string; version: number }
  | { op: "next_deal"; id: number; version: number }
  | { op: "lobby"; id: number; action: "join" | "leave" | "start" | "bot" }
  | { op: "hint"; id: number };

/** A state frame with every field a renderer reads present (the server may leave some out). */
export function normalizeState(s: Partial<GameState> & { state: GameState["state"] }): GameState {
  return {
    op: "state",
    state: s.state,
    game: s.game ?? null,
    version: s.version ?? 0,
    variant: s.variant ?? "",

    phase: s.phase ?? "",
    deal: s.deal ?? 0,
    you: s.you ?? null,
    host: s.host ?? false,
    choices: s.choices ?? [],
    seats: s.seats ?? [],
    hand: s.hand ?? null,
    drawn: s.drawn ?? null,
    took: s.took ?? null,
    table: s.table ?? [],
    stock: s.stock ?? 0,
    discard: { top: s.discard?.top ?? null, count: s.discard?.count ?? 0, visible: s.discard?.visible ?? [] },
    revealed: s.revealed ?? [],
    last: s.last ?? null,
    verbs: s.verbs ?? [],
    deadline: s.deadline ?? null,
    result: s.result ?? null,
    over: s.over ?? false,
    winners: s.winners ?? [],
    labels: s.labels ?? {},
  };
}

export function choiceId(c: Choice): number | string {
  if (typeof c === "object" && c !== null) return c.game ?? c.id ?? "";
  return c;
}

export function choiceText(c: Choice): string | null {
  if (typeof c === "object" && c !== null) return c.name ?? c.label ?? c.title ?? c.text ?? null;
  return null;
}
