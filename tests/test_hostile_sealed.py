"""Sealed links against a player who edits them: the public part is bound to every sealed part (a SHA-256
of it is sealed inside each), and passphrases are rated, the game master's held to a higher bar."""

from __future__ import annotations

import base64
import contextlib
import json
import random
import re
import zlib
from typing import Any

import pytest
from adjutant import GameFileError
from adjutant.formats import gamefile
from adjutant.game import Game
from adjutant.group_play import cluster_links as cg
from adjutant.group_play import cluster_views
from adjutant.group_play.codes import LINK_CUT, LINK_DAMAGED, b64, link_check
from adjutant.randomgame import random_game
from adjutant_ui import sealed


def _game() -> Game:
    game = cluster_views.new_game(1901)
    game.nominate("england", 3, "edi")
    game.nominate("france", 3, "mar")
    game.add_orders("France: A par - bur\nEngland: F lon - nth\nGermany: A mun - bur")
    game.adjudicate()
    return game


PHRASES = {part: f"{part}-passphrase-long" for part in sealed.part_names(_game().variant)}


def _forged(public: dict) -> dict:  # type: ignore[type-arg]
    """The public part as a player might edit it: Germany's bounce at Burgundy made a success."""
    forged = json.loads(json.dumps(public))
    for result in (r for record in forged["history"] for r in record.get("results", [])):
        if result["unit"] == "A mun":
            result["success"] = True
    assert forged != public
    return forged


@pytest.mark.parametrize("holder", ["england", "france", "gm"])
def test_a_part_opens_only_with_the_public_part_it_was_sealed_with(holder: str) -> None:
    game = _game()
    public = cluster_views.public_data(game)
    texts = sealed.plaintexts(game, PHRASES)
    opened = sealed.open_part(public, holder, texts[holder])
    assert opened.warning == ""
    forged = _forged(public)
    sealed.join_parts(forged, {})  # the forgery is a well-formed public view: only the binding refuses it
    # (the game master's part holds the whole game, whose public data the engine compares as well)
    refusal = "public part was changed after it was sealed" + ("|not this public game's" if holder == "gm" else "")
    with pytest.raises(GameFileError, match=refusal):
        sealed.open_part(forged, holder, texts[holder])


def test_a_part_sealed_before_the_binding_opens_with_a_warning() -> None:
    game = _game()
    public = cluster_views.public_data(game)
    content = {"part": cluster_views.secret_parts(game)["england"]}  # a version 1 link's part, with no digest
    old = zlib.compress(json.dumps(content).encode(), 9)[2:-4]
    opened = sealed.open_part(public, "england", old)
    assert "sealed before" in opened.warning and "could have been edited" in opened.warning


def test_the_digest_does_not_depend_on_key_order_or_spacing() -> None:
    public = cluster_views.public_data(_game())
    shuffled = json.loads(json.dumps(dict(reversed(list(public.items())))))
    assert sealed.public_digest(shuffled) == sealed.public_digest(public)
    assert len(sealed.public_digest(public)) == 64


@pytest.mark.parametrize(
    ("phrase", "label"),
    [
        ("password", "weak"),
        ("aaaaaaaaaaaaaaaa", "weak"),
        ("passwordpassword", "fair"),
        ("k7dm-q2xa-9tfr-hn3w", "strong"),
        ("correct horse battery staple", "strong"),
    ],
)
def test_passphrase_strength_is_estimated(phrase: str, label: str) -> None:
    bits, said = sealed.passphrase_strength(phrase)
    assert said == label, bits
    assert sealed.passphrase_strength(sealed.generate_passphrase())[1] == "strong"


