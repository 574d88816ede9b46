"""Rule sets: every option of every variant, with type, allowed values and default.

Each variant's options come from rules.md (the section is cited per option). ``RuleSet`` is the
validated, immutable configuration of one game; ``docs/options.md`` is generated from
``OPTION_SPECS`` by ``scripts/gen_options.py``; ``BOT_OPTIONS`` holds the bounds of the few options
the bot reads itself. This module is not about how a rule is applied.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import IllegalMove

VARIANTS = ("basic", "wrotham", "gin", "rami", "tradicional", "dummy")
IMPLEMENTED = VARIANTS


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option: ``kind`` is bool, int, choice or pattern (a regex such as ``target:N``)."""

    name: str
    kind: str
    default: Any
    help: str
    section: str
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    pattern: str = ""

    def allowed(self) -> str:
        if self.kind == "bool":
            return "true | false"
        if self.kind == "int":
            return f"{self.low}..{self.high}"
        return " | ".join(self.choices)

    def parse(self, raw: Any) -> Any:
        text = str(raw).strip() if not isinstance(raw, bool) else ("true" if raw else "false")
        if self.kind == "bool":
            if text.lower() in ("true", "false"):
                return text.lower() == "true"
        elif self.kind == "int":
            if re.fullmatch(r"-?\d+", text):
                value = int(text)
                if (self.low is None or value >= self.low) and (self.high is None or value <= self.high):
                    return value
        elif self.kind == "choice":
            if text in self.choices:
                return text
        elif self.kind == "pattern" and re.fullmatch(self.pattern, text):
            if re.fullmatch(r"[a-z_]+:\d+", text) and int(text.partition(":")[2]) < 1:
                raise self._bad(text)  # target:0, hands:0, limit:0
            return text
        raise self._bad(text)

    def _bad(self, text: str) -> IllegalMove:
        return IllegalMove(
            "bad_option_value",
            f"{text!r} is not a valid value for {self.name} (allowed: {self.allowed()})",
            {"name": self.name, "value": text, "allowed": self.allowed()},
        )

    @staticmethod
    def write(value: Any) -> str:
        return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _b(name: str, default: bool, section: str, help: str) -> OptionSpec:
    return OptionSpec(name, "bool", default, help, section)


def _i(name: str, default: int, low: int, high: int, section: str, help: str) -> OptionSpec:
    return OptionSpec(name, "int", default, help, section, low=low, high=high)


def _c(name: str, default: str, choices: tuple[str, ...], section: str, help: str) -> OptionSpec:
    return OptionSpec(name, "choice", default, help, section, choices=choices)


_TURN_LIMIT = _i(
    "hand_turn_limit",
    400,
    20,
    10000,
    "§0.4",
    "Safety cap: a deal ends after this many turns (basic/wrotham: scored as blocked; others: void).",
)

_BASIC_COMMON: tuple[OptionSpec, ...] = (
    _b("multiple_melds_per_turn", False, "§1.7", "Any number of new melds per turn (default: one)."),
    _c(
        "going_rummy",
        "off",
        ("off", "double", "plus10"),
        "§1.7",
        "Going out in one turn with nothing placed before: double the deal's score, or +10.",
    ),
    _b("layoff_requires_own_meld", False, "§1.7", "No layoffs on others' melds until you have melded."),
    _c(
        "ace_mode",
        "low",
        ("low", "high_low", "round_the_corner"),
        "§1.7",
        "low: A-2-3 only (ace 1). high_low: also Q-K-A (ace 15). round_the_corner: also K-A-2 (ace 15).",
    ),
    _b("last_discard_required", False, "§1.7", "You must go out by discarding your last card."),
    OptionSpec(
        "stock_exhaustion",
        "pattern",
        "turn_over",
        "turn_over: discard pile turned over unshuffled; shuffle; limit:N: blocked at the N-th "
        "exhaustion; reuse_once; block: blocked when the stock is empty.",
        "§1.4, §1.7",
        choices=("turn_over", "shuffle", "limit:N", "reuse_once", "block"),
        pattern=r"turn_over|shuffle|reuse_once|block|limit:\d{1,3}",
    ),
    _c(
        "scoring_mode",
        "winner_collects",
        ("winner_collects", "penalty", "settle"),
        "§1.5, §1.7",
        "winner_collects: the winner scores the losers' hands; penalty: each scores own hand, low wins; "
        "settle: losers pay the winner.",
    ),
)

_GAME_END = OptionSpec(
    "game_end",
    "pattern",
    "target:100",
    "target:N: ends when a total reaches N; hands:N: after N deals.",
    "§1.6",
    choices=("target:N", "hands:N"),
    pattern=r"(target|hands):\d{1,5}",
)

