"""Cluster group games' pure part (adjutant.group_play.cluster_links, and adjutant.group_play.codes on Cluster games): a
player's view drafts and encodes orders that the game master's game takes in; the links' parts and what
they refuse. The encryption is the page's (tests/browser/test_cluster_group_game.py seals and opens
real parts and codes); here each sealed part is a stand-in string."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from adjutant import AdjutantError, GameFileError
from adjutant.formats.gamefile import dumps, loads
from adjutant.game import Game
from adjutant.group_play import cluster_links as cg
from adjutant.group_play import cluster_views
from adjutant.group_play import codes as group
from adjutant.randomgame import random_orders
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

KEY = b"\x04" + bytes(range(64))
POWERS = ["austria", "england", "france", "germany", "italy", "russia", "turkey"]
SEALS = {p: group.b64(f"sealed part {i}".encode().ljust(cg.MIN_SEAL_BYTES, b".")) for i, p in enumerate(POWERS)}


def _view(game: Game, power: str) -> Game:
    return cluster_views.join_parts(cluster_views.public_data(game), {power: cluster_views.secret_parts(game)[power]})


def _accept(game: Game, intake: group.Intake, power: str, payload: bytes, seq: int = 1) -> str:
    header = group.header_for(game, KEY, power)
    aad = group.additional_data(header, game, KEY, cg.game_digest(game, KEY))
    sealed = group.Sealed("orders~x", header, power, b"", aad)
    return intake.accept(game, sealed, group.plaintext(seq, payload))


def test_a_players_view_drafts_orders_the_game_master_takes_in() -> None:
    """Nominations, research and moves drafted in France's own view, encoded there and decoded against
    the game master's game, are France's orders there; the game adjudicates as if typed."""
    game = cluster_views.new_game(seed=5)
    typed = loads(dumps(game))
    view = _view(game, "france")
    assert view.add_orders("A Par - Bur; F Bre RES; Nominate 3 mar; Nominate 2 later", "france") == []
    payload = group.encode_orders(view, "france", list(view.orders_of("france")))
    intake = group.Intake(0)
    assert _accept(game, intake, "france", payload) == "France: 4 orders in"
    typed.add_orders("A Par - Bur; F Bre RES; Nominate 3 mar; Nominate 2 later", "france")
    assert sorted(map(str, game.orders_of("france"))) == sorted(map(str, typed.orders_of("france")))
    game.adjudicate()
    typed.adjudicate()
    assert dumps(game) == dumps(typed)
    assert game.position.variant_state is not None and game.position.variant_state.auras["mar"].level == 3


def test_the_players_digest_is_the_game_masters() -> None:
    """A player's page binds a code to the public part it read from the link; the game master's page to
    the public data of its game: the same digest, phase after phase."""
    rng = random.Random(3)
    game = cluster_views.new_game(seed=3)
    for _ in range(5):
        link = cg.read_link(cg.players_link("cluster", KEY, cg.public_text(game), SEALS))
        assert cg.phase_digest(link.public, KEY) == cg.game_digest(game, KEY)
        for order in random_orders(game, rng):
            game.add_order(order)
        game.adjudicate()
    before = cg.game_digest(game, KEY)
    game.undo()
    assert cg.game_digest(game, KEY) != before


def test_a_code_for_the_game_masters_game_is_bound_to_its_public_part() -> None:
    """adjutant.group_play.codes knows no public game of a game with secrets: its digest is refused by name, and a
    code read against the game master's game binds the digest of its public part, which the game
    master's page hands it (as the player's page hands it the link's)."""
    game = cluster_views.new_game(seed=4)
    with pytest.raises(AdjutantError, match="a Cluster game keeps secrets"):
        group.phase_digest(game, KEY)
    header = group.header_for(game, KEY, "france")
    code = group.CODE_PREFIX + group.b64(header.pack() + bytes(group.PUBLIC_KEY + group.IV + group.TAG + group.SEQ + 3))
    sealed = group.read_code(code, game, KEY, cg.game_digest(game, KEY))
    assert sealed.power == "france"
    assert sealed.aad == header.pack() + cg.phase_digest(cg.read_public(cg.public_text(game)), KEY)


