// The page's words: what it writes, in the viewer's language, and how it fills them in.
//
// What it is: the server sends the texts in `welcome.words` (bot/words/locales/<lang>/LC_MESSAGES/rummy.po,
// the `activity.page.*` messages, in the viewer's Discord language); the texts here are the page's
// built-in copies, used before the server has answered, and the source of activity/web/words.<lang>.json
// (`npm run words`), which tests/activity/test_page_words.py holds equal to the catalogs. Placeholders
// as in the catalog: `{name}`, and ICU plurals `{count, plural, one {carte} other {cartes}}` (`=N` for an
// exact number, `#` for the number), whose branch the browser's `Intl.PluralRules` chooses by CLDR.
//
// What it is not: no full ICU MessageFormat (no select, no number skeletons), no translation of its own:
// a text missing everywhere shows its key.

export const WORDS_EN = {
  "activity.page.title": "Rummy",
  "activity.page.connecting": "Connecting to the table…",
  "activity.page.reconnecting": "Connection lost. Reconnecting…",
  "activity.page.outside_discord": "Open this table from Discord: it is an Activity.",
  "activity.page.not_configured": "This page is not configured (no application id).",
  "activity.page.login_failed": "Could not sign in: {reason}",
  "activity.page.session_refused": "The table refused this session: {reason}",
  "activity.page.retry": "Try again",
  "activity.page.none_title": "No game here",
  "activity.page.none_text": "Nothing is being played in this channel. Start a game in the chat with /rummy, then open the table again.",
  "activity.page.choose_text": "Several games are being played here. Which one?",
  "activity.page.choose_title": "Choose a game",
  "activity.page.variant.basic": "Basic Rummy",
  "activity.page.variant.wrotham": "Wrotham Rummy",
  "activity.page.variant.gin": "Gin Rummy",
  "activity.page.variant.rami": "Rami",
  "activity.page.variant.tradicional": "Rummy tradicional",
  "activity.page.variant.dummy": "Dummy Rummy",
  "activity.page.choice": "Game {game}",
  "activity.page.lobby_title": "Lobby",
  "activity.page.lobby_text": "Waiting for players.",
  "activity.page.lobby_host": "Start when everyone is seated.",
  "activity.page.join": "Join",
  "activity.page.leave": "Leave",
  "activity.page.start": "Start",
  "activity.page.bot": "Add a bot",
  "activity.page.stock": "Stock",
  "activity.page.stock_count": "Stock: {count} {count, plural, one {card} other {cards}}",
  "activity.page.discard": "Discard pile",
  "activity.page.discard_count": "Discard pile: {count} {count, plural, one {card} other {cards}}",
  "activity.page.discard_empty": "Discard pile: empty",
  "activity.page.hand": "Your hand",
  "activity.page.hand_count": "Your hand: {count} {count, plural, one {card} other {cards}}",
  "activity.page.spectator": "You are watching this game.",
  "activity.page.table": "Table",
  "activity.page.table_empty": "No melds on the table yet.",
  "activity.page.meld": "Meld {n}",
  "activity.page.meld_owner": "Meld {n} ({name})",
  "activity.page.new_meld": "New meld",
  "activity.page.new_meld_hint": "Drop or tap cards here to build a meld.",
  "activity.page.new_meld_group": "New meld {n}",
  "activity.page.add_group": "Another meld",
  "activity.page.clear": "Clear",
  "activity.page.seat_cards": "{count} {count, plural, one {card} other {cards}}",
  "activity.page.seat_total": "Total {total}",
  "activity.page.seat_you": "{name} (you)",
  "activity.page.dealer": "Dealer",
  "activity.page.bot_tag": "Bot",
  "activity.page.opened": "Opened",
  "activity.page.contract": "Contract {n}",
  "activity.page.your_turn": "Your turn",
  "activity.page.turn_of": "{name} to play",
  "activity.page.seconds_left": "{count} s",
  "activity.page.deal": "Deal {n}",
  "activity.page.revealed": "Face up",
  "activity.page.verb.draw": "Draw",
  "activity.page.verb.take": "Take",
  "activity.page.verb.pass": "Pass",
  "activity.page.verb.meld": "Meld",
  "activity.page.verb.layoff": "Lay off",
  "activity.page.verb.swap": "Swap joker",
  "activity.page.verb.table": "Rearrange",
  "activity.page.verb.discard": "Discard",
  "activity.page.verb.knock": "Knock",
  "activity.page.verb.gin": "Gin",
  "activity.page.verb.done": "Done",
  "activity.page.verb.auto": "Auto",
  "activity.page.verb.cut": "Cut in",
  "activity.page.verb.allow": "Allow",
  "activity.page.verb.claim": "Claim",
  "activity.page.confirm": "Confirm",
  "activity.page.undo": "Undo",
  "activity.page.cancel": "Cancel",
  "activity.page.hint": "Hint",
  "activity.page.hint_text": "Hint: {text}",
  "activity.page.next_deal": "Next deal",
  "activity.page.sort_suit": "By suit",
  "activity.page.sort_rank": "By rank",
  "activity.page.select_card": "Select a card first.",
  "activity.page.selected": "{count} {count, plural, one {card} other {cards}} selected",
  "activity.page.checking": "Checking…",
  "activity.page.draft_title": "Rearranging the table",
  "activity.page.draft_ok": "Every meld is valid.",
  "activity.page.draft_new": "New meld",
  "activity.page.joker_as": "Joker stands for",
  "activity.page.joker_open": "Any",
  "activity.page.result_title": "Deal over",
  "activity.page.result_points": "{points} points",
  "activity.page.result_deadwood": "Deadwood: {count}",
  "activity.page.game_over": "Game over",
  "activity.page.winners": "Won by {names}",
  "activity.page.you": "You",
} as const;

