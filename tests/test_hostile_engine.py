"""Hostile input at the engine's three doors: a link (decode_link), a game file (loads) and order text
(add_orders / parse_order). Whatever comes in, out comes a game or an AdjutantError with a message — never
another exception, a fatal stack overflow or a long hang. Fixed examples for each attack found, then
hypothesis: random data, and mutations of valid links, files and orders."""

from __future__ import annotations

import base64
import json
import re
import unicodedata
from typing import Any

import pytest
from adjutant import AdjutantError, Game, GameFileError, decode_link, dumps, encode_link, loads
from adjutant.adjudication.orders import parse_order
from adjutant.formats.gamefile import MAX_BYTES, most_orders, to_data
from adjutant.formats.limits import BIDI_CONTROLS, MAX_DEPTH, MAX_FILE_BYTES, read_json, too_deep, without_bidi_controls
from adjutant.group_play.cluster_views import for_players, new_game, public_data
from adjutant.randomgame import random_game
from hostile_data import FUZZ, JSON_VALUES, link_of, payload_of
from hypothesis import given
from hypothesis import strategies as st
from json_paths import json_paths


def played(variant: str = "standard", years: int = 2, seed: int = 1) -> Game:
    game = Game.new(variant)
    for game in random_game(variant, seed, years):  # noqa: B007 - the last state is the game played
        pass
    return game


def cluster_game() -> Game:
    game = new_game(5)
    for line in ("France: A Par - Bur; F Bre - Mao", "Germany: A Mun - Ruh"):
        game.add_orders(line)
    while game.phase.kind != "movement" or not game.history:
        game.adjudicate()
    return game


# --- 1. nesting ------------------------------------------------------------------------------------
DEEP = "[" * 6000 + "]" * 6000