def test_a_nomination_the_rules_refuse_is_refused_with_its_code() -> None:
    """A code is read against the game master's game with the rules' checks on giving an order: a second
    nomination of one unit (which the player's page would not take) refuses the code, and nothing
    changes; a nomination of another power's unit is not France's."""
    game = cluster_views.new_game(seed=9)
    view = _view(game, "france")
    twice = [view.parse("Nominate 3 par", "france"), view.parse("Nominate 2 par", "france")]
    intake = group.Intake(0)
    _accept(game, intake, "france", group.encode_orders(view, "france", [view.parse("A par - bur", "france")]))
    with pytest.raises(group.CodeError, match="France: Nominate 2 par: A par is already nominated"):
        _accept(game, intake, "france", group.encode_orders(view, "france", twice), seq=2)
    assert [str(o) for o in game.orders_of("france")] == [str(view.parse("A par - bur", "france"))]
    game.clear_orders()
    intake = group.Intake(0)
    other = group.encode_orders(view, "france", twice[:1]).replace(b"par", b"mun")
    with pytest.raises(group.CodeError, match="not France's: 'Nominate 3 mun'"):
        _accept(game, intake, "france", other)
    assert not game.all_orders() and "france" not in intake.received


def test_links_round_trip_and_hold_no_secret() -> None:
    rng = random.Random(11)
    game = cluster_views.new_game(seed=11)
    for _ in range(3):
        for order in random_orders(game, rng):
            game.add_order(order)
        game.adjudicate()
    game.add_orders("A par H", "france")
    public = cg.public_text(game)
    text = cg.players_link("cluster", KEY, public, SEALS, "france")
    link = cg.read_link(text)
    assert (link.power, link.seals, link.is_gm) == ("france", SEALS, False)
    assert dumps(link.public_game()) == dumps(cluster_views.public_view(game))
    shown = json.dumps(link.public)
    assert "seed" not in shown and "sites" not in shown and "Nominate" not in shown
    gm = cg.read_link(cg.gm_link("cluster", KEY, "c2VhbGVk", group.Intake(3), public, "Z20"))
    assert (gm.is_gm, gm.sealed_private, gm.gm_part, gm.public_text) == (True, "c2VhbGVk", "Z20", public)
    plain = cg.gm_plaintext(game, {"france": "pass-word-1234", "gm": "never"})
    back, phrases = cg.read_gm_plaintext(plain, link.public)
    assert dumps(back) == dumps(game) and phrases == {"france": "pass-word-1234"}


def test_the_game_masters_part_must_be_this_public_parts_game() -> None:
    game = cluster_views.new_game(seed=2)
    other = cluster_views.new_game(seed=2)
    other.add_orders("A par - bur", "france")
    other.adjudicate()
    with pytest.raises(GameFileError, match="not the game of the link's public part"):
        cg.read_gm_plaintext(cg.gm_plaintext(other, {}), cluster_views.public_data(game))
    with pytest.raises(GameFileError, match="game master's part"):
        cg.read_gm_plaintext(b"\x00\x01garbage", cluster_views.public_data(game))


@pytest.mark.parametrize(
    ("mangle", "message"),
    [
        (lambda t: t.replace("grp~", "grp~AAAA", 1), "key is not a P-256"),
        (lambda t: t.rsplit(".", 1)[0], "6 sealed parts for 7 powers"),
        (lambda t: t + "~prussia", "'prussia', not a power"),
        (lambda t: t.replace(SEALS["germany"], "se%l3"), "base64url"),
        (lambda t: t.replace(SEALS["germany"], ""), "empty"),
        (lambda t: t.replace(SEALS["germany"], SEALS["germany"][:64]), "cut short or damaged: its sealed part of G"),
        (lambda t: t + "~a~b", "wrong number of parts"),
        (lambda t: t[: t.index("~", t.index("~") + 1) + 5] + t[t.index("~", t.index("~") + 1) + 9 :], "public part"),
        (lambda t: t + "A" * 1_000_001, "too long"),
    ],
)
def test_damaged_players_links_are_refused_by_name(mangle, message) -> None:
    """Each form a link's parts must have, checked on a link without a check (as links were made before
    they had one); a link with its check is refused for any of these by the check, before its parts are
    read."""
    text = cg.players_link("cluster", KEY, cg.public_text(cluster_views.new_game(seed=1)), SEALS)
    with pytest.raises(GameFileError, match=message):
        cg.read_link(mangle(_without_check(text)))
    # the check covers the parts but the trailing power (or what follows it)
    uncovered = message in ("too long", "'prussia', not a power", "wrong number of parts")
    with pytest.raises(GameFileError, match=message if uncovered else "on the way"):
        cg.read_link(mangle(text))


