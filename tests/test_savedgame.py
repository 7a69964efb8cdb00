"""The `diplomacy` package's saved games (adjutant.formats.savedgame): games the package plays import whole, every
phase coming to the package's own state; an Adjutant game exports to a file the package loads and replays
to the same states; a foreign or hostile file is refused by name."""

from __future__ import annotations

import json
from typing import Any

import diplomacy_bridge as bridge
import pytest
from adjutant import GameFileError, dumps
from adjutant.formats.savedgame import loads_saved_game, read_saved_game, to_saved_game
from adjutant.game import Game
from package_differences import DIFFERENCES

#: the package's seeded games imported: 20 games of 10 years (about 25 s, most of it the package playing)
GAMES, YEARS = 20, 10
#: Adjutant's seeded games exported and replayed by the package
EXPORTED = 5


@pytest.fixture(scope="module")
def package_games() -> list[dict[str, Any]]:
    return [bridge.package_game(seed, YEARS) for seed in range(GAMES)]


def _units(state: dict[str, Any]) -> set[tuple[str, str]]:
    return {(p.lower(), u.lower()) for p, us in state["units"].items() for u in us if not u.startswith("*")}


def test_package_games_import_whole_every_phase_at_the_packages_state(package_games: list[dict[str, Any]]) -> None:
    kinds = set()
    for saved in package_games:
        imported = read_saved_game(saved)
        assert imported.stopped == ""
        game = imported.game
        played = [r for r in game.history if not r.skipped]
        names = [p["name"] for p in saved["phases"]]
        assert [str(r.phase) for r in played] == [n for n in names[:-1] if n in {str(r.phase) for r in played}]
        assert str(game.phase) == names[-1]
        for record in played:  # each phase Adjutant adjudicated starts at the package's state for it
            n = names.index(str(record.phase))
            start = game.position_at(game.history.index(record))
            assert {(u.power, str(u).lower()) for u in start.units.values()} == _units(saved["phases"][n]["state"])
            kinds.add(record.phase.kind)
        last = saved["phases"][-1]["state"]
        assert {(u.power, str(u).lower()) for u in game.units.values()} == _units(last)
        # each order read as the package reads it is a convoy the package reads its own way
        for reading in imported.read_as_the_package:
            assert " VIA as " in reading or " C A " in reading, reading
    assert kinds == {"movement", "retreat", "adjustment"}


def test_an_imported_game_exports_and_imports_the_same(package_games: list[dict[str, Any]]) -> None:
    game = read_saved_game(package_games[0]).game
    again = read_saved_game(json.loads(json.dumps(to_saved_game(game))))
    assert again.stopped == "" and dumps(again.game) == dumps(game)


def _documented(game: Game, index: int) -> list[str]:
    """The documented differences (package_differences.DIFFERENCES) present in history record ``index``."""
    record, before = game.history[index], game.position_at(index)
    at = Game(game.variant, before)
    orders = [at.parse(t, p) for p, ts in record.orders.items() for t in ts]
    return [d.id for d in DIFFERENCES if d.find(game.variant, orders)]  # type: ignore[arg-type]


def test_an_adjutant_game_exports_and_the_package_replays_it_to_the_same_states() -> None:
    from diplomacy.utils.export import from_saved_game_format  # type: ignore[import-untyped]

    differing = 0
    for seed in range(EXPORTED):
        game = Game.new("standard")
        for phase in bridge.random_game(2024 + seed, YEARS):
            phase.give()
            phase.game.adjudicate()
            game = phase.game
        saved = to_saved_game(game)
        loaded = from_saved_game_format(json.loads(json.dumps(saved)))
        assert loaded.get_current_phase() == str(game.phase)
        for problem in bridge.package_replay(saved):
            name = problem.split()[1].rstrip(":")
            index = next(n for n, r in enumerate(game.history) if str(r.phase) == name and not r.skipped)
            assert _documented(game, index), f"seed {2024 + seed}: {problem}"
            differing += 1
    assert differing <= EXPORTED * 2


HOSTILE = [
    ([], "is a JSON object"),
    ({"map": "modern", "phases": []}, "on the map 'modern'"),
    ({"phases": []}, "has no phases"),
    ({"phases": [{"name": "S1901M"}]}, "is not {name, state, orders}"),
    ({"phases": [{"name": "S1901M", "state": {"units": {"ATLANTIS": ["A PAR"]}}}]}, "'ATLANTIS' is not a power"),
    ({"phases": [{"name": "S1901M", "state": {"units": {"FRANCE": ["Q PAR"]}}}]}, "is not a unit"),
    ({"phases": [{"name": "S1901M", "state": {"units": {"FRANCE": ["A PAR"] * 10_000}}}]}, "not a list of texts"),
    ({"phases": [{"name": "S1901M", "state": {"units": {"FRANCE": ["A NTH"]}}}]}, "an army cannot stand at sea"),
    ({"phases": [{"name": "X1901M", "state": {}}]}, "is not a phase"),
    ({"phases": [{"name": "S1901M", "state": {}, "orders": {"FRANCE": "A PAR H"}}]}, "not a list of orders"),
    ({"phases": [{"name": "S1901M", "state": {"units": {"FRANCE": ["A PAR"]}}, "orders": {"FRANCE": ["A PAR - XYZ"]}}]},
     "'A PAR - XYZ'"),
    ({"phases": [{"name": "S1901M", "state": {}}] * 5000}, "Adjutant reads up to"),
]


@pytest.mark.parametrize(("data", "message"), HOSTILE)
def test_a_foreign_or_hostile_saved_game_is_refused_by_name(data: Any, message: str) -> None:
    with pytest.raises(GameFileError, match=message.replace("(", r"\(").replace("{", r"\{")):
        read_saved_game(data)


def test_a_damaged_saved_game_text_is_refused() -> None:
    with pytest.raises(GameFileError, match="nested more than"):
        loads_saved_game("[" * 100 + "]" * 100)
    with pytest.raises(GameFileError):
        loads_saved_game('{"phases": [')


def test_the_command_line_imports_and_exports(tmp_path: Any, package_games: list[dict[str, Any]]) -> None:
    from adjutant.cli import main

    (tmp_path / "saved.json").write_text(json.dumps(package_games[1]))
    assert main(["import-diplomacy", str(tmp_path / "saved.json"), str(tmp_path / "game.json")]) == 0
    assert main(["export-diplomacy", str(tmp_path / "game.json"), str(tmp_path / "out.json")]) == 0
    out = read_saved_game(json.loads((tmp_path / "out.json").read_text()))
    assert out.stopped == "" and str(out.game.phase) == package_games[1]["phases"][-1]["name"]
    (tmp_path / "bad.json").write_text('{"map": "modern"}')
    assert main(["import-diplomacy", str(tmp_path / "bad.json"), str(tmp_path / "other.json")]) == 1
    assert not (tmp_path / "other.json").exists()
