"""adjutant_ui.session under CPython: the game table's logic without a browser."""

from __future__ import annotations

import asyncio
import concurrent.futures
import gc
import json
import random
from collections.abc import Coroutine
from typing import Any, TypeVar

import pytest
from adjutant import AdjutantError, GameFileError, available_variants, load_variant
from adjutant.adjudication.orders import Support, Unit, format_order, order_power
from adjutant.game import Game, Position
from adjutant.group_play import cluster_views
from adjutant.map.variant import province_of
from adjutant.randomgame import random_game, random_orders
from adjutant_ui.session import (
    Session,
    decode_link,
    decoding,
    encode_link,
    game_from_text,
    game_to_text,
    position_snapshot,
    position_snapshot_steps,
    read_link,
    rehearsal,
)
from session_games import (
    austria_removes_two,
    carrying,
    cluster_game_knowing,
    failed_waive_file,
    order_list,
    played,
    russia_builds,
)

T = TypeVar("T")


def test_loeb9_arctic_is_closed_in_fall() -> None:
    game = Game.new("loeb9")
    arctic = [p.id for p in game.variant.provinces.values() if p.seasons]
    assert arctic, "Loeb9's Arctic Ocean is open in spring only"
    game.adjudicate()
    assert game.phase.season == "fall"
    session = Session(game)
    for unit in game.units.values():
        session.clear_selection()
        session.click(unit.location)
        assert not {t.split("/")[0] for t in session.targets()} & set(arctic), unit


def test_the_runs_offered_are_the_adjudicators_a_run_cannot_cross_a_province_between_its_coasts() -> None:
    """An army in Bulgaria protects a fleet in the Aegean along the south coast only: the east coast (to the
    Black Sea and Rumania) is on another coastline, so the page offers no run there, as the adjudicator
    refuses one; with an army in Constantinople too, the run to the Black Sea is offered and succeeds."""
    game = Game.new("coast_running")
    units = {"aeg": Unit("turkey", "F", "aeg"), "bul": Unit("russia", "A", "bul")}
    game.position = Position(game.phase, units, dict(game.position.centres))
    session = Session(game)
    assert session.run_targets(game.units["aeg"]) == []
    session.click("aeg")
    assert "bla" not in session.targets()
    session.game.add_orders("Turkey: F aeg - bla\nRussia: A bul P F aeg - bla")
    record = session.game.adjudicate()[0]
    assert [r.reason.split(":")[0] for r in record.results if r.power == "turkey"] == ["illegal"]

    game = Game.new("coast_running")
    units["con"] = Unit("russia", "A", "con")
    game.position = Position(game.phase, units, dict(game.position.centres))
    session = Session(game)
    assert session.run_targets(game.units["aeg"]) == ["ank", "bla", "rum"]
    session.game.add_orders("Turkey: F aeg - bla\nRussia: A con P F aeg - bla")
    session.game.adjudicate()
    assert session.game.units["bla"] == Unit("turkey", "F", "bla")


def test_no_protect_order_outside_coast_running() -> None:
    session = Session.new("standard")
    assert not session.can_protect(session.game.units["par"])
    assert session.run_targets(session.game.units["bre"]) == []


def test_typed_illegal_orders_are_refused_unless_kept_anyway() -> None:
    session = Session.new("standard")
    session.enter_orders("F lon - nth", "england")
    problems = session.enter_orders("F lon - bre\nA lvp - yor", "england")
    assert len(problems) == 1 and not problems[0].kept
    assert "not adjacent" in str(problems[0]) and "not taken" in str(problems[0])
    assert order_list(session) == ["A lvp - yor", "F lon - nth"]  # the earlier order for London stays
    assert session.refused == ["F lon - bre"]
    problems = session.enter_orders("F lon - bre", "england", keep_illegal=True)
    assert problems[0].kept
    assert order_list(session) == ["A lvp - yor", "F lon - bre"]
    assert "not adjacent" in session.is_illegal(session.game.orders_of("england")[-1])


def test_an_order_kept_anyway_is_still_marked_illegal_once_the_game_comes_back_from_its_link() -> None:
    from adjutant.formats.link import decode_link, encode_link

    session = Session.new("standard")
    session.enter_orders("F lon - bre\nA lvp - yor", "england", keep_illegal=True)
    again = Session(decode_link(encode_link(session.game)))  # a reload, or the link opened elsewhere
    illegal, legal = (next(o for o in again.game.orders_of("england") if o.unit.province == p) for p in ("lon", "lvp"))
    assert "not adjacent" in again.is_illegal(illegal)
    assert again.is_illegal(legal) == ""
    marked = {shape.at: shape.illegal for shape in again.shapes()}
    assert marked["lon"] is True and marked["lvp"] is False


def test_typed_orders_for_a_power_merge_by_unit_and_say_what_they_replaced() -> None:
    session = Session.new("standard")
    session.click("par")
    session.enter_orders(session.click("bur")[0] or "")
    session.enter_orders("A mar - spa", "france")
    assert order_list(session) == ["A mar - spa", "A par - bur"]  # the clicked order stays
    assert session.replaced == []
    session.enter_orders("A par - pic", "france")
    assert order_list(session) == ["A mar - spa", "A par - pic"]
    assert session.replaced == [("A Par - Bur", "A Par - Pic")]
    session.enter_orders("A par - pic\nF bre - mao", "france")  # the same order again replaces nothing
    assert session.replaced == []