OPTION_SPECS: dict[str, tuple[OptionSpec, ...]] = {
    "basic": (*_BASIC_COMMON, _GAME_END, _TURN_LIMIT),
    "wrotham": (*_BASIC_COMMON, _TURN_LIMIT),
    "gin": (
        _i("gin_bonus", 20, 0, 200, "§2.5", "Bonus for going gin (North American rules: 25)."),
        _i("undercut_bonus", 10, 0, 200, "§2.5", "Bonus for an undercut (North American rules: 25)."),
        _b("undercut_on_tie", True, "§2.5", "Equal deadwood after a knock is an undercut (false: 0 to both)."),
        _i("knock_limit", 10, 0, 10, "§2.3", "Highest deadwood a player may knock with."),
        _b("layoff_on_gin", True, "§2.4", "The defender may lay off against gin (false: the common rule)."),
        _c("next_dealer", "winner", ("winner", "loser", "alternate"), "§2.1", "Who deals the next hand."),
        _b(
            "upcard_offer",
            True,
            "§2.3",
            "The first upcard is offered to the non-dealer, then the dealer (false: a normal first turn).",
        ),
        _c(
            "dead_hand",
            "after_discard",
            ("after_discard", "immediate", "wall"),
            "§2.6",
            "When two stock cards remain: after the discard, at once, or OpenSpiel's wall.",
        ),
        _i("target", 100, 1, 10000, "§2.7", "Hand points that end the game."),
        _i("game_bonus", 100, 0, 1000, "§2.7", "Bonus to the game's winner."),
        _i("line_bonus", 20, 0, 1000, "§2.7", "Bonus per hand won, to each player."),
        _i("shutout_bonus", 100, 0, 1000, "§2.7", "Extra bonus when the loser won no hand."),
        _TURN_LIMIT,
    ),
    "rami": (
        _i("first_meld_min", 50, 30, 80, "§3.5", "Points of new melds from hand needed to open."),
        _c(
            "scoring_mode",
            "normal",
            ("normal", "traditional", "elimination"),
            "§3.2, §3.8",
            "normal/traditional: points for every card placed (two value scales); elimination: low wins.",
        ),
        _c(
            "discard_mode",
            "simple",
            ("simple", "none", "one_way", "multiple"),
            "§3.7",
            "simple: take the top discard only to play it; none: no discards; one_way: never taken; "
            "multiple: take a card and all above it.",
        ),
        _b("table_manipulation", False, "§3.10", "Opened players may rearrange the table (table moves)."),
        _b("identities", False, "§3.11", "Identity melds (3-4 copies of one card); forces 4 decks."),
        _i("jokers_per_deck", 2, 0, 4, "§3.1", "Jokers added per deck."),
        _b("ace_wrap", False, "§3.3", "Runs may wrap round the ace (K-A-2)."),
        _b("retrieval_requires_opened", True, "§3.6", "Only opened players may retrieve a joker."),
        _b("joker_retrieval_debit", True, "§3.6", "Retrieving a joker debits its value from the retriever."),
        _b("rami_allows_final_discard", True, "§3.8", "A rami may end with a final discard."),
        _i("elimination_threshold", 200, 50, 2000, "§3.8", "Elimination: a total above this is out."),
        OptionSpec(
            "rounds_per_game",
            "pattern",
            "players",
            "Rounds in a game (normal/traditional): a number, or players = one per player.",
            "§3.8",
            choices=("players", "N"),
            pattern=r"players|\d{1,3}",
        ),
        _TURN_LIMIT,
    ),
    "tradicional": (
        _c(
            "restock",
            "keep_top",
            ("keep_top", "flip_all_then_upcard"),
            "§4.4",
            "Empty stock: keep the top discard and turn the rest over, or turn all over and a new upcard.",
        ),
        _b("opt1_pozo_visible", False, "§4.6", "Option 1: the whole discard pile is visible."),
        _b("opt2_rummy_call", False, "§4.6", "Option 2: claim a discard out of turn (claim window)."),
        _b("opt3_ace_high_low", False, "§4.6", "Option 3: ace high or low (A-2-3 and Q-K-A); ace counts 11."),
        _b("opt4_continuous", False, "§4.6", "Option 4: continuous ranking (K-A-2); implies option 3."),
        _b("opt5_two_turns", False, "§4.6", "Option 5: going out needs melds in two different turns."),
        _i("claim_window_s", 5, 2, 60, "§4.6", "Seconds the bot keeps a claim window open."),
        _GAME_END,
        _TURN_LIMIT,
    ),
    "dummy": (
        _i("deal_size", 13, 7, 15, "§5.7", "Cards dealt to each player."),
        _b("cut_ins", False, "§5.5", "Players may cut in for a discard out of turn."),
        _i("cut_extra_cards", 3, 0, 5, "§5.5", "Stock cards a cut-in takes with the discard."),
        _i("cuts_per_hand", 2, 0, 5, "§5.5", "Cut-ins per player per hand."),
        _i("cut_window_s", 10, 2, 60, "§5.5", "Seconds the bot keeps a cut-in window open."),
        _b("layoff_same_turn", False, "§5.5", "Lay off in the same turn as laying down the contract."),
        _b("no_playable_discard", True, "§5.5", "A card that could be laid off may not be discarded."),
        _i("min_natural_per_meld", 1, 1, 3, "§5.4", "Natural (non-wild) cards every meld needs."),
        _c("contract_sizes", "minimum", ("minimum", "exact"), "§5.4", "Contract meld sizes are minimums, or exact."),
        OptionSpec(
            "card_values",
            "pattern",
            "contract_bicycle",
            "contract_bicycle (A, 2 and JK 15; K Q J T 10; others pip) or overrides such as A:15,JK:20,2:20,K:10.",
            "§5.6",
            choices=("contract_bicycle", "R:V,..."),
            pattern=r"contract_bicycle|(?:(?:[A2-9TJQK]|JK|10):\d{1,3})(?:,(?:(?:[A2-9TJQK]|JK|10):\d{1,3}))*",
        ),
        _c(
            "game_end",
            "first_to_finish",
            ("first_to_finish", "all_finish"),
            "§5.6",
            "Ends after the deal where someone completes contract 12, or when everyone has.",
        ),
        _TURN_LIMIT,
    ),
}

