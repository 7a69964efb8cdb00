"""Group games' pure part (adjutant.group_play.codes): order payloads, codes' clear headers, links, the intake.

The encryption is web/group.js's; these tests stand in for it by handing the intake the plaintext a
code would open to (tests/browser/test_group_game.py seals and opens real codes)."""

from __future__ import annotations

import os
import random
import re

import pytest
from adjutant import AdjutantError, GameFileError
from adjutant.formats.link import encode_link
from adjutant.game import Game
from adjutant.group_play import codes as group
from adjutant.legal import Candidates, adjustment_candidates, retreat_candidates

KEY = b"\x04" + bytes(range(64))


def _random_orders(game: Game, power: str, rng: random.Random) -> list:
    kind = game.phase.kind
    if kind == "movement":
        c = Candidates(game.variant, game.units, game.phase.season)
        return [rng.choice(c.of(p)) for p, u in sorted(game.units.items()) if u.power == power]
    if kind == "retreat":
        mine = [d.unit for d in game.position.dislodged if d.unit.power == power]
        return [rng.choice(retreat_candidates(game.variant, unit)) for unit in mine]
    delta = game.adjustments().get(power, 0)
    cands = adjustment_candidates(game, power)
    return rng.sample(cands, min(abs(delta), len(cands))) if delta else []


@pytest.mark.parametrize("variant", ["standard", "cline5", "loeb9", "coast_running"])
def test_orders_round_trip_through_a_game(variant: str) -> None:
    """Every power's orders, in every kind of phase, come back as they went in."""
    rng = random.Random(variant)
    game = Game.new(variant)
    for _ in range(8):
        for power in game.variant.powers:
            orders = _random_orders(game, power, rng)
            data = group.encode_orders(game, power, orders)
            assert sorted(map(str, group.decode_orders(game, power, data))) == sorted(map(str, orders))
            for order in orders:
                game.add_order(order)
        game.adjudicate()


def test_nine_units_fit_a_short_payload() -> None:
    game = Game.new("standard")
    game.add_orders("A Par - Bur; F Bre - Mao; A Mar S A Par - Bur", "france")
    assert len(group.encode_orders(game, "france", list(game.orders_of("france")))) <= 4


def test_an_order_for_another_power_is_not_encoded_nor_decoded() -> None:
    game = Game.new("standard")
    with pytest.raises(AdjutantError, match="not an order of France"):
        group.encode_orders(game, "france", [game.parse("A Mun - Bur", "germany")])
    data = group.encode_orders(game, "france", [game.parse("A Mar - Spa", "france")])
    assert [str(o) for o in group.decode_orders(game, "france", data)] == [str(game.parse("A Mar - Spa", "france"))]


def _forge_written(game: Game, power: str, line: str, slot: int) -> bytes:
    """A payload for ``power`` whose unit in ``slot`` has an order written out as ``line``."""
    slots = group.unit_slots(game, power)
    n = 0
    for i, (_prov, cands) in reversed(list(enumerate(slots))):
        n = n * (len(cands) + 2) + (len(cands) + 1 if i == slot else 0)
    packed = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([len(packed)]) + packed + line.encode()


def test_a_code_whose_orders_are_another_powers_is_refused() -> None:
    game = Game.new("standard")
    with pytest.raises(group.CodeError, match="not France's"):
        group.decode_orders(game, "france", _forge_written(game, "france", "A Mun - Bur", 0))
    assert group.decode_orders(game, "france", _forge_written(game, "france", "F Bre - Eng", 0))


def test_a_damaged_payload_is_refused() -> None:
    game = Game.new("standard")
    for data in (b"", b"\x05\x01", b"\x08" + b"\xff" * 8, b"\x01\x00\xff\xfe"):
        with pytest.raises(group.CodeError):
            group.decode_orders(game, "france", data)


def test_codes_are_found_in_a_pasted_thread() -> None:
    text = (
        "From: anna\n> earlier: orders~AAAA\nHere are mine: orders~AbC-_9 and again https://x.org/#standard.orders~AbC-_9\n"
        "not this: xorders~QQQ nor grp~ABorders~ZZZ\n"
    )
    assert group.find_codes(text) == ["orders~AAAA", "orders~AbC-_9"]
    with pytest.raises(group.CodeError, match="too long"):
        group.find_codes("x" * (group.MAX_PASTE + 1))