def _without_check(link: str) -> str:
    """The link as it was made before links had a check: the same parts, its check left out."""
    return "~".join(part for part in link.split("~") if not group.is_link_check(part))


#: stand-in seals as long as real ones (a power's part is a few hundred bytes)
LONG_SEALS = {p: group.b64(bytes([1]) + f"part {p}".encode() * 40) for p in POWERS}


def _cuts(link: str, last: str) -> list[str]:
    """``link`` cut at every point inside its last sealed part where what is left is still long enough to
    be a seal (so only its tag, or a check, tells it is cut)."""
    keep = -(-cg.MIN_SEAL_BYTES * 4 // 3)
    end = link.index(last) + len(last)
    return [link[:at] for at in range(end - len(last) + keep, end)]


def test_a_players_link_cut_inside_a_seal_is_refused_as_cut_short() -> None:
    """An email or chat program that cuts the link inside the last power's seal leaves a seal long enough
    to be one, which only fails its tag, as a wrong passphrase does: the link's check refuses it when it
    is read, saying it was cut short (the player would otherwise retype a right passphrase for ever)."""
    text = cg.players_link("cluster", KEY, cg.public_text(cluster_views.new_game(seed=1)), LONG_SEALS)
    cuts = _cuts(text, LONG_SEALS["turkey"])
    assert len(cuts) > 200
    for cut in cuts:
        with pytest.raises(GameFileError, match=re.escape(group.LINK_CUT)):
            cg.read_link(cut)
    # cut anywhere in the seals, at a `.` or in another power's part, it is cut short too
    start = text.index(LONG_SEALS["austria"])
    for at in range(start, len(text), 37):
        with pytest.raises(GameFileError, match="cut short"):
            cg.read_link(text[:at])


@pytest.mark.parametrize("power", POWERS)
def test_a_players_link_with_a_seal_altered_is_refused_as_damaged(power: str) -> None:
    """One character of a power's seal changed on the way (the same length): refused as damaged, by name,
    when read, not told later as a wrong passphrase."""
    text = cg.players_link("cluster", KEY, cg.public_text(cluster_views.new_game(seed=1)), LONG_SEALS, "france")
    seal = LONG_SEALS[power]
    for at in (0, 30, len(seal) // 2, len(seal) - 1):
        altered = seal[:at] + ("B" if seal[at] != "B" else "C") + seal[at + 1 :]
        with pytest.raises(GameFileError, match=re.escape(group.LINK_DAMAGED)):
            cg.read_link(text.replace(seal, altered))
    longer = text.replace(seal, seal + "AAAA")
    with pytest.raises(GameFileError, match=re.escape(group.LINK_DAMAGED)):
        cg.read_link(longer)


def test_a_link_without_a_check_opens_as_before() -> None:
    """Links made before links had a check (games in progress) are read as they were, with and without
    the power; the same parts come out of the link with its check."""
    public = cg.public_text(cluster_views.new_game(seed=1))
    for power in ("", "england"):
        text = cg.players_link("cluster", KEY, public, LONG_SEALS, power)
        old = _without_check(text)
        assert len(old.split("~")) == len(text.split("~")) - 1
        assert cg.read_link(old) == cg.read_link(text)
        assert (cg.read_link(old).seals, cg.read_link(old).power) == (LONG_SEALS, power)
    gm = cg.gm_link("cluster", KEY, SEALS["france"], group.Intake(3), public, LONG_SEALS["turkey"])
    old = _without_check(gm)
    assert len(old.split("~")) == 6 and cg.read_link(old) == cg.read_link(gm)
    assert cg.read_link(old).gm_part == LONG_SEALS["turkey"]


def test_a_game_masters_link_cut_or_altered_is_refused_when_read() -> None:
    """The game master's link ends with the game master's part: cut inside it, it is refused as cut short
    (not opened, and then refused once the passphrase is given); its sealed key or intake altered, it is
    refused as damaged (not told as a wrong passphrase)."""
    public = cg.public_text(cluster_views.new_game(seed=1))
    sealed_key = LONG_SEALS["austria"]
    text = cg.gm_link("cluster", KEY, sealed_key, group.Intake(3), public, LONG_SEALS["turkey"])
    for cut in _cuts(text, LONG_SEALS["turkey"])[::7]:
        with pytest.raises(GameFileError, match=re.escape(group.LINK_CUT)):
            cg.read_link(cut)
    altered = sealed_key[:40] + ("B" if sealed_key[40] != "B" else "C") + sealed_key[41:]
    with pytest.raises(GameFileError, match=re.escape(group.LINK_DAMAGED)):
        cg.read_link(text.replace(sealed_key, altered))
    check = text.split("~")[5]
    with pytest.raises(GameFileError, match="its check is malformed"):
        cg.read_link(text.replace(check, check[:-2]))


def test_a_public_part_that_is_not_a_public_view_is_refused() -> None:
    """A public part holding the game master's game (its secrets), or pending orders, is not read."""
    game = cluster_views.new_game(seed=4)
    from adjutant.formats.gamefile import to_data

    secret = group.b64(cg.raw_deflate(cg.canonical_json(to_data(game))))
    with pytest.raises(GameFileError):
        cg.read_link(cg.players_link("cluster", KEY, secret, SEALS))
    public = cluster_views.public_data(game)
    public["orders"] = {"france": ["A par - bur"]}  # (a public view reads no pending orders)
    text = group.b64(cg.raw_deflate(cg.canonical_json(public)))
    assert not cg.read_link(cg.players_link("cluster", KEY, text, SEALS)).public_game().all_orders()


def test_players_link_needs_every_powers_part() -> None:
    with pytest.raises(AdjutantError, match="no sealed part for turkey"):
        cg.players_link("cluster", KEY, "x", {p: s for p, s in SEALS.items() if p != "turkey"})


@pytest.mark.parametrize("seed", [0, 1])
def test_the_game_masters_part_restores_a_long_game_exactly(seed: int) -> None:
    """Four years of random legal orders (nominations, research, transfers, mattermissions among them)
    and pending orders: the compact game master's part replays to the very same game."""
    from adjutant.randomgame import random_game

    rng = random.Random(seed)
    for game in random_game("cluster", seed, 4):  # noqa: B007 - the last state is the game played
        pass
    for order in random_orders(game, rng):
        game.add_order(order)
    public = cluster_views.public_data(game)
    plain = cg.gm_plaintext(game, {p: f"{p}-phrase-1234" for p in POWERS})
    back, phrases = cg.read_gm_plaintext(plain, public)
    assert dumps(back) == dumps(game) and set(phrases) == set(POWERS)
    assert len(plain) < len(dumps(game, indent=None)) // 10


def test_a_damaged_game_masters_part_is_refused_by_name() -> None:
    game = cluster_views.new_game(seed=6)
    game.add_orders("A par - bur", "france")
    game.adjudicate()
    public = cluster_views.public_data(game)
    content = json.loads(cg.inflate(cg.gm_plaintext(game, {}), "x", 10**6))
    for key, value, message in [
        ("orders", group.b64(b"\x00\x05ab"), "cut short"),
        ("orders", content["orders"] + "AAAA", "more than the game"),
        ("phases", 10**9, "does not say which game"),
        ("seed", "1", "does not say which game"),
        ("variant", "standard", "does not say which game"),
        ("game", "0123456789ab", "not the game of the link's public part"),
    ]:
        bad = {**content, key: value}
        with pytest.raises(GameFileError, match=message):
            cg.read_gm_plaintext(cg.raw_deflate(cg.canonical_json(bad)), public)


def test_the_public_part_packs_its_history_and_reads_back_the_same() -> None:
    from adjutant.randomgame import random_game

    for game in random_game("cluster", 2, 3):  # noqa: B007 - the last state is the game played
        pass
    public = cluster_views.public_data(game)
    packed = cg.pack_public(public)
    assert "packed_history" in packed and "history" not in packed
    assert cg.read_public(cg.public_text(game)) == public
    assert len(cg.public_text(game)) < len(group.b64(cg.raw_deflate(cg.canonical_json(public)))) * 3 // 4


@pytest.mark.parametrize(
    ("history", "message"),
    [
        ("x", "history is malformed"),
        ([["S1901M", 0]], "a phase"),
        ([["S1901M", 0, [["A par H", "1", "", "x"]]]], "a result"),
    ],
)
def test_a_malformed_packed_history_is_refused(history, message) -> None:
    data = {**cluster_views.public_data(cluster_views.new_game(seed=1)), "packed_history": history}
    data.pop("history")
    with pytest.raises(GameFileError, match=message):
        cg.read_public(group.b64(cg.raw_deflate(cg.canonical_json(data))))


# --- the compact public part ---------------------------------------------------------------------------
def _played(seed: int, years: int) -> list[dict]:
    """The public data after every phase of a seeded random game of ``years`` years."""
    from adjutant.randomgame import random_game

    return [cluster_views.public_data(game) for game in random_game("cluster", seed, years)]


def _split(raw: bytes) -> tuple[dict, bytes]:
    """A compact public part's header and body."""
    reader = cg.CompactReader(raw)
    reader.int()
    size = reader.int()
    return json.loads(raw[reader.at : reader.at + size]), raw[reader.at + size :]


def _header(raw: bytes) -> dict:
    return _split(raw)[0]


def _compact(header: dict, body: bytes) -> str:
    head = cg.canonical_json(header)
    out = bytearray([cg.PUBLIC_FORMAT])
    cg.put_varint(out, len(head))
    return group.b64(cg.raw_deflate(bytes(out) + head + body))


@pytest.mark.parametrize("seed", range(8))
def test_the_compact_public_part_reads_back_as_the_packed_one_did(seed: int) -> None:
    """Ten years of random play (nominations, research, transfers, mattermissions, retreats, builds): after
    every phase the compact public part reads back to the very public data, the same as the packed form
    of before reads back; no phase or position needs writing out whole."""
    for public in _played(seed, 10):
        raw = cg.pack_compact(public)
        assert raw is not None and raw[0] == cg.PUBLIC_FORMAT
        text = group.b64(cg.raw_deflate(raw))
        assert cg.read_public(text) == public == cg.unpack_public(cg.pack_public(public))
    assert "w" not in _header(raw) and "x" not in _header(raw)
    assert len(text) < 4000


def test_a_public_part_of_the_packed_format_still_reads() -> None:
    public = _played(4, 2)[-1]
    older = group.b64(cg.raw_deflate(cg.canonical_json(cg.pack_public(public))))
    assert older != group.b64(cg.raw_deflate(cg.pack_compact(public) or b""))
    assert cg.read_public(older) == public
    link = cg.read_link(cg.players_link("cluster", KEY, older, SEALS))
    assert link.public == public


def test_what_the_results_do_not_tell_is_written_out() -> None:
    """A position or a phase the public results would not give back (here: a unit that appears from
    nowhere, a result for a unit the position does not have) is written out whole, and read back exactly."""
    public = _played(1, 2)[-1]
    odd = json.loads(json.dumps(public))
    odd["snapshots"][3]["units"]["france"].append("A boh")
    odd["history"][2].setdefault("results", []).append(
        {"power": "italy", "order": "A gal H", "unit": "A gal", "success": True}
    )
    raw = cg.pack_compact(odd)
    assert raw is not None and cg.unpack_compact(raw) == odd
    assert list(_header(raw)["w"]) == ["3"] and list(_header(raw)["x"]) == ["2"]


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"\x07", "not in a format"),
        (b"\x02\x05{}", "cut short"),
        (b"\x02\x02{}", "header is malformed"),
        (b"\x02\x10" + b'{"n":0,"top":{}}', "not a Cluster game"),
        (b"\x02\x24" + b'{"n":0,"top":{"variant":"standard"}}', "not a Cluster game"),
        (b"\x02\x11" + b'{"n":-1,"top":{}}', "header is malformed"),
    ],
)
def test_a_damaged_compact_public_part_is_refused_by_name(raw: bytes, message: str) -> None:
    with pytest.raises(GameFileError, match=message):
        cg.read_public(group.b64(cg.raw_deflate(raw)))