PLAYERS: dict[str, tuple[int, int]] = {
    "basic": (2, 6),
    "wrotham": (2, 6),
    "gin": (2, 2),
    "rami": (2, 8),
    "tradicional": (2, 4),
    "dummy": (2, 4),
}

BOT_OPTIONS: dict[str, tuple[int, int]] = {"window": (0, 120)}
"""Options the bot reads itself, not the engine: name -> (lowest, highest) whole value. A lobby's
options text carries them beside the engine's; ``make_rules`` never sees them (the service splits
them off first). They live here, beside the engine's, so that every floor that reads or words a
lobby's options takes their bounds from the floor below it."""


@dataclass(frozen=True)
class RuleSet:
    """A variant with every option resolved and validated; ``rules["name"]`` reads a value."""

    variant: str
    values: Mapping[str, Any] = field(default_factory=dict)

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    @property
    def window_seconds(self) -> float | None:
        """How long the bot keeps a claim window (tradicional ``claim_window_s``, §4.6) or a
        cut-in window (dummy ``cut_window_s``, §5.5) open; None for variants without one."""
        for name in ("claim_window_s", "cut_window_s"):
            if name in self.values:
                return float(self.values[name])
        return None

    def non_default(self) -> dict[str, Any]:
        specs = {s.name: s for s in OPTION_SPECS[self.variant]}
        return {k: v for k, v in self.values.items() if specs[k].default != v}

    def options_text(self) -> str:
        return " ".join(f"{k}={OptionSpec.write(v)}" for k, v in self.non_default().items())


def parse_options_text(text: str) -> dict[str, str]:
    """``"a=1 b=true"`` -> ``{"a": "1", "b": "true"}``; refuses words without ``=``."""
    out: dict[str, str] = {}
    for word in text.split():
        name, eq, value = word.partition("=")
        if not eq or not name:
            raise IllegalMove("bad_option", f"{word!r}: write options as name=value", {"text": word})
        out[name] = value
    return out


def make_rules(variant: str, options: Mapping[str, Any] | str | None = None) -> RuleSet:
    """Validate a variant name and its options; unknown names or values raise IllegalMove."""
    if variant not in VARIANTS:
        raise IllegalMove(
            "unknown_variant",
            f"unknown variant {variant!r} (valid: {', '.join(VARIANTS)})",
            {"variant": variant, "valid": list(VARIANTS)},
        )
    if variant not in IMPLEMENTED:
        raise IllegalMove("variant_unavailable", f"the variant {variant!r} is not available yet", {"variant": variant})
    given = parse_options_text(options) if isinstance(options, str) else dict(options or {})
    specs = {s.name: s for s in OPTION_SPECS[variant]}
    values: dict[str, Any] = {s.name: s.default for s in OPTION_SPECS[variant]}
    for name, raw in given.items():
        spec = specs.get(name)
        if spec is None:
            raise IllegalMove(
                "unknown_option",
                f"{variant} has no option {name!r} (valid: {', '.join(specs)})",
                {"name": name, "variant": variant, "valid": list(specs)},
            )
        values[name] = spec.parse(raw)
    return RuleSet(variant, values)