def test_a_passphrase_is_tried_as_entered_then_as_it_was_likely_meant() -> None:
    generated = sealed.generate_passphrase()
    assert sealed.passphrase_readings(generated) == [generated]
    # copied with spaces around it, or retyped in capitals, grouped by spaces or not at all
    assert sealed.passphrase_readings(f" {generated}\n") == [f" {generated}\n", generated]
    for typed in (generated.upper(), generated.replace("-", " "), generated.replace("-", "")):
        assert sealed.passphrase_readings(typed) == [typed, generated]
    # a passphrase of the user's own is tried as entered, and trimmed, never otherwise changed
    assert sealed.passphrase_readings("The Game Master's Passphrase ") == [
        "The Game Master's Passphrase ",
        "The Game Master's Passphrase",
    ]
    assert sealed.passphrase_readings("   ") == ["   "]


def test_the_game_master_needs_a_stronger_passphrase_than_a_player() -> None:
    names = sealed.part_names(_game().variant)
    phrases = dict(PHRASES, gm="passwordpassword", england="password")
    problems = sealed.passphrase_problems(phrases, names)
    assert problems == [
        f"Game master: too easy to guess (about {sealed.passphrase_strength('passwordpassword')[0]} bits); "
        f"the game master's passphrase opens every secret: use at least {sealed.MIN_GM_BITS} bits "
        "(Generate makes one)"
    ]


# --- the link, version 2 (the compact parts) and version 1 ------------------------------------------
def _ten_years(seed: int) -> Game:
    *_, game = random_game("cluster", seed, 10)
    assert game.phase.year >= game.variant.first_year + 10
    return game


def _seals(plain: dict[str, bytes]) -> dict[str, str]:
    """Seals of the plaintexts as web/seal.js would lay them out (here: the plaintext in the clear, in
    the seal's 33-byte header and 16-byte tag), so that a test can open them again."""
    return {name: b64(bytes(33) + data + bytes(16)) for name, data in plain.items()}


def _opened(seal: str) -> bytes:
    return base64.urlsafe_b64decode(seal + "=" * (-len(seal) % 4))[33:-16]


def _version_1_plaintexts(game: Game, phrases: dict[str, str]) -> dict[str, bytes]:
    """What a version 1 link's seals hold: each part as JSON, the game master's the whole game file."""
    digest = sealed.public_digest(cluster_views.public_data(game))
    out = {}
    for name, part in cluster_views.secret_parts(game).items():
        content: dict[str, Any] = {"part": part, "public_sha256": digest}
        if name == sealed.GM:
            content["passphrases"] = {p: v for p, v in phrases.items() if p != sealed.GM}
        out[name] = zlib.compress(json.dumps(content).encode(), 9)[2:-4]
    return out


@pytest.mark.parametrize("seed", [0, 3])
def test_a_ten_year_game_round_trips_through_a_version_3_link(seed: int) -> None:
    game = _ten_years(seed)
    phrases = {part: sealed.generate_passphrase() for part in sealed.part_names(game.variant)}
    link = sealed.sealed_link(game, _seals(sealed.plaintexts(game, phrases)))
    fragment = link.fragment()
    assert fragment.startswith("cluster.s=3~") and sealed.is_sealed_link("#" + fragment)
    read = sealed.decode_sealed_link("#" + fragment)
    assert read == link and read.fragment() == fragment
    public_view = sealed.join_parts(cluster_views.public_data(game), {})
    assert gamefile.to_data(sealed.public_game(read)) == gamefile.to_data(public_view)
    gm = sealed.open_part(read.public, sealed.GM, _opened(read.sealed[sealed.GM]))
    assert gamefile.to_data(gm.game) == gamefile.to_data(game) and gm.warning == ""
    assert gm.passphrases == {p: v for p, v in phrases.items() if p != sealed.GM}
    parts = cluster_views.secret_parts(game)
    for power in game.variant.powers:
        opened = sealed.open_part(read.public, power, _opened(read.sealed[power]))
        expected = sealed.join_parts(cluster_views.public_data(game), {power: parts[power]})
        assert gamefile.to_data(opened.game) == gamefile.to_data(expected) and opened.warning == ""
    # the version 1 link of the same game and seals is several times longer
    assert len(sealed.encode_sealed_link(cluster_views.public_data(game), link.sealed)) > 2 * len(fragment)


