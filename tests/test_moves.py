"""``bot.words.moves``: what a player reads when a move is refused, how moves are labelled and typed.

What a player would notice: every refusal the engine can raise has a sentence in Spanish and in
English with its parameters filled in; Spanish verbs typed in ``/rummy play`` reach the engine and
are accepted; every move autocomplete offers has a label that fits Discord's 100 characters; the
autocomplete filter keeps what matches, in the engine's order.
"""

from __future__ import annotations

import ast
import random
from fractions import Fraction
from functools import cache
from pathlib import Path
from textwrap import dedent

import pytest

from bot.engine import IllegalMove, Move, Verb, load_game, new_game
from bot.words.cards import card_text, cards_text
from bot.words.i18n import LOCALES, catalog, has_key, placeholders, translate
from bot.words.moves import VERBS, describe_move, normalize_move, rank_moves
from bot.words.refusals import ledger_text, refusal_text

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "bot" / "engine"
VARIANTS = ("basic", "wrotham", "gin", "rami", "tradicional", "dummy")
PHASES = ("upcard", "draw", "play", "layoff", "window", "over")


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def load(text: str):
    return load_game(dedent(text).strip() + "\n")


# ----------------------------------------------------------------------------- the engine's source


def _engine_trees():
    for path in sorted(ENGINE.glob("*.py")):
        yield path.name, ast.parse(path.read_text(encoding="utf-8"))


def _dict_keys(node: ast.AST | None) -> list[str] | None:
    if isinstance(node, ast.Dict) and all(isinstance(k, ast.Constant) for k in node.keys):
        return [k.value for k in node.keys]  # type: ignore[union-attr]
    return None


@cache
def raise_sites() -> list[tuple[str, str, list[str] | None]]:
    """(where, code, param names or None when not a literal dict) of every ``IllegalMove(...)``."""
    sites = []
    for name, tree in _engine_trees():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalMove":
                assert isinstance(node.args[0], ast.Constant), f"{name}:{node.lineno}: the code is not a literal"
                params = (
                    node.args[2]
                    if len(node.args) > 2
                    else next((k.value for k in node.keywords if k.arg == "params"), None)
                )
                keys = [] if params is None else _dict_keys(params)
                sites.append((f"{name}:{node.lineno}", node.args[0].value, keys))
    return sites


@cache
def ledger_sites() -> list[tuple[str, str, list[str]]]:
    """(where, code, param names) of every ledger line the engine writes: ``credit(...)``,
    ``place_credit(...)``, ``ledger.append((...))`` and the literal ``(seat, points, code, {...})``
    tuples gin collects before appending them."""
    sites = []
    for name, tree in _engine_trees():
        for node in ast.walk(tree):
            where = f"{name}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) in ("credit", "place_credit"):
                code = node.args[2]
                if isinstance(code, ast.Constant):
                    sites.append((where, code.value, [k.arg for k in node.keywords]))
            elif (
                isinstance(node, ast.Tuple)
                and len(node.elts) == 4
                and isinstance(node.elts[2], ast.Constant)
                and isinstance(node.elts[2].value, str)
                and _dict_keys(node.elts[3]) is not None
            ):
                sites.append((where, node.elts[2].value, _dict_keys(node.elts[3]) or []))
    return sites


SAMPLE = {
    "card": "TH",
    "cards": "7H 8H",
    "meld": "5C 6C JK=7C",
    "readings": ["JK=8C 9C TC", "9C TC JK=JC"],
    "number": 3,
    "deadwood": 23,
    "limit": 10,
    "value": 35,
    "minimum": 50,
    "contract": 2,
    "seat": "ana",
    "turn": "bea",
    "verb": "knock",
    "valid": ["draw", "take", "meld", "layoff", "discard"],
    "phase": "draw",
    "expected": ["play"],
    "text": "ZZ",
    "tag": "Hand",
    "variant": "gin",
    "min": 2,
    "max": 2,
    "name": "gin_bonus",
    "allowed": "0..1000",
    "what": "lay off",
    "mode": "one_way",
    "seed": "bad seed",
    "deal": 4,
    "count": 12,
    "loser": "bea",
    "winner": "ana",
    "doubled": True,
    "multiplier": 2,
    "pot": Fraction(25, 2),
    "sharers": 2,
    "low": 5,
    "knocker": 4,
    "defender": 19,
    "hands": 3,
    "own_only": True,
    "reason": "turn_timed_out_illegal",
}


