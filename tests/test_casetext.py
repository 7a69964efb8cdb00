"""DATC-style case texts (adjutant.formats.casetext): every case of tests/cases/ played as a game, each of its
phases reported as a case text, read back and checked by the case runner; a case whose expectations are
wrong is reported; a damaged text is refused by line."""

from __future__ import annotations

from pathlib import Path

import pytest
from adjutant import AdjutantError
from adjutant.formats.casetext import case_text, check_case, phase_index, read_cases
from adjutant.formats.gamefile import dumps
from adjutant.game import Game
from adjutant.setup import set_up_text
from case_runner import CASES, case_game, check_text_cases, load_cases

#: the cases of tests/cases/, but Cluster's with multiple units, sites or knowledge: a set-up position has
#: no strengths (adjutant.setup sets up the units and centres of every variant, not Cluster's secrets)
ALL = [
    (path.stem, case)
    for path in sorted(CASES.glob("*.json"))
    for case in load_cases(path)
    if not {"strengths", "sites", "knowledge"} & set(case)
]


def test_every_variant_has_cases_here() -> None:
    assert {c.get("variant", "standard") for _, c in ALL} == {
        "cline5", "cline6", "cluster", "coast_running", "loeb9", "standard"
    }
    assert len(ALL) > 150


@pytest.mark.parametrize("case", [c for _, c in ALL], ids=[f"{f}:{c['name']}" for f, c in ALL])
def test_each_cases_phases_round_trip_through_case_text(case: dict[str, object]) -> None:
    game = case_game(case)  # type: ignore[arg-type]
    played = [n for n, r in enumerate(game.history) if not r.skipped]
    assert played
    for n in played:
        text = case_text(game, n)
        [read] = read_cases(text)
        assert check_case(read) == [], text
        assert read.refused == []
        start = game.position_at(n)
        assert (read.game.phase, read.game.units, read.game.position.centres) == (
            start.phase, start.units, start.centres
        )
        assert read.game.position.contested == start.contested
        gone = [(d.unit, d.attacker_from) for d in read.game.position.dislodged]
        assert gone == [(d.unit, d.attacker_from) for d in sorted(start.dislodged, key=lambda d: d.unit.province)]
        assert read.game.written_orders() == game.history[n].orders
        assert case_text(_replayed(read.game), 0) == text
        assert check_text_cases(text) == {read.name: []}


def _replayed(game: Game) -> Game:
    game = game.copy()
    game.adjudicate()
    return game


def test_a_case_whose_poststate_is_wrong_is_reported() -> None:
    game = set_up_text("standard", "S1901M", "England: F Nth, A Yor", "")
    game.add_orders("England: F Nth C A Yor - Nwy; A Yor - Nwy")
    game.adjudicate()
    text = case_text(game, 0)
    assert "England: A nwy" in text
    wrong = text.replace("POSTSTATE\nEngland: F nth\nEngland: A nwy", "POSTSTATE\nEngland: F nth\nEngland: A yor")
    assert check_text_cases(wrong) == {
        "Adjutant standard S1901M": [
            "POSTSTATE: expected england: A yor, which is not there",
            "POSTSTATE: england: A nwy is there, not expected",
        ]
    }


def test_a_jdip_style_case_is_read() -> None:
    text = """
# DATC 6.A.5, as jDip writes it
CASE 6.A.5 Move to own sector with convoy
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
England: F North Sea
England: A Yorkshire
England: A Liverpool
Germany: F London
Germany: A Wales
ORDERS
England: F North Sea Convoys A Yorkshire - Yorkshire
England: A Yorkshire - Yorkshire
England: A Liverpool Supports A Yorkshire - Yorkshire
Germany: F London - Yorkshire
Germany: A Wales Supports F London - Yorkshire
POSTSTATE
England: F North Sea
England: A Liverpool
Germany: F Yorkshire
Germany: A Wales
POSTSTATE_DISLODGED
England: A Yorkshire
END
"""
    [case] = read_cases(text)
    assert case.name == "6.A.5 Move to own sector with convoy"
    assert check_case(case) == []


