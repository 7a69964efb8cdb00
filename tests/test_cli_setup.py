"""``adjutant setup``: a game master brings a game already under way; ``show`` prints the settings that set
the same position up again (pasted back with ``--from``), for every variant."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from adjutant.cli import main
from adjutant.formats.gamefile import dumps, loads
from adjutant.game import Game
from adjutant.map.variant import available_variants
from adjutant.randomgame import random_orders

VARIANTS = [vid for vid, _ in available_variants()]


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_game_master_sets_up_fall_1905_and_plays_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = str(tmp_path / "game.json")
    code, out, err = _run(
        capsys, "setup", "loeb9", game, "--phase", "F1905M",
        "--units", "Norway: F Nwg, A Nwy; England: F Nth, A Edi; Russia: A Stp",
        "--centres", "Norway: nwy; England: edi, lon; Russia: stp",
    )
    assert code == 0, err
    assert "Fall 1905 movement (F1905M)" in out and 'adjutant setup loeb9 GAME.json' in out
    orders = tmp_path / "orders.txt"
    orders.write_text("Norway: A Nwy - Swe; England: F Nth S F Nwg\n")
    assert _run(capsys, "orders", game, str(orders))[0] == 0
    code, out, _ = _run(capsys, "adjudicate", game)
    assert code == 0 and "Movement results for Fall of 1905" in out
    assert loads(Path(game).read_text()).units["swe"].power == "norway"


@pytest.mark.parametrize("variant", VARIANTS)
def test_show_pasted_back_sets_up_the_same_game(
    variant: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every phase of a seeded game's first years: ``show``'s output, read whole by ``setup --from``, sets
    up the same position."""
    rng = random.Random(variant)
    played = Game.new(variant, seed=5)
    (tmp_path / "played.json").write_text(dumps(played))
    for n in range(6):
        for order in random_orders(played, rng):
            played.add_order(order)
        played.adjudicate()
        (tmp_path / "played.json").write_text(dumps(played))
        code, shown, _ = _run(capsys, "show", str(tmp_path / "played.json"))
        assert code == 0
        (tmp_path / f"show{n}.txt").write_text(shown)
        target = tmp_path / f"set{n}.json"
        code, _, err = _run(capsys, "setup", variant, str(target), "--from", str(tmp_path / f"show{n}.txt"))
        assert code == 0, err
        again = loads(target.read_text())
        assert (again.phase, again.units, again.position.centres) == (
            played.phase, played.units, played.position.centres
        )
        # (a dislodgement's attacker is the unit now in the province: a position has no other)
        def gone(g: Game) -> list[tuple[str, str | None, str]]:
            return sorted((str(d.unit), d.attacker_from, d.attacker.power) for d in g.position.dislodged)

        assert gone(again) == gone(played)
        assert again.position.contested == played.position.contested


BAD = [
    (["--phase", "F1905M", "--units", "England: A Nth"], "an army cannot stand at sea"),
    (["--units", "England: A Lon"], "give the position's --phase"),
    (["--phase", "F1905M", "--from", "x.txt"], "either in --from FILE or in its options"),
    (["--from", "missing.txt"], "cannot read missing.txt"),
    (["--from", "other.txt"], "sets up a game of 'loeb9', not of 'standard'"),
    (["--from", "nophase.txt"], "gives no --phase"),
]


@pytest.mark.parametrize(("args", "message"), BAD)
def test_bad_settings_exit_non_zero_naming_the_problem_and_write_nothing(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "other.txt").write_text('adjutant setup loeb9 GAME.json --phase F1905M --units "" --centres ""\n')
    (tmp_path / "nophase.txt").write_text('--units "England: A Lon"\n')
    code, out, err = _run(capsys, "setup", "standard", "game.json", *args)
    assert code == 1 and message in err and err.count("\n") == 1
    assert not (tmp_path / "game.json").exists()


def test_setup_never_overwrites_a_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "game.json"
    game.write_text("mine")
    code, _, err = _run(capsys, "setup", "standard", str(game), "--phase", "F1905M")
    assert code == 1 and "exists already" in err and game.read_text() == "mine"


def test_a_cluster_game_masters_show_with_secrets_sets_up_the_same_strengths_and_sites(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from adjutant.variants.cluster import cluster_state

    game = str(tmp_path / "game.json")
    code, _, err = _run(
        capsys, "setup", "cluster", game, "--phase", "F1905M", "--units", "France: A Bur, A Par; Germany: A Mun",
        "--centres", "France: par", "--strengths", "France: 3 Par, 2 Bur revealed", "--deferred", "Germany: 3",
        "--knowledge", "Germany: transfer", "--sites", "1: nwy; 2: bur; 3: tys",
    )
    assert code == 0, err
    code, public, _ = _run(capsys, "show", game)
    assert code == 0 and "--sites" not in public and "--strengths" not in public and "show --secrets" in public
    code, shown, _ = _run(capsys, "show", game, "--secrets")
    assert '--strengths "France: 2 Bur revealed, 3 Par"' in shown and '--sites "1: nwy; 2: bur; 3: tys"' in shown
    (tmp_path / "shown.txt").write_text(shown)
    code, _, err = _run(capsys, "setup", "cluster", str(tmp_path / "again.json"), "--from", str(tmp_path / "shown.txt"))
    assert code == 0, err
    first, again = (cluster_state(loads(Path(f).read_text()).position.variant_state)
                    for f in (game, tmp_path / "again.json"))
    assert first is not None and again is not None
    assert (again.auras, again.sites, again.deferred, again.knowledge) == (
        first.auras, first.sites, first.deferred, first.knowledge)
    code, _, err = _run(capsys, "setup", "cluster", str(tmp_path / "bad.json"), "--phase", "F1905M",
                        "--units", "France: A Par, A Bur", "--strengths", "France: 3 Par, 3 Bur")
    assert code == 1 and "France has two 3 times units (Paris and Burgundy): rule 1" in err