def test_a_long_reason_is_written_out_and_a_long_template_refused() -> None:
    """A template is read once per result that uses it, so a long one is refused (a small link would
    unfold into gigabytes); a long reason is written out instead, and reads back."""
    public = _played(5, 1)[-1]
    odd = json.loads(json.dumps(public))
    odd["history"][0]["results"][0]["reason"] = "bounced " * 100
    raw = cg.pack_compact(odd)
    assert raw is not None and cg.unpack_compact(raw) == odd
    assert "bounced " * 100 not in _header(raw)["t"]
    header, body = _split(cg.pack_compact(public) or b"")
    header["t"][0] = "x" * 301
    with pytest.raises(GameFileError, match="header is malformed"):
        cg.read_public(_compact(header, body))


def test_a_text_direction_control_in_a_compact_public_parts_text_is_refused_by_name() -> None:
    """The texts a compact part's body writes out (a unit, an order, a power or a reason its position and
    templates do not give) reach the page as written, and are not JSON that read_json sees: each is
    checked as it is read."""
    out = bytearray()
    cg.put_text(out, "A ber H")
    cg.put_text(out, "\u2067A ber H")
    reader = cg.CompactReader(bytes(out))
    assert reader.text() == "A ber H"
    with pytest.raises(GameFileError, match=re.escape("public part holds a text-direction control (U+2067")):
        reader.text()