def test_the_depth_scan_reads_strings_as_text_and_counts_only_real_nesting() -> None:
    assert not too_deep(json.dumps({"a": ["[[[[[[[[[[[[[[[[[[[[[[[[[", {"b": '\\"]]]]'}]}))
    assert not too_deep("[" * MAX_DEPTH + "]" * MAX_DEPTH)
    assert too_deep("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    assert too_deep("[" * 6000) and too_deep(DEEP) and too_deep("{" * 40 + "[" * 40)
    assert not too_deep('{"a": [1, 2')  # cut short but shallow: json.loads says it is not JSON
    with pytest.raises(GameFileError, match="not valid JSON"):
        read_json('{"a": [1, 2', "the file")


@pytest.mark.parametrize(
    "read",
    [
        lambda: decode_link(link_of(DEEP)),
        lambda: decode_link("standard." + link_of('{"a":1,"v":"standard","n":0,"x":' + DEEP + "}")),
        lambda: loads(DEEP),
        lambda: loads('{"format":"adjutant-game","version":2,"variant":"cluster","history":' + DEEP + "}"),
    ],
    ids=["link", "link-field", "file", "cluster-view"],
)
def test_deep_nesting_is_refused_before_parsing(read: Any) -> None:
    with pytest.raises(GameFileError, match="nested more than 16 levels"):
        read()


def test_every_real_game_and_part_fits_the_depth_limit() -> None:
    from adjutant.group_play.cluster_views import secret_parts

    game = cluster_game()
    for data in (to_data(game), public_data(game), to_data(for_players(game)), *secret_parts(game).values()):
        assert not too_deep(json.dumps({"version": 1, "public": data, "sealed": {"gm": "x"}}))
        assert not too_deep(json.dumps({"part": data, "passphrases": {"france": "x"}}))


# --- 2. huge sizes ---------------------------------------------------------------------------------
def test_a_packed_number_longer_than_its_phases_can_need_is_refused_before_any_arithmetic() -> None:
    game = played(years=1)
    payload = payload_of(encode_link(game))
    real = base64.urlsafe_b64decode(payload["c"] + "=" * (-len(payload["c"]) % 4))
    # leading zero bytes do not change the number: only the length bound refuses them
    for padding in (b"\0" * 2_000_000, b"\1" + b"\0" * 300_000):
        hostile = dict(payload, c=base64.urlsafe_b64encode(padding + real).decode().rstrip("="))
        with pytest.raises(GameFileError, match=f"longer than {payload['n']} phases can need"):
            decode_link(link_of(json.dumps(hostile)))


def test_a_packed_number_within_the_bound_but_with_extra_digits_is_refused() -> None:
    game = played(years=1)
    payload = payload_of(encode_link(game))
    real = base64.urlsafe_b64decode(payload["c"] + "=" * (-len(payload["c"]) % 4))
    hostile = dict(payload, c=base64.urlsafe_b64encode(b"\x7f" * 200 + real).decode().rstrip("="))
    with pytest.raises(GameFileError):
        decode_link(link_of(json.dumps(hostile)))


def test_written_out_orders_beyond_what_the_phases_hold_are_refused() -> None:
    hostile = {"a": 1, "v": "standard", "n": 0, "x": [[0, "france", "A par H"]] * 100_000}
    with pytest.raises(GameFileError, match="more orders than 0 phases can hold"):
        decode_link(link_of(json.dumps(hostile)))


def file_with_orders(orders: dict[str, list[str]]) -> str:
    """A new Standard game's file giving ``orders`` for Spring 1901, written without spaces."""
    return json.dumps(dict(to_data(Game.new("standard")), orders=orders), separators=(",", ":"))


def test_a_file_repeating_one_order_up_to_the_size_limit_is_refused_by_its_count() -> None:
    # about 840,000 copies of one order, within the size limit: refused by the count, before any is parsed
    copies = (MAX_FILE_BYTES - 1_000) // len('"A Par H",')
    text = file_with_orders({"france": ["A Par H"] * copies})
    assert MAX_FILE_BYTES - 1_000 < len(text) <= MAX_FILE_BYTES
    with pytest.raises(GameFileError, match=f"the current orders: {copies:,} orders are given, more than the 22 "
                       r"that can count in Spring 1901 movement \(one for each unit"):
        loads(text)


def test_a_history_entry_repeating_an_order_is_refused_by_its_count() -> None:
    data = to_data(played(years=1))
    n, entry = next((n, e) for n, e in enumerate(data["history"]) if e["phase"] == "F1901M")
    power = sorted(entry["orders"])[0]
    entry["orders"][power] = entry["orders"][power] * 1_000
    with pytest.raises(GameFileError, match=rf"history entry {n + 1} \(F1901M\): [0-9,]+ orders are given, more than"):
        loads(json.dumps(data))


def test_orders_repeated_up_to_the_count_load_and_the_last_of_each_unit_counts() -> None:
    most = most_orders(Game.new("standard"))
    assert most == 22  # one per unit: Standard starts with 22
    game = loads(file_with_orders({"france": ["A Par - Bur"] * (most - 1) + ["A Par - Pic"]}))
    assert game.written_orders() == {"france": ["A par - pic"]}
    with pytest.raises(GameFileError, match=f"{most + 1} orders are given, more than the {most}"):
        loads(file_with_orders({"france": ["A Par - Bur"] * (most + 1)}))


def test_waives_beyond_a_powers_centres_are_not_kept_so_its_file_reads_back() -> None:
    game = Game.new("standard")
    game.add_orders("F Lon - Nth", "england")
    game.adjudicate()
    game.add_orders("F Nth - Nwy", "england")
    game.adjudicate()
    assert str(game.phase) == "W1901A"
    assert game.add_orders("; ".join(["Waive"] * 200), "england") == []
    assert game.written_orders() == {"england": ["Waive"] * 4}  # England holds 4 centres
    assert loads(dumps(game)).written_orders() == game.written_orders()


@pytest.mark.parametrize("variant", ["standard", "loeb9", "cline6", "coast_running", "cluster"])
def test_played_games_stay_within_the_count_of_orders(variant: str) -> None:
    game = played(variant, years=4, seed=3)
    assert loads(dumps(game)).position == game.position  # (reading checks every phase's count)


def test_a_deflate_bomb_is_cut_off_at_the_bound() -> None:
    with pytest.raises(GameFileError, match="inflates to more than"):
        decode_link(link_of(b" " * 5_000_000))


def test_the_file_limit_is_one_figure_and_a_long_legal_game_fits_it() -> None:
    assert MAX_BYTES == MAX_FILE_BYTES
    with pytest.raises(GameFileError, match=f"up to {MAX_FILE_BYTES:,} bytes"):
        loads(b" " * (MAX_FILE_BYTES + 1))


# --- 2b. text-direction controls ------------------------------------------------------------------
@pytest.mark.parametrize("control", list(BIDI_CONTROLS))
def test_a_text_direction_control_in_a_file_is_refused_by_name(control: str) -> None:
    data = to_data(played(years=1))
    data["orders"] = {"france": [f"A Par {control}H"]}
    name = f"U+{ord(control):04X} {unicodedata.name(control)}"
    message = re.escape(f"the file holds a text-direction control ({name}), which no game has")
    with pytest.raises(GameFileError, match=message):
        loads(json.dumps(data, ensure_ascii=False))
    with pytest.raises(GameFileError, match=message):  # written as a JSON escape, as json.dumps does
        loads(json.dumps(data))


def test_a_text_direction_control_in_a_cluster_views_free_text_is_refused() -> None:
    # a view is read for display, not replayed: its results' reasons would reach the page as written
    data = public_data(cluster_game())
    data["history"][0]["results"][0]["reason"] = "\u202edesufer"
    with pytest.raises(GameFileError, match="U\\+202E RIGHT-TO-LEFT OVERRIDE"):
        loads(json.dumps(data))


def test_a_text_direction_control_in_a_link_is_refused() -> None:
    hostile = {"a": 1, "v": "standard", "n": 0, "x": [[0, "france", "A Par \u2067H"]]}
    with pytest.raises(GameFileError, match=re.escape("the link holds a text-direction control (U+2067 RIGHT-TO-LEFT")):
        decode_link(link_of(json.dumps(hostile)))


def test_other_text_and_escaped_backslashes_are_read_and_the_page_helper_takes_out_only_the_controls() -> None:
    assert read_json('{"a": "\u00e9\\u00e9 \u0645"}', "the file") == {"a": "\u00e9\u00e9 \u0645"}
    assert without_bidi_controls("f\u202eile\u2066.json\u200f \u0645") == "file.json \u0645"


# --- 3. only AdjutantError ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "payload",
    [
        # (two English orders written out, as encode_link writes "F Lon - Yor via convoy" and the like)
        {"a": 1, "v": "standard", "n": 0, "c": "xxmbVg", "x": [[0, "england", 5], [0, "england", "A lvp H"]]},
        {"a": 1, "v": "standard", "n": 0, "c": "xxmbVg", "x": [[0, "england", ["F lon H"]], [0, "england", [1]]]},
        {"a": 1, "v": "x" * 300, "n": 0},
        {"a": 1, "v": "standard", "n": 0, "c": 5},
        {"a": 1, "v": "standard", "n": 0, "d": 5},
        {"a": 1, "v": "standard", "n": 0, "d": [["france"]]},
    ],
)
def test_malformed_link_fields_give_game_file_errors(payload: dict[str, Any]) -> None:
    with pytest.raises(GameFileError):
        decode_link(link_of(json.dumps(payload)))


def _view_file() -> dict[str, Any]:
    return to_data(for_players(cluster_game()))


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["units"].update({"france": [["A par"]]}),
        lambda d: d["units"].update({("x" * 300): ["A par"]}),
        lambda d: d.update(units={"france": 1.5}),
        lambda d: d.update(winner=["france"]),
        lambda d: d.update(draw=[["france"]]),
        lambda d: d["centres"].update({"france": [["par"]]}),
        lambda d: d.update(contested=[["par"]]),
        lambda d: d.update(dislodged=[{"power": ["france"], "unit": "A par"}]),
        lambda d: d["history"][0].update(orders={"france": [["A par H"]]}),
        lambda d: d["history"][0].update(results=[{"power": "france"}]),
        lambda d: d["cluster"].update(research=[[1.5, "par", 1]]),
        lambda d: d["cluster"].update(auras={"par": [1e300, True]}),
        lambda d: d.update(variant="x" * 300),
        lambda d: d.update(phase=["S1901M"]),
    ],
)
def test_malformed_cluster_view_files_give_game_file_errors(change: Any) -> None:
    data = _view_file()
    change(data)
    with pytest.raises(GameFileError):
        loads(json.dumps(data))


@pytest.mark.parametrize("text", ["France: Nominate ² later", "France: Nominate " + "9" * 5000 + " later",
                                  "France: Nominate ３ later", "France: Nominate 1" + "٣" + " later"])
def test_nominations_with_odd_numbers_are_order_problems(text: str) -> None:
    game = new_game(5)
    problems = game.add_orders(text)
    assert len(problems) == 1 and not problems[0].kept and "which multiple" in problems[0].message
    with pytest.raises(AdjutantError, match="which multiple"):
        game.parse(text)


def test_a_bad_line_among_good_orders_is_reported_and_the_good_ones_are_kept() -> None:
    game = new_game(5)
    problems = game.add_orders("France: Nominate 3 A Par\nFrance: Nominate ² later\nGermany: Nominate 3 A Ber")
    assert [p.line for p in problems] == [2]
    assert sorted(game.written_orders()) == ["france", "germany"]


# --- hypothesis: random data and mutations of valid input --------------------------------------------

def mutate(data: Any, draw: Any) -> Any:
    """``data`` with one to three of its nodes replaced by random JSON, deleted, or given a new key."""
    data = json.loads(json.dumps(data))
    for _ in range(draw(st.integers(1, 3))):
        paths = json_paths(data)
        path = draw(st.sampled_from(paths))
        if not path:
            data = draw(JSON_VALUES)
            continue
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        action = draw(st.sampled_from(["replace", "delete", "add"]))
        if action == "delete":
            del parent[path[-1]]
        elif action == "add" and isinstance(parent, dict):
            parent[draw(st.text(max_size=8))] = draw(JSON_VALUES)
        else:
            parent[path[-1]] = draw(JSON_VALUES)
    return data


_GAMES: dict[str, Game] = {}


def sample_game(name: str) -> Game:
    if name not in _GAMES:
        _GAMES[name] = {
            "standard": lambda: played("standard", 2, 1),
            "loeb9": lambda: played("loeb9", 1, 2),
            "cluster": cluster_game,
            "cluster-view": lambda: for_players(cluster_game()),
        }[name]()
    return _GAMES[name]


GAME_NAMES = st.sampled_from(["standard", "loeb9", "cluster", "cluster-view"])


def expect_game_or_adjutant_error(read: Any, *args: Any, **kwargs: Any) -> None:
    try:
        read(*args, **kwargs)
    except AdjutantError as error:
        assert str(error)


@FUZZ
@given(st.text(max_size=300) | st.binary(max_size=300).map(lambda b: link_of(b)))
def test_random_links_give_a_game_or_a_game_file_error(text: str) -> None:
    expect_game_or_adjutant_error(decode_link, text)


@FUZZ
@given(st.sampled_from(["standard", "loeb9", "cluster"]), st.data())
def test_mutated_links_give_a_game_or_a_game_file_error(name: str, data: Any) -> None:
    link = encode_link(sample_game(name))
    if data.draw(st.booleans()):
        payload = mutate(payload_of(link), data.draw)
        link = link_of(json.dumps(payload))
    else:
        chars = list(link)
        for _ in range(data.draw(st.integers(1, 4))):
            at = data.draw(st.integers(0, len(chars) - 1))
            chars[at] = data.draw(st.sampled_from("AZaz09-_.=~²"))
        link = "".join(chars)
    expect_game_or_adjutant_error(decode_link, link)


@FUZZ
@given(st.binary(max_size=400) | JSON_VALUES.map(json.dumps))
def test_random_files_give_a_game_or_a_game_file_error(data: bytes | str) -> None:
    expect_game_or_adjutant_error(loads, data)


@FUZZ
@given(GAME_NAMES, st.data())
def test_mutated_files_give_a_game_or_a_game_file_error(name: str, data: Any) -> None:
    text = json.dumps(mutate(to_data(sample_game(name)), data.draw))
    expect_game_or_adjutant_error(loads, text)


ORDER_WORDS = st.sampled_from(
    ["A", "F", "par", "bur", "lon", "nth", "-", "S", "C", "H", "R", "D", "Build", "Remove", "Waive", "Nominate",
     "later", "²", "３", "9" * 5000, "spa/sc", "via", "convoy", "France:", "England:", ";", "\n", "Research",
     "Transfer", "Mattermit", "Protect", "to", "x" * 300, "\x00", "٣"]
)


@FUZZ
@given(GAME_NAMES, st.lists(ORDER_WORDS | st.text(max_size=6), max_size=12).map(" ".join))
def test_random_order_text_gives_problems_not_exceptions(name: str, text: str) -> None:
    game = sample_game(name)
    snapshot = dumps(game)
    try:
        game.add_orders(text)
    except AdjutantError as error:
        assert str(error)
    for power in [None, *game.variant.powers]:
        expect_game_or_adjutant_error(game.parse, text, power)
    expect_game_or_adjutant_error(
        parse_order, text, game.variant, game.units, power=None, phase=game.phase.kind,
        dislodged=game.dislodged_units(),
    )
    game.clear_orders()
    assert dumps(game) == snapshot


@FUZZ
@given(st.sampled_from(["standard", "cluster"]), st.data())
def test_mutated_valid_orders_give_problems_not_exceptions(name: str, data: Any) -> None:
    game = sample_game(name)
    lines = [f"{u.power}: {u.type} {u.location} H" for u in game.units.values()]
    lines += ["France: Nominate 3 A Par", "Germany: Nominate 2 later", "England: F Lon - Nth"]
    line = data.draw(st.sampled_from(lines))
    at = data.draw(st.integers(0, len(line)))
    text = line[:at] + data.draw(ORDER_WORDS | st.characters()) + line[at:]
    expect_game_or_adjutant_error(game.add_orders, text)
    game.clear_orders()

