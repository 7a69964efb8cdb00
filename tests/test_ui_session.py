"""adjutant_ui.session under CPython: the game table's logic without a browser."""

from __future__ import annotations

import json

import pytest
from adjutant import GameFileError
from adjutant.game import Game
from adjutant_ui.session import Session, decode_link, encode_link, game_from_text, game_to_text, position_snapshot


def order_list(session: Session) -> list[str]:
    from adjutant.orders import format_order

    return sorted(format_order(o) for os in session.game.orders.values() for o in os)


def test_clicking_a_unit_then_a_target_moves_it() -> None:
    session = Session.new("standard")
    assert session.click("par") == (None, [])
    assert session.selected == "par"
    assert session.targets() == ["bre", "bur", "gas", "pic"]
    order, coasts = session.click("bur")
    assert (order, coasts) == ("A par - bur", [])
    assert session.selected is None


def test_clicking_the_unit_again_holds_and_a_non_target_does_nothing() -> None:
    session = Session.new("standard")
    session.click("mar")
    assert session.click("mos") == (None, [])
    assert session.selected == "mar"
    assert session.click("mar") == ("A mar hold", [])


def test_split_coast_destination_offers_both_coasts() -> None:
    game = Game.new("standard")
    game.add_orders("France: F bre - mao")
    game.adjudicate()
    game.adjudicate()  # autumn: no orders
    session = Session(game)
    if game.phase.kind == "adjustment":
        game.adjudicate()
        session = Session(game)
    session.click("mao")
    assert {"spa/nc", "spa/sc"} <= set(session.targets())
    order, coasts = session.click("spa")
    assert order is None and coasts == ["spa/nc", "spa/sc"]
    assert session.click("spa/sc") == ("F mao - spa/sc", [])


def test_support_by_clicking_the_supported_unit_then_its_destination() -> None:
    session = Session.new("standard")
    session.click("mar")
    session.mode = "support"
    assert "par" in session.targets()
    session.click("par")
    assert session.target == "par"
    assert "bur" in session.targets() and "gas" in session.targets()
    assert session.click("bur") == ("A mar S A par - bur", [])


def test_support_of_a_fleet_and_support_to_hold() -> None:
    session = Session.new("standard")
    session.click("lon")
    session.mode = "support"
    assert session.targets() == ["bre", "edi", "lvp"]
    session.click("edi")
    assert session.targets() == ["nth", "yor"]
    assert session.click("nth") == ("F lon S F edi - nth", [])
    session.click("kie")
    session.mode = "support"
    session.click("ber")
    assert "ber" in session.targets()
    assert session.click("ber") == ("F kie S A ber", [])


def test_convoy_by_clicking_the_army_then_the_destination() -> None:
    game = Game.new("standard")
    game.add_orders("England: F lon - nth\nA lvp - yor")
    game.adjudicate()
    session = Session(game)
    session.click("nth")
    session.mode = "convoy"
    assert session.targets() == ["yor"]
    session.click("yor")
    assert "nwy" in session.targets() and "bel" in session.targets()
    assert session.click("nwy") == ("F nth C A yor - nwy", [])


def test_an_army_is_offered_convoyed_destinations() -> None:
    game = Game.new("standard")
    game.add_orders("England: F lon - nth\nA lvp - yor")
    game.adjudicate()
    session = Session(game)
    session.click("yor")
    assert "nwy" in session.targets()  # by the fleet in the North Sea


def test_loeb9_arctic_is_closed_in_fall() -> None:
    game = Game.new("loeb9")
    arctic = [p.id for p in game.variant.provinces.values() if p.seasons]
    if not arctic:
        pytest.skip("this Loeb9 data has no seasonal province")
    game.adjudicate()
    assert game.phase.season == "fall"
    session = Session(game)
    for unit in game.units.values():
        session.clear_selection()
        session.click(unit.location)
        assert not {t.split("/")[0] for t in session.targets()} & set(arctic), unit


def coast_running_with_army_in_tunis() -> Game:
    game = Game.new("coast_running")
    game.add_orders("Italy: F nap - ion\nA rom - apu")
    game.adjudicate()
    game.add_orders("Italy: F ion C A apu - tun\nA apu - tun")
    game.adjudicate()
    while game.phase.kind != "movement":
        game.adjudicate()
    return game


def test_coast_running_protect_by_clicking_and_the_run_succeeds() -> None:
    game = coast_running_with_army_in_tunis()
    session = Session(game)
    session.click("tun")
    assert session.can_protect(game.units["tun"])
    session.mode = "protect"
    assert session.targets() == ["ion"]
    session.click("ion")
    assert "wes" in session.targets()
    order, _ = session.click("wes")
    assert order == "A tun P F ion - wes"
    session.click("ion")
    assert "wes" in session.targets()  # the run is offered to the fleet
    order, _ = session.click("wes")
    assert order == "F ion - wes"
    problems = session.game.add_orders("A tun P F ion - wes\nF ion - wes", "italy")
    assert [p for p in problems if not getattr(p, "kept", False)] == []
    session.game.adjudicate()
    assert session.game.units["wes"].type == "F"


