"""The link is re-made from each adjudicated phase's part, kept, and the current phase's orders: the same
link as replaying the whole game, which decodes to the same game, after every kind of action."""

from __future__ import annotations

import json
import random
import zlib
from typing import Any

import pytest
from adjutant import Game, decode_link, dumps, encode_link
from adjutant.adjudication.orders import Order, Support
from adjutant.formats import base64url
from adjutant.formats import link as codec
from adjutant.legal import Candidates
from adjutant.map.variant import province_of
from adjutant.randomgame import random_game, random_orders


def replayed_payload(game: Game, position: bool = True) -> dict[str, Any]:
    """The link's contents as the whole game replayed from the start gives them (the reference: every
    phase's part found again, none kept); without the position it reached unless ``position``."""
    g = Game.new(game.variant)
    digits = codec.Digits()
    extra: list[Any] = []
    records = [r for r in game.history if not r.skipped]
    for n, record in enumerate(records):
        codec.encode_phase(g, record.orders, digits, extra, n)
        for power, texts in record.orders.items():
            for text in texts:
                g.add_order(g.parse(text, power))
        g.adjudicate()
    codec.encode_phase(g, game.written_orders() if not game.over else {}, digits, extra, len(records))
    number = digits.pack()
    payload: dict[str, Any] = {"a": codec.LINK_VERSION, "v": game.variant.id, "n": len(records)}
    if number:
        payload["c"] = base64url.encode(number.to_bytes((number.bit_length() + 7) // 8, "big"))
    if extra:
        payload["x"] = extra
    if records and position:  # the position the replay reached, which a link with an adjudicated phase carries
        carried = codec.position_code(g)
        if carried is not None:
            payload["a"], payload["q"] = codec.POSITION_LINK_VERSION, carried
    if game.draw:
        payload["d"] = list(game.draw)
    return payload


def payload_of(link: str) -> Any:
    _, body = codec.split_link(link)
    return json.loads(zlib.decompress(base64url.decode(body, "the link"), -15))


def check(game: Game) -> None:
    link = encode_link(game)
    assert payload_of(link) == replayed_payload(game)
    assert dumps(decode_link(link)) == dumps(game)


@pytest.mark.parametrize(("variant", "seed"), [("standard", 3), ("cline5", 7), ("loeb9", 11)])
def test_the_link_after_each_action_is_the_replayed_games(variant: str, seed: int) -> None:
    rng = random.Random(seed)
    game = Game.new(variant)
    for _ in range(14):
        if game.over:
            break
        orders = random_orders(game, rng)
        for order in orders[: len(orders) // 2]:
            game.add_order(order)
        check(game)  # some orders of the current phase given
        for order in orders[len(orders) // 2 :]:
            game.add_order(order)
        game.adjudicate()
        check(game)
        if rng.random() < 0.25:
            game.undo()  # the last phase's kept part is dropped with its record
            check(game)
            game.adjudicate()
            check(game)


@pytest.mark.parametrize("variant", ["standard", "cline5"])
def test_a_game_opened_from_a_link_is_encoded_from_the_links_own_parts(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    *_, played = random_game(variant, 4, 5)
    opened = decode_link(encode_link(played))
    phases: list[Any] = []
    encode_phase = codec.encode_phase
    monkeypatch.setattr(
        codec, "encode_phase", lambda game, *rest: (phases.append(game.phase), encode_phase(game, *rest))
    )
    check(opened)
    # Only the current phase was encoded anew (the reference encodes the whole game: one call a phase).
    assert phases[0] == opened.phase
    assert len(phases) == 1 + sum(not record.skipped for record in opened.history) + 1
    monkeypatch.undo()
    opened.undo()
    check(opened)


def test_a_record_whose_orders_change_is_encoded_again() -> None:
    game = next(random_game("standard", 5, 1))
    encode_link(game)
    record = game.history[0]
    record.orders = {"france": ["A par H"]}  # the same record object, other orders (the position unchanged)
    assert payload_of(encode_link(game, position=False)) == replayed_payload(game, position=False)


def test_parts_are_dropped_with_their_games() -> None:
    *_, game = random_game("standard", 9, 2)
    encode_link(game)
    ids = {id(record) for record in game.history}
    assert ids & set(codec.SEGMENTS)
    del game, _
    assert not ids & set(codec.SEGMENTS)


def test_the_encodings_of_the_last_two_movement_positions_linked_are_kept() -> None:
    games = [Game.new("standard"), Game.new("cline5"), Game.new("loeb9")]
    for g in games:
        encode_link(g)
    assert [codec.encoding_kept(g) for g in games] == [False, True, True]
    assert games[2].add_orders("A mos - ukr") == [] and games[2].orders_of("russia")
    assert codec.encoding_kept(games[2])  # (made from the units, not the orders)
    games[1].adjudicate()
    assert not codec.encoding_kept(games[1])


def reference_supports(candidates: Candidates, prov: str) -> list[Order]:
    """A unit's support orders the plain way: every other unit in sorted order, supported to hold if within
    reach, then to each province within reach it could move to, once, in the order of its move targets."""
    v, units = candidates.v, candidates.units
    u = units[prov]
    reach = {province_of(d) for d in v.neighbours(u.type, u.location)}
    out: list[Order] = []
    for other in sorted(units):
        if other == prov:
            continue
        if other in reach:
            out.append(Support(u, other))
        for d in candidates.move_targets(other):
            s = Support(u, other, province_of(d))
            if province_of(d) in reach and province_of(d) != prov and s not in out:
                out.append(s)
    return out


@pytest.mark.parametrize("variant", ["standard", "cline5", "loeb9", "coast_running"])
def test_candidate_supports_are_listed_as_links_number_them(variant: str) -> None:
    # A link writes an order as its index among the candidates: their order must never change.
    for game in random_game(variant, 2, 8):
        if game.phase.kind != "movement":
            continue
        candidates = Candidates(game.variant, game.units, game.phase.season)
        for prov in sorted(game.units):
            supports = [o for o in candidates.of(prov) if isinstance(o, Support)]
            assert supports == reference_supports(candidates, prov)
