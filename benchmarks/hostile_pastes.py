"""How long the game master's page's reading of hostile pasted text takes in CPython (the reading step
before any Web Crypto: :func:`adjutant.group_play.codes.code_readings`, then :func:`adjutant.group_play.codes.read_code`
on each reading).

    python benchmarks/hostile_pastes.py

Pastes, each timed once:

- *one line*: short codes on one line up to the paste limit (2,000,000 characters, 142,857 codes).
- *450 KB*: 35,000 short codes on one line.
- *fakes within the count*: as many as one paste may hold (:data:`adjutant.group_play.codes.MAX_PASTE_CODES`).
- the first again with the count of codes unbounded: the scan alone.
- *fakes*: 2,000 fake codes (the current phase's clear header copied, then 16 lines of base64url after
  each: each reading passes the clear checks), as in issue 37; this also counts the readings the page
  would open with Web Crypto, within :data:`adjutant.group_play.codes.MAX_OPEN_ATTEMPTS`.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "py"))

from adjutant import Game  # noqa: E402
from adjutant.group_play import codes as group  # noqa: E402

KEY = b"\x04" + bytes(range(64))


def fake(game: Game, n: int) -> str:
    head = group.header_for(game, KEY, "france").pack()
    body = group.b64(head + KEY + bytes(12) + bytes(40) + n.to_bytes(4, "big"))
    return group.CODE_PREFIX + body


def pastes(game: Game) -> dict[str, str]:
    return {
        "one line": " ".join(f"orders~{n:06d}" for n in range(200_000))[: group.MAX_PASTE],
        "450 KB": " ".join(f"orders~{n:05d}" for n in range(35_000)),
        "fakes": "\n".join(f"{fake(game, n)}\n" + "\n".join("QUFB" * 4 for _ in range(16)) for n in range(2_000)),
        "fakes within the count": "\n".join(f"{fake(game, n)}\n" + "\n".join("QUFB" * 4 for _ in range(16))
                                           for n in range(getattr(group, "MAX_PASTE_CODES", 1000))),
    }


def main() -> None:
    game = Game.new("standard")
    cases = list(pastes(game).items())
    unbounded = ("one line, with no bound on the count of codes", cases[0][1])
    for name, text in [*cases, unbounded]:
        bound = getattr(group, "MAX_PASTE_CODES", 0)
        if name is unbounded[0]:
            group.MAX_PASTE_CODES = 10**9  # (the scan alone: linear in the text)
        start = time.perf_counter()
        try:
            readings = group.code_readings(text)
        except group.CodeError as error:
            print(f"{name}: {len(text):,} characters: refused in {time.perf_counter() - start:.2f} s: {error}")
            continue
        read = time.perf_counter() - start
        group.MAX_PASTE_CODES = bound
        digest = group.phase_digest(game, KEY)
        passed = 0
        for code in (c for r in readings for c in r):
            try:
                group.read_code(code, game, KEY, digest)
                passed += 1
            except group.CodeError:
                pass
        total = time.perf_counter() - start
        tried = min(passed, getattr(group, "MAX_OPEN_ATTEMPTS", passed))
        print(f"{name}: {len(text):,} characters, {len(readings):,} codes: code_readings {read:.2f} s, "
              f"with read_code {total:.2f} s; {passed:,} readings pass the clear checks, {tried:,} would be opened")


if __name__ == "__main__":
    main()
