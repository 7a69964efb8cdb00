"""The command line, as a game master uses it: new, orders, show, adjudicate, undo, link."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "py")}
    return subprocess.run(
        [sys.executable, "-m", "adjutant", *args], cwd=cwd, env=env, input=stdin, capture_output=True, text=True
    )


def test_a_game_master_plays_a_year(tmp_path: Path) -> None:
    assert "cline5" in run("variants", cwd=tmp_path).stdout
    r = run("new", "standard", "game.json", cwd=tmp_path)
    assert r.returncode == 0 and "Spring 1901 movement" in r.stdout
    (tmp_path / "mail.txt").write_text(
        "England:\nF Lon - Nth\nF Edi - Nwg\nA Lvp - Yor\n\nFrance: A Par - Bur; A Mar - Bur\n"
    )
    r = run("orders", "game.json", "mail.txt", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "still due: Austria (3)" in r.stdout and "France (1)" in r.stdout
    r = run("adjudicate", "game.json", cwd=tmp_path)
    assert "Movement results for Spring of 1901" in r.stdout
    assert "France: Army Paris -> Burgundy.  (*bounce*: bounced with A Mar)" in r.stdout
    assert "England: Fleet London -> North Sea." in r.stdout
    assert "Fall 1901 movement" in r.stdout
    r = run("orders", "game.json", "-", cwd=tmp_path, stdin="F Nth C A Yor - Nwy\nA Yor - Nwy\n")
    assert r.returncode == 0, r.stderr
    r = run("adjudicate", "game.json", cwd=tmp_path)
    assert "Army Yorkshire -> Norway." in r.stdout and "Winter 1901 adjustments" in r.stdout
    r = run("show", "game.json", cwd=tmp_path)
    assert "England: builds 1" in r.stdout and "England       4 centres" in r.stdout
    link = run("link", "game.json", cwd=tmp_path).stdout.strip()
    r = run("from-link", link, "copy.json", cwd=tmp_path)
    assert r.returncode == 0
    assert json.loads((tmp_path / "copy.json").read_text()) == json.loads((tmp_path / "game.json").read_text())
    r = run("undo", "game.json", cwd=tmp_path)
    assert "Took back Fall 1901 movement" in r.stdout
    run("adjudicate", "game.json", cwd=tmp_path)
    run("orders", "game.json", "-", cwd=tmp_path, stdin="England: Build F Lon; Build A Edi; A Nwy D\n")
    r = run("adjudicate", "game.json", cwd=tmp_path)
    assert "England: Build fleet London." in r.stdout
    assert "England: Build army Edinburgh.  (*no builds left*)" in r.stdout
    assert "England: Army Norway DISBAND.  (*illegal*: builds are due, not removals)" in r.stdout


def test_bad_input_exits_non_zero_with_one_line_and_keeps_the_file(tmp_path: Path) -> None:
    run("new", "standard", "game.json", cwd=tmp_path)
    before = (tmp_path / "game.json").read_text()
    (tmp_path / "bad.txt").write_text("F Par - Bur\nA Xyz - Par\n")
    r = run("orders", "game.json", "bad.txt", cwd=tmp_path)
    assert r.returncode == 1
    assert "line 1: F Par - Bur: there is no fleet in Paris" in r.stderr
    assert "line 2: A Xyz - Par: 'xyz' is not a province of Standard Diplomacy" in r.stderr
    assert (tmp_path / "game.json").read_text() == before  # nothing was taken, nothing changed
    r = run("new", "narnia", "other.json", cwd=tmp_path)
    assert r.returncode == 1 and r.stderr.startswith("error: unknown variant 'narnia'")
    assert not (tmp_path / "other.json").exists()
    r = run("new", "standard", "game.json", cwd=tmp_path)
    assert r.returncode == 1 and "exists already" in r.stderr
    (tmp_path / "broken.json").write_text(before[:200])
    r = run("adjudicate", "broken.json", cwd=tmp_path)
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "not valid JSON" in r.stderr
    assert (tmp_path / "broken.json").read_text() == before[:200]
    r = run("from-link", "abc!", "x.json", cwd=tmp_path)
    assert r.returncode == 1 and "link is damaged" in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.txt", "broken.json", "game.json"]


def test_every_variant_plays_from_the_command_line(tmp_path: Path) -> None:
    for variant in ("loeb9", "cline5", "cline6", "coast_running"):
        name = f"{variant}.json"
        assert run("new", variant, name, cwd=tmp_path).returncode == 0
        for _ in range(5):
            r = run("adjudicate", name, cwd=tmp_path)
            assert r.returncode == 0, r.stderr
        assert "1903" in run("show", name, cwd=tmp_path).stdout


def test_a_cluster_game_master_sends_the_players_report_and_never_a_clear_link(tmp_path: Path) -> None:
    assert run("new", "cluster", "game.json", cwd=tmp_path).returncode == 0
    (tmp_path / "mail.txt").write_text(
        "France: Nominate 3 par\nFrance: Nominate 2 later\nFrance: A Par RES\nEngland: F Lon - Nth\n"
    )
    assert run("orders", "game.json", "mail.txt", cwd=tmp_path).returncode == 0
    r = run("adjudicate", "game.json", cwd=tmp_path)
    # rule 7: research is reported as a stand, with what it found; the nomination is nowhere
    assert "France: Army Paris HOLD." in r.stdout and "research:" in r.stdout
    assert "RESEARCH" not in r.stdout and "Nominate" not in r.stdout
    full = run("history", "game.json", "--secrets", cwd=tmp_path).stdout
    assert "France: Army Paris RESEARCH." in full
    assert "RESEARCH" not in run("history", "game.json", cwd=tmp_path).stdout
    r = run("link", "game.json", cwd=tmp_path)
    assert r.returncode == 1 and "secrets" in r.stderr and r.stdout == ""
    public = run("link", "game.json", "--public", cwd=tmp_path).stdout.strip()
    secret = run("link", "game.json", "--secrets", cwd=tmp_path).stdout.strip()
    assert public and secret and public != secret
    assert run("from-link", public, "view.json", cwd=tmp_path).returncode == 0
    seed = json.loads((tmp_path / "game.json").read_text())["cluster"]["seed"]
    assert str(seed) not in (tmp_path / "view.json").read_text()
    r = run("adjudicate", "view.json", cwd=tmp_path)
    assert r.returncode == 1 and "only the game master's game is adjudicated" in r.stderr


def test_output_cut_short_by_a_pipe_is_not_an_error(tmp_path: Path) -> None:
    run("new", "standard", "game.json", cwd=tmp_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "py")}
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before a line is written, as with `| head` that has had enough
    try:
        r = subprocess.run(
            [sys.executable, "-m", "adjutant", "show", "game.json"],
            cwd=tmp_path, env=env, stdout=write_end, stderr=subprocess.PIPE, text=True,
        )
    finally:
        os.close(write_end)
    assert (r.returncode, r.stderr) == (0, "")


def test_orders_under_a_power_named_alone_on_a_line(tmp_path: Path) -> None:
    run("new", "standard", "game.json", cwd=tmp_path)
    r = run("orders", "game.json", "-", cwd=tmp_path, stdin="England\nF lon - eng\nFrance\nA Par - Bur\n")
    assert r.returncode == 0, r.stderr
    assert "not a province" not in r.stdout + r.stderr
    r = run("adjudicate", "game.json", cwd=tmp_path)
    assert "England: Fleet London -> English Channel." in r.stdout
    assert "France: Army Paris -> Burgundy." in r.stdout