def test_a_version_2_link_with_only_the_game_masters_seal_keeps_the_others_empty() -> None:
    game = _game()
    seal = b64(bytes(cg.MIN_SEAL_BYTES))
    link = sealed.sealed_link(game, {sealed.GM: seal})
    fragment = link.fragment()
    assert fragment.endswith(f"~{seal}" + "." * len(game.variant.powers))
    assert sealed.decode_sealed_link(fragment).sealed == {sealed.GM: seal}


def test_a_version_1_link_still_opens() -> None:
    game = _game()
    plain = _version_1_plaintexts(game, PHRASES)
    fragment = sealed.encode_sealed_link(cluster_views.public_data(game), _seals(plain))
    assert "~" not in fragment
    read = sealed.decode_sealed_link("#" + fragment)
    assert read.public_text == "" and read.fragment() == fragment  # its seals stay in their version
    gm = sealed.open_part(read.public, sealed.GM, _opened(read.sealed[sealed.GM]))
    assert gamefile.to_data(gm.game) == gamefile.to_data(game) and gm.warning == ""
    assert gm.passphrases == {p: v for p, v in PHRASES.items() if p != sealed.GM}
    england = sealed.open_part(read.public, "england", _opened(read.sealed["england"]))
    assert sealed.strengths_of(england.game) == {"edi": "3"}


@pytest.mark.parametrize("holder", ["england", "gm"])
def test_a_version_2_link_whose_public_part_was_forged_opens_no_part(holder: str) -> None:
    game = _game()
    link = sealed.sealed_link(game, _seals(sealed.plaintexts(game, PHRASES)))
    forged_text = b64(zlib.compress(json.dumps(_forged(link.public)).encode(), 9)[2:-4])
    fragment = link.fragment().replace(link.public_text, forged_text)
    with pytest.raises(GameFileError, match="damaged on the way"):  # the check says the link is not as made
        sealed.decode_sealed_link(fragment)
    # a forger makes a link without a check (version 2), or a check of their own
    read = sealed.decode_sealed_link(_as_version_2(fragment))
    assert read == sealed.decode_sealed_link(_with_check(_as_version_2(fragment)))
    assert read.public == _forged(link.public)
    sealed.public_game(read)  # a well-formed public view: only the binding refuses it
    with pytest.raises(GameFileError, match="public part was changed after it was sealed"):
        sealed.open_part(read.public, holder, _opened(read.sealed[holder]))


def _as_version_2(fragment: str) -> str:
    """A version 3 link as version 2 wrote it: the same parts without the check."""
    fields = fragment.split("~")
    assert fields[0].endswith("s=3") and len(fields) == 4
    return "~".join([fields[0][:-1] + "2", fields[1], fields[3]])


def _with_check(version_2: str) -> str:
    """A version 2 link made version 3, with the check of its parts as they are."""
    head, public, seals = version_2.split("~")
    return "~".join([head[:-1] + "3", public, link_check(f"{public}~{seals}"), seals])


