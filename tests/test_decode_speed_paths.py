"""The short ways decoding takes: a unit's candidate orders counted and one of them made alone
(``Candidates.count`` and ``Candidates.nth``) must agree with the full list a link's encoder numbers orders
by, in every variant; and links made by the encoder open to the game they were made from."""

from __future__ import annotations

import random

import pytest
from adjutant import Game, decode_link, dumps, encode_link
from adjutant.adjudication.orders import Unit
from adjutant.legal import Candidates
from adjutant.randomgame import random_game, random_orders

VARIANTS = ["standard", "cline5", "cline6", "loeb9", "coast_running", "cluster"]


def check_candidates(c: Candidates) -> None:
    for prov in sorted(c.units):
        full = c.of(prov)
        assert c.count(prov) == len(full), prov
        assert [c.nth(prov, k) for k in range(len(full))] == full, prov
        for beyond in (len(full), len(full) + 5, -1):
            with pytest.raises(IndexError):
                c.nth(prov, beyond)


def scattered(game: Game, rng: random.Random) -> dict[str, Unit]:
    """Units of random powers and types on a random half of the map's provinces (many fleets at sea and
    armies on shores, so that convoys of every length are candidates)."""
    v = game.variant
    units: dict[str, Unit] = {}
    powers = sorted(v.powers)
    for prov in sorted(v.provinces):
        if rng.random() < 0.5:
            continue
        kinds = [("F", loc) for loc in v.fleet_locations(prov)]
        if v.provinces[prov].army_can_stand:
            kinds.append(("A", prov))
        if kinds:
            kind, loc = rng.choice(kinds)
            units[prov] = Unit(rng.choice(powers), kind, loc)
    return units


@pytest.mark.parametrize("variant", VARIANTS)
def test_counted_and_nth_candidates_are_the_full_lists(variant: str) -> None:
    for game in random_game(variant, 5, 4):
        if game.phase.kind == "movement":
            check_candidates(Candidates(game.variant, game.units, game.phase.season, game.position.variant_state))
    rng = random.Random(variant)
    for _ in range(6):
        for season in ("spring", "fall"):
            check_candidates(Candidates(game.variant, scattered(game, rng), season))


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_links_of_random_games_open_to_the_same_game(variant: str, seed: int) -> None:
    # every other phase with some of the current phase's orders given, as a link shared mid-phase holds them
    rng = random.Random(seed)
    for n, game in enumerate(random_game(variant, seed, 3)):
        pending = random_orders(game, rng) if n % 2 and not game.over else []
        for order in pending[: len(pending) // 2]:
            game.add_order(order)
        link = encode_link(game)
        assert dumps(decode_link(link)) == dumps(game), (variant, seed, str(game.phase))
