"""What strong gin could know of the cards that feed the opponent, and what that would be worth (issue 23).

    python bench/gin_feed.py --brier 60                      # the posterior against strong's chances
    python bench/gin_feed.py --blend 0,0.25,0.5 --deals 2000 # deal rate with a partly true estimate
    python bench/gin_feed.py --play 1000 --chains 3 --steps 600  # strong using the posterior, in play
    python bench/gin_feed.py --brier 1 --blend 0.5 --deals 2 --jobs 1 --steps 40   # smoke

Under the seed's scoring a gin deal is a race to knock, settled mostly by which discards complete
a meld in the other hand (docs/performance.md, issue 23). Strong charges each candidate discard
the chance that it does (``bot.robot.gin.danger``, from per-card chances). Two diagnostics say how
far that estimate could go from the seat, and how far it would have to go:

``--brier N``: over N single deals of strong against the yardstick, at each of strong's discards,
the Brier score of three forecasts of "this hand card completes a meld in the opponent's hand":
the base rate, strong's estimate, and the **exact posterior** given the public record *and the
yardstick's rules* (take a card only to complete a meld, discard the highest unmelded card, knock
as soon as allowed). The yardstick is deterministic and the deck uniform, so the posterior is
uniform over the dealt hands and stock draws whose replay reproduces every public move; it is
sampled by annealing to one such assignment, then Metropolis moves (replace one hidden card, or
swap two) that keep every move reproduced, ``--chains`` chains of ``--steps`` steps. No player
could know more than this from the seat against this opponent.

``--blend L,...``: strong plays N deals against the yardstick with its estimate replaced by
``L * truth + (1 - L) * estimate``, where truth reads the opponent's real hand (``--weight`` sets
``DANGER_WEIGHT``). L = 0 is strong as shipped; L = 1 is a player who sees the other hand. The
Brier score of such a blend is (1 - L)^2 times the estimate's, so the two modes together say
which deal rate a feed estimate of a given quality buys.

``--play N``: the direct test of the two. Strong plays N deals against the yardstick with its
estimate replaced, at each of its discards, by the exact posterior's share of sampled hands in
which the card completes a meld (its own estimate where no chain finds a posterior). Nothing but
the seat's own record goes into it, so this is the best feed estimate any player of strong's kind
could have against this opponent. The same deals are played by strong as shipped, and the bench
prints both rates and how many deals changed hands each way.

What it is not: a player. The truth is read only here, to score forecasts or to blend them; no
level ever sees it (``tests/test_robot_sight.py``). Nothing here asserts a figure.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bot.robot.gin as gin
from bench.robot import wilson
from bot.engine import Game, Verb, new_game
from bot.engine.cards import parse_card
from bot.engine.search import LOW_VALUES, best_melds, mask_of
from bot.robot import choose
from bot.robot.sight import Sight, see
from bot.robot.yardstick import completes, highest_loose

KNOCK_AT = 10  # the seed's knock limit (rules.md §2.4)


def bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


_ARRANGED: dict[int, tuple[int, int]] = {}


def arranged(hand: int) -> tuple[int, int]:
    """(deadwood, melded cards) of the best arrangement of ``hand``, memoised."""
    got = _ARRANGED.get(hand)
    if got is None:
        deadwood, melds = best_melds(hand, "low", LOW_VALUES)
        melded = 0
        for meld in melds:
            melded |= meld
        if len(_ARRANGED) > 200_000:
            _ARRANGED.clear()
        got = _ARRANGED[hand] = (deadwood, melded)
    return got


def yardstick_discard(hand: int, took: int | None) -> int:
    """The yardstick's discard: ``bot.robot.yardstick``'s own rule, never the card it just took."""
    return highest_loose(hand & ~(0 if took is None else 1 << took), arranged(hand)[1])


def could_knock(hand: int) -> bool:
    return any(arranged(hand & ~(1 << c))[0] <= KNOCK_AT for c in bits(hand))


@dataclass
class Record:
    """The opponent's public moves as the seat saw them, and the cards its hidden ones may be."""

    events: list[tuple[str, int | None]] = field(default_factory=list)
    upcard: int | None = None  # the first upcard, when the seat knows it
    eligible: int = 0  # cards the opponent may have been dealt or drawn
    discarded: int = 0  # cards the opponent put on the pile
    draws: int = 0
    unknown_take: bool = False  # it took a card the seat never saw

    @classmethod
    def of(cls, sight: Sight) -> Record:
        rec = cls()
        opp = next(s for s in sight.seats if s != sight.seat)
        first = sight.history[0] if sight.history else None
        if first is not None and first.card and first.verb in ("pass", "take"):
            rec.upcard = parse_card(first.card)
        mine = 0
        top, passes = rec.upcard, 0
        for seen in sight.history:
            card = parse_card(seen.card) if seen.card else None
            passes += seen.verb == "pass"
            if seen.seat == opp:
                if seen.verb == "pass":
                    rec.events.append(("pass", card))
                elif seen.verb == "take":
                    rec.unknown_take |= card is None and top is None
                    rec.events.append(("take", card if card is not None else top))
                elif seen.verb == "draw":  # after both passed the first upcard, the stock is the only draw
                    rec.draws += 1
                    rec.events.append(("draw", None if passes >= 2 and top == rec.upcard else top))
                elif seen.verb in ("discard", "knock") and card is not None:
                    rec.events.append((seen.verb, card))
                    rec.discarded |= 1 << card
            elif seen.verb in ("discard", "knock") and card is not None:
                mine |= 1 << card
            if seen.verb in ("discard", "knock") and card is not None:
                top = card
                rec.events.append(("pile", card))
            elif seen.verb == "take":
                top = None
        private = (mask_of(parse_card(c) for c in sight.hand) | mine) & ~rec.discarded
        rec.eligible = ((1 << 52) - 1) & ~private & ~(0 if rec.upcard is None else 1 << rec.upcard)
        return rec

    def replay(self, dealt: int, drawn: list[int], took0: int | None) -> tuple[int, int]:
        """(moves the yardstick would not have made, its hand now) for one hidden assignment."""
        bad, hand, took, i = 0, dealt, None, 0
        public = 0 if self.upcard is None else 1 << self.upcard
        for kind, card in self.events:
            if kind == "pile" and card is not None:
                public |= 1 << card
            elif kind == "pass":
                bad += card is not None and completes(hand, card)
            elif kind == "take":
                took = card if card is not None else took0
                if took is None:
                    bad += 3
                    continue
                bad += not completes(hand, took)
                hand |= 1 << took
            elif kind == "draw":
                bad += card is not None and completes(hand, card)
                took = None
                bad += 3 * (public >> drawn[i] & 1)  # a card once on the pile is not in the stock
                hand |= 1 << drawn[i]
                i += 1
            elif card is not None:  # discard or knock
                if not hand >> card & 1:
                    bad += 3
                    continue
                if kind == "discard":
                    bad += could_knock(hand) + (yardstick_discard(hand, took) != card)
                hand &= ~(1 << card)
        return bad, hand