def test_adjudicating_lists_what_has_no_order() -> None:
    session = Session.new("standard")
    assert len(session.unordered()) == 22
    session.enter_orders("A par - bur")
    missing = session.unordered()
    assert len(missing) == 21 and "France: F Brest (will hold)" in missing
    assert not any("Paris" in line for line in missing)
    builds = Session(russia_builds())
    assert builds.unordered() == ["Russia: 2 builds not ordered (will be waived)"]


def test_the_legal_order_cache_follows_the_position_not_the_history_length() -> None:
    session = Session.new("standard")
    session.enter_orders("A par - bur")
    session.game.adjudicate()
    supported = {o.target for o in session.legal_orders("bur") if isinstance(o, Support)}
    assert "mar" in supported and "par" not in supported
    session.game.undo()
    session.game.clear_orders()
    session.enter_orders("A mar - bur")
    session.game.adjudicate()  # the same history length, another position
    supported = {o.target for o in session.legal_orders("bur") if isinstance(o, Support)}
    assert "par" in supported and "mar" not in supported


def test_the_order_list_writes_places_as_capitalised_abbreviations() -> None:
    from adjutant_ui.session import order_label

    session = Session.new("standard")
    session.enter_orders("F stp/sc - bot\nA par - bur")
    labels = sorted(order_label(session.game.variant, o) for os in session.game.all_orders().values() for o in os)
    assert labels == ["A Par - Bur", "F Stp/sc - Bot"]


def test_history_steps_and_results_text() -> None:
    session = Session.new("standard")
    session.enter_orders("A par - bur", "france")
    session.game.adjudicate()
    session.step(to=len(session.game.history))
    assert session.at_current and str(session.shown_position().phase) == "F1901M"
    session.step(delta=-1)
    assert not session.at_current and str(session.shown_position().phase) == "S1901M"
    assert session.shapes() == []  # spring's orders are drawn, with their results, on the position after it
    assert "A Par - Bur" in session.results_text() and "France" in session.results_text()
    session.step(delta=-1)
    assert session.view == 0
    assert session.click("par") == (None, [])  # a past phase takes no orders


def test_the_results_told_are_made_again_exactly_when_the_phase_shown_or_its_results_change() -> None:
    """A render asks for the results sentences and text at every click (Session.reports_made counts each
    making): after orders, adjudications, steps back and forth and an undo they are always those a fresh
    session of the same game tells, and an order given makes neither again."""
    session = Session(next(g for g in random_game("cline5", 1, 1) if len(g.history) == 2))

    def told(s: Session) -> tuple[list[tuple[str, str]], str]:
        return s.results_entries(), s.shown_results_text()

    def fresh() -> tuple[list[tuple[str, str]], str]:
        other = Session(session.game)
        other.view = session.view
        return told(other)

    assert told(session) == fresh()
    entries = session.results_entries()
    order = random_orders(session.game, random.Random(0))[0]
    session.enter_orders(format_order(order), order_power(order))
    assert session.results_entries() is not entries and session.results_entries() == entries  # a copy, kept
    made = dict(session.reports_made)
    session.enter_orders(format_order(order), order_power(order))
    assert told(session) == fresh() and session.reports_made == made
    session.adjudicate()
    session.step(to=len(session.game.history))
    assert told(session) == fresh() and session.reports_made == {name: n + 1 for name, n in made.items()}
    for step in (-1, -1, 1, 1):
        session.step(delta=step)
        assert told(session) == fresh()
    session.undo()
    session.step(to=len(session.game.history))
    assert told(session) == fresh()


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


DEFAULT_THRESHOLDS = gc.get_threshold()


@pytest.mark.parametrize("bad", ["", "not-a-game", "!!!", "A" * 50])
def test_a_bad_link_raises_a_clear_error(bad: str) -> None:
    with pytest.raises(GameFileError):
        decode_link(bad)
    assert gc.isenabled()  # (paused while decoding, and on again after a failure too)


def test_decoding_pauses_the_cycle_collector_and_leaves_it_as_it_was() -> None:
    link = encode_link(Session.new("standard").game)
    seen: list[bool] = []
    gc.callbacks.append(lambda phase, info: seen.append(phase))
    try:
        gc.collect()
        seen.clear()
        gc.set_threshold(1)  # (a collection at nearly every allocation, were the collector on)
        decode_link(link)
        assert seen == [] and gc.isenabled()
        gc.disable()
        decode_link(link)
        assert not gc.isenabled()  # (it stays off if it was off)
    finally:
        gc.enable()
        gc.set_threshold(*DEFAULT_THRESHOLDS)
        gc.callbacks.pop()


