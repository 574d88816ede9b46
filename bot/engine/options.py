"""Rule sets: every option of every variant, with type, allowed values and default.

Each variant's options come from rules.md (the section is cited per option). ``RuleSet`` is the
validated, immutable configuration of one game; ``docs/options.md`` is generated from
``OPTION_SPECS`` by ``scripts/gen_options.py``. This module is not about how a rule is applied.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import IllegalMove

VARIANTS = ("basic", "wrotham", "gin", "rami", "tradicional", "dummy")
IMPLEMENTED = ("basic", "wrotham", "gin")


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
            if ":" in text:
                _head, _, num = text.partition(":")
                if int(num) < 1:
                    raise self._bad(text)
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
}

PLAYERS: dict[str, tuple[int, int]] = {"basic": (2, 6), "wrotham": (2, 6), "gin": (2, 2)}


@dataclass(frozen=True)
class RuleSet:
    """A variant with every option resolved and validated; ``rules["name"]`` reads a value."""

    variant: str
    values: Mapping[str, Any] = field(default_factory=dict)

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

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
