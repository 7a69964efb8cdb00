"""The computer players (adjutant.bots) and their seats in a game (adjutant.seats): every order they give
is legal and taken, on every variant and in every kind of phase; the same seed gives the same orders; the
seats travel with the game's file and link; the command line's ``bot`` and ``selfplay``."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from adjutant.adjudication.orders import (
    Build,
    Convoy,
    Disband,
    Move,
    Order,
    Protect,
    Retreat,
    Support,
    Unit,
    format_order,
    order_power,
)
from adjutant.adjudication.phases import Phase
from adjutant.bots import LEVELS, BotError, Thinker, bot_orders, computer_orders, play_computer
from adjutant.bots.cluster import view_for
from adjutant.bots.selfplay import play_game
from adjutant.cli import main
from adjutant.errors import GameFileError
from adjutant.formats.gamefile import dumps, loads
from adjutant.formats.link import decode_link, encode_link
from adjutant.game import Game, Position
from adjutant.map.kinds import unit_type_of
from adjutant.map.routes import is_run, run_destinations, sea_route_exists
from adjutant.map.variant import available_variants, province_of
from adjutant.seats import Seat
from adjutant.variants.cluster_orders import Nominate

VARIANTS = [vid for vid, _ in available_variants()]
#: the variants whose maps have convoys
CONVOYING = ["cline5", "cline6", "coast_running", "loeb9", "standard"]


class Referee:
    """Watches a game of computer players: every order checked as the rules see it before it is given."""

    def __init__(self) -> None:
        self.kinds: Counter[str] = Counter()
        self.problems: list[str] = []
        #: the level of each power in the game watched (a random player's orders are not coordinated)
        self.levels: dict[str, str] = {}
        #: the convoy and protect orders the heuristic and search players gave
        self.carried: Counter[str] = Counter()

    def __call__(self, game: Game, power: str, orders: list[Order], _seconds: float) -> None:
        for o in orders:
            check = game.check_order(o)
            if check.verdict != "legal" or order_power(o) != power:
                self.problems.append(f"{game.phase} {power}: {o}: {check.reason or 'not its own'}")
            self.kinds[_kind(game, o)] += 1
        if game.phase.kind == "movement" and self.levels.get(power, "heuristic") != "random":
            self._coordinated(game, power, orders)

    def _coordinated(self, game: Game, power: str, orders: list[Order]) -> None:
        """No two of a power's units move to one province, none moves where another of its own stays, two
        never swap places, a support is given to a unit of its own only as that unit is ordered, a fleet
        convoys only its own army ordered to move there via convoy (by a chain of its convoying fleets),
        and an army protects only its own fleet ordered to run there (by a chain of its protectors)."""
        moves = {o.unit.province: province_of(o.dest) for o in orders if isinstance(o, Move)}
        ordered = {o.unit.province: o for o in orders if hasattr(o, "unit")}  # type: ignore[misc]
        self._carried(game, power, orders, ordered)
        for src, to in moves.items():
            if list(moves.values()).count(to) > 1:
                self.problems.append(f"{game.phase} {power}: two moves to {to}")
            if to in ordered and to not in moves:
                self.problems.append(f"{game.phase} {power}: a move to {to}, where its own unit stays")
            if moves.get(to) == src:
                self.problems.append(f"{game.phase} {power}: a swap of {src} and {to}")
        for o in orders:
            if isinstance(o, Support) and o.target in ordered:
                given = ordered[o.target]
                went = province_of(given.dest) if isinstance(given, Move) else None
                if went != o.dest:
                    self.problems.append(f"{game.phase} {power}: {o} supports what its unit does not do")


    def _carried(self, game: Game, power: str, orders: list[Order], ordered: dict[str, Order]) -> None:
        v, season = game.variant, game.phase.season
        for o in orders:
            if isinstance(o, (Convoy, Protect)):
                self.carried[type(o).__name__.lower()] += 1
                given = ordered.get(o.target)
                if not isinstance(given, Move) or given.dest != o.dest or given.via_convoy != isinstance(o, Convoy):
                    self.problems.append(f"{game.phase} {power}: {o} carries what its unit does not do")
        for o in orders:
            if not isinstance(o, Move):
                continue
            by = [c.unit.province for c in orders if isinstance(c, (Convoy, Protect)) and c.target == o.unit.province]
            if o.via_convoy and not sea_route_exists(v, o.unit.province, province_of(o.dest), season, set(by)):
                self.problems.append(f"{game.phase} {power}: {o} has no chain of its own convoys")
            run = o.unit.type == "F" and v.options.protect_order and is_run(v, o.unit.location, o.dest)
            if run and o.dest not in run_destinations(v, o.unit.location, by, season):
                self.problems.append(f"{game.phase} {power}: {o} has no chain of its own protection")


def _kind(game: Game, o: Order) -> str:
    if isinstance(o, Nominate):
        return "nomination"
    if isinstance(o, Build):
        return "build"
    if isinstance(o, Disband):
        return "removal" if game.phase.kind == "adjustment" else "disband"
    if isinstance(o, Retreat):
        return "retreat"
    return type(o).__name__.lower()


def _strictly(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot's order the rules would not take fails the test, instead of becoming a hold."""
    from adjutant.bots import heuristic

    def strict_check(game: Game, order: Order) -> Order:
        check = game.check_order(order)
        assert check.verdict == "legal", f"{game.phase}: {order}: {check.reason}"
        return order

    monkeypatch.setattr(heuristic, "checked", strict_check)


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_order_of_a_computer_game_is_legal_in_every_kind_of_phase(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twenty game years per variant, in ten-year games (half the powers heuristic, half random: the random
    ones lose centres, so removals come), and a short game with two searching powers; every order legal
    and taken, the orders of a power made to work together, nothing adjudicated as illegal."""
    _strictly(monkeypatch)
    referee = Referee()
    powers = sorted(Game.new(variant, seed=0).variant.powers)
    years, seed = 0, 0
    while years < 20:  # (a game may end early, won)
        seed += 1
        levels = {p: ("random" if i % 2 == seed % 2 else "heuristic") for i, p in enumerate(powers)}
        referee.levels = levels
        game = play_game(variant, levels, 10, seed=seed, watch=referee)
        years += game.phase.year - game.variant.first_year
        _no_illegal_results(game)
    referee.levels = {}
    game = play_game(variant, {powers[0]: "search", powers[1]: "search"}, 2, seed=3, watch=referee)
    _no_illegal_results(game)
    assert referee.problems == []
    if variant in CONVOYING:  # the heuristic and search players convoy
        assert referee.carried["convoy"] > 0
    if variant != "coast_running":
        assert referee.carried["protect"] == 0
    kinds = referee.kinds
    assert kinds["move"] and kinds["support"] and kinds["hold"] + kinds["support"] > 0
    assert kinds["retreat"] + kinds["disband"] > 0 and kinds["build"] > 0 and kinds["removal"] > 0
    if variant == "cluster":
        assert kinds["nomination"] > 0


def test_the_heuristic_player_runs_its_fleets_and_protects_them_in_coast_running_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """All-heuristic Coast-Running games: runs along the players' own armies' coasts happen, each with the
    protect orders of its chain (checked by the referee), and every order legal."""
    _strictly(monkeypatch)
    referee = Referee()
    for seed in (1, 2):
        game = play_game("coast_running", {}, 10, seed=seed, watch=referee)
        _no_illegal_results(game)
    assert referee.problems == []
    assert referee.carried["protect"] > 0


def _board(variant: str, season: str, units: dict[str, list[str]]) -> Game:
    """A game of ``variant`` in the movement phase of ``season`` 1902 with only ``units`` on the board (by
    power, as "A lon"), the supply centres as at the start."""
    game = Game.new(variant)
    placed = {}
    for power, specs in units.items():
        for spec in specs:
            t, loc = spec.split()
            placed[province_of(loc)] = Unit(power, unit_type_of(t), loc)
    game.position = Position(Phase(1902, season, "movement"), placed, dict(game.position.centres))  # type: ignore[arg-type]
    return game


def _orders_text(game: Game, power: str, level: str, seed: int) -> list[str]:
    return sorted(format_order(o) for o in bot_orders(game, power, level, seed=seed))


@pytest.mark.parametrize("level", ["heuristic", "search"])
def test_an_army_is_convoyed_to_a_centre_it_can_reach_only_by_sea(level: str) -> None:
    """England's army in London, its fleet in the North Sea; Norway empty and unowned, the other centres
    around the North Sea held by German units: the army goes to Norway by convoy, the fleet convoys it."""
    germany = ["A hol", "F den", "A bel", "A kie"]
    game = _board("standard", "spring", {"england": ["A lon", "F nth"], "germany": germany})
    for seed in range(4):
        assert _orders_text(game, "england", level, seed) == ["A lon - nwy via convoy", "F nth C A lon - nwy"]


def test_an_army_is_convoyed_along_a_chain_of_two_fleets() -> None:
    """England's army in London, fleets in the English Channel and the Mid-Atlantic: the army is carried
    past the Channel's shores by both fleets, each ordered to convoy it where it goes."""
    game = _board("standard", "spring", {"england": ["A lon", "F eng", "F mao"], "russia": ["A mos"]})
    for seed in range(4):
        orders = {province_of(o.unit.province): o for o in bot_orders(game, "england", seed=seed)}  # type: ignore[union-attr]
        move = orders["lon"]
        assert isinstance(move, Move) and move.via_convoy
        assert not game.variant.fleet_reaches("eng", move.dest)  # (out of the first fleet's reach)
        assert orders["eng"] == Convoy(orders["eng"].unit, "lon", move.dest)
        assert orders["mao"] == Convoy(orders["mao"].unit, "lon", move.dest)


def test_a_fleet_runs_to_a_centre_along_its_armys_coast_which_protects_it() -> None:
    """Coast-Running, fall: Russia's army stays in Rumania (an unowned centre it takes by staying) and
    protects its fleet in Sevastopol running along Rumania's coast to Bulgaria's east coast, an empty
    centre the fleet cannot reach otherwise."""
    game = _board("coast_running", "fall", {
        "russia": ["A rum", "F sev", "A mos"], "turkey": ["A con", "F ank", "A smy"], "austria": ["A vie", "A tri"],
    })
    for seed in range(4):
        orders = _orders_text(game, "russia", "heuristic", seed)
        assert "A rum P F sev - bul/ec" in orders and "F sev - bul/ec" in orders
    game.add_orders("Russia: A rum P F sev - bul/ec\nF sev - bul/ec")
    game.adjudicate()
    assert game.units["bul"] == Unit("russia", "F", "bul/ec")


def _no_illegal_results(game: Game) -> None:
    for record in game.history:
        bad = [r for r in record.results if r.reason.startswith("illegal")]
        assert bad == [], f"{record.phase}: {bad}"


@pytest.mark.parametrize("level", LEVELS)
def test_the_same_seed_gives_the_same_orders(level: str) -> None:
    game = play_game("cline5", {}, 1, seed=4)
    first = {p: bot_orders(game, p, level, seed=9) for p in ("france", "turkey")}
    again = {p: bot_orders(game.copy(), p, level, seed=9) for p in ("france", "turkey")}
    assert first == again and all(first.values())
    thinker = Thinker(game, ["france", "turkey"], level, seed=9)
    steps = 0
    while not thinker.step(0.0):  # the smallest slices: one step of the work each
        steps += 1
        assert 0.0 <= thinker.progress <= 1.0
    assert thinker.orders() == first and thinker.progress == 1.0
    if level == "search":
        assert steps > 10


def test_seeds_vary_the_orders() -> None:
    game = Game.new("cline5")
    powers = sorted(game.variant.powers)
    for level in ("heuristic", "random"):
        drawn = {tuple(o for p in powers for o in bot_orders(game, p, level, seed=s)) for s in range(4)}
        assert len(drawn) > 1


def _france_builds() -> Game:
    """Standard, winter 1901: France has taken Spain and builds one; no other power has anything to do."""
    game = Game.new("standard")
    game.add_orders("A Par - Bur; A Mar - Spa")
    game.adjudicate()
    game.add_orders("A Spa H")
    game.adjudicate()
    assert game.phase.kind == "adjustment" and game.adjustments() == {"france": 1}
    return game


def test_a_power_with_nothing_to_order_gets_nothing() -> None:
    game = _france_builds()
    assert [type(o) for o in bot_orders(game, "france")] == [Build]
    assert all(bot_orders(game, p, level) == [] for p in game.variant.powers if p != "france" for level in LEVELS)


def test_computer_seats_replay_from_the_file_and_the_link() -> None:
    """A game whose seats made its orders: read back from its file or link, its seats make the same orders
    for the current phase."""
    game = Game.new("loeb9")
    for i, power in enumerate(sorted(game.variant.powers)):
        game.set_computer(power, LEVELS[i % 2], 100 + i)
    for _ in range(5):
        play_computer(game)
        game.adjudicate()
    now = computer_orders(game)
    assert now
    thinker = Thinker.for_seats(game)
    while not thinker.step(5.0):
        pass
    assert {p: os for p, os in thinker.orders().items() if os} == now
    assert computer_orders(loads(dumps(game))) == now
    assert computer_orders(decode_link(encode_link(game))) == now


def test_seats_round_trip_file_link_and_copy() -> None:
    g = Game.new("standard")
    g.set_computer("turkey", "search", 12)
    g.set_computer("italy", "random", 0)
    play_computer(g)
    g.adjudicate()
    want = {"italy": Seat("random", 0), "turkey": Seat("search", 12)}
    assert g.computer == want
    assert loads(dumps(g)).computer == want
    assert decode_link(encode_link(g)).computer == want
    assert g.copy().computer == want
    g.set_computer("italy", None)
    assert loads(dumps(g)).computer == {"turkey": Seat("search", 12)}


def test_a_cluster_games_seats_travel_with_its_sealed_link() -> None:
    from adjutant.group_play.cluster_views import new_game

    g = new_game(seed=5)
    g.set_computer("france", "heuristic", 3)
    assert decode_link(encode_link(g)).computer == {"france": Seat("heuristic", 3)}


def test_a_game_without_seats_is_written_as_before() -> None:
    g = Game.new("standard")
    assert '"computer"' not in dumps(g) and '"version": 1' in dumps(g)
    assert loads(dumps(g)).computer == {}


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        ({"narnia": {"level": "heuristic", "seed": 1}}, "not a power"),
        ({"turkey": {"level": "genius", "seed": 1}}, "not a computer player's level"),
        ({"turkey": {"level": "heuristic", "seed": 10**30}}, "not a computer player's seed"),
        ({"turkey": {"level": "heuristic", "seed": -1}}, "not a computer player's seed"),
        ({"turkey": {"level": "heuristic", "seed": True}}, "not a computer player's seed"),
        ({"turkey": {"level": "heuristic", "seed": 1, "x": 2}}, "must be an object of level and seed"),
        ({"turkey": ["heuristic", 1]}, "must be an object"),
        ([1, 2], "must be an object"),
    ],
)
def test_hostile_seats_are_refused_in_a_file_and_a_link(seats: object, message: str) -> None:
    data = json.loads(dumps(Game.new("standard")))
    data["computer"] = seats
    with pytest.raises(GameFileError, match=message):
        loads(json.dumps(data))
    import base64
    import zlib

    payload = json.dumps({"a": 1, "v": "standard", "n": 0, "s": seats}).encode()
    link = "standard." + base64.urlsafe_b64encode(zlib.compress(payload, 9)[2:-4]).decode().rstrip("=")
    with pytest.raises(GameFileError, match=message):
        decode_link(link)