@pytest.mark.parametrize("bad", ["", "not-a-game", "A" * 50])
def test_decoding_step_by_step_gives_the_links_game_and_refuses_a_bad_link_the_same_way(bad: str) -> None:
    *_, game = random_game("cline5", 3, 2)
    carried: list[Game] = []
    steps, replayed = decoding(encode_link(game), carried.append), 0
    assert next(steps) == 0 and carried[0].units == game.units  # (the position the link carries, first)
    while True:
        try:
            assert next(steps) == replayed + 1  # (one step per adjudicated phase)
            replayed += 1
        except StopIteration as done:
            assert game_to_text(done.value) == game_to_text(game)
            break
    assert replayed == sum(not record.skipped for record in game.history) and gc.isenabled()
    with pytest.raises(GameFileError) as refused:
        for _ in decoding(bad):
            pass
    with pytest.raises(GameFileError) as whole:
        decode_link(bad)
    assert str(refused.value) == str(whole.value) and gc.isenabled()


def _against_the_computer() -> Game:
    game = cluster_views.new_game(seed=7)
    for power in game.variant.powers:
        if power != "france":
            game.set_computer(power, "random", 1)
    game.add_orders("France: A par - bur")
    game.adjudicate()
    return game


def _sealed_fragment() -> str:
    from adjutant_ui import sealed

    return sealed.sealed_link(cluster_views.new_game(1901), {sealed.GM: "A" * 66}).fragment()


def _seen(read: tuple[Session, object]) -> tuple[object, ...]:
    session, link = read
    master = game_to_text(session.master) if session.master is not None else None
    return game_to_text(session.game), master, session.readonly, session.viewers, link


