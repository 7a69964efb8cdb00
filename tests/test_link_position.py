"""Links that carry their current position (link version 3, :mod:`adjutant.formats.link`): the position
read first and checked as hostile input, shown before the history is replayed, the replay refused where it
does not reach it; links of the earlier versions still open."""

from __future__ import annotations

import json
from typing import Any

import pytest
from adjutant import AdjutantError, Game, GameFileError, decode_link, dumps, encode_link
from adjutant.adjudication.orders import Unit
from adjutant.formats import base64url, link
from adjutant.formats.link import POSITION_LINK_VERSION, decoding
from adjutant.randomgame import random_game
from adjutant.setup import Placed, set_up
from hostile_data import FUZZ, JSON_VALUES, link_of, payload_of
from hypothesis import given
from hypothesis import strategies as st
from session_games import carrying

#: links written by the version-1 writer (main at d38c644, before links carried their position), of
#: ``played(variant, seed, years)``: kept to show that they still open
OLD_LINKS = {
    ("standard", 3, 3): (
        "standard.DcjdCoIwGADQd_muHTjzp3lngqYkRltG3sjYkshQ07WW0bvXuTwf4BBiCzSEMCveSz5JsKCHkFgg_hkx1w7MVLRRK3F"
        "Ac8dvc4bRez-ggqUxa7aEmM3d9i9uWlYr3iSJvRP0cMzqxaudiGt8Ll-pNqqpaHfNezQ-4_Uwd4vOHreRKO_ki7GD7w8"
    ),
    ("loeb9", 2, 2): (
        "loeb9.q1ZKVLIy1FEqU7JSyslPTbJU0lHKU7Iy01FKBookGrmaJoXm-1S4FbobOXul-gf6-7oYG3s6uYdlxTuF53tkpTkWVpjkRw"
        "brOpbn-uT7-jvm-aUHOBoblmfklhnkGXr7lRaWmAeH5CZmuGWXleU7l5f5VYYq1QIA"
    ),
}


def played(variant: str, seed: int, years: int) -> Game:
    *_, game = random_game(variant, seed, years)
    return game


def relinked(game: Game, **changes: Any) -> str:
    """``game``'s link with its payload's fields changed (None: taken out)."""
    payload = payload_of(encode_link(game))
    for key, value in changes.items():
        if value is None:
            payload.pop(key, None)
        else:
            payload[key] = value
    return f"{game.variant.id}." + link_of(json.dumps(payload))


def read_in_steps(link: str) -> tuple[list[Game], list[int], Game]:
    """What :func:`decoding` gives ``carried``, what it yields, and the game it returns."""
    carried: list[Game] = []
    steps, yielded = decoding(link, carried.append), []
    while True:
        try:
            yielded.append(next(steps))
        except StopIteration as done:
            return carried, yielded, done.value


@pytest.mark.parametrize("variant", ["standard", "loeb9", "coast_running", "cline5", "cline6"])
def test_a_link_carries_its_position_and_the_reader_gives_it_before_the_replay(variant: str) -> None:
    for game in random_game(variant, 4, 3):
        link = encode_link(game)
        assert payload_of(link)["a"] == POSITION_LINK_VERSION
        carried, yielded, read = read_in_steps(link)
        assert yielded[0] == 0 and yielded[1:] == list(range(1, len(yielded)))
        shown = carried[0].position
        assert (shown.phase, shown.units, shown.centres, shown.contested) == (
            game.phase, game.units, game.position.centres, game.position.contested)
        assert [(d.unit, d.attacker_from) for d in shown.dislodged] == [
            (d.unit, d.attacker_from) for d in game.position.dislodged]
        assert not carried[0].history and dumps(read) == dumps(game)


def test_a_new_game_and_a_cluster_game_carry_no_position() -> None:
    assert "q" not in payload_of(encode_link(Game.new("standard")))
    *_, cluster = random_game("cluster", 1, 1)
    assert "q" not in payload_of(encode_link(cluster))
    carried, yielded, _ = read_in_steps(encode_link(Game.new("standard")))
    assert carried == [] and yielded == []


@pytest.mark.parametrize(("variant", "seed", "years"), sorted(OLD_LINKS))
def test_links_the_earlier_writer_made_still_open(variant: str, seed: int, years: int) -> None:
    old = OLD_LINKS[variant, seed, years]
    assert payload_of(old)["a"] == 1 and "q" not in payload_of(old)
    game = played(variant, seed, years)
    assert dumps(decode_link(old)) == dumps(game)
    carried, _, _ = read_in_steps(old)
    assert carried == []  # (nothing to show before the replay)


def test_a_link_written_as_the_earlier_version_on_purpose_opens_to_the_same_game() -> None:
    game = played("cline5", 2, 2)
    assert dumps(decode_link(relinked(game, a=1, q=None))) == dumps(game)


def test_a_game_set_up_from_a_position_carries_its_start_and_its_current_position() -> None:
    game = set_up("standard", "F1901M", [Placed("france", "A", "bur"), Placed("germany", "A", "mun")],
                  {"par": "france", "ber": "germany"})
    assert game.add_orders("France: A bur - mun\nGermany: A mun - bur") == []
    game.adjudicate()
    payload = payload_of(encode_link(game))
    assert "p" in payload and "q" in payload
    assert dumps(decode_link(encode_link(game))) == dumps(game)