def _wrapped(code: str, width: int, quote: str = "") -> str:
    """``code`` as an email program wraps it at ``width`` columns and quotes it in a reply."""
    return "\n".join(quote + code[i : i + width] + " " for i in range(0, len(code), width))


def test_a_code_wrapped_or_quoted_by_an_email_program_is_read_whole_among_its_readings() -> None:
    game = Game.new("standard")
    france, england = _code(game, "france"), _code(game, "england")
    text = f"Mine:\n{_wrapped(france, 40, '> > ')}\n>\n{england}\nThanks\norders~QQ and more\n"
    readings = group.code_readings(text)
    # France's code: as on its line, then with one, two… of the lines after it joined
    lines = [france[i : i + 40] for i in range(0, len(france), 40)]
    assert readings[0] == tuple("".join(lines[:n]) for n in range(1, len(lines) + 1))
    with pytest.raises(group.CodeError, match="cut short"):
        group.read_code(readings[0][0], game, KEY)
    assert group.read_code(readings[0][-1], game, KEY).power == "france"
    # England's whole code, then with the word on the next line: the caller opens the first that opens
    assert readings[1] == (england, england + "Thanks")
    assert group.read_code(readings[1][0], game, KEY).power == "england"
    # a code followed on its line by words is not joined to the next line
    assert readings[2] == ("orders~QQ",)
    assert len(readings) == 3
    # a line that holds a code is not the rest of another, and a code pasted twice is read once
    assert group.code_readings(f"{france}\n{france}\n") == [(france,)]
    with pytest.raises(group.CodeError, match="too long"):
        group.code_readings("x" * (group.MAX_PASTE + 1))


def test_a_code_is_joined_with_no_more_lines_than_a_code_can_hold() -> None:
    long_lines = "orders~A\n" + ("B" * 1000 + "\n") * 10
    (readings,) = group.code_readings(long_lines)
    assert max(map(len, readings)) <= group.MAX_CODE
    assert len(readings) == 1 + (group.MAX_CODE - len("orders~A")) // 1000
    short_lines = "orders~A\n" + "B\n" * 40
    (readings,) = group.code_readings(short_lines)
    assert len(readings) == 1 + group.WRAPPED_LINES


def _code(game: Game, power: str, key: bytes = KEY, phase: int | None = None) -> str:
    header = group.header_for(game, key, power)
    if phase is not None:
        header = group.Header(header.game, phase, header.power)
    body = os.urandom(group.PUBLIC_KEY + group.IV + group.TAG + group.SEQ + 3)
    return group.CODE_PREFIX + group.b64(header.pack() + body)


def test_a_code_is_refused_for_another_game_phase_or_when_damaged() -> None:
    game = Game.new("standard")
    sealed = group.read_code(_code(game, "france"), game, KEY)
    assert sealed.power == "france"
    assert sealed.aad == sealed.header.pack() + group.phase_digest(game, KEY)
    other_key = b"\x04" + bytes(64)
    cases = {
        _code(game, "france", key=other_key): "another game",
        _code(game, "france", phase=1): r"a later phase \(1 phase after Spring 1901 movement, where the game is\)",
        _code(game, "france")[:40]: "cut short",
        _code(game, "france")[:-3] + "*!a": "base64url",
        "orders~" + group.b64(bytes([9]) + bytes(120)): "format",
        "orders~" + group.b64(group.header_for(game, KEY, "france").pack()[:9] + bytes([40]) + bytes(120)): "no power",
        "orders~" + "A" * (group.MAX_CODE + 1): "too long",
        "grp~AAAA": "not a sealed orders code",
    }
    for code, reason in cases.items():
        with pytest.raises(group.CodeError, match=reason):
            group.read_code(code, game, KEY)
    game.adjudicate()
    earlier = r"an earlier phase \(Spring 1901 movement; the game is at Fall 1901 movement\)"
    with pytest.raises(group.CodeError, match=earlier):
        group.read_code(_code(Game.new("standard"), "france"), game, KEY)


