"""The page's computer players in plain Python (adjutant_ui.computer): who the computer orders, that it
fills only what nobody ordered, that its thinking pauses between slices and stops when told, and what the
page and the message to players say of it."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest
from adjutant import AdjutantError, Game
from adjutant.adjudication.orders import format_order
from adjutant.bots import bot_orders, computer_orders
from adjutant_ui import computer
from adjutant_ui.session import Session


def seated(powers: list[str], level: str = "heuristic", variant: str = "standard") -> Game:
    game = Game.new(variant)
    for power in powers:
        game.set_computer(power, level, 7)
    return game


def run(game: Game, powers: list[str], level: str = "random", stop_after: int | None = None) -> tuple[
        dict[str, list[object]] | None, int, list[float]]:
    """Think for ``powers``; the orders, how many pauses were awaited, and the progress reported."""
    pauses = 0
    seen: list[float] = []

    async def pause() -> None:
        nonlocal pauses
        pauses += 1

    thinking = computer.think(
        game, computer.thinkers(game, powers, level, seed=3), pause, lambda p: seen.append(p.done),
        lambda: stop_after is not None and pauses >= stop_after)
    # a loop of its own, in a thread: Playwright's sync API keeps one running in this thread once a
    # browser test of the same process has started it
    with ThreadPoolExecutor(1) as pool:
        orders = pool.submit(asyncio.run, thinking).result()
    return orders, pauses, seen  # type: ignore[return-value]


def test_the_computer_orders_its_own_powers_that_have_something_unordered() -> None:
    game = seated(["italy", "turkey"])
    assert computer.seated(game) == {"italy": "heuristic", "turkey": "heuristic"}
    assert computer.people(game) == ["austria", "england", "france", "germany", "russia"]
    assert computer.to_order(game, computer.seated(game)) == ["italy", "turkey"]
    game.add_orders("A Ven H; A Rom H; F Nap H", "italy")
    assert computer.to_order(game, computer.seated(game)) == ["turkey"]
    game.clear_orders("italy")
    game.add_orders("A Ven H", "italy")  # a unit of a computer player ordered by a person: the rest are its
    assert computer.to_order(game, computer.seated(game)) == ["italy", "turkey"]


def test_the_computers_orders_fill_only_what_nobody_ordered() -> None:
    game = seated(["italy"])
    game.add_orders("A Ven - Tyr", "italy")
    orders, _, _ = run(game, ["italy"])
    assert orders is not None and len(orders["italy"]) == 3
    assert computer.give(game, orders) == ["italy"]  # type: ignore[arg-type]
    given = sorted(format_order(o) for o in game.orders_of("italy"))
    assert len(given) == 3 and "A ven - tyr" in given
    assert computer.give(game, orders) == []  # type: ignore[arg-type]  # everything is ordered now


def test_an_adjustment_phase_is_filled_only_for_a_power_that_gave_nothing() -> None:
    game = Game.new("standard")
    game.add_orders("F Lon - Nth; F Edi - Nwg; A Lvp - Yor")
    game.adjudicate()
    game.add_orders("F Nth - Nwy; F Nwg - Bar")
    game.adjudicate()
    assert game.phase.kind == "adjustment" and game.adjustments()["england"] > 0
    game.add_orders("Build F Lon", "england")
    assert "england" not in computer.to_order(game, ["england"])


def test_thinking_pauses_between_slices_reports_progress_and_stops_when_told() -> None:
    game = Game.new("standard")  # (no seats: the powers are thought for at the level asked, Strong)
    orders, pauses, seen = run(game, ["austria", "england", "france"], "search")
    assert orders is not None and sorted(orders) == ["austria", "england", "france"]
    assert pauses >= 1 and seen == sorted(seen) and seen[-1] == 1.0
    stopped, pauses, _ = run(game, ["austria", "england", "france"], "search", stop_after=1)
    assert stopped is None and pauses == 1
    assert not game.all_orders()  # thinking changes nothing in the game


def test_a_seat_thinks_as_its_seat_plays_and_the_rest_at_the_level_asked() -> None:
    """A computer seat's orders are those the engine gives the seat (so a shared game replays); a power
    the sandbox asks the computer to fill is thought for at the level and seed asked."""
    game = seated(["italy"], "search")
    orders, _, _ = run(game, ["italy", "france"], "random")
    assert orders is not None
    assert orders["italy"] == computer_orders(game)["italy"]
    assert orders["france"] == bot_orders(game, "france", "random", 3)


def test_what_the_page_says_of_the_computer_players() -> None:
    assert computer.summary(Game.new("standard")).startswith("Every power is played by a person")
    assert computer.summary(seated(["italy", "turkey"])).startswith(
        "The computer plays Italy and Turkey (Normal); people play Austria, England, France, Germany and Russia.")
    everyone = seated(["austria", "england", "france", "germany", "italy", "russia", "turkey"], "random")
    assert computer.summary(everyone).startswith("The computer plays every power (Easy)")
    assert [label.split(":")[0] for _, label in computer.level_choices()] == ["Easy", "Normal", "Strong"]
    with pytest.raises(AdjutantError, match="'grandmaster' is not a computer player's level"):
        computer.check_level("grandmaster")


def test_the_message_to_players_says_which_powers_the_computer_played() -> None:
    game = seated(["italy", "turkey"])
    orders, _, _ = run(game, ["italy", "turkey"], "random")
    computer.give(game, orders)  # type: ignore[arg-type]
    game.adjudicate()
    message = "results\n\nThe game now (F1901M): https://x/#standard.y\nSend your orders for it with Adjutant.\n"
    noted = computer.with_note(message, game)
    assert noted == ("results\n\nThe computer played Italy and Turkey in Spring 1901 movement.\n\n"
                     "The game now (F1901M): https://x/#standard.y\nSend your orders for it with Adjutant.\n")
    assert computer.with_note(message, Game.new("standard")) == message


def test_the_warning_before_adjudicating_leaves_out_the_computers_powers() -> None:
    session = Session(seated(["italy"]))
    missing = session.unordered(but=["italy"])
    assert missing and not any(line.startswith("Italy:") for line in missing)
    assert any(line.startswith("Italy:") for line in session.unordered())


def cluster_against(people: list[str], seed: int = 11) -> Session:
    from adjutant.group_play import cluster_views

    game = cluster_views.new_game(seed=seed)
    for power in game.variant.powers:
        if power not in people:
            game.set_computer(power, "heuristic", 5)
    return Session.of(game)


def test_a_cluster_game_against_the_computer_shows_the_people_only_their_own_secrets() -> None:
    from adjutant.group_play import cluster_views
    from adjutant_ui import sealed

    session = cluster_against(["france", "italy"])
    master = session.master
    assert master is not None and session.kept is master and session.viewers == ("france", "italy")
    assert session.game.position.variant_state.view == "france,italy"
    assert sealed.sites_of(session.game) == {} and sealed.sites_of(master) != {}
    for _ in range(4):  # the computer's powers nominate, research, move; the people's units hold
        game = session.kept
        orders, _, _ = run(game, computer.to_order(game, computer.seated(game)), "heuristic")
        computer.give(game, orders or {})
        session.adjudicate()
    shown, secret = cluster_views.known_strengths(session.game), cluster_views.known_strengths(master)
    kept_back = {p for p in secret if master.units[p].power not in ("france", "italy") and p not in shown}
    assert kept_back  # the computer's strengths not yet reported stay its own
    assert all(secret[p] == level for p, level in shown.items())
    assert session.game.history[0].results == cluster_views.public_view(master).history[0].results
    assert "Nominate" not in str(session.game.history[0].orders) and "Nominate" in str(master.history[0].orders)


def test_orders_given_in_the_view_go_to_the_game_and_survive_its_link() -> None:
    from adjutant.formats.link import decode_link, encode_link

    session = cluster_against(["france"])
    session.enter_orders("A Par - Bur")
    session.game.nominate("france", 3, "par")
    back = Session.of(decode_link(encode_link(session.kept)))
    assert back.master is not None and back.viewers == ("france",) and back.player == "france"
    assert {format_order(o) for o in back.game.orders_of("france")} == {"A par - bur", "Nominate 3 par"}
    assert back.master.computer == session.kept.computer
    back.adjudicate()
    assert back.game.units.get("bur") is not None and back.master.units["bur"].power == "france"
    back.undo()
    assert str(back.game.phase) == "S1901M" and not back.game.history


def test_secret_lines_list_each_powers_own_secrets_for_the_powers_played_at_one_screen() -> None:
    from adjutant_ui import sealed

    session = cluster_against(["france", "italy"])
    session.game.nominate("france", 3, None)  # (given in the view, as the page gives them)
    session.game.nominate("italy", 3, None)
    session.kept.nominate("austria", 3, None)
    session.adjudicate()
    for game in (session.game, session.kept):  # a view holds only its powers' secrets; the lines say only theirs
        lines = sealed.secret_lines(game, "france,italy", {})
        assert any(line.startswith("France: its 3×") for line in lines)
        assert any(line.startswith("Italy: its 3×") for line in lines)
        assert not any(line.startswith("Austria") for line in lines)
    assert any(line.startswith("Austria: its 3×") for line in sealed.secret_lines(session.kept, "gm", {}))


def test_a_phase_with_nothing_for_the_people_is_the_computers_to_play_alone() -> None:
    # France is a person's; Germany's army is dislodged in the fall, nobody else's
    game = seated(["austria", "england", "germany", "italy", "russia", "turkey"])
    assert not computer.plays_alone(game)  # a movement phase waits for Adjudicate
    game.add_orders("A Par - Pic; A Mar H; F Bre H", "france")
    game.add_orders("A Mun - Bur", "germany")
    game.adjudicate()
    game.add_orders("A Mar - Bur; A Pic S A Mar - Bur", "france")
    game.adjudicate()
    assert game.phase.kind == "retreat" and [d.unit.power for d in game.position.dislodged] == ["germany"]
    assert computer.plays_alone(game)
    game.set_computer("germany", None)  # a person's unit dislodged: the phase is theirs to order
    assert not computer.plays_alone(game)
    game.set_computer("germany", "heuristic", 7)
    game.adjudicate()  # (the army disbanded)
    # the winter: Germany builds (Munich is free), France neither builds nor removes
    assert game.phase.kind == "adjustment" and {p: n for p, n in game.adjustments().items() if n} == {"germany": 1}
    assert computer.plays_alone(game)
    game.set_computer("france", "heuristic", 7)  # every power the computer's: it plays on alone too
    assert computer.plays_alone(game)
    game.set_computer("germany", None)
    assert not computer.plays_alone(game)


def test_an_adjustment_phase_where_a_person_builds_waits_for_them() -> None:
    game = seated(["austria", "england", "germany", "italy", "russia", "turkey"])
    game.add_orders("A Mar - Spa", "france")
    game.add_orders("F Kie - Den", "germany")
    game.adjudicate()
    game.adjudicate()
    assert game.phase.kind == "adjustment"
    assert {p: n for p, n in game.adjustments().items() if n} == {"france": 1, "germany": 1}
    assert not computer.plays_alone(game)
    game.add_orders("Build A Mar", "france")  # France's build given: what is left is the computer's
    assert computer.plays_alone(game)


def test_phases_are_listed_as_a_sentence_lists_them() -> None:
    assert computer.joined(["Fall 1901 retreat"]) == "Fall 1901 retreat"
    assert computer.joined(["a", "b", "c"]) == "a, b and c"
    assert computer.joined([]) == ""