def test_a_public_part_that_asks_for_endless_work_is_refused() -> None:
    """Two thousand phases, each position carrying three thousand research results: a few kilobytes of
    deflate that would take minutes to read are refused once the work passes MAX_WORK."""
    public = _played(0, 1)[0]
    raw = cg.pack_compact({**public, "history": [], "snapshots": []})
    assert raw is not None
    header = _header(raw)
    research = [["q", i, "S1901M", "par", 0] for i in range(3000)]
    header["n"] = 2000
    header["d"] = [[0, [], [["g", "0123456789ab"], *research]]]
    with pytest.raises(GameFileError, match="more than a game could"):
        cg.read_public(_compact(header, b"\x00\x01\x00" * 2000))


_FUZZ = settings(max_examples=200, deadline=None, derandomize=True, database=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
_SAMPLE = _played(3, 3)[-1]
_RAW = cg.pack_compact(_SAMPLE) or b""
_LEAVES = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=12) | st.lists(
    st.integers(-5, 300) | st.text(max_size=8), max_size=6
)


def _read_or_refuse(text: str) -> None:
    """A link with this public part is read (to a game) or refused with a GameFileError, nothing else."""
    try:
        link = cg.read_link(cg.players_link("cluster", KEY, text, SEALS))
    except GameFileError:
        return
    assert link.public_game().variant.id == "cluster"