def test_bad_requests() -> None:
    g = Game.new("standard")
    with pytest.raises(BotError, match="not a power"):
        bot_orders(g, "narnia")
    with pytest.raises(BotError, match="level"):
        bot_orders(g, "france", "genius")
    with pytest.raises(BotError, match="seed"):
        bot_orders(g, "france", "heuristic", -1)
    with pytest.raises(BotError, match="not a power"):
        Thinker(g, ["france", "narnia"])
    with pytest.raises(BotError, match="not a power"):
        g.set_computer("narnia", "heuristic")
    with pytest.raises(BotError, match="level"):
        g.set_computer("france", "genius")
    with pytest.raises(BotError, match="seed"):
        g.set_computer("france", "heuristic", 2**40)
    assert g.computer == {}
    g.declare_draw(["france"])
    with pytest.raises(BotError, match="over"):
        bot_orders(g, "france")


def test_the_command_line_adds_computer_orders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(tmp_path / "game.json")
    assert main(["new", "standard", path]) == 0
    assert main(["bot", path, "--powers", "turkey,Italy", "--level", "search", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "Turkey:\n  " in out and "Italy:\n  " in out and "still due: Austria (3)" in out
    game = loads(Path(path).read_text())
    assert sorted(game.all_orders()) == ["italy", "turkey"]
    assert all(game.check_order(o).verdict == "legal" for os in game.all_orders().values() for o in os)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--powers", "turkey,narnia"], "'narnia' is not a power of Standard Diplomacy"),
        (["--powers", "turkey", "--level", "genius"], "'genius' is not a computer player's level"),
        (["--powers", "turkey", "--seed", "-3"], "is not a computer player's seed"),
    ],
)
def test_the_command_lines_bad_requests_change_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    path = tmp_path / "game.json"
    main(["new", "standard", str(path)])
    before = path.read_text()
    assert main(["bot", str(path), *args]) == 1
    assert message in capsys.readouterr().err
    assert path.read_text() == before