def run_apart(coroutine: Coroutine[Any, Any, T]) -> T:
    """``coroutine`` run to its end by an event loop in a thread of its own: a worker that has run a browser
    test has Playwright's loop running in this thread, where ``asyncio.run`` refuses to start."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


@pytest.mark.parametrize("make", ["long", "computer", "sealed"])
def test_the_one_link_reader_gives_the_same_session_sliced_or_in_one_go(make: str) -> None:
    # The page reads every link through read_link: at its start (sliced) and for a link opened later (a
    # changed address, a pasted link, another tab's save). Sliced at every phase or not, the session is one.
    fragment = {
        "long": lambda: encode_link(list(random_game("cline5", 4, 3))[-1]),
        "computer": lambda: encode_link(_against_the_computer()),
        "sealed": _sealed_fragment,
    }[make]()
    turns: list[int] = []

    async def pause() -> None:
        turns.append(len(turns))
        await asyncio.sleep(0)

    sliced = run_apart(read_link(fragment, pause, slice_s=0))
    whole = run_apart(read_link(fragment))
    assert _seen(sliced) == _seen(whole)
    session, link = whole
    if make == "long":  # a turn after the position the link carries is read, and after each phase replayed
        assert len(turns) == 1 + sum(not r.skipped for r in session.game.history) >= 7 and link is None
        assert game_to_text(session.game) == game_to_text(decode_link(fragment))
    elif make == "computer":  # seen as its people see it (the slip of the last CI failure)
        assert session.master is not None and session.viewers == ("france",) and link is None
    else:  # a sealed game's public view, read only, with the link it came from
        assert session.readonly and link is not None and link.fragment() == fragment


@pytest.mark.parametrize("bad", ["not-a-game", "A" * 50, "cluster.s=2~x~y~z"])
def test_the_one_link_reader_refuses_a_bad_link_as_decode_link_does(bad: str) -> None:
    async def pause() -> None:
        await asyncio.sleep(0)

    with pytest.raises(GameFileError):
        run_apart(read_link(bad, pause, slice_s=0))
    assert gc.isenabled()


def test_an_adjudication_draws_its_results_from_the_orders_given_without_reading_them_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from adjutant.pictures import scene

    *_, game = random_game("cline5", 5, 2)
    session, read = Session(decode_link(encode_link(game))), Session(decode_link(encode_link(game)))
    for order in random_orders(session.game, random.Random(5)):
        session.game.add_order(order)
        read.game.add_order(order)
    session.adjudicate()
    read.game.adjudicate()
    for shown in (session, read):
        shown.step(to=len(shown.game.history))
    expected = read.last_results()  # (the record's orders read from their text)
    assert expected

    def refused(*_: object, **__: object) -> None:
        raise AssertionError("the orders given were read again from their text")

    monkeypatch.setattr(scene, "parse_order", refused)
    assert session.last_results() == expected


def test_the_snapshot_is_plain_data_of_the_current_position() -> None:
    from adjutant.pictures.drawing import Drawing, MapPoints

    session = Session.new("standard")
    session.enter_orders("A par - bur", "france")
    session.game.adjudicate()
    points = MapPoints({"bur": (5.0, 6.0), "lon": (1.0, 2.0)}, {}, {"france": "#123456"})
    drawing = Drawing(session.game.variant, points)
    snapshot = position_snapshot(session.game, drawing)
    assert json.loads(json.dumps(snapshot)) == snapshot
    assert snapshot["variant"] == "standard" and snapshot["phase"] == "F1901M"
    # the units as the board draws them: 22 units, two of them on the map's points
    units = json.dumps(snapshot["units"])
    assert units.count('["class", "adj-unit"]') == 22 and units.count("adj-unit-body") == 2
    assert '["data-location", "bur"], ["data-power", "france"], ["data-type", "A"]' in units
    assert '["fill", "#123456"]' in units
    assert snapshot["centres"]["par"] == "france"
    assert snapshot["colours"]["france"] == "#123456"


def test_the_snapshot_made_a_few_units_at_a_time_is_the_same() -> None:
    from adjutant.pictures.drawing import Drawing, MapPoints

    session = Session.new("cline5")  # (28 units: a nine-power position, the page's costliest snapshot)
    drawing = Drawing(session.game.variant, MapPoints({"con": (5.0, 6.0)}, {}, {"turkey": "#123456"}))
    steps = position_snapshot_steps(session.game, drawing)
    pauses = 0
    while True:
        try:
            next(steps)
            pauses += 1
        except StopIteration as done:
            made = done.value
            break
    assert pauses == len(session.game.position.units) // 8 == 3  # a pause after every eighth unit
    assert made == position_snapshot(session.game, drawing)
    assert json.dumps(made["units"]).count('["class", "adj-unit"]') == 28


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


# --- games with secrets (adjutant_ui.sealed) ------------------------------------------------------
def _sealed_link_of(raw: bytes) -> str:
    return "s=" + _link_of(raw)


def test_a_sealed_link_round_trips_its_public_part_and_seals() -> None:
    from adjutant_ui.sealed import decode_sealed_link, encode_sealed_link, is_sealed_link

    public = {"variant": "cluster", "phase": "S1901M", "list": [1, 2, 3]}
    seals = {"gm": "AQAJJ8A-_x" + "A" * 56, "england": "AQAJJ8Bzz9" + "A" * 56}  # a seal's fewest bytes, 49
    fragment = encode_sealed_link(public, seals)
    # the variant's id first, readable (the page paints its map before Python starts), then the seal
    assert fragment.startswith("cluster.s=") and is_sealed_link("#" + fragment) and not is_sealed_link("abc")
    link = decode_sealed_link("#" + fragment)
    assert link.public == public and link.sealed == seals
    assert link.fragment() == fragment
    # a link made before the variant's id was written first opens as well
    old = fragment.removeprefix("cluster.")
    assert is_sealed_link(old) and decode_sealed_link(old) == link
    # a start that names another variant is refused, not believed
    with pytest.raises(GameFileError, match="says it holds a game of 'standard'"):
        decode_sealed_link("standard." + old)
    # public data with no variant, or with a hostile one, gives no readable start
    assert encode_sealed_link({**public, "variant": "<b>x"}, seals).startswith("s=")


@pytest.mark.parametrize(
    ("fragment", "message"),
    [
        ("s=", "holds no game"),
        ("s=!!!", "base64url"),
        ("s=AAAA", "cut short"),
        ("s=_____w", "does not inflate"),
        (_sealed_link_of(b"[1, 2]"), "not a sealed game"),
        (_sealed_link_of(b'{"version": 9, "public": {}, "sealed": {"gm": "AA"}}'), "newer Adjutant"),
        (_sealed_link_of(b'{"version": "1", "public": {}, "sealed": {"gm": "AA"}}'), "version is not a number"),
        (_sealed_link_of(b'{"version": 1, "public": [], "sealed": {"gm": "AA"}}'), "no public part"),
        (_sealed_link_of(b'{"version": 1, "public": {}, "sealed": {}}'), "no sealed parts"),
        (_sealed_link_of(b'{"version": 1, "public": {}, "sealed": {"<img>": "AA"}}'), "malformed name"),
        (_sealed_link_of(b'{"version": 1, "public": {}, "sealed": {"gm": "<b>x</b>"}}'), "not base64url"),
        (_sealed_link_of(b'{"version": 1, "public": {}, "sealed": {"gm": 5}}'), "not base64url"),
        (_sealed_link_of(b'{"version": ' + HUGE_NUMBER + b"}"), "not valid JSON"),
        (_sealed_link_of(b"[" * 200_000 + b"]" * 200_000), "nested more than 16 levels"),
        (_sealed_link_of(b"{" + b" " * 9_000_000 + b"}"), "too much"),
        (_sealed_link_of(b'{"version": 1}')[:-3], "cut short"),
    ],
)
def test_a_hostile_sealed_link_raises_only_a_clear_game_file_error(fragment: str, message: str) -> None:
    from adjutant_ui.sealed import decode_sealed_link

    with pytest.raises(GameFileError, match=message):
        decode_sealed_link(fragment)


def test_generated_passphrases_are_random_and_readable() -> None:
    from adjutant_ui.sealed import PASSPHRASE_ALPHABET, generate_passphrase

    phrases = {generate_passphrase() for _ in range(50)}
    assert len(phrases) == 50
    for phrase in phrases:
        groups = phrase.split("-")
        assert [len(g) for g in groups] == [4, 4, 4, 4]
        assert set("".join(groups)) <= set(PASSPHRASE_ALPHABET)


def test_passphrases_must_be_given_long_enough_and_all_different() -> None:
    from adjutant import load_variant
    from adjutant_ui.sealed import part_names, passphrase_problems

    names = part_names(load_variant("cluster"))
    assert list(names)[:2] == ["gm", "austria"] and names["gm"] == "Game master" and len(names) == 8
    good = {part: f"{part}-passphrase" for part in names}
    assert passphrase_problems(good, names) == []
    bad = {**good, "gm": "short", "england": good["austria"], "france": ""}
    assert passphrase_problems(bad, names) == [
        "Game master: a passphrase needs at least 8 characters",
        "England: the same passphrase as Austria",
        "France: no passphrase",
    ]


def _raw(data: bytes) -> bytes:
    import zlib

    return zlib.compress(data, 9)[2:-4]


@pytest.mark.parametrize(
    ("name", "plaintext", "message"),
    [
        ("england", b"not deflated", "the part of england is damaged: it does not inflate"),
        ("england", b"", "cut short"),
        ("england", _raw(b"[1]"), "holds no secrets"),
        ("gm", _raw(b'{"part": [], "passphrases": {}}'), "the game master's part is damaged: it holds no secrets"),
        ("gm", _raw(b'{"part": {}, "passphrases": ["x"]}'), "passphrases are malformed"),
    ],
)
def test_a_damaged_opened_part_raises_a_clear_error(name: str, plaintext: bytes, message: str) -> None:
    from adjutant_ui.sealed import open_part

    with pytest.raises(GameFileError, match=message):
        open_part({}, name, plaintext)


def _played_cluster_game() -> Game:
    from adjutant_ui import sealed

    game = cluster_views.new_game(1901)
    game.nominate("england", 3, "edi")
    game.nominate("england", 2, None)
    game.nominate("france", 3, "mar")
    assert "england" not in sealed.nominations_due(game) and sealed.nominations_due(game)["france"] == [2]
    game.add_orders("France: A par - bur\nEngland: F lon - nth")
    game.adjudicate()
    return game


def test_each_sealed_part_opens_its_holders_view_and_the_public_view_shows_no_secret() -> None:
    from adjutant_ui import sealed

    game = _played_cluster_game()
    phrases = {part: f"{part}-passphrase" for part in sealed.part_names(game.variant)}
    texts = sealed.plaintexts(game, phrases)
    assert set(texts) == set(phrases)
    seals = {p: "A" * 66 for p in texts}  # each of a seal's fewest bytes (49)
    link = sealed.decode_sealed_link(sealed.encode_sealed_link(cluster_views.public_data(game), seals))

    public = sealed.public_game(link)
    assert sealed.sites_of(public) == {} and sealed.strengths_of(public) == {}
    assert sealed.secret_lines(public, "public", {}) == []

    gm = sealed.open_part(link.public, "gm", texts["gm"])
    assert game_to_text(gm.game) == game_to_text(game)
    assert gm.passphrases == {p: v for p, v in phrases.items() if p != "gm"}
    assert len(sealed.sites_of(gm.game)) == 21
    assert sealed.strengths_of(gm.game) == {"edi": "3", "mar": "3"}
    lines = sealed.secret_lines(gm.game, "gm", sealed.sites_of(gm.game))
    assert "England: F Edinburgh is 3×" in lines and "France: its 2× left to a later build" in lines
    assert sum(line.startswith("Sites of the Ancients, level") for line in lines) == 3

    england = sealed.open_part(link.public, "england", texts["england"])
    assert england.passphrases == {} and sealed.sites_of(england.game) == {}
    assert sealed.strengths_of(england.game) == {"edi": "3"}
    lines = sealed.secret_lines(england.game, "england", {})
    assert lines == ["England: F Edinburgh is 3×", "England: its 2× left to a later build"]

    # A part does not open another holder's view, nor another game's.
    with pytest.raises(GameFileError, match="not that holder's"):
        sealed.open_part(link.public, "france", texts["england"])
    # (a compact part is bound to the public part it was sealed beside, which names its game: another
    # game's part meets another public part)
    other = sealed.plaintexts(_played_cluster_game(), phrases)
    with pytest.raises(GameFileError, match="public part was changed after it was sealed"):
        sealed.open_part(link.public, "england", other["england"])


def test_a_sealed_link_with_a_part_for_no_holder_of_the_game_is_refused() -> None:
    from adjutant_ui import sealed

    game = _played_cluster_game()
    seal = "A" * 66  # a seal's fewest bytes (49)
    fragment = sealed.encode_sealed_link(cluster_views.public_data(game), {"gm": seal, "wales": seal})
    with pytest.raises(GameFileError, match="'wales'"):
        sealed.public_game(sealed.decode_sealed_link(fragment))
    with pytest.raises(GameFileError):
        sealed.public_game(sealed.decode_sealed_link(sealed.encode_sealed_link({"format": "x"}, {"gm": "AA"})))


def test_a_game_master_copies_the_results_as_rule_7_reports_them() -> None:
    game = _played_cluster_game()
    game.add_orders("France: A bur RES\nEngland: F nth - nwy")
    game.adjudicate()
    gm = Session(game)
    assert "A Bur RES" in gm.results_text()
    players = gm.players_results_text()
    assert "A Bur H" in players and "A Bur RES" not in players and "research:" in players
    # the same phase picked from the history, as when stepping back through it
    index = next(i for i, r in enumerate(game.history) if any("RES" in x.order for x in r.results))
    assert gm.players_results_text(index) == players
    assert all("Nominate" not in gm.players_results_text(i) for i in range(len(game.history)))
    plain = Session.new("standard")
    plain.enter_orders("France: A Par - Bur")
    plain.game.adjudicate()
    assert plain.players_results_text() == plain.results_text()


def test_the_last_phases_results_are_drawn_on_the_position_they_made() -> None:
    session = Session.new("standard")
    session.enter_orders("A par - bur\nA mun - bur\nA mar S A par - bur")
    session.game.adjudicate()
    session.step(to=len(session.game.history))
    results = {(s.kind, s.at): s for s in session.last_results()}
    assert results[("move", "par")].success is True and results[("move", "par")].to == "bur"
    assert results[("move", "mun")].success is False
    assert results[("support", "mar")].success is True
    assert session.changed_centres() == {}  # no centre changes hands in spring
    session.step(delta=-1)
    assert session.last_results() == []  # the first position: no phase made it


def test_stand_offs_cut_supports_dislodgements_and_adjustments_are_marked_and_told() -> None:
    session = Session.new("standard")
    session.enter_orders("A par - bur\nA mun - bur\nA vie - tyr\nA war - gal\nA con - bul")
    session.game.adjudicate()
    session.step(to=len(session.game.history))
    assert session.phase_marks().standoffs == {"bur": ["mun", "par"]}
    failed = {s.at: s.outcome for s in session.last_results() if s.success is False}
    assert failed == {"par": "bounced", "mun": "bounced"}
    assert "Stand-off in Burgundy (Munich, Paris)." in session.results_summary()
    # the units named as players name them, places written as the order list writes them
    assert "France: A Paris bounced from Burgundy." in session.results_summary()
    assert "  A Par - Bur  (fails: bounced with A Mun)" in session.shown_results_text()
    assert "  A Ber: no order" in session.shown_results_text()
    session.enter_orders("A tyr - ven\nF tri S A tyr - ven\nA bud S F tri\nA gal - bud\nA bul - ser\nF bre - pic")
    session.game.adjudicate()
    session.step(to=len(session.game.history))
    marks = session.phase_marks()
    assert marks.standoffs == {}  # Galicia bounced off the army holding Budapest: no stand-off
    assert marks.dislodged == {"ven": "dislodged by A Tyr"}
    failed_supports = [(s.at, s.outcome) for s in session.last_results() if s.kind == "support" and not s.success]
    assert failed_supports == [("bud", "cut")]
    assert "Austria: the support from A Budapest was cut by A Gal." in session.results_summary()
    session.enter_orders("A ven - pie")
    session.game.adjudicate()
    session.step(to=len(session.game.history))
    marks = session.phase_marks()
    assert marks.adjustments == {"austria": 1, "italy": -1, "turkey": 1}
    assert marks.build_sites == {"austria": ["vie"], "turkey": ["con"]}
    assert session.phase_marks("turkey").build_sites == {"turkey": ["con"]}  # the chosen power's only
    assert session.phase_marks("turkey").adjustments == marks.adjustments
    assert "Italy removes 1." in session.results_summary()
    session.enter_orders("Build A vie\nA pie disband")
    session.game.adjudicate()
    session.step(to=len(session.game.history))
    summary = session.results_summary()
    assert "Austria: built in Vienna." in summary and "Italy: A Piedmont was disbanded." in summary
    assert session.phase_marks().adjustments == {}  # a spring position: nothing due
    # a past position shows the results that made it, the same way
    session.step(to=2)
    assert str(session.shown_position().phase) == "F1901M"
    assert session.phase_marks().standoffs == {"bur": ["mun", "par"]}
    assert session.shown_results_text().startswith("Results for Spring 1901 movement")


def test_centres_that_changed_hands_and_retreat_choices() -> None:
    session = Session.new("standard")
    session.enter_orders("A par - pic\nA vie - tyr")
    session.game.adjudicate()
    session.enter_orders("A pic - bel\nA tyr - ven\nF tri S A tyr - ven")
    session.game.adjudicate()
    session.step(to=len(session.game.history))
    assert session.game.phase.kind == "retreat"
    assert session.retreat_choices() == {"ven": ["apu", "pie", "tus"]}
    session.enter_orders("A ven - pie")
    session.game.adjudicate()
    session.step(to=len(session.game.history))
    assert session.game.phase.kind == "adjustment"
    assert session.changed_centres() == {"bel": "", "ven": "italy"}


def test_protect_and_the_cluster_orders_have_shapes_of_their_own() -> None:
    from adjutant.adjudication.orders import Protect, Unit
    from adjutant.pictures.scene import order_shape
    from adjutant.variants.cluster_orders import Mattermit, Research, Transfer

    army, fleet = Unit("italy", "A", "tun"), Unit("italy", "F", "ion")
    units = {"tun": army, "ion": fleet}
    protect = order_shape(Protect(army, "ion", "wes"), units)
    assert protect is not None
    assert (protect.kind, protect.at, protect.via, protect.to) == ("protect", "tun", "ion", "wes")
    research = order_shape(Research(army), units)
    assert research is not None and research.kind == "research"
    transfer = order_shape(Transfer(army, "ion", "F"), units)
    assert transfer is not None and (transfer.kind, transfer.via) == ("transfer", "ion")
    jump = order_shape(Mattermit(fleet, "eas"), units)
    assert jump is not None and (jump.kind, jump.to) == ("mattermit", "eas")


def test_a_build_is_drawn_with_the_unit_it_makes() -> None:
    from adjutant.adjudication.orders import Build, Waive
    from adjutant.pictures.scene import order_shape

    build = order_shape(Build("russia", "F", "stp/sc"), {})
    assert build is not None and (build.kind, build.at, build.unit) == ("build", "stp/sc", "F")
    waive = order_shape(Waive("russia"), {})
    assert waive is not None and (waive.kind, waive.unit) == ("build", "")


def test_the_units_offered_for_a_nomination_are_those_the_rules_allow() -> None:
    """Rule 2: in the first movement phase any unit of the power's own, by name; later, a level left over
    goes only to a unit the power has just built."""
    from dataclasses import replace

    session = Session.new("cluster")
    assert session.nomination_choices("france", 3) == [("bre", "F Brest"), ("mar", "A Marseilles"), ("par", "A Paris")]
    game = session.game
    state = game.position.variant_state
    assert state is not None
    state = replace(state, started=True, deferred={"france": (2,)}, fresh={"france": ("mar",)})
    game.position = replace(game.position, variant_state=state)
    later = Session(game)
    assert later.nomination_choices("france", 2) == [("mar", "A Marseilles")]
    assert later.nomination_choices("france", 3) == []  # not left over: nothing to name


def test_the_results_list_tells_cluster_orders_outcomes() -> None:
    """The results told in sentences (beside the map) include a mattermission, a research and a transfer
    that succeeded, with what the research found and what the transfer took over."""
    session = Session(cluster_game_knowing("transfer", "mattermission"))
    assert session.enter_orders("France: A par MAT ruh\nA mar RES") == []
    session.game.adjudicate()
    session.step(to=len(session.game.history))
    told = session.results_summary()
    assert "France: A Paris was mattermitted to Ruhr." in told
    assert any(line.startswith("France: A Marseilles, research: ") for line in told)
    session = Session(cluster_game_knowing("transfer"))
    assert session.enter_orders("France: A par TRA A mun") == []
    session.game.adjudicate()
    session.step(to=len(session.game.history))
    assert "France: A Paris, transfer: took over A Mun." in session.results_summary()


def test_a_coast_running_protect_step_selects_another_unit() -> None:
    session = Session.new("coast_running")
    for protector in session.game.units.values():
        if session.can_protect(protector):
            session.click(protector.location)
            session.mode = "protect"
            if session.targets():
                break
            session.clear_selection()
    fleet = session.targets()[0]
    session.click(fleet)
    assert session.target == fleet and "click where it runs" in session.prompt()
    other = next(u for u in session.game.units.values() if u.power == protector.power
                 and u.location not in (protector.location, fleet) and province_of(u.location) not in
                 {province_of(t) for t in session.targets()})
    assert session.click(other.location) == (None, [])
    assert (session.selected, session.mode) == (other.location, "move")


@pytest.mark.parametrize("variant_id", [variant_id for variant_id, _ in available_variants()])
def test_the_page_rehearsal_plays_three_phases_with_every_unit_ordered(variant_id: str) -> None:
    """The page's idle rehearsal (App.rehearse) types every unit's orders, power by power, as a player
    would, and adjudicates them: nothing is left without an order, so each phase runs the whole of a
    click's work."""
    entered = []
    for step, session in enumerate(rehearsal(load_variant(variant_id))):
        game = session.game
        if step % 2 == 0:
            assert session.unordered() == [], game.phase
            entered.append((str(game.phase), sum(map(len, game.all_orders().values()))))
        else:
            assert session.at_current  # the page shows the phase adjudicated into
    assert len(entered) == 3
    assert all(count > 0 for _, count in entered), entered
    # each phase entered was adjudicated (a retreat phase without dislodgements is passed over)
    phases = [str(record.phase) for record in game.history]
    assert [phase for phase, _ in entered] == [p for p in phases if p in dict(entered)]
    assert decode_link(encode_link(game)).history == game.history