def test_a_code_of_another_phase_names_its_power_and_what_to_do() -> None:
    """The game master is told whose code is stale (its clear header names the power) and what to ask for,
    and the intake's table shows the refusal on that power's row."""
    start = Game.new("standard")
    game = Game.new("standard")
    game.adjudicate()
    with pytest.raises(group.CodeError) as earlier:
        group.read_code(_code(start, "italy"), game, KEY)
    assert str(earlier.value) == (
        "Italy's code is for an earlier phase (Spring 1901 movement; the game is at Fall 1901 movement): ask "
        "Italy to open the latest players' link and send their orders again"
    )
    assert earlier.value.power == "italy"
    later_phase = "^Italy's code is for a later phase .*latest game master's link"
    with pytest.raises(group.CodeError, match=later_phase) as later:
        group.read_code(_code(game, "italy"), start, KEY)
    assert later.value.power == "italy"
    with pytest.raises(group.CodeError) as stranger:  # another game's header says nothing of this game's powers
        group.read_code(_code(game, "italy", key=b"\x04" + bytes(64)), game, KEY)
    assert stranger.value.power == ""
    intake = group.Intake(len(game.history))
    intake.refuse(str(earlier.value), earlier.value.power)
    rows = {p: s for p, _n, s in group.status(game, intake)}
    assert rows["italy"].startswith("waiting; refused: Italy's code is for an earlier phase")
    # once Italy's orders for this phase are in by code, the old code asks nothing more of Italy
    intake.received["italy"] = group.Received(0, "code")
    intake.refuse(str(earlier.value), earlier.value.power, earlier.value.earlier)
    rows = {p: s for p, _n, s in group.status(game, intake)}
    assert rows["italy"].endswith("; a code of an earlier phase was pasted too, and set aside")
    assert "send their orders again" not in rows["italy"]
    # a damaged copy of a code already in: the row says the orders are in, the refusal a quiet note
    intake.refuse("the code does not open", "italy")
    rows = {p: s for p, _n, s in group.status(game, intake)}
    assert rows["italy"].startswith("sealed orders in") and "refused:" not in rows["italy"]
    assert rows["italy"].endswith("; another code was refused and changed nothing (the code does not open)")


def test_the_list_says_of_a_refused_code_what_its_powers_row_says() -> None:
    """One truth per power: a code refused while the power's orders are in is set aside in the list too
    (nothing asked of the player), and refused in full while they are not."""
    start, game = Game.new("standard"), Game.new("standard")
    game.adjudicate()
    with pytest.raises(group.CodeError) as replayed:
        group.read_code(_code(start, "italy"), game, KEY)
    intake = group.Intake(len(game.history))
    kind, said = group.refusal_said(game, intake, "italy", replayed.value)
    assert kind == "rejected"
    assert said.endswith("ask Italy to open the latest players' link and send their orders again")
    intake.received["italy"] = group.Received(5, "code")
    kind, said = group.refusal_said(game, intake, "italy", replayed.value)
    assert kind == "aside" and "send" not in said and "nothing more is needed" in said, said
    assert "Italy's orders for Fall 1901 movement are in" in said
    damaged = group.CodeError("the code does not open: it was altered or damaged on the way", "italy")
    kind, said = group.refusal_said(game, intake, "italy", damaged)
    assert (kind, said) == ("aside", "refused, and Italy's orders in stay: " + str(damaged))
    # orders the game master typed are in as well; a code naming no power is refused in full
    game.add_orders("A Ven H", "italy")
    del intake.received["italy"]
    assert group.refusal_said(game, intake, "italy", damaged)[0] == "aside"
    assert group.refusal_said(game, intake, "", group.CodeError("the code is for another game"))[0] == "rejected"


def test_the_phase_digest_changes_with_the_position_not_the_pending_orders() -> None:
    game = Game.new("standard")
    before = group.phase_digest(game, KEY)
    game.add_orders("A Par - Bur", "france")
    assert group.phase_digest(game, KEY) == before
    assert group.phase_digest(game, b"\x04" + bytes(64)) != before
    game.adjudicate()
    assert group.phase_digest(game, KEY) != before


def _sealed(game: Game, power: str) -> group.Sealed:
    return group.read_code(_code(game, power), game, KEY)