def test_the_scan_finds_the_engine_codes():
    sites = raise_sites()
    codes = {code for _, code, _ in sites}
    assert len(sites) > 100 and len(codes) > 30
    assert {"not_your_turn", "invalid_meld", "knock_too_high", "ambiguous_wild"} <= codes
    ledger = {code for _, code, _ in ledger_sites()}
    assert {"gin_bonus", "meld", "hand_count", "game_bonus", "line_bonus", "penalty"} <= ledger


@pytest.mark.parametrize("locale", LOCALES)
def test_every_engine_code_has_a_sentence(locale):
    missing = sorted({code for _, code, _ in raise_sites() if not has_key(f"error.{code}", locale)})
    assert not missing, f"no error.<code> in {locale}: {missing}"
    missing = sorted({code for _, code, _ in ledger_sites() if not has_key(f"ledger.{code}", locale)})
    assert not missing, f"no ledger.<code> in {locale}: {missing}"
    for phase in PHASES:
        assert has_key(f"phase.{phase}", locale), phase
    for verb in VERBS:
        assert has_key(f"verb.{verb}", locale), verb
        assert has_key(f"describe.{verb}", locale), verb


@pytest.mark.parametrize("locale", [loc for loc in LOCALES if loc != "es"])
def test_engine_catalogs_agree(locale):
    def engine(loc):
        return {k: v for k, v in catalog(loc).items() if k.split(".")[0] in ("error", "ledger", "verb", "describe",
                                                                             "moves", "phase")}

    es, other = engine("es"), engine(locale)
    assert set(es) == set(other), set(es) ^ set(other)
    for key in es:
        assert placeholders(es[key]) == placeholders(other[key]), key
        assert es[key].strip() and other[key].strip(), key
        if key.startswith("error."):
            assert es[key][-1] in ".!?" and other[key][-1] in ".!?", key


@pytest.mark.parametrize("locale", LOCALES)
def test_every_raise_site_fills_its_sentence(locale):
    """The params each raise site passes are enough for the sentence refusal_text picks."""
    generic = translate("moves.unknown_error", locale, code="")
    for where, code, keys in raise_sites():
        if keys is None:
            # rami re-raises swap_no_match's params as joker_ambiguous_or_absent.
            assert code == "joker_ambiguous_or_absent", where
            keys = ["card", "number"]
        err = IllegalMove(code, "ENGINE MESSAGE", {k: SAMPLE[k] for k in keys})
        text = refusal_text(err, locale)
        assert "{" not in text and "}" not in text, (where, text)
        assert text != "ENGINE MESSAGE" and not text.startswith(generic[:20]), (where, text)


@pytest.mark.parametrize("locale", LOCALES)
def test_every_ledger_line_has_its_reason(locale):
    for where, code, keys in ledger_sites():
        for subset in (keys, [k for k in keys if k not in ("doubled", "own_only", "multiplier")]):
            text = ledger_text(("ana", 10, code, {k: SAMPLE[k] for k in subset}), locale)
            assert text and "{" not in text and f"({code})" not in text, (where, text)


def test_refusal_params_are_written_for_people():
    err = IllegalMove("knock_too_high", "...", {"deadwood": 23, "limit": 10, "card": "TH"})
    assert refusal_text(err, "es") == (
        "Descartando 10♥ te quedarían 23 puntos sueltos; para cerrar necesitas 10 o menos."
    )
    assert refusal_text(err, "en") == "Discarding 10♥ leaves you 23 deadwood; to knock you need 10 or less."
    err = IllegalMove("ambiguous_wild", "...", {"readings": ["JK=8C 9C TC", "9C TC JK=JC"]})
    assert "«🃏=8♣ 9♣ 10♣» o «9♣ 10♣ 🃏=J♣»" in refusal_text(err, "es")
    assert "“🃏=8♣ 9♣ 10♣” or “9♣ 10♣ 🃏=J♣”" in refusal_text(err, "en")
    err = IllegalMove("opening_too_low", "...", {"value": Fraction(75, 2), "minimum": 50})
    assert "37,5" in refusal_text(err, "es") and "37.5" in refusal_text(err, "en")
    err = IllegalMove("not_your_turn", "...", {"seat": "u1", "turn": "u2"})
    assert refusal_text(err, "es", names={"u2": "Bea"}) == "No es tu turno: ahora le toca a Bea."
    err = IllegalMove("unknown_move", "...", {"verb": "knock", "valid": ["draw", "take"]})
    assert refusal_text(err, "es") == "«cerrar» no es una jugada de esta partida; las posibles son: robar, tomar."
    assert refusal_text(err, "en") == "“knock” is not a move in this game; the moves are: draw, take."