export type WordKey = keyof typeof WORDS_EN;

export const WORDS_ES: Record<WordKey, string> = {
  "activity.page.title": "Rummy",
  "activity.page.connecting": "Conectando con la mesa…",
  "activity.page.reconnecting": "Se perdió la conexión. Reconectando…",
  "activity.page.outside_discord": "Abre esta mesa desde Discord: es una Actividad.",
  "activity.page.not_configured": "Esta página no está configurada (falta el id de la aplicación).",
  "activity.page.login_failed": "No se pudo iniciar sesión: {reason}",
  "activity.page.session_refused": "La mesa rechazó esta sesión: {reason}",
  "activity.page.retry": "Reintentar",
  "activity.page.none_title": "No hay partida aquí",
  "activity.page.none_text": "No se juega nada en este canal. Empieza una partida en el chat con /rummy y vuelve a abrir la mesa.",
  "activity.page.choose_text": "Aquí se juegan varias partidas. ¿Cuál quieres ver?",
  "activity.page.choose_title": "Elige una partida",
  "activity.page.variant.basic": "Rummy básico",
  "activity.page.variant.wrotham": "Rummy Wrotham",
  "activity.page.variant.gin": "Gin Rummy",
  "activity.page.variant.rami": "Rami",
  "activity.page.variant.tradicional": "Rummy tradicional",
  "activity.page.variant.dummy": "Dummy Rummy",
  "activity.page.choice": "Partida {game}",
  "activity.page.lobby_title": "Sala de espera",
  "activity.page.lobby_text": "Esperando jugadores.",
  "activity.page.lobby_host": "Empieza cuando estén todos sentados.",
  "activity.page.join": "Unirme",
  "activity.page.leave": "Salir",
  "activity.page.start": "Empezar",
  "activity.page.bot": "Añadir un bot",
  "activity.page.stock": "Mazo",
  "activity.page.stock_count": "Mazo: {count} {count, plural, one {carta} many {de cartas} other {cartas}}",
  "activity.page.discard": "Descartes",
  "activity.page.discard_count": "Descartes: {count} {count, plural, one {carta} many {de cartas} other {cartas}}",
  "activity.page.discard_empty": "Descartes: vacío",
  "activity.page.hand": "Tu mano",
  "activity.page.hand_count": "Tu mano: {count} {count, plural, one {carta} many {de cartas} other {cartas}}",
  "activity.page.spectator": "Estás mirando esta partida.",
  "activity.page.table": "Mesa",
  "activity.page.table_empty": "Todavía no hay combinaciones en la mesa.",
  "activity.page.meld": "Combinación {n}",
  "activity.page.meld_owner": "Combinación {n} ({name})",
  "activity.page.new_meld": "Nueva combinación",
  "activity.page.new_meld_hint": "Arrastra o toca cartas aquí para formar una combinación.",
  "activity.page.new_meld_group": "Combinación nueva {n}",
  "activity.page.add_group": "Otra combinación",
  "activity.page.clear": "Vaciar",
  "activity.page.seat_cards": "{count} {count, plural, one {carta} many {de cartas} other {cartas}}",
  "activity.page.seat_total": "Total {total}",
  "activity.page.seat_you": "{name} (tú)",
  "activity.page.dealer": "Reparte",
  "activity.page.bot_tag": "Bot",
  "activity.page.opened": "Ha abierto",
  "activity.page.contract": "Contrato {n}",
  "activity.page.your_turn": "Te toca",
  "activity.page.turn_of": "Le toca a {name}",
  "activity.page.seconds_left": "{count} s",
  "activity.page.deal": "Mano {n}",
  "activity.page.revealed": "Boca arriba",
  "activity.page.verb.draw": "Robar",
  "activity.page.verb.take": "Tomar",
  "activity.page.verb.pass": "Pasar",
  "activity.page.verb.meld": "Bajar",
  "activity.page.verb.layoff": "Añadir",
  "activity.page.verb.swap": "Cambiar comodín",
  "activity.page.verb.table": "Reorganizar",
  "activity.page.verb.discard": "Descartar",
  "activity.page.verb.knock": "Cerrar",
  "activity.page.verb.gin": "Gin",
  "activity.page.verb.done": "Terminar",
  "activity.page.verb.auto": "Automático",
  "activity.page.verb.cut": "Cortar",
  "activity.page.verb.allow": "Permitir",
  "activity.page.verb.claim": "Reclamar",
  "activity.page.confirm": "Confirmar",
  "activity.page.undo": "Deshacer",
  "activity.page.cancel": "Cancelar",
  "activity.page.hint": "Pista",
  "activity.page.hint_text": "Pista: {text}",
  "activity.page.next_deal": "Siguiente mano",
  "activity.page.sort_suit": "Por palo",
  "activity.page.sort_rank": "Por número",
  "activity.page.select_card": "Elige antes una carta.",
  "activity.page.selected": "{count} {count, plural, one {carta elegida} many {de cartas elegidas} other {cartas elegidas}}",
  "activity.page.checking": "Comprobando…",
  "activity.page.draft_title": "Reorganizando la mesa",
  "activity.page.draft_ok": "Todas las combinaciones son válidas.",
  "activity.page.draft_new": "Nueva combinación",
  "activity.page.joker_as": "El comodín vale",
  "activity.page.joker_open": "Cualquiera",
  "activity.page.result_title": "Fin de la mano",
  "activity.page.result_points": "{points} puntos",
  "activity.page.result_deadwood": "Sueltas: {count}",
  "activity.page.game_over": "Fin de la partida",
  "activity.page.winners": "Gana {names}",
  "activity.page.you": "Tú",
};

