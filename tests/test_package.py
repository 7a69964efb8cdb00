"""The installable package: a wheel built from the repository installs into a fresh virtual environment
(no index, no other package) and gives the ``adjutant`` command, with the variant data inside it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(cwd)}  # no PYTHONPATH, no ADJUTANT_MAPS: only the install
    r = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    return r


def test_the_wheel_installs_and_plays_a_phase(tmp_path: Path) -> None:
    src = tmp_path / "src"  # what a source distribution holds: the build never writes into the checkout
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    shutil.copytree(ROOT / "py" / "adjutant", src / "py" / "adjutant", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "maps", src / "maps")
    pip = (sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input")
    _run(*pip, "wheel", "--no-deps", "--no-index", "--no-build-isolation", "-w", tmp_path / "dist", src, cwd=tmp_path)
    wheel = next((tmp_path / "dist").glob("adjutant-*.whl"))

    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=False)
    py, cmd = env_dir / "bin" / "python", env_dir / "bin" / "adjutant"
    _run(*pip, "--python", py, "install", "--no-deps", "--no-index", wheel, cwd=tmp_path)

    play = tmp_path / "play"
    play.mkdir()
    code = "import adjutant, adjutant.map.variant as v; print(adjutant.__file__); print(v.maps_dir())"
    where = _run(py, "-c", code, cwd=play)
    init, maps = where.stdout.splitlines()
    package = Path(init).parent
    assert package.is_relative_to(env_dir) and Path(maps) == package / "maps"
    assert (package / "py.typed").exists() and (package / "game.schema.json").exists()

    assert "adjudicate" in _run(cmd, "--help", cwd=play).stdout
    listed = _run(cmd, "variants", cwd=play).stdout
    assert all(v in listed for v in ("standard", "cline5", "cline6", "loeb9", "coast_running", "cluster"))
    _run(cmd, "new", "standard", "game.json", cwd=play)
    (play / "orders.txt").write_text("France: A Par - Bur\nGermany: A Mun - Bur\nEngland: F Lon - Nth\n")
    _run(cmd, "orders", "game.json", "orders.txt", cwd=play)
    out = _run(cmd, "adjudicate", "game.json", cwd=play).stdout
    assert "Fall 1901 movement" in out
    units = json.loads((play / "game.json").read_text())["units"]
    assert "F nth" in units["england"] and "A par" in units["france"] and "A mun" in units["germany"]
    # the computer players' sub-package is in the wheel
    assert "France:\n  F bre " in _run(cmd, "bot", "game.json", "--powers", "france", cwd=play).stdout