def test_a_failed_waive_read_from_a_file_is_told_in_the_results() -> None:
    """The Waive of :func:`failed_waive_file` fails, and the results say so; it has no place on the map to
    name. Builds left unused, a result with neither order nor unit, read as "no order" too."""
    loaded = game_from_text(failed_waive_file())
    loaded.adjudicate()
    for opened in (loaded, decode_link(encode_link(loaded))):
        entries = Session(opened).results_entries()
        assert ("Germany: the waive failed (no adjustment is due).", "order:") in entries
        text = Session(opened).results_text()
        assert "France:\n  no order  (2 unused build(s) waived)\n" in text
        assert "Germany:\n  Waive  (fails: no adjustment is due)\n" in text


def _forced_orders(game: Game, rng: random.Random) -> list[str]:
    """Order texts of every kind for random units and places, most of which the order box refuses."""
    places = [loc for prov in game.variant.provinces for loc in game.variant.locations(prov)]
    units = list(game.units.values()) + [d.unit for d in game.position.dislodged]
    texts = []
    for _ in range(4):
        u, to = rng.choice(units), rng.choice(places)
        texts.append(rng.choice([
            f"Build {rng.choice('AF')} {to}", "Waive", f"Remove {u.type} {u.location}", f"{u.type} {u.location} - {to}",
            f"{u.type} {u.location} R {to}", f"{u.type} {u.location} D", f"{u.type} {u.location} S A {to}",
            f"{u.type} {u.location} C A {rng.choice(places)} - {to}",
        ]))
    return texts