def test_the_command_line_refuses_a_power_with_nothing_to_order_and_a_finished_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = _france_builds()
    path = tmp_path / "game.json"
    path.write_text(dumps(game))
    before = path.read_text()
    assert main(["bot", str(path), "--powers", "france,england"]) == 1
    assert "England has nothing to order in Winter 1901 adjustments" in capsys.readouterr().err
    assert path.read_text() == before
    game.declare_draw(["france"])
    path.write_text(dumps(game))
    assert main(["bot", str(path), "--powers", "france"]) == 1
    assert "the game is over" in capsys.readouterr().err


def test_selfplay_prints_the_centres_of_each_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "coast_running", "--years", "2", "--games", "2", "--seed", "7", "--verbose"]) == 0
    out = capsys.readouterr().out
    assert out.count("game ") == 2 and "mean centres: Austria" in out and "  1902: " in out
    assert main(["selfplay", "narnia"]) == 1
    assert main(["selfplay", "standard", "--level", "genius"]) == 1
    assert main(["selfplay", "standard", "--games", "0"]) == 1


def test_a_cluster_bot_plays_from_what_its_power_may_see() -> None:
    """Two Cluster games that differ only in what no player knows yet (the sites, drawn from the game's
    seed): a bot gives the same orders in both, at every level; and it nominates its multiple units."""
    from adjutant.bots.cluster import view_for
    from adjutant.group_play.cluster_views import new_game

    one, other = new_game(seed=11), new_game(seed=12)
    assert one.position.variant_state != other.position.variant_state
    for p in one.variant.powers:
        for o in bot_orders(one, p, seed=1):
            one.add_order(o)
    one.adjudicate()
    seen = view_for(one, "germany").position.variant_state
    assert seen.view == "germany" and not seen.sites and seen.seed is None  # type: ignore[attr-defined]
    hidden = {p: a for p, a in one.position.variant_state.auras.items() if not a.revealed}  # type: ignore[union-attr]
    assert hidden and {p for p in hidden if one.units[p].power != "germany"}.isdisjoint(seen.auras)  # type: ignore[attr-defined]
    assert {p for p in hidden if one.units[p].power == "germany"} <= set(seen.auras)  # type: ignore[attr-defined]
    one = new_game(seed=11)
    for level in LEVELS:
        mine = bot_orders(one, "germany", level, seed=3)
        assert mine == bot_orders(other, "germany", level, seed=3)
        assert {o.level for o in mine if isinstance(o, Nominate)} == {3, 2}