def test_a_retreat_case_knows_where_the_attacker_came_from() -> None:
    text = """VARIANT_ALL standard
CASE retreat
PRESTATE_SETPHASE Fall 1905, Retreat
PRESTATE
Austria: A mun
PRESTATE_DISLODGED
Germany: A mun
PRESTATE_RESULTS
SUCCESS: Austria: A boh - mun
ORDERS
Germany: A mun - boh
POSTSTATE
Austria: A mun
END
"""
    [case] = read_cases(text)
    assert case.game.position.dislodged[0].attacker_from == "boh"
    assert check_case(case) == []  # the retreat to where the attack came from fails: the unit is disbanded


def test_the_case_of_a_phase_is_found_by_its_name() -> None:
    game = set_up_text("standard", "S1901M", "England: F Nth", "")
    game.adjudicate()
    game.adjudicate()
    assert phase_index(game, "F1901M") == 2  # (after Spring's retreats, skipped)
    assert str(game.history[2].phase) == "F1901M"
    with pytest.raises(AdjutantError, match="no adjudicated Spring 1903 movement"):
        phase_index(game, "S1903M")


DAMAGED = [
    ("PRESTATE\nEngland: F nth\nEND\n", "outside any CASE"),
    ("CASE x\nPRESTATE\nEngland: F nth\n", "the CASE has no END"),
    ("CASE x\nPRESTATE\nEngland: F nth\nEND\n", "no PRESTATE_SETPHASE"),
    ("CASE x\nPRESTATE_SETPHASE Spring 1901\nEND\n", "is not a phase"),
    ("CASE x\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\nAtlantis: F nth\nEND\n", "names no power"),
    ("CASE x\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\nEngland: A nth\nEND\n", "an army cannot stand at sea"),
    ("CASE x\nPRESTATE_SETPHASE Spring 1901, Movement\nEngland: F nth\nEND\n", "is in no section"),
    ("VARIANT_ALL atlantis\nCASE x\nEND\n", "VARIANT_ALL"),
    ("CASE a\nCASE b\nEND\n", "begins before the one above it ENDs"),
    ("#" * 2_000_001, "characters long"),
]


@pytest.mark.parametrize(("text", "message"), DAMAGED)
def test_a_damaged_case_text_is_refused_by_name(text: str, message: str) -> None:
    with pytest.raises(AdjutantError, match=message):
        read_cases(text)


def test_a_game_file_reports_its_phase(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = set_up_text("loeb9", "F1905M", "Norway: F Nwg, A Nwy; England: F Nth", "Norway: nwy")
    game.add_orders("Norway: A Nwy - Swe; England: F Nth - Nwg")
    game.adjudicate()
    (tmp_path / "game.json").write_text(dumps(game))
    from adjutant.cli import main

    assert main(["case", str(tmp_path / "game.json"), "--phase", "F1905M"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("VARIANT_ALL loeb9\nCASE Adjutant loeb9 F1905M\n") and "Norway: A swe" in text
    (tmp_path / "case.txt").write_text(text)
    assert main(["check-case", str(tmp_path / "case.txt")]) == 0
    assert capsys.readouterr().out == "Adjutant loeb9 F1905M: as Adjutant adjudicates it\n"
    (tmp_path / "case.txt").write_text(text.replace("Norway: A swe", "Norway: A nwy"))
    assert main(["check-case", str(tmp_path / "case.txt")]) == 1
    assert "POSTSTATE: expected norway: A nwy, which is not there" in capsys.readouterr().out
    assert main(["case", str(tmp_path / "game.json"), "--phase", "S1903M"]) == 1
    assert "no adjudicated Spring 1903 movement" in capsys.readouterr().err