def test_unknown_codes_fall_back():
    err = IllegalMove("brand_new_rule", "you may not do that on Sundays", {})
    assert refusal_text(err, "en") == "you may not do that on Sundays"
    es = refusal_text(err, "es")
    assert "brand_new_rule" in es and "Sundays" not in es
    assert refusal_text(err, "de") == es  # unknown locale: Spanish
    # A known code whose sentence needs a param the refusal lacks is not shown half-filled.
    err = IllegalMove("no_such_meld", "there is no meld 9 on the table", {})
    assert refusal_text(err, "en") == "there is no meld 9 on the table"
    assert "{" not in refusal_text(err, "es")
    assert ledger_text(("ana", 5, "brand_new_bonus", {}), "es") == translate(
        "moves.unknown_ledger", "es", code="brand_new_bonus"
    )


# ----------------------------------------------------------------------------- real refusals

BASIC = """
    [Variant "basic"]
    [Seats "ana bob cy"]
    [Dealer "cy"]
    [Hand "ana" "5C 6C 7C 9D 9S 9H KD KH"]
    [Table "bob: TD JD QD"]
    [Discard "2S 9C"]
    [Turn "ana"]
    [Phase "play"]
"""
BASIC_OWN = BASIC.replace("[Seats", '[Options "layoff_requires_own_meld=true"]\n    [Seats')
GIN = """
    [Variant "gin"]
    [Seats "ana bea"]
    [Hand "ana" "QS KS AS 2H 2D 2C 7H 8H 9H TD 5C"]
    [Turn "ana"]
    [Phase "play"]
"""
RAMI = """
    [Variant "rami"]
    [Seats "ana bea"]
    [Dealer "bea"]
    [Hand "ana" "9C TC JK 7H 7D 3S 8S 2C"]
    [Hand "bea" "2D 3D 4S KC"]
    [Turn "ana"]
    [Phase "play"]
"""
DUMMY = """
    [Variant "dummy"]
    [Seats "ana bea"]
    [Dealer "bea"]
    [Hand "ana" "8H 8S 8D 8C 3C 4D 5C 6H KS KD KC JK 9D"]
    [Contract "ana=2 bea=1"]
    [Turn "ana"]
    [Phase "play"]
"""

REFUSALS = [
    # (record, seat, what the player typed, code, words each sentence must show: (es, en))
    (BASIC, "ana", "bajar 5C 6C 7C | 9D 9S 9H", "one_meld_per_turn", ("una combinación", "one new meld")),
    (BASIC, "ana", "bajar 5c 6c 9d", "invalid_meld", ("5♣ 6♣ 9♦", "5♣ 6♣ 9♦")),
    (BASIC, "ana", "bajar 8c 9c 10c", "not_in_hand", ("8♣", "8♣")),
    (BASIC, "ana", "añadir kd a 7", "no_such_meld", ("combinación 7", "meld 7")),
    (BASIC, "ana", "añadir 5c a 1", "invalid_layoff", ("5♣ a la combinación 1", "5♣ on meld 1")),
    (BASIC_OWN, "ana", "añadir kd a 1", "layoff_needs_own_meld", ("ajenas", "own")),
    (BASIC, "ana", "cerrar kd", "unknown_move", ("«cerrar»", "“knock”")),
    (BASIC, "ana", "robar", "wrong_phase", ("Ya robaste", "already drawn")),
    (BASIC, "bob", "robar", "not_your_turn", ("ana", "ana")),
    (BASIC, "ana", "descartar zz", "bad_card", ("«ZZ»", "“ZZ”")),
    (BASIC, "ana", "descartar", "bad_move", ("mal escrita", "not written right")),
    (BASIC, "ana", "añadir kd", "bad_move", ("mal escrita", "not written right")),
    (GIN, "ana", "cerrar 5c", "knock_too_high", ("31 puntos sueltos", "31 deadwood")),
    (GIN, "ana", "tocar 5C : QS KS AS | 2H 2D 2C | 7H 8H 9H", "invalid_meld", ("Q♠ K♠ A♠", "Q♠ K♠ A♠")),
    (GIN, "ana", "añadir 7h a 1", "wrong_phase", ("Ya robaste", "already drawn")),
    (GIN, "ana", "cambiar 3h a 1", "unknown_move", ("«cambiar»", "“swap”")),
    (RAMI, "ana", "bajar 9C TC JK", "ambiguous_wild", ("«🃏=8♣ 9♣ 10♣»", "“🃏=8♣ 9♣ 10♣”")),
    (RAMI, "ana", "bajar 7h 7d jk", "opening_too_low", ("50", "50")),
    (RAMI, "ana", "añadir 8s a 1", "not_opened", ("abrir", "open")),
    (DUMMY, "ana", "bajar 8H 8S 8D | 3C 4D 5C", "contract_not_met", ("contrato 2", "contract 2")),
]


