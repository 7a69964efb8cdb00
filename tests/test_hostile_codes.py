"""Hostile input at the game master's doors: pasted text (code_readings, read_code), a code's sequence
number and the intake (Intake.accept, Intake.from_text), and an opened Cluster game master's part
(cluster_group.read_gm_plaintext). Fixed examples for each attack found (issue 37), then hypothesis:
pastes of every size with many codes a line, and forged game master's parts."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from adjutant import AdjutantError, Game, GameFileError
from adjutant.formats import base64url
from adjutant.formats.gamefile import loads, to_data
from adjutant.group_play import cluster_links as cluster_group
from adjutant.group_play import cluster_views
from adjutant.group_play import codes as group
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from json_paths import json_paths

FUZZ = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
KEY = b"\x04" + bytes(range(64))
NOW = 1_800_000_000_000  # (milliseconds since 1970: January 2027)


def _code(game: Game, power: str, salt: int = 0) -> str:
    data = group.header_for(game, KEY, power).pack() + KEY + bytes(12) + bytes(24) + salt.to_bytes(4, "big")
    return group.CODE_PREFIX + group.b64(data)


def _plain(game: Game, seq: int, order: str) -> bytes:
    return group.plaintext(seq, group.encode_orders(game, "france", [game.parse(order, "france")]))


# --- a Cluster view file's fields, each of the wrong type (issue 37, item 5) -----------------------------
def _view_file() -> dict[str, Any]:
    game = cluster_views.new_game(5)
    game.add_orders("France: A Par - Bur; F Bre - Mao")
    game.adjudicate()
    return to_data(cluster_views.for_players(game))


#: the fields a view file may leave out, by the kind of object (told by a field it always has)
OPTIONAL = {"units": {"dislodged": "list", "contested": "list"}, "orders": {"skipped": "bool"},
            "order": {"reason": "str", "dislodged": "bool"},
            "started": {"auras": "dict", "retreating": "dict", "research": "list"}}
WRONG = {"null": None, "bool": True, "int": 5, "float": 1.5, "str": "x", "list": [], "dict": {}}


def _json_type(value: Any) -> str:
    return next(name for name, sample in WRONG.items() if type(value) is type(sample))


def _wrong_typed_files() -> list[tuple[str, dict[str, Any]]]:
    base = _view_file()
    out = []
    targets = [(path, "") for path in json_paths(base)[1:]]
    for path in json_paths(base):
        node: Any = base
        for key in path:
            node = node[key]
        if isinstance(node, dict):
            for marker, keys in OPTIONAL.items():
                if marker in node:
                    targets += [((*path, key), right) for key, right in sorted(keys.items()) if key not in node]
    targets += [(("winner",), "str"), (("draw",), "list")]
    for path, right in targets:
        parent: Any = base
        for key in path[:-1]:
            parent = parent[key]
        kind = right or _json_type(parent[path[-1]])
        for name, value in WRONG.items():
            if name in (kind, "null" if right else "") or {name, kind} == {"int", "float"}:
                continue
            data = json.loads(json.dumps(base))
            at: Any = data
            for key in path[:-1]:
                at = at[key]
            at[path[-1]] = value
            out.append((f"{'.'.join(map(str, path))}={name}", data))
    return out


def test_a_view_file_whose_dislodged_units_are_a_number_is_refused_by_name() -> None:
    data = _view_file()
    data["dislodged"] = 5
    with pytest.raises(GameFileError, match="dislodged units must be a list"):
        loads(json.dumps(data))


def test_every_field_of_a_view_file_of_the_wrong_type_is_refused_as_a_game_file_error() -> None:
    files = _wrong_typed_files()
    assert len(files) > 500  # every field, and the optional ones left out, each given each wrong type
    accepted, failed = [], []
    for name, data in files:
        try:
            loads(json.dumps(data))
            accepted.append(name)
        except GameFileError as error:
            assert str(error)
        except Exception as error:  # noqa: BLE001 - the test names what leaked
            failed.append(f"{name}: {type(error).__name__}: {error}")
    assert failed == []
    # what a view file reads with no type to check: a result's or a phase's free text, a map's names
    assert not [n for n in accepted if n.split("=")[0].split(".")[-1] in {"success", "skipped", "dislodged",
                                                                            "order", "unit", "power"}]


# --- pasted text (items 7 and 8) ---------------------------------------------------------------------------
def test_a_paste_of_more_codes_than_one_paste_takes_is_refused_by_its_count() -> None:
    line = " ".join(f"orders~{n:05d}" for n in range(group.MAX_PASTE_CODES + 1))
    with pytest.raises(group.CodeError, match=f"more than {group.MAX_PASTE_CODES} sealed orders codes"):
        group.code_readings(line)
    assert len(group.code_readings(line.rsplit(" ", 1)[0])) == group.MAX_PASTE_CODES


def test_a_code_not_tried_is_put_back_as_the_lines_it_was_read_from() -> None:
    game = Game.new("standard")
    code = _code(game, "france")
    text = "> " + code[:40] + "\n> " + code[40:80] + "\n> " + code[80:] + "\n"
    (readings,) = group.code_readings(text)
    assert group.reading_lines(readings) == "\n".join([code[:40], code[40:80], code[80:]])
    assert group.code_readings(group.reading_lines(readings)) == [readings]


def _reference_readings(text: str) -> list[tuple[str, ...]]:
    """code_readings as its docstring says it, written plainly (and quadratically): the model it must agree with."""
    lines = text.splitlines()
    seen: dict[tuple[str, ...], None] = {}
    for number, line in enumerate(lines):
        for match in group.CODE_PATTERN.finditer(line):
            readings = [group.CODE_PREFIX + match.group(1)]
            if not line[match.end() :].strip():
                for after in lines[number + 1 : number + 1 + group.WRAPPED_LINES]:
                    rest = after.lstrip(" \t>").rstrip()
                    if not rest or not base64url.is_base64url(rest) or len(readings[-1]) + len(rest) > group.MAX_CODE:
                        break
                    readings.append(readings[-1] + rest)
            seen.setdefault(tuple(readings), None)
    return list(seen)


PIECES = st.sampled_from(["orders~", "orders~AQ", "xorders~AB", "~orders~A", " ", "  ", "\t", "\n", "\r\n", "> ",
                          ">", "Thanks", "QUFBQUFB", "-_", "\u00a0", "\u2028", "é", "orders~" + "A" * 200, "."])


@FUZZ
@given(st.lists(PIECES | st.text(max_size=5), max_size=60), st.integers(0, 40))
def test_hostile_pastes_are_read_as_the_plain_reading_reads_them(pieces: list[str], copies: int) -> None:
    game = Game.new("standard")
    text = "".join(pieces) + " ".join(_code(game, "france", n) for n in range(copies))
    try:
        readings = group.code_readings(text)
    except group.CodeError as error:
        assert "more than" in str(error) or "too long" in str(error)
        return
    assert readings == _reference_readings(text)
    digest = group.phase_digest(game, KEY)
    for reading in (r for rs in readings for r in rs):
        try:
            assert group.read_code(reading, game, KEY, digest).power
        except AdjutantError as error:
            assert str(error)


@FUZZ
@given(st.integers(1, 3000), st.integers(0, 3), st.sampled_from([" ", "\n", "\n> ", " \t"]))
def test_many_codes_a_line_or_a_paste_give_readings_or_a_refusal_by_count(count: int, wrap: int, sep: str) -> None:
    game = Game.new("standard")
    code = _code(game, "england")
    tail = "".join(f"\n{code[7 + 20 * i : 27 + 20 * i]}" for i in range(wrap))
    text = sep.join(f"{_code(game, 'france', n)}" for n in range(count)) + f"{sep}{code}{tail}"
    if count + 1 > group.MAX_PASTE_CODES:
        with pytest.raises(group.CodeError, match="more than"):
            group.code_readings(text)
        return
    readings = group.code_readings(text)
    assert len(readings) == count + 1
    assert readings[-1][0] == code
    assert len(readings[-1]) == 1 + wrap  # the code that ends its line, read with each line after it


# --- a code's sequence number and the intake (item 11) -----------------------------------------------------
def _sealed(game: Game) -> group.Sealed:
    return group.read_code(_code(game, "france"), game, KEY)


def test_a_code_dated_far_ahead_is_refused_and_a_resend_wins() -> None:
    game = Game.new("standard")
    intake = group.Intake(0)
    with pytest.raises(group.CodeError, match="France's code is dated .* after this computer's clock") as refused:
        intake.accept(game, _sealed(game), _plain(game, (1 << 48) - 1, "A Par - Bur"), now=NOW)
    assert refused.value.power == "france" and not game.orders_of("france")
    assert "1 order in" in intake.accept(game, _sealed(game), _plain(game, NOW - 60_000, "A Par - Pic"), now=NOW)
    # within the slack a player's clock may run ahead; a resend dated later still wins
    ahead = NOW + group.CLOCK_SLACK
    assert "1 order in" in intake.accept(game, _sealed(game), _plain(game, ahead, "A Par - Gas"), now=NOW)
    assert "1 order in" in intake.accept(game, _sealed(game), _plain(game, ahead + 1, "A Par - Bur"), now=ahead)
    # and a replay of an older code is set aside, as before
    older = intake.accept(game, _sealed(game), _plain(game, ahead, "A Par - Gas"), now=ahead + 10)
    assert older == f"France: {group.OLDER_CODE}"
    assert [str(o.dest) for o in game.orders_of("france")] == ["bur"]  # type: ignore[attr-defined]


def test_a_forged_intake_entry_dated_ahead_does_not_set_aside_a_later_resend() -> None:
    game = Game.new("standard")
    forged = group.b64(b'{"p":0,"r":{"france":[281474976710655,"c"]}}')
    intake = group.Intake.from_text(forged, game, now=NOW)
    assert intake.received["france"].seq == NOW + group.CLOCK_SLACK
    later = NOW + group.CLOCK_SLACK + 1
    assert "1 order in" in intake.accept(game, _sealed(game), _plain(game, later, "A Par - Bur"), now=later)
    # read again later, the link holds what was taken in, not what was forged
    again = group.Intake.from_text(intake.to_text(), game, now=later + 3_600_000)
    assert again.received["france"].seq == later


# --- the game master's part (items 9 and 10) -------------------------------------------------------------------
def _played(seed: int = 3) -> Game:
    game = cluster_views.new_game(seed)
    game.add_orders("France: A Par - Bur")
    game.adjudicate()
    return game


def test_a_game_masters_part_of_another_game_is_refused_before_any_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _played()
    public = cluster_views.public_data(game)
    plain = json.loads(cluster_group.inflate(cluster_group.gm_plaintext(game, {}), "x", 10**7))
    replays: list[int] = []
    real = cluster_group.decode_orders_by_phase
    monkeypatch.setattr(cluster_group, "decode_orders_by_phase",
                        lambda *a, **k: replays.append(1) or real(*a, **k))
    for change in ({"phases": 1000}, {"phases": 0}, {"game": "0" * 12}, {"draw": ["france"]}):
        forged = cluster_group.raw_deflate(cluster_group.canonical_json({**plain, **change}))
        with pytest.raises(GameFileError, match="not the game of the link's public part"):
            cluster_group.read_gm_plaintext(forged, public)
    assert replays == []
    opened, _ = cluster_group.read_gm_plaintext(cluster_group.gm_plaintext(game, {}), public)
    assert replays == [1] and cluster_views.public_data(opened) == public


def test_the_game_masters_part_is_of_the_authenticated_form_and_its_format_is_read() -> None:
    key = KEY
    header = cluster_group.gm_header(key)
    assert header[0] == cluster_group.GM_PART_FORMAT != cluster_group.LEGACY_GM_PART_FORMAT
    part = group.b64(header + bytes(12) + bytes(40))
    assert cluster_group.gm_part_format(part, key) == cluster_group.GM_PART_FORMAT
    legacy = group.b64(cluster_group.gm_header(key, cluster_group.LEGACY_GM_PART_FORMAT) + bytes(65 + 12 + 40))
    assert cluster_group.gm_part_format(legacy, key) == cluster_group.LEGACY_GM_PART_FORMAT
    # the additional data names the form: a part cannot be opened as the other form's
    public = cluster_views.public_data(_played())
    assert cluster_group.gm_additional_data(key, public) != cluster_group.gm_additional_data(
        key, public, cluster_group.LEGACY_GM_PART_FORMAT)
    for bad, why in ((group.b64(bytes([0x80]) + header[1:] + bytes(52)), "format"),
                     (group.b64(header + bytes(10)), "cut short"),
                     (group.b64(cluster_group.gm_header(b"\x04" + bytes(64)) + bytes(52)), "another game")):
        with pytest.raises(GameFileError, match=why):
            cluster_group.gm_part_format(bad, key)


@FUZZ
@given(st.data())
def test_forged_game_masters_parts_give_a_game_or_a_game_file_error(data: Any) -> None:
    game = _played(data.draw(st.integers(1, 3)))
    public = cluster_views.public_data(game)
    plain = json.loads(cluster_group.inflate(cluster_group.gm_plaintext(game, {"france": "p"}), "x", 10**7))
    field = data.draw(st.sampled_from(sorted(plain)))
    value = data.draw(st.none() | st.booleans() | st.integers(-5, 2000) | st.text(max_size=20)
                      | st.lists(st.text(max_size=8), max_size=3)
                      | st.dictionaries(st.text(max_size=6), st.text(max_size=6)))
    if field == "orders" and data.draw(st.booleans()):
        raw = bytearray(group.unb64(plain["orders"], "orders"))
        rng = random.Random(data.draw(st.integers(0, 1000)))
        for _ in range(data.draw(st.integers(1, 4))):
            if raw:
                raw[rng.randrange(len(raw))] = rng.randrange(256)
        value = group.b64(bytes(raw))
    forged = cluster_group.raw_deflate(cluster_group.canonical_json({**plain, field: value}))
    try:
        opened, _ = cluster_group.read_gm_plaintext(forged, public)
    except GameFileError as error:
        assert str(error)
        return
    assert cluster_views.public_data(opened) == public