@_FUZZ
@given(st.data())
def test_mutated_compact_public_parts_are_read_or_refused_by_name(data: Any) -> None:
    """Bytes of the compact part changed, put in, taken out or cut; facts and counts of its header
    replaced by other JSON; characters of the link's text changed."""
    how = data.draw(st.sampled_from(["bytes", "header", "text"]))
    if how == "bytes":
        raw = bytearray(_RAW)
        for _ in range(data.draw(st.integers(1, 6))):
            at = data.draw(st.integers(0, len(raw) - 1))
            change = data.draw(st.sampled_from(["set", "insert", "delete", "cut"]))
            if change == "set":
                raw[at] = data.draw(st.integers(0, 255))
            elif change == "insert":
                raw[at:at] = data.draw(st.binary(min_size=1, max_size=8))
            elif change == "delete":
                del raw[at]
            else:
                del raw[at:]
            if not raw:
                raw = bytearray(b"\x02")
        text = group.b64(cg.raw_deflate(bytes(raw)))
    elif how == "header":
        header, body = _split(_RAW)
        assert cg.read_public(_compact(header, body)) == _SAMPLE
        key = data.draw(st.sampled_from(sorted(header)))
        if key == "d" and header["d"] and data.draw(st.booleans()):
            change = data.draw(st.integers(0, len(header["d"]) - 1))
            facts = data.draw(st.lists(_LEAVES | st.lists(_LEAVES), max_size=4))
            header["d"][change][data.draw(st.integers(0, 2))] = facts
        elif key == "top":
            field = data.draw(st.sampled_from(["variant", "view", "winner", "draw", "format"]))
            header["top"][field] = data.draw(_LEAVES)
        else:
            header[key] = data.draw(_LEAVES)
        text = _compact(header, body)
    else:
        chars = list(group.b64(cg.raw_deflate(_RAW)))
        for _ in range(data.draw(st.integers(1, 4))):
            chars[data.draw(st.integers(0, len(chars) - 1))] = data.draw(st.sampled_from("AZaz09-_.~"))
        text = "".join(chars)
    _read_or_refuse(text)


