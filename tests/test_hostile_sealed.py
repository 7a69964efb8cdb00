"""Sealed links against a player who edits them: the public part is bound to every sealed part (a SHA-256
of it is sealed inside each), and passphrases are rated, the game master's held to a higher bar."""

from __future__ import annotations

import json
import zlib

import pytest
from adjutant import GameFileError, cluster
from adjutant.game import Game
from adjutant_ui import sealed


def _game() -> Game:
    game = cluster.new_game(1901)
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
    public = cluster.public_data(game)
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
    public = cluster.public_data(game)
    content = {"part": cluster.secret_parts(game)["england"]}  # a version 1 link's part, with no digest
    old = zlib.compress(json.dumps(content).encode(), 9)[2:-4]
    opened = sealed.open_part(public, "england", old)
    assert "sealed before" in opened.warning and "could have been edited" in opened.warning


def test_the_digest_does_not_depend_on_key_order_or_spacing() -> None:
    public = cluster.public_data(_game())
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


def test_the_game_master_needs_a_stronger_passphrase_than_a_player() -> None:
    names = sealed.part_names(_game().variant)
    phrases = dict(PHRASES, gm="passwordpassword", england="password")
    problems = sealed.passphrase_problems(phrases, names)
    assert problems == [
        f"Game master: too easy to guess (about {sealed.passphrase_strength('passwordpassword')[0]} bits); "
        f"the game master's passphrase opens every secret: use at least {sealed.MIN_GM_BITS} bits "
        "(Generate makes one)"
    ]