def test_a_version_3_link_cut_inside_its_last_seal_is_refused_as_cut_short() -> None:
    """A link cut on the way inside its last seal, the seal still long enough to be one (which would then
    only fail its tag, as a wrong passphrase does): refused when read, saying it was cut short."""
    game = _game()
    fragment = sealed.sealed_link(game, _seals(sealed.plaintexts(game, PHRASES))).fragment()
    last = fragment.rsplit(".", 1)[1]
    keep = -(-cg.MIN_SEAL_BYTES * 4 // 3)
    assert len(last) > keep + 20
    for at in range(len(fragment) - len(last) + keep, len(fragment)):
        with pytest.raises(GameFileError, match=re.escape(LINK_CUT)):
            sealed.decode_sealed_link(fragment[:at])
    for at in range(fragment.index("~", fragment.index("~") + 1), len(fragment), 29):
        with pytest.raises(GameFileError, match="cut short"):
            sealed.decode_sealed_link(fragment[:at])


@pytest.mark.parametrize("holder", ["gm", "france", "turkey"])
def test_a_version_3_link_with_a_seal_altered_is_refused_as_damaged(holder: str) -> None:
    game = _game()
    link = sealed.sealed_link(game, _seals(sealed.plaintexts(game, PHRASES)))
    seal = link.sealed[holder]
    for at in (0, 40, len(seal) - 1):
        altered = seal[:at] + ("B" if seal[at] != "B" else "C") + seal[at + 1 :]
        with pytest.raises(GameFileError, match=re.escape(LINK_DAMAGED)):
            sealed.decode_sealed_link(link.fragment().replace(seal, altered))


def test_a_version_2_link_still_opens_as_before() -> None:
    """Links made before links had a check (games in progress) read as they did, the same parts."""
    game = _game()
    link = sealed.sealed_link(game, _seals(sealed.plaintexts(game, PHRASES)))
    old = _as_version_2(link.fragment())
    assert old.startswith("cluster.s=2~") and sealed.decode_sealed_link(old) == link
    # cut inside its last seal it still opens (the check is what tells): nothing changes for old links
    cut = 8 if (len(link.sealed["turkey"]) - 8) % 4 != 1 else 9
    assert sealed.decode_sealed_link(old[:-cut]).sealed["turkey"] == link.sealed["turkey"][:-cut]


def _v2(fields: str) -> str:
    return "cluster.s=" + fields


_PUBLIC = sealed.sealed_link(_game(), {}).public_text
_EMPTY = "." * 7
#: a seal of the fewest bytes one holds (66 characters)
_SEAL = b64(bytes(cg.MIN_SEAL_BYTES))


@pytest.mark.parametrize(
    ("fragment", "message"),
    [
        (_v2("4~x~y~z"), "newer Adjutant"),
        (_v2(f"3~{_PUBLIC}~AA{_EMPTY}"), "damaged on the way"),  # its check lost: no cut leaves seals there
        (_v2(f"3~{_PUBLIC}~AA~AA{_EMPTY}~x"), "wrong number of parts"),
        (_v2("x~y~z"), "version is not a number"),
        (_v2("1~x~y"), "wrong number of parts"),
        (_v2(f"2~{_PUBLIC}"), "wrong number of parts"),
        (_v2(f"2~{_PUBLIC}~AA{_EMPTY}~x"), "wrong number of parts"),
        (f"s=2~{_PUBLIC}~AA{_EMPTY}", "does not name a game with secrets"),
        (f"standard.s=2~{_PUBLIC}~AA{_EMPTY}", "does not name a game with secrets"),
        (_v2(f"2~<b>x~AA{_EMPTY}"), "public part is damaged"),
        (_v2(f"2~AAAA~AA{_EMPTY}"), "public part"),
        (_v2(f"2~{_PUBLIC}~AA.AA"), "2 sealed parts for 8 holders"),
        (_v2(f"2~{_PUBLIC}~{_EMPTY}"), "no sealed parts"),
        (_v2(f"2~{_PUBLIC}~<img>{_EMPTY}"), "not base64url"),
        (_v2(f"2~{_PUBLIC}~{_EMPTY}{_SEAL[:-1]}"), "cut short or damaged: the sealed part 'turkey' is too short"),
        (_v2(f"2~{_PUBLIC}~{_SEAL[:64]}{_EMPTY}"), "cut short or damaged: the sealed part 'gm'"),
        (_v2("2~" + "A" * 1_000_001), "too long"),
    ],
)
def test_a_hostile_version_2_link_raises_only_a_clear_game_file_error(fragment: str, message: str) -> None:
    with pytest.raises(GameFileError, match=message):
        sealed.decode_sealed_link(fragment)


def test_mutated_version_2_links_and_parts_give_a_game_or_a_game_file_error() -> None:
    game = _ten_years(1)
    plain = sealed.plaintexts(game, PHRASES)
    fragment = sealed.sealed_link(game, _seals(plain)).fragment()
    rng = random.Random(17)
    alphabet = "AZaz09-_~.!="
    for _ in range(300):
        at = rng.randrange(len(fragment))
        mutated = fragment[:at] + rng.choice(alphabet) + fragment[at + rng.randrange(2) :]
        with contextlib.suppress(GameFileError):
            sealed.public_game(sealed.decode_sealed_link(mutated))
    public = cluster_views.public_data(game)
    for name in (sealed.GM, "england"):
        data = plain[name]
        for _ in range(40):
            at = rng.randrange(len(data))
            cut = data[:at] if rng.random() < 0.3 else data[:at] + bytes([rng.randrange(256)]) + data[at + 1 :]
            with contextlib.suppress(GameFileError):
                sealed.open_part(public, name, cut)


def test_a_compact_part_beside_a_public_part_of_no_game_with_secrets_is_refused() -> None:
    public = {"variant": "standard"}
    part = bytes([sealed.COMPACT]) + bytes.fromhex(sealed.public_digest(public))[: sealed.BOUND] + b"\0AA"
    with pytest.raises(GameFileError, match="not a game with secrets"):
        sealed.open_part(public, sealed.GM, part)


def test_a_version_3_link_with_a_character_no_text_can_hold_is_refused_as_damaged() -> None:
    """A lone surrogate (no UTF-8 for it) in a seal the check covers: refused as damaged, not a crash."""
    game = _game()
    link = sealed.sealed_link(game, _seals(sealed.plaintexts(game, PHRASES)))
    seal = link.sealed["france"]
    with pytest.raises(GameFileError, match=re.escape(LINK_DAMAGED)):
        sealed.decode_sealed_link(link.fragment().replace(seal, seal[:60] + "\ud800" + seal[60:]))


def test_a_version_3_link_that_lost_its_check_or_the_separator_after_it_is_refused_as_damaged() -> None:
    """Three fields, the third its seals (its check lost) or its check run on into them (the `~` lost):
    damaged, not cut short (a cut leaves at most part of a check there)."""
    game = _game()
    fragment = sealed.sealed_link(game, _seals(sealed.plaintexts(game, PHRASES))).fragment()
    check = fragment.split("~")[2]
    for damaged in (fragment.replace(f"~{check}", ""), fragment.replace(f"{check}~", check)):
        with pytest.raises(GameFileError, match=re.escape(LINK_DAMAGED)):
            sealed.decode_sealed_link(damaged)
    with pytest.raises(GameFileError, match=re.escape(LINK_CUT)):
        sealed.decode_sealed_link(fragment[: fragment.index(check) + 5])


def test_a_cluster_position_set_up_round_trips_through_its_sealed_link_with_its_secrets() -> None:
    """The game master's part of a game set up from a position holds the whole game (the compact form would
    replay it from the variant's start), strengths, sites and knowledge with it."""
    from adjutant.setup import set_up_text, setup_text

    game = set_up_text("cluster", "F1905M", "France: A Bur, A Par; Germany: A Mun", "France: par", seed=5,
                       settings={"strengths": "France: 3 Par", "knowledge": "France: transfer", "sites": "2: bur"})
    link = sealed.sealed_link(game, _seals(sealed.plaintexts(game, PHRASES)))
    read = sealed.decode_sealed_link("#" + link.fragment())
    gm = sealed.open_part(read.public, sealed.GM, _opened(read.sealed[sealed.GM]))
    assert gamefile.to_data(gm.game) == gamefile.to_data(game)
    assert setup_text(gm.game.position, gm.game.variant) == setup_text(game.position, game.variant)
    assert sealed.public_game(read).units == game.units