export const WORDS_FR: Record<WordKey, string> = {
  "activity.page.title": "Rummy",
  "activity.page.connecting": "Connexion à la table…",
  "activity.page.reconnecting": "Connexion perdue. Reconnexion…",
  "activity.page.outside_discord": "Ouvre cette table depuis Discord : c'est une activité.",
  "activity.page.not_configured": "Cette page n'est pas configurée (l'id de l'application manque).",
  "activity.page.login_failed": "Connexion impossible : {reason}",
  "activity.page.session_refused": "La table a refusé cette session : {reason}",
  "activity.page.retry": "Réessayer",
  "activity.page.none_title": "Aucune partie ici",
  "activity.page.none_text": "Rien ne se joue dans ce salon. Lance une partie dans le chat avec /rummy, puis rouvre la table.",
  "activity.page.choose_text": "Plusieurs parties se jouent ici. Laquelle veux-tu voir ?",
  "activity.page.choose_title": "Choisis une partie",
  "activity.page.variant.basic": "Rummy de base",
  "activity.page.variant.wrotham": "Rummy de Wrotham",
  "activity.page.variant.gin": "Gin Rummy",
  "activity.page.variant.rami": "Rami",
  "activity.page.variant.tradicional": "Rummy traditionnel",
  "activity.page.variant.dummy": "Dummy Rummy",
  "activity.page.choice": "Partie {game}",
  "activity.page.lobby_title": "Salle d'attente",
  "activity.page.lobby_text": "En attente de joueurs.",
  "activity.page.lobby_host": "Lance la partie quand tout le monde est assis.",
  "activity.page.join": "Rejoindre",
  "activity.page.leave": "Quitter",
  "activity.page.start": "Lancer",
  "activity.page.bot": "Ajouter un bot",
  "activity.page.stock": "Pioche",
  "activity.page.stock_count": "Pioche : {count} {count, plural, one {carte} many {de cartes} other {cartes}}",
  "activity.page.discard": "Défausse",
  "activity.page.discard_count": "Défausse : {count} {count, plural, one {carte} many {de cartes} other {cartes}}",
  "activity.page.discard_empty": "Défausse : vide",
  "activity.page.hand": "Ta main",
  "activity.page.hand_count": "Ta main : {count} {count, plural, one {carte} many {de cartes} other {cartes}}",
  "activity.page.spectator": "Tu regardes cette partie.",
  "activity.page.table": "Table",
  "activity.page.table_empty": "Aucune combinaison sur la table pour l'instant.",
  "activity.page.meld": "Combinaison {n}",
  "activity.page.meld_owner": "Combinaison {n} ({name})",
  "activity.page.new_meld": "Nouvelle combinaison",
  "activity.page.new_meld_hint": "Fais glisser ou touche des cartes ici pour former une combinaison.",
  "activity.page.new_meld_group": "Nouvelle combinaison {n}",
  "activity.page.add_group": "Une autre combinaison",
  "activity.page.clear": "Vider",
  "activity.page.seat_cards": "{count} {count, plural, one {carte} many {de cartes} other {cartes}}",
  "activity.page.seat_total": "Total {total}",
  "activity.page.seat_you": "{name} (toi)",
  "activity.page.dealer": "Donneur",
  "activity.page.bot_tag": "Bot",
  "activity.page.opened": "A posé",
  "activity.page.contract": "Contrat {n}",
  "activity.page.your_turn": "À toi de jouer",
  "activity.page.turn_of": "À {name} de jouer",
  "activity.page.seconds_left": "{count} s",
  "activity.page.deal": "Donne {n}",
  "activity.page.revealed": "Face visible",
  "activity.page.verb.draw": "Piocher",
  "activity.page.verb.take": "Prendre",
  "activity.page.verb.pass": "Passer",
  "activity.page.verb.meld": "Poser",
  "activity.page.verb.layoff": "Ajouter",
  "activity.page.verb.swap": "Échanger le joker",
  "activity.page.verb.table": "Réorganiser",
  "activity.page.verb.discard": "Défausser",
  "activity.page.verb.knock": "Frapper",
  "activity.page.verb.gin": "Gin",
  "activity.page.verb.done": "Fini",
  "activity.page.verb.auto": "Auto",
  "activity.page.verb.cut": "Couper",
  "activity.page.verb.allow": "Laisser",
  "activity.page.verb.claim": "Réclamer",
  "activity.page.confirm": "Confirmer",
  "activity.page.undo": "Défaire",
  "activity.page.cancel": "Annuler",
  "activity.page.hint": "Conseil",
  "activity.page.hint_text": "Conseil : {text}",
  "activity.page.next_deal": "Donne suivante",
  "activity.page.sort_suit": "Par couleur",
  "activity.page.sort_rank": "Par valeur",
  "activity.page.select_card": "Choisis d'abord une carte.",
  "activity.page.selected": "{count} {count, plural, one {carte choisie} many {de cartes choisies} other {cartes choisies}}",
  "activity.page.checking": "Vérification…",
  "activity.page.draft_title": "Réorganisation de la table",
  "activity.page.draft_ok": "Toutes les combinaisons sont valides.",
  "activity.page.draft_new": "Nouvelle combinaison",
  "activity.page.joker_as": "Le joker remplace",
  "activity.page.joker_open": "N'importe laquelle",
  "activity.page.result_title": "Fin de la donne",
  "activity.page.result_points": "{points} points",
  "activity.page.result_deadwood": "Points isolés : {count}",
  "activity.page.game_over": "Partie terminée",
  "activity.page.winners": "{names} gagne",
  "activity.page.you": "Toi",
};

