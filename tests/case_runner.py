"""Runs adjudication cases written as data (the DATC's JSON form, see tests/cases/README.md)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adjutant import Game, load_variant
from adjutant.adjudication.orders import Build, Disband, Order, Support, Unit, UnitOrder, Waive, parse_order
from adjutant.adjudication.phases import Phase, adjudicate_adjustments, adjudicate_retreats
from adjutant.adjudication.resolver import adjudicate_movement
from adjutant.formats.casetext import check_case as check_case_text
from adjutant.formats.casetext import read_cases
from adjutant.map.variant import Variant, province_of
from adjutant.setup import Placed, set_up

TESTS = Path(__file__).resolve().parent
DATC_FILE = TESTS / "reference" / "datc" / "datc.json"
CASES = TESTS / "cases"

#: Where one case appears once per rule edition, the edition the project follows (DATC 3.0's preferred
#: answers: the 2023 rules, else the 1982 ones).
EDITION_PREFERENCE = ("2023", "1982", None, "1971", "dptg")


def load_cases(path: Path) -> list[dict[str, Any]]:
    return list(json.loads(path.read_text(encoding="utf-8"))["cases"])


def preferred(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One case per name: the edition this project follows."""
    by_name: dict[str, list[dict[str, Any]]] = {}
    for c in cases:
        by_name.setdefault(c["name"], []).append(c)
    out = []
    for group in by_name.values():
        group.sort(key=lambda c: EDITION_PREFERENCE.index(c.get("edition")))
        out.append(group[0])
    return out


@dataclass
class Outcome:
    #: order text -> "Succeeds" / "Fails"
    verdicts: dict[str, str]
    dislodged: list[str]
    removed: list[str]
    #: the units on the board after a movement phase
    units: list[str] = field(default_factory=list)


def unit_of(v: Variant, text: str) -> tuple[str, Unit]:
    """``"ENG: F stp(sc)"`` or ``"ENG: F stp(sc) -> bot"`` -> (power id, the unit)."""
    abbrev, rest = text.split(":", 1)
    power = v.power_by_abbrev(abbrev.strip())
    if power is None:
        raise ValueError(f"unknown power {abbrev!r} in {text!r}")
    words = rest.split()
    prov, _, coast = words[1].replace("(", "/").replace(")", "").partition("/")
    pid = v.lookup(prov)
    if pid is None:
        raise ValueError(f"unknown province {prov!r} in {text!r}")
    return power.id, Unit(power.id, words[0], f"{pid}/{coast}" if coast else pid)


def board(v: Variant, lines: list[str], orders: dict[str, Any]) -> dict[str, Unit]:
    units: dict[str, Unit] = {}
    for text in [*lines, *orders]:
        _, u = unit_of(v, text)
        units.setdefault(u.province, u)
    return units


def parse_all(
    v: Variant, orders: dict[str, Any], units: dict[str, Unit], phase: str, dislodged: dict[str, Unit] | None = None
) -> dict[str, Order | str]:
    parsed: dict[str, Order | str] = {}
    for text in orders:
        try:
            parsed[text] = parse_order(text, v, units, phase=phase, dislodged=dislodged)
        except Exception as e:  # the order could not even be given: it fails
            parsed[text] = f"rejected: {e}"
    return parsed


def _movement(v: Variant, units: dict[str, Unit], orders: dict[str, Any], season: str, strengths=None):  # type: ignore[no-untyped-def]
    parsed = parse_all(v, orders, units, "movement")
    given = [o for o in parsed.values() if not isinstance(o, str)]
    outcome = adjudicate_movement(v, units, given, season, strengths=strengths)  # type: ignore[arg-type]
    by_unit = {r.unit.province: r for r in outcome.results}
    verdicts = {}
    for text, o in parsed.items():
        if isinstance(o, str):
            verdicts[text] = "Fails"
            continue
        assert not isinstance(o, (Build, Waive))
        r = by_unit[o.unit.province]
        ok = r.success
        if isinstance(o, Support) and not r.illegal:
            # the DATC file calls a support that was neither cut nor dislodged "Succeeds", even when the
            # supported unit did something else (DATC 6.A.5)
            ok = not (r.reason.startswith("cut") or "dislodged" in r.reason)
        verdicts[text] = "Succeeds" if ok else "Fails"
    return outcome, verdicts