def test_a_link_cut_before_its_check_is_refused_as_cut_short() -> None:
    """Cut inside its key, its public part, its intake or its check, a link has fewer parts than it is
    made with (with or without a check), its key whole or cut last: it was cut short on the way."""
    public = cg.public_text(cluster_views.new_game(seed=1))
    players = cg.players_link("cluster", KEY, public, LONG_SEALS, "france")
    check = players.split("~")[3]
    for at in [*range(len("cluster.grp~"), players.index(check) + len(check) - 2, 23), players.index(check) + 1]:
        with pytest.raises(GameFileError, match=re.escape(group.LINK_CUT)):
            cg.read_link(players[:at])
    gm = cg.gm_link("cluster", KEY, LONG_SEALS["austria"], group.Intake(3), public, LONG_SEALS["turkey"])
    check = gm.split("~")[5]
    for at in range(len("cluster.gm~"), gm.index(check) + len(check), 31):
        with pytest.raises(GameFileError, match=re.escape(group.LINK_CUT)):
            cg.read_link(gm[:at])


def test_a_game_masters_link_cut_inside_its_check_does_not_open_as_an_old_one() -> None:
    """Cut inside its check (or just before its last part), a game master's link has five parts, as one
    made before links had a check: what is left of the check is not taken for the game master's part
    (which would open, then refuse the game master's passphrase)."""
    public = cg.public_text(cluster_views.new_game(seed=1))
    gm = cg.gm_link("cluster", KEY, LONG_SEALS["austria"], group.Intake(3), public, LONG_SEALS["turkey"])
    end = gm.index(LONG_SEALS["turkey"]) - 1
    for at in range(end - 16, end + 1):
        with pytest.raises(GameFileError, match=re.escape(group.LINK_CUT)):
            cg.read_link(gm[:at])


def test_a_players_link_with_a_character_no_text_can_hold_is_refused_as_damaged() -> None:
    """A lone surrogate (no UTF-8 for it) in a seal: refused as damaged, not a crash."""
    text = cg.players_link("cluster", KEY, cg.public_text(cluster_views.new_game(seed=1)), LONG_SEALS)
    seal = LONG_SEALS["italy"]
    with pytest.raises(GameFileError, match=re.escape(group.LINK_DAMAGED)):
        cg.read_link(text.replace(seal, seal[:50] + "\ud800" + seal[50:]))


def test_a_link_that_lost_the_separator_after_its_check_is_refused_as_damaged() -> None:
    """Without the `~` after its check, a link has the parts of one made before links had a check, its
    first sealed part starting with the check: refused as damaged (a seal never starts as a check does),
    not opened to refuse a passphrase later."""
    public = cg.public_text(cluster_views.new_game(seed=1))
    for text in (
        cg.players_link("cluster", KEY, public, LONG_SEALS),
        cg.players_link("cluster", KEY, public, LONG_SEALS, "italy"),
        cg.gm_link("cluster", KEY, LONG_SEALS["austria"], group.Intake(3), public, LONG_SEALS["turkey"]),
    ):
        check = next(part for part in text.split("~") if group.is_link_check(part))
        with pytest.raises(GameFileError, match=re.escape(group.LINK_DAMAGED)):
            cg.read_link(text.replace(f"{check}~", check))


def test_a_group_games_computer_seats_travel_in_the_public_part_and_come_back_with_the_game() -> None:
    game = cluster_views.new_game(seed=4)
    game.set_computer("italy", "heuristic", 9)
    game.adjudicate()
    public = cg.read_public(cg.public_text(game))
    assert public["computer"] == {"italy": {"level": "heuristic", "seed": 9}}  # (a player sees who is the computer)
    back, _ = cg.read_gm_plaintext(cg.gm_plaintext(game, {}), public)
    assert dumps(back) == dumps(game)
    public["computer"] = {"italy": {"level": "clairvoyant", "seed": 9}}
    with pytest.raises(GameFileError, match="clairvoyant"):
        cg.read_gm_plaintext(cg.gm_plaintext(game, {}), public)