@pytest.mark.parametrize(("record", "seat", "typed", "code", "shown"), REFUSALS)
def test_real_refusals_read_well(record, seat, typed, code, shown):
    game = load(record)
    before = game.record()
    with pytest.raises(IllegalMove) as info:
        game.play(seat, normalize_move(typed))
    err = info.value
    assert err.code == code, (typed, err)
    assert game.record() == before
    for locale, words in zip(("es", "en"), shown, strict=True):
        text = refusal_text(err, locale)
        assert "{" not in text and "}" not in text, text
        assert words in text, (locale, text)


# ----------------------------------------------------------------------------- Spanish typing


def test_spanish_verbs_and_words():
    cases = {
        "robar": "draw",
        "  Tomar  ": "take",
        "coger 9d": "take 9D",
        "PASAR": "pass",
        "bajar 5c 6c 7c|9d 9s 9h": "meld 5C 6C 7C | 9D 9S 9H",
        "combinar jk=8h 9♥ 10♥": "meld JK=8H 9H 10H",
        "bajar comodín 9h 10h": "meld JK 9H 10H",
        "añadir 7h a 3": "layoff 7H to 3",
        "Anadir 7H 8H en 3": "layoff 7H 8H to 3",
        "agregar 7h a la combinación 3": "layoff 7H to 3",
        "colocar 7h 3": "layoff 7H to 3",
        "cambiar 6h a 2": "swap 6H to 2",
        "intercambiar 6h en 2": "swap 6H to 2",
        "mesa 3c 4c 5c | 6h 6d 6c": "table 3C 4C 5C | 6H 6D 6C",
        "reorganizar 3c 4c 5c": "table 3C 4C 5C",
        "descartar ks": "discard KS",
        "tirar 10h": "discard 10H",
        "cerrar kd": "knock KD",
        "tocar kd: 5s 5c 5d": "knock KD : 5S 5C 5D",
        "listo": "done",
        "terminar": "done",
        "hecho": "done",
        "auto": "auto",
        "cortar": "cut",
        "permitir": "allow",
        "reclamar kd": "claim KD",
        "layoff 7h TO 3": "layoff 7H to 3",
        "lay off 7H to 3": "layoff 7H to 3",
        "discard K♠": "discard KS",
    }
    for typed, move in cases.items():
        assert normalize_move(typed) == move, typed


def test_normalize_never_invents_a_timeout_and_passes_unknown_verbs():
    assert normalize_move("timeout") == "timeout"
    assert normalize_move("  TIMEOUT ") == "timeout"  # the bot refuses it; it stays recognisable
    for word in ("tiempo", "agotado", "time", "out", "fin", "rendirse"):
        assert normalize_move(word).split()[0] != "timeout"
    assert normalize_move("  volar   7H ") == "volar 7H"
    assert normalize_move("") == "" and normalize_move("   ") == ""
    game = load(BASIC)
    with pytest.raises(IllegalMove) as info:
        game.play("ana", normalize_move("volar 7H"))
    assert info.value.code == "unknown_move"