export const WORD_KEYS: readonly WordKey[] = Object.keys(WORDS_EN) as WordKey[];

/** The languages with built-in texts, by language code. */
export const BUILT_IN: Readonly<Record<string, Readonly<Record<WordKey, string>>>> = { es: WORDS_ES, en: WORDS_EN, fr: WORDS_FR };

export type Words = Readonly<Record<string, string>>;
export type Params = Readonly<Record<string, string | number>>;

/** The language of a locale code ("es-419" -> "es", "fr" -> "fr", "en-GB" -> "en"; anything else: ""). */
export function languageOf(locale: string | null | undefined): string {
  const base = (locale ?? "").replace("_", "-").split("-")[0]!.toLowerCase();
  return base in BUILT_IN ? base : "";
}

/** The built-in texts for a locale code ("es", "es-ES", "fr", "en-US"; anything else: English). */
export function defaults(locale: string | null | undefined): Words {
  return BUILT_IN[languageOf(locale) || "en"]!;
}

/** The index of the brace closing the one at `start`, or -1. */
function closing(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) return i;
  }
  return -1;
}

/** An ICU plural field's number name and branches, or null if `body` is not one. */
export function branches(body: string): { name: string; forms: Record<string, string> } | null {
  const head = /^\s*(\w+)\s*,\s*plural\s*,/.exec(body);
  if (!head) return null;
  const forms: Record<string, string> = {};
  let i = head[0].length;
  for (;;) {
    const rest = body.slice(i);
    if (!rest.trim()) break;
    const m = /^\s*(=\d+|\w+)\s*\{/.exec(rest);
    if (!m) return null;
    const open = i + m[0].length - 1;
    const end = closing(body, open);
    if (end < 0) return null;
    forms[m[1]!] = body.slice(open + 1, end);
    i = end + 1;
  }
  return Object.keys(forms).length ? { name: head[1]!, forms } : null;
}

const RULES = new Map<string, Intl.PluralRules>();

/** The CLDR plural category of a count in `locale`, by the browser's own rules (`Intl.PluralRules`).
 * A count already written out ("1,5", "1.0") keeps its visible decimals, as CLDR says. */
export function pluralCategory(value: string | number, locale: string): Intl.LDMLPluralRule {
  let n = typeof value === "number" ? value : Number(String(value).replace(/[\s\u00a0\u202f]/g, "").replace("\u2212", "-").replace(",", "."));
  if (!Number.isFinite(n)) return "other";
  n = Math.abs(n);
  const decimals = typeof value === "string" ? (/[.,](\d+)\s*$/.exec(value)?.[1]?.length ?? 0) : 0;
  const id = `${locale}|${decimals}`;
  let rules = RULES.get(id);
  if (!rules) {
    try {
      rules = new Intl.PluralRules(locale || "en", { minimumFractionDigits: decimals });
    } catch {
      rules = new Intl.PluralRules("en", { minimumFractionDigits: decimals });
    }
    RULES.set(id, rules);
  }
  return rules.select(n);
}

/** Fill `{name}` placeholders and ICU plurals (as bot/words/i18n.py does), plurals by `locale`'s CLDR rule;
 * a placeholder without its parameter stays as written. */
export function format(text: string, params: Params = {}, locale = "en"): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const start = text.indexOf("{", i);
    const end = start < 0 ? -1 : closing(text, start);
    if (start < 0 || end < 0) {
      out += text.slice(i);
      break;
    }
    out += text.slice(i, start);
    const body = text.slice(start + 1, end);
    const plural = branches(body);
    if (plural) {
      const v = params[plural.name];
      if (v === undefined) out += `{${body}}`;
      else {
        const n = typeof v === "number" ? v : Number(v);
        const exact = Number.isInteger(n) ? plural.forms[`=${n}`] : undefined;
        const chosen = exact ?? plural.forms[pluralCategory(v, locale)] ?? plural.forms["other"] ?? "";
        out += format(chosen.replaceAll("#", String(v)), params, locale);
      }
    } else {
      const v = params[body];
      out += v === undefined ? `{${body}}` : String(v);
    }
    i = end + 1;
  }
  return out;
}

/** A word from the server's map (in `locale`), else the built-in one of `locale`'s language, else the
 * English, else the key itself (a gap shows, nothing breaks). Its plurals follow the language it is in. */
export function word(words: Words, key: WordKey, params?: Params, locale?: string | null): string {
  const served = words[key];
  if (served !== undefined) return format(served, params, locale || "en");
  const language = languageOf(locale);
  const own = language ? BUILT_IN[language]![key] : undefined;
  if (own !== undefined) return format(own, params, locale!);
  return WORDS_EN[key] !== undefined ? format(WORDS_EN[key], params, "en") : key;
}
