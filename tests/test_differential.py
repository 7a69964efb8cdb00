"""Differential test: Adjutant against the `diplomacy` package (PyPI, 1.1.2) on seeded random games.

Before every movement phase the package's game is set to Adjutant's position (units, centres, phase)
and given the same orders (random legal orders from ``adjutant.randomgame.random_orders``); after it, both
must agree on every unit's place and on the dislodged units. The bridge between the two notations is
``diplomacy_bridge.py`` beside this file; ``benchmarks/adjudication.py`` times the same comparison over
thousands of phases with it.

Where DATC 3.0 (which Adjutant follows) and the package read orders differently, the difference is listed
in ``DIFFERENCES`` (``package_differences.py``) with the reason. Such a phase is not skipped: a precise
predicate finds the orders that the package reads its own way, Adjutant re-adjudicates the phase with
those orders rewritten to the package's reading, and the two must then agree exactly. Each listed
difference is also shown to be real, on a small position, by ``test_documented_difference``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import diplomacy_bridge as bridge
import pytest
from adjutant import load_variant
from adjutant.adjudication.orders import Build, Convoy, Hold, Move, Unit, UnitOrder, Waive
from adjutant.adjudication.resolver import MovementOutcome, adjudicate_movement
from adjutant.map.variant import province_of
from package_differences import DIFFERENCES, Difference

#: seeded games x years: 20 x 10 gives 400 movement phases (about 7 s)
GAMES, YEARS, FIRST_SEED = 20, 10, 2024


# --- comparing ----------------------------------------------------------------------------------------

def _keys(units: Mapping[str, Unit]) -> set[tuple[str, str, str]]:
    return {(u.power, u.type, u.location) for u in units.values()}


def _outcome_keys(out: MovementOutcome) -> tuple[set[tuple[str, str, str]], set[tuple[str, str, str]]]:
    return _keys(out.units), {(d.unit.power, d.unit.type, d.unit.location) for d in out.dislodged}


@dataclass
class Tally:
    phases: int = 0
    moved: int = 0
    dislodged: int = 0
    rewritten: dict[str, int] | None = None


def _run_games() -> tuple[Tally, list[str]]:
    mirror = bridge.Mirror()
    tally = Tally(rewritten={d.id: 0 for d in DIFFERENCES})
    problems: list[str] = []
    for n in range(GAMES):
        seed = FIRST_SEED + n
        for phase in bridge.random_game(seed, YEARS):
            game = phase.game
            if game.phase.kind != "movement":
                phase.give()
                game.adjudicate()
                continue
            v, units, season = game.variant, dict(game.units), game.phase.season
            original: list[UnitOrder] = [o for o in phase.orders if not isinstance(o, (Build, Waive))]
            given = list(original)
            label = f"seed {seed} {game.phase}"
            diff, _, _ = bridge.compare_movement(seed, phase, mirror)
            tally.phases += 1
            ours = adjudicate_movement(v, units, given, season)
            tally.moved += sum(1 for r in ours.results if isinstance(r.order, Move) and r.success)
            tally.dislodged += len(ours.dislodged)
            for d in DIFFERENCES:
                moves = d.find(v, given)
                if moves:
                    assert tally.rewritten is not None
                    tally.rewritten[d.id] += 1
                    given = d.rewrite(v, given, moves)
            if given == original:
                if diff is not None:
                    problems.append(f"{label}: {diff}")
                continue
            # a documented difference: the package's outcome must be Adjutant's under the package's reading
            mirror.load_position(label.split()[-1], units, original)
            mirror.process()
            expect = _outcome_keys(adjudicate_movement(v, units, given, season))
            got = (mirror.units(), mirror.dislodged())
            if expect != got:
                problems.append(
                    f"{label}: even read the package's way, the outcomes differ: Adjutant {sorted(expect[0])} "
                    f"dislodged {sorted(expect[1])}; diplomacy {sorted(got[0])} dislodged {sorted(got[1])}"
                )
    return tally, problems


def test_adjutant_and_diplomacy_agree_on_random_games() -> None:
    tally, problems = _run_games()
    assert not problems, f"{len(problems)} of {tally.phases} movement phases disagree:\n" + "\n".join(problems)
    # the comparison is not vacuous: many phases, with units moving and being dislodged
    assert tally.phases == GAMES * YEARS * 2
    assert tally.moved > tally.phases
    assert tally.dislodged > 0


def _position(lines: tuple[str, ...]) -> dict[str, Unit]:
    out = {}
    for line in lines:
        power, rest = line.split(": ")
        t, loc = rest.split()
        out[province_of(loc)] = Unit(power, t, loc)
    return out


def _order(text: str, units: Mapping[str, Unit]) -> UnitOrder:
    w = text.split()
    u = units[w[1].lower()]
    if w[2] == "-":
        return Move(u, w[3].lower(), w[-1] == "VIA")
    if w[2] == "C":
        return Convoy(u, w[4].lower(), w[6].lower())
    return Hold(u)


@pytest.mark.parametrize("d", DIFFERENCES, ids=lambda d: d.id)
def test_documented_difference(d: Difference) -> None:
    v = load_variant("standard")
    units = _position(d.units)
    orders = [_order(t, units) for t in d.orders]
    assert [bridge.dip_order(o, units) for o in orders] == list(d.orders)
    ours = adjudicate_movement(v, units, orders, "spring")
    assert {f"{u.power}: {u}" for u in ours.units.values()} == d.adjutant_after
    mirror = bridge.Mirror()
    mirror.load_position("S1901M", units, orders)
    mirror.process()
    assert {f"{p}: {t} {loc}" for p, t, loc in mirror.units()} == d.package_after
    # the predicate finds it, and the package's reading explains the package's outcome
    moves = d.find(v, orders)
    assert moves
    theirs = adjudicate_movement(v, units, d.rewrite(v, orders, moves), "spring")
    assert {f"{u.power}: {u}" for u in theirs.units.values()} == d.package_after