@pytest.mark.parametrize("variant", ["standard", "cline6", "coast_running"])
def test_orders_a_file_gives_unjudged_are_adjudicated_and_every_panel_drawn(variant: str) -> None:
    """A game file's orders are given as written, not judged as the order box judges them: whatever such
    orders make of a phase (seeded: the same cases every run), the game's results and panels are drawn."""
    from adjutant.adjudication.orders import POWER_ORDERS
    from adjutant.formats.gamefile import from_data
    from adjutant.randomgame import random_game

    rng = random.Random(5)
    played = [game.copy() for game in random_game(variant, 5, 2)]
    for _ in range(40):
        game = rng.choice(played).copy()
        game.clear_orders()
        for text in _forced_orders(game, rng):
            power = rng.choice(list(game.variant.powers))
            try:
                order = game.parse(text, power)
            except AdjutantError:
                continue
            if not isinstance(order, POWER_ORDERS) or order.power == power:
                game.add_order(order)
        game = from_data(json.loads(game_to_text(game)))  # (the orders as a file gives them)
        game.adjudicate()
        session = Session(game)
        for index in range(len(game.history) + 1):
            session.step(to=index)
            session.shapes()
            session.results_entries()
            session.phase_marks()
            session.retreat_choices()
            assert session.prompt()
        assert session.results_text().startswith("Results for ")
        assert session.results_entries()[0][0].startswith("Results of ")