def posterior(sight: Sight, rng: random.Random, chains: int, steps: int, thin: int = 10) -> list[int]:
    """Opponent hands sampled from the exact posterior (see the module docstring); [] if no chain
    found an assignment that reproduces the record."""
    rec = Record.of(sight)
    pool = list(bits(rec.eligible))
    slots = 10 + rec.draws + rec.unknown_take
    if len(pool) < slots:
        return []
    hands: list[int] = []
    def run(s: list[int]) -> tuple[int, int]:
        """Replay one assignment: the dealt hand, then the stock draws, then the unseen take."""
        return rec.replay(sum(1 << c for c in s[:10]), s[10 : 10 + rec.draws], s[-1] if rec.unknown_take else None)

    def propose(s: list[int]) -> list[int]:
        new = list(s)
        if rng.random() < 0.5:
            a, b = rng.sample(range(slots), 2)
            new[a], new[b] = new[b], new[a]
        else:
            used = set(s)
            outside = [c for c in pool if c not in used]
            if outside:
                new[rng.randrange(slots)] = rng.choice(outside)
        return new

    for _ in range(chains):
        # the opponent's discards most likely came from its dealt hand: start them there
        shed = list(bits(rec.discarded))
        rng.shuffle(shed)
        rest = [c for c in pool if c not in shed[:10]]
        rng.shuffle(rest)
        state = shed[:10] + rest[: slots - min(10, len(shed))]
        if len(state) != slots:
            continue
        e, temp = run(state)[0], 2.0
        for _ in range(20_000):
            if e == 0:
                break
            new = propose(state)
            en = run(new)[0]
            if en <= e or rng.random() < math.exp((e - en) / temp):
                state, e = new, en
            temp = max(0.15, temp * 0.999)
        if e:
            continue
        for step in range(steps):
            new = propose(state)
            if run(new)[0] == 0:
                state = new
            if step % thin == 0:
                hands.append(run(state)[1])
    return hands


def levels(k: int) -> dict[str, str]:
    return {"p1": "strong", "p2": "yardstick"} if k % 2 == 0 else {"p1": "yardstick", "p2": "strong"}