def test_the_latest_code_wins_and_an_older_one_is_set_aside() -> None:
    game = Game.new("standard")
    intake = group.Intake(0)
    first = group.plaintext(1000, group.encode_orders(game, "france", [game.parse("A Par - Bur", "france")]))
    later = group.plaintext(2000, group.encode_orders(game, "france", [game.parse("A Par - Pic", "france")]))
    assert "1 order in" in intake.accept(game, _sealed(game, "france"), first)
    assert "1 order in" in intake.accept(game, _sealed(game, "france"), later)
    before = encode_link(game)
    # the first code pasted after the second: nothing changes, and it is no refusal
    assert intake.accept(game, _sealed(game, "france"), first) == f"France: {group.OLDER_CODE}"
    assert encode_link(game) == before
    assert "already in" in intake.accept(game, _sealed(game, "france"), later)
    assert [str(o.dest) for o in game.orders_of("france")] == ["pic"]  # type: ignore[attr-defined]
    intake.refuse("the code is for an earlier phase", "germany")
    rows = {p: s for p, _n, s in group.status(game, intake)}
    assert rows["france"] == "sealed orders in (sent 01 Jan 00:00 UTC)" and rows["england"] == "waiting"  # no "refused"
    assert rows["germany"] == "waiting; refused: the code is for an earlier phase"
    game.add_orders("F Lon - Nth", "england")
    intake.typed("england")
    assert {p: s for p, _n, s in group.status(game, intake)}["england"] == "typed by the game master"


def test_a_refused_code_changes_nothing() -> None:
    game = Game.new("standard")
    game.add_orders("A Par - Bur", "france")
    intake = group.Intake(0)
    before = encode_link(game)
    with pytest.raises(group.CodeError):
        forged = _forge_written(game, "france", "A Mun - Bur", 0)
        intake.accept(game, _sealed(game, "france"), group.plaintext(5, forged))
    with pytest.raises(group.CodeError):
        intake.accept(game, _sealed(game, "france"), b"\x00")
    assert encode_link(game) == before and not intake.received


def test_public_links_carry_no_pending_orders_and_the_gm_link_does() -> None:
    game = Game.new("standard")
    game.add_orders("A Par - Bur; F Lon - Nth")
    public = group.public_link(game, KEY)
    read = group.read_group_link(public)
    assert read.public_key == KEY and not read.game.all_orders() and not read.is_gm
    assert group.read_group_link(group.public_link(game, KEY, "france")).power == "france"
    intake = group.Intake(0)
    intake.typed("france")
    gm = group.gm_link(game, KEY, "c2VhbGVk", intake)
    back = group.read_group_link(gm)
    assert back.is_gm and back.sealed_private == "c2VhbGVk"
    assert sorted(back.game.all_orders()) == ["england", "france"]
    assert group.Intake.from_text(back.intake, back.game).received["france"].source == "typed"
    # a "public" link made to hold orders is refused
    forged = "standard.grp~" + group.b64(KEY) + "~" + encode_link(game).split(".", 1)[1]
    with pytest.raises(GameFileError, match="no pending orders"):
        group.read_group_link(forged)


#: a stand-in for the game master's sealed key, as long as a real one (81 bytes)
SEALED_KEY = group.b64(bytes([1]) + bytes(range(80)))