def test_spanish_moves_are_played():
    game = load(BASIC)
    game.play("ana", normalize_move("bajar 9d 9s 9h"))
    game.play("ana", normalize_move("añadir kd a 1"))
    game.play("ana", normalize_move("Descartar KH"))
    assert game.current_seat == "bob"
    game.play("bob", normalize_move("tomar"))
    assert game.phase == "play"
    gin = load(GIN)
    gin.play("ana", normalize_move("tirar 5c"))
    gin.play("bea", normalize_move("robar"))
    assert gin.phase == "play"


def spanish(move: str, rng: random.Random) -> str:
    """A legal move as a Spanish speaker might type it: Spanish verb, ``a``/``en``, lower case."""
    words = move.split()
    spanish_verbs = {
        "draw": "robar", "take": "tomar", "pass": "pasar", "meld": "bajar", "layoff": "añadir",
        "swap": "cambiar", "table": "mesa", "discard": "descartar", "knock": "cerrar", "done": "listo",
        "auto": "auto", "cut": "cortar", "allow": "permitir", "claim": "reclamar",
    }  # fmt: skip
    words[0] = spanish_verbs[words[0]]
    words = [rng.choice(("a", "en")) if w == "to" else w for w in words]
    text = " ".join(words)
    return rng.choice((text.lower(), text.upper(), text.capitalize()))


# ----------------------------------------------------------------------------- random playouts

OPTIONS = {
    "basic": {},
    "wrotham": {},
    "gin": {},
    "rami": {"discard_mode": "multiple", "table_manipulation": "true"},
    "tradicional": {"opt2_rummy_call": "true"},
    "dummy": {"cut_ins": "true"},
}


def playout(variant: str, seed: int, steps: int):
    """Yield (game, seat, legal moves, rng) along one random game that prefers melding moves."""
    rng = random.Random(seed)
    seats = ["ana", "bea"] if variant == "gin" else ["ana", "bea", "cy"]
    game = new_game(variant, seats, seed=seed, options=OPTIONS[variant])
    for _ in range(steps):
        if game.game_over:
            return
        if game.hand_over:
            game.next_deal()
            continue
        seat = game.actors[0]
        moves = game.legal_moves(seat)
        yield game, seat, moves, rng
        rich = [m for m in moves if m.split()[0] not in ("discard", "draw", "pass", "allow")]
        move = rng.choice(rich) if rich and rng.random() < 0.6 else rng.choice(moves)
        game.play(seat, normalize_move(spanish(move, rng)) if rng.random() < 0.5 else move)


GIN_KNOCK = """
    [Variant "gin"]
    [Seats "ana bea"]
    [Dealer "bea"]
    [Hand "ana" "3H 4H 5H 5S 5D 5C 6C 7C AD 2S KD"]
    [Hand "bea" "6S 7S 8S 9S TS JS QS KH 8C TH"]
    [Turn "ana"]
    [Phase "play"]
"""


def test_gin_knock_and_layoff_moves_are_labelled_and_typed():
    game = load(GIN_KNOCK)
    assert "knock KD" in game.legal_moves("ana")
    assert describe_move("knock KD", "es") == "Cerrar descartando K♦"
    game.play("ana", normalize_move("tocar kd"))
    assert game.phase == "layoff"
    moves = game.legal_moves("bea")
    assert set(moves) == {"auto", "layoff 8C to 2", "done"}
    labels = {m: describe_move(m, "es") for m in moves}
    assert labels["layoff 8C to 2"] == "Añadir 8♣ a la combinación 2"
    assert labels["auto"] and labels["done"] == "Terminar (listo)"
    assert rank_moves(moves, "añadir") == ["layoff 8C to 2"]
    game.play("bea", normalize_move("colocar 8c en 2"))
    game.play("bea", normalize_move("listo"))
    assert game.hand_over
    for entry in game.ledger:
        for locale in LOCALES:
            assert "{" not in ledger_text(entry, locale)


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_listed_move_has_a_label_and_a_spanish_spelling(variant):
    verbs, ledger = set(), []
    for seed in (1, 2):
        for game, _seat, moves, rng in playout(variant, seed, 120):
            for move in moves:
                verbs.add(move.split()[0])
                for locale in LOCALES:
                    label = describe_move(move, locale)
                    assert label.strip() and "{" not in label, (move, label)
                    assert utf16(label) <= 100 and len(label) <= 100, (move, label)
                    assert label != move or move.split()[0] not in VERBS, (move, label)
                assert normalize_move(spanish(move, rng)) == move
            ledger += list(game.ledger)
    assert {"draw", "discard"} <= verbs
    for entry in ledger:
        for locale in LOCALES:
            text = ledger_text(entry, locale)
            assert text and "{" not in text and f"({entry[2]})" not in text, (entry, text)