def test_a_past_position_lists_the_orders_given_there() -> None:
    session = Session.new("standard")
    session.game.add_orders("France: A par - bur\nF bre - mao")
    session.game.adjudicate()
    session.game.add_orders("France: A bur - mun")
    session.step(to=len(session.game.history))
    assert session.past_orders() == []
    session.step(to=0)
    assert session.past_orders() == [("france", "F Bre - Mao"), ("france", "A Par - Bur")]


def test_the_note_on_builds_used_names_those_that_count_and_how_a_waive_goes() -> None:
    """Typed orders beyond those due: the note lists the first given (they count) and how many more will not;
    a waive cannot be clicked on the map, so the note says how it is taken back."""
    session = Session(austria_removes_two(), player="austria")
    session.enter_orders("Austria: A boh D\nF alb D\nA bud D")
    assert session.prompt() == ("Austria has chosen its 2 removals (A Bohemia, F Albania; 1 more given will not "
                                "count): click one of those units to keep it instead.")
    game = played("Austria: A vie - gal\nF tri - alb\nA bud - ser", "Austria: F alb - gre")
    session = Session(game, player="austria")
    session.enter_orders("Austria: Build F tri\nWaive", "austria")
    assert session.prompt() == ("Austria has used its 2 builds (F Trieste, a build waived): click a build given to "
                                "withdraw it (a waive is taken back only by clearing the power's orders).")