def _cluster_movement(v: Variant, units: dict[str, Unit], case: dict[str, Any], strengths: dict[str, int]) -> Outcome:
    """A Cluster case with sites or knowledge: the whole movement phase (transfers, mattermission,
    research), as a game adjudicates it."""
    from adjutant.adjudication.phases import Phase
    from adjutant.variants.cluster import Aura, ClusterState, adjudicate_movement_phase

    knowledge = {}
    for abbrev, known in case.get("knowledge", {}).items():
        power = v.power_by_abbrev(abbrev)
        assert power is not None
        knowledge[power.id] = tuple(known)
    state = ClusterState(
        "case", None, sites=case.get("sites", {}), auras={p: Aura(k) for p, k in strengths.items()},
        knowledge=knowledge, started=True,
    )
    parsed = parse_all(v, case["orders"], units, "movement")
    given = [o for o in parsed.values() if not isinstance(o, str)]
    season = case.get("season", "spring")
    out, _ = adjudicate_movement_phase(v, Phase(1902, season, "movement"), units, state, given, [])  # type: ignore[arg-type]
    by_unit = {r.unit.province: r for r in out.results}
    verdicts = {}
    for text, o in parsed.items():
        ok = not isinstance(o, str) and by_unit[o.unit.province].success  # type: ignore[union-attr]
        verdicts[text] = "Succeeds" if ok else "Fails"
    destroyed = [_abbrev(v, r.unit) for r in out.results if r.reason.startswith("destroyed")]
    after = [_abbrev(v, u) for u in out.units.values()]
    return Outcome(verdicts, [_abbrev(v, d.unit) for d in out.dislodged], sorted(destroyed), after)


def run_case(case: dict[str, Any]) -> Outcome:
    v = load_variant(case.get("variant", "standard"))
    season = case.get("season", "spring")
    if case["phase"] == "Main" and ("sites" in case or "knowledge" in case):
        units = board(v, case.get("starting_state", []), case["orders"])
        strengths = {unit_of(v, text)[1].province: k for text, k in case.get("strengths", {}).items()}
        return _cluster_movement(v, units, case, strengths)
    if case["phase"] == "Main":
        units = board(v, case.get("starting_state", []), case["orders"])
        # Cluster: {"ENG: F nth": 3} gives a unit its multiple strength
        strengths = {unit_of(v, text)[1].province: k for text, k in case.get("strengths", {}).items()}
        outcome, verdicts = _movement(v, units, case["orders"], season, strengths)
        after = [_abbrev(v, u) for u in outcome.units.values()]
        return Outcome(verdicts, [_abbrev(v, d.unit) for d in outcome.dislodged], [], after)
    if case["phase"] == "Retreat":
        pre = case["preceding_main_phase"]
        units = board(v, pre.get("starting_state", []), pre["orders"])
        outcome, _ = _movement(v, units, pre["orders"], season)
        dislodged = {d.unit.province: d.unit for d in outcome.dislodged}
        parsed = parse_all(v, case["orders"], outcome.units, "retreat", dislodged)
        given = [o for o in parsed.values() if not isinstance(o, str)]
        _, results = adjudicate_retreats(v, outcome.units, outcome.dislodged, outcome.contested, given, season)  # type: ignore[arg-type]
        by_unit = {r.unit.province: r for r in results}
        verdicts = {}
        for text, o in parsed.items():
            ok = not isinstance(o, str) and by_unit.get(o.unit.province) is not None  # type: ignore[union-attr]
            verdicts[text] = "Succeeds" if ok and by_unit[o.unit.province].success else "Fails"  # type: ignore[union-attr]
        return Outcome(verdicts, [], [])
    # Build
    units = board(v, case.get("starting_state", []), {})
    centres = {h: p.id for p in v.powers.values() for h in p.home_centres}
    # as after a Fall turn, a unit standing on a centre owns it
    centres.update({prov: u.power for prov, u in units.items() if v.provinces[prov].centre})
    for prov, abbrev in case.get("occupiers", {}).items():
        power = v.power_by_abbrev(abbrev)
        assert power is not None
        centres[prov] = power.id
    parsed = parse_all(v, case["orders"], units, "adjustment")
    given: list[Build | Disband | Waive] = [o for o in parsed.values() if isinstance(o, (Build, Disband, Waive))]
    after, results = adjudicate_adjustments(v, units, centres, given)
    verdicts = {}
    for text, o in parsed.items():
        hit = [r for r in results if r.order is o]
        verdicts[text] = "Succeeds" if hit and hit[0].success else "Fails"
    removed = [_abbrev(v, u) for u in units.values() if u.province not in after or after[u.province] != u]
    return Outcome(verdicts, [], sorted(removed))