def test_a_position_its_history_does_not_reach_is_refused_after_the_replay() -> None:
    game = played("standard", 5, 2)
    other = played("standard", 6, 2)  # (a position the map allows, reached by other orders)
    tampered = carrying(game, other)
    carried: list[Game] = []
    with pytest.raises(GameFileError, match="the position it carries is not the one its orders lead to"):
        for _ in decoding(tampered, carried.append):
            pass
    assert carried and carried[0].units == other.units  # (it was read, shown, and only then refused)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda q: 5, "is not \\[phase, units"),
        (lambda q: q[:4], "is not \\[phase, units"),
        (lambda q: [q[0], True, *q[2:]], "is not \\[phase, units"),
        (lambda q: [q[0], 1.5, *q[2:]], "is not \\[phase, units"),
        (lambda q: ["S1901M" * 3, *q[1:]], "is not \\[phase, units"),
        (lambda q: [q[0], -1, *q[2:]], "counts more units"),
        (lambda q: [q[0], 10**30, *q[2:]], "counts more units"),
        (lambda q: [*q[:3], 10**6, q[4]], "counts more units"),
        (lambda q: [*q[:4], "A" * 100_000], "longer than its units can need"),
        (lambda q: [*q[:4], q[4] + "AA"], "position is damaged"),
        (lambda q: [*q[:4], "*"], "base64url"),
        (lambda q: [q[0], q[1] - 1, *q[2:]], "more than its units"),
        (lambda q: ["X1901M", *q[1:]], "position is damaged"),
        (lambda q: ["F1901R", *q[1:]], "no unit is dislodged"),
    ],
)
def test_a_damaged_carried_position_is_refused_before_the_replay_by_name(change: Any, message: str) -> None:
    game = played("standard", 5, 2)
    carried: list[Game] = []
    with pytest.raises(GameFileError, match=message):
        for _ in decoding(relinked(game, q=change(payload_of(encode_link(game))["q"])), carried.append):
            pass
    assert carried == []


def _with_units(game: Game, units: list[Placed | int]) -> list[Any]:
    """A carried position of ``game``'s phase with ``units`` (or raw unit codes) in the order given, no
    centre owned: digits as the writer packs them, whatever they hold."""
    t = link.link_table(game.variant)
    digits = link.Digits()
    for u in units:
        code = u if isinstance(u, int) else t.unit_code(Unit(u.power, u.type, u.location))
        digits.put(code, t.unit_codes)
    for _ in t.centres:
        digits.put(0, len(t.powers) + 1)
    number = digits.pack()
    return [str(game.phase), len(units), 0, 0, base64url.encode(number.to_bytes((number.bit_length() + 7) // 8, "big"))]


@pytest.mark.parametrize(
    ("units", "message"),
    [
        ([Placed("france", "A", "par"), Placed("england", "F", "lon")], "not in order, or one is there twice"),
        ([Placed("england", "F", "lon"), Placed("england", "F", "lon")], "not in order, or one is there twice"),
        ([Placed("russia", "A", "bul"), Placed("turkey", "F", "bul/ec")], "two units in Bulgaria"),
        ([Placed("england", "A", "nth")], "an army cannot stand at sea"),
        ([Placed("france", "F", "par")], "a fleet cannot stand inland"),
    ],
)
def test_a_carried_position_the_map_cannot_hold_is_refused_by_name(units: list[Placed], message: str) -> None:
    game = played("standard", 5, 1)
    with pytest.raises(GameFileError, match=message):
        decode_link(relinked(game, q=_with_units(game, units)))


def test_the_position_is_checked_within_the_links_own_bounds() -> None:
    game = played("standard", 5, 1)
    t = link.link_table(game.variant)
    most = [t.unit_codes - 1 - k for k in range(len(t.provinces))][::-1]  # (the largest codes, in order)
    with pytest.raises(GameFileError, match="the link's position is damaged"):
        decode_link(relinked(game, q=_with_units(game, most)))  # (in range, read, and then refused by the map)


@FUZZ
@given(st.sampled_from(["standard", "loeb9"]), st.data())
def test_mutated_carried_positions_give_the_game_or_a_game_file_error(name: str, data: Any) -> None:
    game = played(name, 3, 2)
    q = payload_of(encode_link(game))["q"]
    how = data.draw(st.sampled_from(["field", "digit", "other game"]))
    if how == "field":
        q[data.draw(st.integers(0, 4))] = data.draw(JSON_VALUES | st.integers(-3, 200))
    elif how == "digit":
        chars = list(q[4])
        at = data.draw(st.integers(0, len(chars) - 1))
        chars[at] = data.draw(st.sampled_from("AZaz09-_.=~²"))
        q[4] = "".join(chars)
    else:
        q = payload_of(encode_link(played(name, data.draw(st.integers(0, 3)), data.draw(st.integers(1, 2)))))["q"]
    try:
        read = decode_link(relinked(game, q=q))
    except AdjutantError as error:
        assert isinstance(error, GameFileError) and str(error)
        return
    # a link that opens carried the position its history reaches
    assert dumps(read) == dumps(game) and q == payload_of(encode_link(game))["q"]


def test_a_ten_year_cline_v_link_stays_within_two_thousand_characters() -> None:
    game = played("cline5", 1, 10)
    assert len(encode_link(game)) <= 2000