@pytest.mark.parametrize("variant", VARIANTS)
def test_junk_typed_in_real_games_is_explained(variant):
    """Whatever a player types, the refusal reads as a sentence of the catalog, never a raw code."""
    junk = ("robar", "tomar", "descartar zz", "descartar 9h", "bajar 2c 3c 4c", "añadir 7h a 9", "cerrar kd",
            "cambiar 6h a 1", "mesa 3c 4c 5c", "reclamar kd", "listo", "cortar", "permitir", "pasar", "volar",
            "añadir", "bajar jk jk")  # fmt: skip
    codes = set()
    for game, seat, moves, rng in playout(variant, 3, 60):
        for typed in rng.sample(junk, 4):
            if normalize_move(typed) in moves:
                continue
            try:
                game.play(seat, normalize_move(typed))
            except IllegalMove as err:
                codes.add(err.code)
                for locale in LOCALES:
                    text = refusal_text(err, locale)
                    assert has_key(f"error.{err.code}", locale)
                    assert "{" not in text and err.code not in text, (typed, err, text)
            else:
                break  # a legal move the list did not name (a table move): the game moved on
        else:
            continue
        break
    assert len(codes) >= 3, codes


# ----------------------------------------------------------------------------- labels and autocomplete


def test_labels():
    assert describe_move("discard KS", "es") == "Descartar K♠"
    assert describe_move("discard KS", "en") == "Discard K♠"
    assert describe_move("meld 5C 6C 7C | 9D 9S 9H", "es") == "Bajar 5♣ 6♣ 7♣ · 9♦ 9♠ 9♥"
    assert describe_move("layoff 7H to 3", "es") == "Añadir 7♥ a la combinación 3"
    assert describe_move("knock KD", "es") == "Cerrar descartando K♦"
    assert describe_move("meld 9C TC JK=JC", "en") == "Meld 9♣ 10♣ 🃏=J♣"
    assert describe_move("layoff 2S=9 to 1", "es") == "Añadir 2♠=9 a la combinación 1"
    assert describe_move("take 9D", "en") == "Take the discard pile from 9♦ up"
    assert describe_move("claim KD", "es") == "Reclamar el descarte dejando K♦"
    assert describe_move("draw", "de") == describe_move("draw", "es")
    assert describe_move("layoff 7H to 3", "fr") == "Ajouter 7♥ à la combinaison 3"
    table = [["3C", "4C", "5C"], ["6H", "6D", "6C"]]
    label = describe_move("table 3C 4C 5C | 6H 6D 6C 6S", "es", table=table)
    assert label == "Reorganizar la mesa poniendo 6♠: 3♣ 4♣ 5♣ · 6♥ 6♦ 6♣ 6♠"
    for verb in VERBS:
        for locale in LOCALES:
            assert describe_move(verb, locale).strip()
    assert card_text("10h") == "10♥" and card_text("JK=7") == "🃏=7" and card_text("XX") == "XX"
    assert cards_text("5C 6C | JK") == "5♣ 6♣ · 🃏"


def test_long_labels_are_cut_with_an_ellipsis():
    melds = " | ".join(["JS QS KS AS", "7D 8D 9D TD JD QD KD", "KS AS 2S", "JH QH KH", "KH AH 2H 3H", "9C TC JK=JC QC"])
    for locale in LOCALES:
        label = describe_move(f"table {melds} | {melds}", locale)
        assert utf16(label) <= 100 and label.endswith("…")
        assert "🃏" not in label or "🃏=" in label  # never cut inside a card


MOVES = ["draw", "take", "discard KS", "discard TH", "discard 7H", "meld 7H 8H 9H", "layoff 7H to 3",
         "knock KD", "swap 6H to 2"]  # fmt: skip