def test_builds_or_removals_typed_beyond_those_due_are_named_before_adjudicating() -> None:
    """Typed orders are not capped: the Adjudicate warning's list names what will not count (the last given),
    and the engine indeed takes the first as many as are due."""
    session = Session(austria_removes_two())
    assert session.beyond_due() == []
    session.enter_orders("Austria: A boh D\nF alb D")
    assert session.beyond_due() == []
    session.enter_orders("Austria: A bud D")
    assert session.beyond_due() == ["Austria: 3 removals given, 2 due (the last given, A Budapest, will not count)"]
    session.game.adjudicate()
    assert [u.location for u in session.game.units.values() if u.power == "austria"] == ["bud"]
    game = played("Austria: A vie - gal\nF tri - alb\nA bud - ser", "Austria: F alb - gre")
    session = Session(game)
    session.enter_orders("Austria: Build F tri\nBuild A vie\nBuild A bud")
    assert session.beyond_due() == ["Austria: 3 builds given, 2 due (the last given, A Budapest, will not count)"]
    assert Session.new("standard").beyond_due() == []  # (no winter, nothing beyond)
    # one power's line, as a player's Send panel says it
    assert session.beyond_due_of("austria") == "3 builds given, 2 due (the last given, A Budapest, will not count)"
    assert session.beyond_due_of("france") == ""



def test_the_link_reader_shows_the_position_a_link_carries_before_its_replay_and_refuses_one_not_reached() -> None:
    *_, game = random_game("cline5", 4, 3)
    *_, other = random_game("cline5", 5, 3)
    events: list[str] = []

    async def pause() -> None:
        events.append("turn")

    async def shown(carried: Session) -> None:
        assert carried.readonly and not carried.game.history
        events.append(f"shown {len(carried.game.units)} units")

    session, _ = run_apart(read_link(encode_link(game), pause, slice_s=0, shown=shown))
    assert events[0] == f"shown {len(game.units)} units" and events[1:] and set(events[1:]) == {"turn"}
    assert game_to_text(session.game) == game_to_text(game)
    events.clear()
    with pytest.raises(GameFileError, match="the position it carries is not the one its orders lead to"):
        run_apart(read_link(carrying(game, other), pause, slice_s=0, shown=shown))
    assert events[0] == f"shown {len(other.units)} units"
