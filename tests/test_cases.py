"""The variants' adjudication cases, written as data in tests/cases/ (format in tests/cases/README.md)."""

from __future__ import annotations

import pytest
from case_runner import CASES, check_case, load_cases

FILES = sorted(p.name for p in CASES.glob("*.json") if p.name != "datc_supplement.json")


def _cases() -> list[tuple[str, dict]]:  # type: ignore[type-arg]
    return [(f, c) for f in FILES for c in load_cases(CASES / f)]


@pytest.mark.parametrize(("file", "case"), _cases(), ids=lambda x: x if isinstance(x, str) else x["name"])
def test_case(file: str, case: dict) -> None:  # type: ignore[type-arg]
    assert check_case(case) == []


def test_every_variant_with_special_rules_has_cases() -> None:
    assert {"coast_running.json", "loeb9.json"} <= set(FILES)