def test_a_game_masters_link_altered_or_cut_on_the_way_is_refused_when_read() -> None:
    """The game master's sealed key altered on the way fails only its tag when the passphrase is tried,
    as a wrong passphrase does (the game master would retype a right one for ever): the link's check
    refuses it when it is read, as damaged; cut anywhere after the check, as cut short (cut before it, a
link has too few parts)."""
    game = Game.new("standard")
    game.add_orders("A Par - Bur; F Lon - Nth")
    text = group.gm_link(game, KEY, SEALED_KEY, group.Intake(0))
    assert group.read_group_link(text).sealed_private == SEALED_KEY
    for at in (0, 1, 30, len(SEALED_KEY) // 2, len(SEALED_KEY) - 1):
        altered = SEALED_KEY[:at] + ("B" if SEALED_KEY[at] != "B" else "C") + SEALED_KEY[at + 1 :]
        with pytest.raises(GameFileError, match=re.escape(group.LINK_DAMAGED)):
            group.read_group_link(text.replace(SEALED_KEY, altered))
    check = text.split("~")[3]
    for at in range(text.index(check) + len(check), len(text)):
        with pytest.raises(GameFileError, match=re.escape(group.LINK_CUT)):
            group.read_group_link(text[:at])


def test_a_game_masters_link_without_a_check_opens_as_before() -> None:
    """Links made before links had a check (games in progress): four parts, read as they were."""
    game = Game.new("standard")
    game.add_orders("A Par - Bur")
    text = group.gm_link(game, KEY, SEALED_KEY, group.Intake(0))
    parts = text.split("~")
    assert group.is_link_check(parts[3])
    old = "~".join(parts[:3] + parts[4:])
    assert group.read_group_link(old).sealed_private == SEALED_KEY
    assert group.read_group_link(old).game.all_orders() == group.read_group_link(text).game.all_orders()
    assert group.read_group_link(old).intake == group.read_group_link(text).intake


@pytest.mark.parametrize(
    ("fragment", "reason"),
    [
        ("standard.grp~AAAA~x", "key"),
        ("standard.grp~", "parts"),
        ("standard.gm~" + group.b64(KEY) + "~s~" + "A" * group.MAX_GROUP_LINK + "~x", "too long"),
        ("standard.grp~" + group.b64(KEY) + "~" + "*", "base64url"),
        ("standard.grp~" + group.b64(KEY) + "~q1ZKVLIy1FEqU7JSKi5JzEtJLEpR0lHKU7IyqAUA~nobody", "nobody"),
        ("loeb9.grp~" + group.b64(KEY) + "~q1ZKVLIy1FEqU7JSKi5JzEtJLEpR0lHKU7IyqAUA", "another"),
        ("standard.gm~" + group.b64(KEY) + "~s~!!~q1ZKVLIy1FEqU7JSKi5JzEtJLEpR0lHKU7IyqAUA", "received orders"),
    ],
)
def test_damaged_group_links_are_refused(fragment: str, reason: str) -> None:
    with pytest.raises(GameFileError, match=reason):
        group.read_group_link(fragment)


def test_cluster_games_are_not_group_links() -> None:
    from adjutant.group_play import cluster_views

    with pytest.raises(AdjutantError, match="Cluster"):
        group.public_link(cluster_views.new_game(1, "cluster"), KEY)


@pytest.mark.parametrize(
    "intake",
    [
        b'{"p":0,"r":{"france":[Infinity,"c"]}}',  # json reads Infinity; int() of it overflows
        b'{"p":Infinity,"r":{}}',
        b'{"p":0,"r":{"france":[1e30,"c"]}}',  # a time no clock shows: the table could not be drawn
        b'{"p":0,"r":{"france":[281474976710656,"c"]}}',  # one more than a code's 6-byte number holds
        b'{"p":0,"r":{"france":[-1,"c"]}}',
        b'{"p":-1,"r":{}}',
        b'{"p":0,"r":{"france":["5","c"]}}',
        b"[" * 100_000,
    ],
)
def test_a_game_masters_link_with_a_damaged_list_of_received_orders_is_refused(intake: bytes) -> None:
    game = Game.new("standard")
    gm = "standard.gm~" + group.b64(KEY) + "~c2VhbGVk~" + group.b64(intake) + "~" + encode_link(game).split(".", 1)[1]
    with pytest.raises(GameFileError, match="list of received orders is malformed"):
        group.read_group_link(gm)


def test_the_message_to_players_says_who_retreats_builds_or_removes() -> None:
    game = Game.new("standard")
    assert group.orders_due_text(game) == ""  # a movement phase: every power orders
    game.set_orders("germany", "A mun - tyr")
    game.adjudicate()
    game.set_orders("germany", "A tyr - ven")
    game.set_orders("austria", "F tri S A tyr - ven")
    game.adjudicate()
    assert game.phase.kind == "retreat"
    assert group.orders_due_text(game) == "To retreat or disband now: Italy: A Venice."
    message = group.results_message(game, "https://x.org/#l", "Results\n")
    assert message == (
        "Results\n\nTo retreat or disband now: Italy: A Venice.\nThe game now (F1901R): https://x.org/#l\n"
        "If you have orders to give (above), send them with Adjutant.\n"
    )
    game.set_orders("italy", "A ven - pie")
    game.adjudicate()
    assert game.phase.kind == "adjustment"
    deltas = {p: d for p, d in game.adjustments().items() if d}
    assert deltas == {"germany": 1, "italy": -1}
    assert group.orders_due_text(game) == "Builds and removals now: Germany may build 1, Italy must remove 1."


def test_the_message_to_players_of_a_game_that_keeps_secrets_says_nothing_of_whats_due() -> None:
    from adjutant.randomgame import random_orders

    rng = random.Random(3)
    game = Game.new("cluster")
    while game.phase.kind != "adjustment":
        for order in random_orders(game, rng):
            game.add_order(order)
        game.adjudicate()
    assert any(game.adjustments().values())  # builds or removals are due, and not said
    assert group.orders_due_text(game) == ""


def test_the_latest_time_a_code_can_hold_is_shown_in_the_game_masters_table() -> None:
    game = Game.new("standard")
    latest = group.b64(b'{"p":0,"r":{"france":[281474976710655,"c"]}}')
    intake = group.Intake.from_text(latest, game)
    (france,) = [state for power, _, state in group.status(game, intake) if power == "france"]
    assert france.startswith("sealed orders in (sent ")


def test_a_game_masters_link_cut_before_its_check_is_refused_as_cut_short() -> None:
    """Cut inside its key, its sealed key or its check, a game master's link has fewer parts than any
    game master's link is made with, its key whole or cut last: it was cut short on the way."""
    game = Game.new("standard")
    game.add_orders("A Par - Bur")
    text = group.gm_link(game, KEY, SEALED_KEY, group.Intake(0))
    start = text.index("~") + 1
    end = text.index("~", text.index(SEALED_KEY) + len(SEALED_KEY) + 1)
    for at in range(start, end, 5):
        with pytest.raises(GameFileError, match=re.escape(group.LINK_CUT)):
            group.read_group_link(text[:at])
    with pytest.raises(GameFileError, match="wrong number of parts"):  # its key cut, then more parts
        group.read_group_link(f"standard.gm~{group.b64(KEY)[:40]}~{SEALED_KEY}")


def test_a_game_masters_link_without_its_sealed_key_is_not_read_as_an_old_one() -> None:
    """Its sealed key part (or the `~` after it) lost, a link with a check has four parts, as one made
    before links had a check: its check is not taken for (a part of) a sealed key, which would open, then
    refuse every passphrase."""
    game = Game.new("standard")
    game.add_orders("A Par - Bur")
    text = group.gm_link(game, KEY, SEALED_KEY, group.Intake(0))
    with pytest.raises(GameFileError, match=re.escape(group.LINK_DAMAGED)):
        group.read_group_link(text.replace(f"~{SEALED_KEY}", ""))
    # nor is its sealed key run on into its check (the `~` between them lost)
    with pytest.raises(GameFileError, match=re.escape(group.LINK_DAMAGED)):
        group.read_group_link(text.replace(f"{SEALED_KEY}~", SEALED_KEY))


def test_a_link_with_a_character_no_text_can_hold_is_refused_as_damaged() -> None:
    """A lone surrogate (no UTF-8 for it) in the parts a check covers: refused as damaged, not a crash."""
    game = Game.new("standard")
    text = group.gm_link(game, KEY, SEALED_KEY, group.Intake(0))
    with pytest.raises(GameFileError, match=re.escape(group.LINK_DAMAGED)):
        group.read_group_link(text.replace(SEALED_KEY, SEALED_KEY[:9] + "\ud800" + SEALED_KEY[9:]))


#: Phase digests (key b"k" * 32) of a seeded random Cline V game, as the link version without the carried
#: position made them: a code sealed before links carried the position binds these.
DIGESTS_BEFORE_THE_CARRIED_POSITION = {
    0: "687acca5920a305e606be321dcf0f8dc980775c0d2bacae5c3d6223992089ef1",
    1: "d8c73a28791080b8f2b2dff595951db2c2dd97b1ea626abe35f2597db8b1546f",
    4: "a3b3f6ad0436eacd2cdfb45e98936a9c5c7375837f7b8705032f298fa02ddeea",
}


def test_the_phase_digest_is_the_same_whichever_link_version_carries_the_game() -> None:
    """The players' link carries the current position; the digest a code binds is made as before, so a
    code sealed against a link of the version before still opens."""
    from adjutant.randomgame import random_game

    for index, game in enumerate(random_game("cline5", 3, 2)):
        if index in DIGESTS_BEFORE_THE_CARRIED_POSITION:
            assert group.phase_digest(game, b"k" * 32).hex() == DIGESTS_BEFORE_THE_CARRIED_POSITION[index]
            if game.history:
                assert group.public_body(game) != group.public_body(game, position=False)