def test_a_paused_warm_up_and_a_direct_call_make_the_same_tables() -> None:
    """A Thinker paused in the middle of a variant's tables, and orders asked for meanwhile: the tables
    come out as when made at once."""
    from adjutant.bots.values import Graph
    from adjutant.map.variant import load_variant

    variant = load_variant("loeb9")
    whole = Graph(variant)
    for _ in whole.warm():
        pass
    paused = Graph(variant)
    work = paused.warm()
    for _ in range(5):
        next(work)
    assert paused.spread("F", (1, 2, 3)) == whole.spread("F", (1, 2, 3))  # (made whole while paused)
    for _ in work:
        pass
    fall = (1000, 100, 30, 10, 6, 5, 4, 3, 2, 1)
    assert paused.spread("A", fall) == whole.spread("A", fall)
    assert paused.spread("F", fall) == whole.spread("F", fall)


def test_the_cluster_search_adjudicates_with_the_strengths_its_power_knows(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search's trials in Cluster count each unit at the strength a player of its power knows (its own
    units', and others' the game has shown it), one where it does not know: never a hidden one."""
    from adjutant.bots import search
    from adjutant.group_play.cluster_views import known_strengths

    game = play_game("cluster", {}, 1, seed=3)
    seen = known_strengths(view_for(game, "france"))
    hidden = {p: k for p, k in known_strengths(game).items() if p not in seen}
    assert seen and hidden  # (France knows some strengths, and some it does not)
    given: list[dict[str, int]] = []
    resolver = search.movement_resolver

    def watched(*args: object, strengths: dict[str, int] | None = None, **kwargs: object) -> object:
        given.append(dict(strengths or {}))
        return resolver(*args, strengths=strengths, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(search, "movement_resolver", watched)
    bot_orders(game, "france", "search", seed=1)
    assert given and all(s == seen for s in given)


def test_an_army_bound_across_a_weak_passage_goes_by_convoy_where_a_fleet_of_its_own_can_carry_it() -> None:
    """Loeb9: an army in Sicily whose choice is Naples, across the weak passage (where a move alone has no
    strength), is convoyed there by its fleet in the Tyrrhenian Sea (an ordinary convoyed move)."""
    import random

    from adjutant.bots import carry
    from adjutant.bots.heuristic import own_units
    from adjutant.bots.values import Values

    game = _board("loeb9", "fall", {"italy": ["A sic", "F tys", "A rom", "A tun"], "austria": ["A apu"]})
    assert game.variant.edge_kind("sic", "nap") == "weak"
    dest = {"sic": "nap", "tys": "tys", "rom": "rom", "tun": "tun"}
    values = Values(game, "italy", "movement")
    taken = {d: p for p, d in dest.items()}
    choices = carry.Choices(game, own_units(game, "italy"), values, dict(dest), taken, {})
    assert carry.convoys(choices, {"rom", "tun"}, random.Random(0)) == [("sic", "nap", ("tys",))]


def test_the_random_player_lets_a_cluster_unit_whose_aura_is_away_only_stand() -> None:
    """Cluster, a game where Turkey's army in Ankara has its aura away in another unit (spring 1907 of a
    seeded game with a random Turkey): every random order for it is one the rules take, its hold."""
    import random

    from adjutant.randomgame import random_orders

    game = play_game("cluster", {"turkey": "random"}, 6, seed=6)
    assert "its aura is away" in game.check_order(Move(game.units["ank"], "arm")).reason
    for seed in range(30):
        for o in random_orders(game, random.Random(seed), powers=["turkey"]):
            assert game.check_order(o).verdict == "legal", o