def test_rank_moves_filters_and_keeps_the_engine_order():
    assert rank_moves(MOVES, "") == MOVES
    assert rank_moves(MOVES, "", limit=3) == MOVES[:3]
    assert rank_moves(MOVES, "discard") == ["discard KS", "discard TH", "discard 7H"]
    assert rank_moves(MOVES, "descartar") == ["discard KS", "discard TH", "discard 7H"]
    assert rank_moves(MOVES, "Descar") == ["discard KS", "discard TH", "discard 7H"]
    assert rank_moves(MOVES, "tirar 10h") == ["discard TH"]
    assert rank_moves(MOVES, "7♥") == ["discard 7H", "meld 7H 8H 9H", "layoff 7H to 3"]
    assert rank_moves(MOVES, "7h") == ["discard 7H", "meld 7H 8H 9H", "layoff 7H to 3"]
    assert rank_moves(MOVES, "añadir 7h a 3") == ["layoff 7H to 3"]
    assert rank_moves(MOVES, "lay off") == ["layoff 7H to 3"]
    assert rank_moves(MOVES, "robar") == ["draw"]
    assert rank_moves(MOVES, "cerrar") == ["knock KD"]
    assert rank_moves(MOVES, "comodín") == ["swap 6H to 2"]
    assert rank_moves(MOVES, "zzz") == []
    assert rank_moves(MOVES, "d", limit=2) == ["draw", "discard KS"]
    assert rank_moves(MOVES, "discard", limit=0) == []


def test_rank_moves_on_a_real_list_respects_the_limit():
    game = load(RAMI.replace('[Phase "play"]', '[Phase "play"]\n[Opened "ana bea"]'))
    moves = game.legal_moves("ana")
    assert len(moves) > 5
    for typed in ("", "bajar", "descartar", "9C", "jk", "a"):
        for limit in (1, 5, 25):
            got = rank_moves(moves, typed, limit)
            assert len(got) <= limit
            assert got == [m for m in moves if m in got]  # engine order
    assert all(m.startswith("meld") for m in rank_moves(moves, "bajar"))
    assert all(m.startswith("discard") for m in rank_moves(moves, "descartar"))
    assert rank_moves(moves, "descartar", limit=100) == [m for m in moves if m.startswith("discard")]


def test_moves_built_from_parts_are_rgn():
    assert str(Move.of("draw")) == "draw"
    assert str(Move.of("discard", ["KS"])) == "discard KS"
    assert str(Move.of("meld", ["5C", "6C", "7C"])) == "meld 5C 6C 7C"
    assert str(Move.of("layoff", ["7H"], to=3)) == "layoff 7H to 3"
    assert str(Move.of("swap", ["JK", "8H"], to=12)) == "swap JK 8H to 12"
    assert str(Move.of("resign")) == "resign"
    assert str(Move.table_of([["5C", "6C", "7C"], ["9D", "9S", "9H"]])) == "table 5C 6C 7C | 9D 9S 9H"
    # The rearrange box: a meld a line or between bars, spaces as they come.
    assert str(Move.table_typed("5C 6C 7C\n9D 9S 9H")) == "table 5C 6C 7C | 9D 9S 9H"
    assert str(Move.table_typed("  5C  6C 7C \n9D 9S 9H")) == "table 5C 6C 7C | 9D 9S 9H"
    assert str(Move.table_typed("AS 2S 3S")) == "table AS 2S 3S"


@pytest.mark.parametrize("variant", VARIANTS)
def test_built_moves_are_the_engines_own(variant):
    """Every legal move of a real game, taken apart and built again, is the same move."""
    rnd = random.Random(variant)
    game = new_game(variant, ["p1", "p2", "p3"] if variant != "gin" else ["p1", "p2"], seed="build")
    seen = 0
    for _ in range(120):
        if game.hand_over:
            break
        seat = game.actors[0]
        legal = game.legal_moves(seat)
        for move in legal:
            typed = Move.parse(move)
            if typed.verb.needs_target:
                assert str(Move.of(typed.verb, typed.cards, to=typed.target)) == move
            elif typed.verb is Verb.TABLE:
                assert str(Move.table_typed("\n".join(" ".join(m) for m in typed.melds))) == move
            elif typed.verb is Verb.MELD:
                assert str(Move(Verb.MELD, typed.cards, None, typed.melds)) == move
            elif typed.verb is not Verb.KNOCK:  # a knock lists its melds after a colon: not built by the bot
                assert str(Move.of(typed.verb, typed.cards)) == move
            seen += 1
        game.play(seat, rnd.choice(legal))
    assert seen > 50
