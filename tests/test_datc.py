"""DATC 3.0, section 6: every case, read from tests/reference/datc/datc.json."""

from __future__ import annotations

import pytest
from case_runner import CASES, DATC_FILE, check_case, load_cases, preferred

#: Cases where the reference file's expectation is not the DATC's preferred answer. Each is checked
#: against the answer given here instead, with the reason (also listed in docs/rules.md).
CORRECTIONS: dict[str, tuple[dict[str, str], str]] = {
    "t6b02_moving_with_unspecified_coast_when_coast_is_not_necessary": (
        {"FRA: F gas -> spa": "Succeeds"},
        "DATC prefers that the move is made to the only reachable coast (spa/nc); the file fails it.",
    ),
    "t6b12_army_movement_with_coastal_specification": (
        {"FRA: A gas -> spa(nc)": "Succeeds"},
        "DATC prefers that a coast given to an army is ignored; the file's own note says its library leaves "
        "that correction to its caller.",
    ),
    "t6b15_supporting_foreign_unit_with_unspecified_coast": (
        {"ENG: F mao -> spa(nc)": "Fails", "ITA: F wes -> spa(sc)": "Fails"},
        "The French support without a coast is valid (as in 6.B.7), so two attacks of strength 2 meet in "
        "Spain and bounce; the file has England winning, which no reading of the rules gives.",
    ),
    "t6h01_no_supports_during_retreat": (
        {"AUS: F tri -> alb": "Fails", "TUR: F gre -> alb": "Fails"},
        "Both fleets retreat to Albania and bounce, so both are disbanded (DATC text); the file lost the "
        "illegal Austrian support and has Turkey succeeding.",
    ),
    "t6j09_civil_disorder_must_be_counted_from_both_coasts_second_scenario": (
        {"civil_disorder": "RUS: A alb"},
        "F Skagerrak is two steps from St Petersburg (via Norway to its north coast) and A Albania three "
        "from Sevastopol, so the army is removed; the file removes the fleet.",
    ),
}


def _datc_cases() -> list[dict]:  # type: ignore[type-arg]
    return preferred(load_cases(DATC_FILE))


def _corrected(case: dict) -> dict:  # type: ignore[type-arg]
    fix = CORRECTIONS.get(case["name"])
    if fix is None:
        return case
    case = {**case, "orders": dict(case["orders"])}
    for key, want in fix[0].items():
        if key == "civil_disorder":
            case["civil_disorder"] = [want]
        else:
            assert key in case["orders"], f"correction names an order the case lacks: {key}"
            case["orders"][key] = want
    return case


@pytest.mark.parametrize("case", _datc_cases(), ids=lambda c: c["name"])
def test_datc(case: dict) -> None:  # type: ignore[type-arg]
    assert check_case(_corrected(case)) == []


@pytest.mark.parametrize("case", load_cases(CASES / "datc_supplement.json"), ids=lambda c: c["name"])
def test_datc_supplement(case: dict) -> None:  # type: ignore[type-arg]
    assert check_case(case) == []


def test_every_correction_names_a_case_that_disagrees() -> None:
    """A correction is only kept while the file's own expectation really differs from ours."""
    by_name = {c["name"]: c for c in _datc_cases()}
    for name in CORRECTIONS:
        assert name in by_name, name
        assert check_case(by_name[name]) != [], f"{name} passes as written: drop its correction"


def test_the_file_is_read_whole() -> None:
    cases = load_cases(DATC_FILE)
    assert len(cases) == 171
    assert len(_datc_cases()) == 165