def brier_job(job: tuple[str, list[int], int, int]) -> dict[str, float]:
    """Squared errors of the three forecasts at strong's discards in the deals ``ks``."""
    prefix, ks, chains, steps = job
    out = {"cards": 0, "decisions": 0, "failed": 0, "truth": 0.0, "estimate": 0.0, "posterior": 0.0}
    rows: list[tuple[float, float, float]] = []
    for k in ks:
        game = new_game("gin", ["p1", "p2"], seed=f"{prefix}-feed-{k}")
        level = levels(k)
        while not game.hand_over:
            seat = game.actors[0]
            sight = see(game, seat)
            if level[seat] == "strong" and any(m.verb is Verb.DISCARD for m in sight.moves):
                known = gin.knowledge(sight)
                opp = mask_of(game.hands[next(s for s in game.seats if s != seat)])
                hands = posterior(sight, random.Random(f"{prefix}-{k}-{len(sight.history)}"), chains, steps)
                out["decisions"] += 1
                if not hands:
                    out["failed"] += 1
                else:
                    for card in bits(known.hand):
                        share = sum(completes(h, card) for h in hands) / len(hands)
                        rows.append((float(completes(opp, card)), gin.danger(known, card), share))
            game.play(seat, choose(game, seat, level=level[seat]))
    out["cards"] = len(rows)
    out["truth"] = sum(r[0] for r in rows)
    out["estimate"] = sum((r[0] - r[1]) ** 2 for r in rows)
    out["posterior"] = sum((r[0] - r[2]) ** 2 for r in rows)
    return out


_TRUTH: list[int] = [0]  # the opponent's real hand, set before strong moves (blend mode only)
_BLEND: list[float] = [0.0]
_SHIPPED = gin.danger


def blended(known: gin.Knowledge, card: int) -> float:
    return _BLEND[0] * completes(_TRUTH[0], card) + (1 - _BLEND[0]) * _SHIPPED(known, card)


def deal_winner(prefix: str, k: int, before: Callable[[Game, str, str], None]) -> str:
    """Play deal ``k`` (seed ``<prefix>-feed-<k>``) of strong against the yardstick, calling
    ``before(game, seat, level)`` ahead of every move; the winner's level, or "" (void or tie)."""
    game = new_game("gin", ["p1", "p2"], seed=f"{prefix}-feed-{k}")
    level = levels(k)
    while not game.hand_over:
        seat = game.actors[0]
        before(game, seat, level[seat])
        game.play(seat, choose(game, seat, level=level[seat]))
    result = game.result
    if result is None or result.winner is None or result.outcome == "void":
        return ""
    return level[result.winner]


def blend_job(job: tuple[str, list[int], float, float]) -> tuple[int, int]:
    """(strong's wins, the yardstick's) over the deals ``ks`` with the estimate blended."""
    prefix, ks, share, weight = job
    gin.danger = blended  # type: ignore[assignment]  # a diagnostic's stand-in, in this process only
    gin.DANGER_WEIGHT = weight
    _BLEND[0] = share

    def read_truth(game: Game, seat: str, _level: str) -> None:
        _TRUTH[0] = mask_of(game.hands[next(s for s in game.seats if s != seat)])

    winners = [deal_winner(prefix, k, read_truth) for k in ks]
    return winners.count("strong"), winners.count("yardstick")


_HANDS: list[list[int]] = [[]]  # posterior hands for strong's current discard (play mode only)


def from_posterior(known: gin.Knowledge, card: int) -> float:
    hands = _HANDS[0]
    return sum(completes(h, card) for h in hands) / len(hands) if hands else _SHIPPED(known, card)