def test_no_protect_order_outside_coast_running() -> None:
    session = Session.new("standard")
    assert not session.can_protect(session.game.units["par"])
    assert session.run_targets(session.game.units["bre"]) == []


def test_adjustment_build_and_removal_by_clicking() -> None:
    game = Game.new("standard")
    game.add_orders("Austria: A vie - gal\nF tri - alb\nA bud - ser")
    game.adjudicate()
    game.add_orders("Austria: F alb - gre")
    game.adjudicate()
    assert game.phase.kind == "adjustment"
    session = Session(game)
    assert "vie" in session.targets() and "tri" in session.targets()
    session.click("vie")
    assert session.selected == "vie"
    assert session.build("A") == "Build A vie"


def test_history_steps_and_results_text() -> None:
    session = Session.new("standard")
    session.enter_orders("A par - bur", "france")
    session.game.adjudicate()
    session.step(to=len(session.game.history))
    assert session.at_current and str(session.shown_position().phase) == "F1901M"
    session.step(delta=-1)
    assert not session.at_current and str(session.shown_position().phase) == "S1901M"
    assert [s.kind for s in session.shapes() if s.power == "france"].count("move") == 1
    assert "A par - bur" in session.results_text() and "France" in session.results_text()
    session.step(delta=-1)
    assert session.view == 0
    assert session.click("par") == (None, [])  # a past phase takes no orders


def test_text_orders_report_the_bad_line_and_keep_the_others() -> None:
    session = Session.new("standard")
    problems = session.enter_orders("A vie - tyr\nA xyz - abc", "austria")
    assert len(problems) == 1 and "xyz" in str(problems[0])
    assert order_list(session) == ["A vie - tyr"]


def test_the_link_and_the_file_round_trip() -> None:
    session = Session.new("cline5")
    session.game.adjudicate()
    again = decode_link(encode_link(session.game))
    assert game_to_text(again) == game_to_text(session.game)
    assert game_to_text(game_from_text(game_to_text(session.game))) == game_to_text(session.game)


@pytest.mark.parametrize("bad", ["", "not-a-game", "!!!", "A" * 50])
def test_a_bad_link_raises_a_clear_error(bad: str) -> None:
    with pytest.raises(GameFileError):
        decode_link(bad)


def test_the_snapshot_is_plain_data_of_the_current_position() -> None:
    session = Session.new("standard")
    session.enter_orders("A par - bur", "france")
    session.game.adjudicate()
    snapshot = position_snapshot(session.game, {"france": "#123456"})
    assert json.loads(json.dumps(snapshot)) == snapshot
    assert snapshot["variant"] == "standard" and snapshot["phase"] == "F1901M"
    assert ["france", "A", "bur"] in snapshot["units"]
    assert len(snapshot["units"]) == 22 and snapshot["centres"]["par"] == "france"
    assert snapshot["colours"] == {"france": "#123456"}


def _link_of(raw: bytes) -> str:
    import base64
    import zlib

    return base64.urlsafe_b64encode(zlib.compress(raw, 9)[2:-4]).decode("ascii").rstrip("=")


# What a hostile link, autosave or file may hold that the engine's readers do not turn into a
# GameFileError themselves (a number past Python's int-string limit raises ValueError in json.loads).
HUGE_NUMBER = b"1" + b"0" * 5000


@pytest.mark.parametrize(
    "raw",
    [
        b'{"a":' + HUGE_NUMBER + b',"v":"standard","n":0}',
        b'{"a":1,"v":"standard","n":' + HUGE_NUMBER + b"}",
        b"[" * 200_000 + b"]" * 200_000,
    ],
)
def test_a_hostile_link_raises_only_a_clear_game_file_error(raw: bytes) -> None:
    with pytest.raises(GameFileError, match="link"):
        decode_link(_link_of(raw))


@pytest.mark.parametrize(
    "text",
    [
        '{"format": "adjutant-game", "version": ' + HUGE_NUMBER.decode() + "}",
        '{"format": "adjutant-game", "version": 1, "variant": "standard", "phase": ' + HUGE_NUMBER.decode() + "}",
        '{"format": "adjutant-game", "x": ' + "[" * 200_000 + "]" * 200_000 + "}",
    ],
)
def test_a_hostile_file_raises_only_a_clear_game_file_error(text: str) -> None:
    with pytest.raises(GameFileError):
        game_from_text(text)