def _abbrev(v: Variant, u: Unit) -> str:
    loc = u.location.replace("/", "(") + (")" if "/" in u.location else "")
    return f"{v.powers[u.power].abbrev}: {u.type} {loc}"


def check_case(case: dict[str, Any]) -> list[str]:
    """The differences between a case's expectations and what the engine decides (empty: it passes)."""
    got = run_case(case)
    problems = []
    for text, want in case["orders"].items():
        if want is None or case["phase"] == "Build" and want not in ("Succeeds", "Fails"):
            continue
        if got.verdicts[text] != want:
            problems.append(f"{text}: expected {want}, got {got.verdicts[text]}")
    if "dislodged" in case:
        want_d = sorted(_normal_unit(x) for x in case["dislodged"])
        if sorted(_normal_unit(x) for x in got.dislodged) != want_d:
            problems.append(f"dislodged: expected {want_d}, got {sorted(got.dislodged)}")
    if "destroyed" in case:
        want_x = sorted(_normal_unit(x) for x in case["destroyed"])
        if sorted(_normal_unit(x) for x in got.removed) != want_x:
            problems.append(f"destroyed: expected {want_x}, got {got.removed}")
    for unit in case.get("after", []):
        if _normal_unit(unit) not in got.units:
            problems.append(f"after: expected {unit} on the board, got {sorted(got.units)}")
    if case["phase"] == "Build" and "civil_disorder" in case:
        removals_ordered = [t for t, o in case["orders"].items() if "disband" in t.lower() or "remove" in t.lower()]
        want_r = sorted(_normal_unit(x) for x in case["civil_disorder"])
        got_r = [r for r in got.removed if r not in {_normal_unit(t.rsplit(" ", 1)[0]) for t in removals_ordered}]
        if sorted(got_r) != want_r:
            problems.append(f"civil disorder: expected {want_r}, got {sorted(got_r)}")
    return problems


def _normal_unit(text: str) -> str:
    power, rest = text.split(":", 1)
    t, loc = rest.split()[:2]
    return f"{power.strip()}: {t} {loc}"


def unit_order_province(o: UnitOrder) -> str:
    return province_of(o.unit.location)


def case_game(case: dict[str, Any]) -> Game:
    """A case of the project's format played as a game: its position set up (adjutant.setup), its orders
    given and adjudicated (a retreat case's preceding movement phase first). Orders the game refuses are
    left out, as the runner's "rejected" orders fail."""
    v = load_variant(case.get("variant", "standard"))
    season = case.get("season", "spring")
    first = case.get("preceding_main_phase", case) if case["phase"] != "Build" else None
    home = {h: p.id for p in v.powers.values() for h in p.home_centres}
    if first is None:
        units = board(v, case.get("starting_state", []), {})
        centres = dict(home)
        centres.update({prov: u.power for prov, u in units.items() if v.provinces[prov].centre})
        for prov, abbrev in case.get("occupiers", {}).items():
            power = v.power_by_abbrev(abbrev)
            assert power is not None
            centres[prov] = power.id
        game = set_up(v, Phase(v.first_year, "winter", "adjustment"), _placed(units), centres)
        game.add_orders("\n".join(case["orders"]))
        game.adjudicate()
        return game
    units = board(v, first.get("starting_state", []), first["orders"])
    game = set_up(v, Phase(v.first_year, season, "movement"), _placed(units), home)
    game.add_orders("\n".join(first["orders"]))
    game.adjudicate()
    if case["phase"] == "Retreat" and game.phase.kind == "retreat":
        game.add_orders("\n".join(case["orders"]))
        game.adjudicate()
    return game


def _placed(units: dict[str, Unit]) -> list[Placed]:
    return [Placed(u.power, u.type, u.location) for u in units.values()]


def check_text_cases(text: str) -> dict[str, list[str]]:
    """Each case of a DATC-style text (adjutant.formats.casetext), by name, with its differences from what the
    engine decides (an empty list: it passes)."""
    return {case.name: check_case_text(case) for case in read_cases(text)}