def play_job(job: tuple[str, list[int], int, int]) -> tuple[list[str], list[str], int]:
    """Per deal of ``ks``, the winner's level (``deal_winner``) with strong as shipped and with the
    posterior, and how many discards fell back to strong's own estimate."""
    prefix, ks, chains, steps = job
    fallbacks = 0

    def sample(k: int) -> Callable[[Game, str, str], None]:
        """Before each move of deal ``k``: the posterior hands, when strong is about to discard."""
        def before(game: Game, seat: str, level: str) -> None:
            nonlocal fallbacks
            _HANDS[0] = []
            if level == "strong":
                sight = see(game, seat)
                if any(m.verb is Verb.DISCARD for m in sight.moves):
                    rng = random.Random(f"{prefix}-{k}-{len(sight.history)}")
                    _HANDS[0] = posterior(sight, rng, chains, steps)
                    fallbacks += not _HANDS[0]
        return before

    gin.danger = _SHIPPED  # type: ignore[assignment]
    shipped = [deal_winner(prefix, k, lambda *_: None) for k in ks]
    gin.danger = from_posterior  # type: ignore[assignment]  # a diagnostic's stand-in, in this process only
    with_posterior = [deal_winner(prefix, k, sample(k)) for k in ks]
    gin.danger = _SHIPPED  # type: ignore[assignment]
    return shipped, with_posterior, fallbacks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--brier", type=int, default=0, help="deals for the forecast scores (0: skip)")
    parser.add_argument("--chains", type=int, default=6, help="posterior chains per decision (default 6)")
    parser.add_argument("--steps", type=int, default=1500, help="Metropolis steps per chain (default 1500)")
    parser.add_argument("--blend", default="", help="shares of the truth to play with, comma-separated")
    parser.add_argument("--deals", type=int, default=2000, help="deals per blend (default 2000)")
    parser.add_argument("--weight", type=float, default=gin.DANGER_WEIGHT, help="DANGER_WEIGHT while blending")
    parser.add_argument("--play", type=int, default=0, help="deals played with the posterior (0: skip)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--prefix", default="feed", help="seed prefix")
    args = parser.parse_args(argv)

    def split(n: int) -> list[list[int]]:
        return [ks for ks in (list(range(n))[i :: args.jobs] for i in range(args.jobs)) if ks]

    if args.brier:
        jobs = [(args.prefix, ks, args.chains, args.steps) for ks in split(args.brier)]
        with ProcessPoolExecutor(args.jobs) as pool:
            parts = list(pool.map(brier_job, jobs))
        n = sum(p["cards"] for p in parts) or 1
        base = sum(p["truth"] for p in parts) / n
        print(f"forecasts at strong's discards: {args.brier} deals, {sum(p['decisions'] for p in parts):.0f} "
              f"decisions ({sum(p['failed'] for p in parts):.0f} without a posterior), {n} hand cards, "
              f"{base:.1%} of them feed a meld")
        print(f"{'forecast':<32} {'Brier':>7}")
        print(f"{'base rate':<32} {base * (1 - base):>7.4f}")
        print(f"{'strong (per-card chances)':<32} {sum(p['estimate'] for p in parts) / n:>7.4f}")
        print(f"{'exact posterior (yardstick)':<32} {sum(p['posterior'] for p in parts) / n:>7.4f}")
    if args.blend:
        print(f"strong vs yardstick, {args.deals} single deals, DANGER_WEIGHT {args.weight:g}")
        print(f"{'truth share':<12} {'won':>6} {'lost':>6} {'win rate':>9} {'95% CI':>15}")
        for share in (float(x) for x in args.blend.split(",") if x):
            jobs2 = [(args.prefix, ks, share, args.weight) for ks in split(args.deals)]
            with ProcessPoolExecutor(args.jobs) as pool:
                results = list(pool.map(blend_job, jobs2))
            won, lost = sum(r[0] for r in results), sum(r[1] for r in results)
            lo, hi = wilson(won, won + lost)
            print(f"{share:<12g} {won:>6} {lost:>6} {won / max(1, won + lost):>9.1%} {f'{lo:.1%}–{hi:.1%}':>15}")
    if args.play:
        jobs3 = [(args.prefix, ks, args.chains, args.steps) for ks in split(args.play)]
        with ProcessPoolExecutor(args.jobs) as pool:
            played = list(pool.map(play_job, jobs3))
        pairs = [pair for shipped, found, _ in played for pair in zip(shipped, found, strict=True)]
        fell = sum(p[2] for p in played)
        print(f"strong vs yardstick in play, {args.play} single deals, feed estimate from the posterior "
              f"({args.chains} chains of {args.steps} steps; {fell} discards fell back to strong's own)")
        print(f"{'strong, feed estimate':<28} {'won':>6} {'lost':>6} {'win rate':>9} {'95% CI':>15}")
        for i, label in enumerate(("as shipped", "exact posterior")):
            won = sum(pair[i] == "strong" for pair in pairs)
            lost = sum(pair[i] == "yardstick" for pair in pairs)
            lo, hi = wilson(won, won + lost)
            print(f"{label:<28} {won:>6} {lost:>6} {won / max(1, won + lost):>9.1%} {f'{lo:.1%}–{hi:.1%}':>15}")
        gained = sum(a != "strong" and b == "strong" for a, b in pairs)
        lost_ = sum(a == "strong" and b != "strong" for a, b in pairs)
        print(f"deals strong won only with the posterior: {gained}; only as shipped: {lost_}")
    if not args.brier and not args.blend and not args.play:
        parser.error("ask for --brier N, --blend L,..., --play N or any of them")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
