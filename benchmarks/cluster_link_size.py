"""How long a Cluster game's links are: seeded random games of legal orders (nominations, research,
transfers and mattermissions among them), after two, five and ten game years by default.

    python benchmarks/cluster_link_size.py [--years 2 5 10] [--seeds 5]

Prints, in characters of the fragment, the median and largest of:

* the sealed link of adjutant_ui.sealed (``cluster.s=3~``: the compact public part, the compact game
  master's part and every power's part), and its version 1 (``cluster.s=``: the public part and the game
  master's part as game files), for comparison;
* a Cluster group game's players' link (``cluster.grp~``: the compact public part and every power's part);
* its game master's link (``cluster.gm~``: the compact public part and the compact game master's part);
* the compact public part alone.

The encryption is the page's (Web Crypto): each sealed part here is random bytes of the length the page's
seal makes of the same plaintext (web/seal.js: 33 bytes of header and a 16-byte tag; web/group.js: a
7-byte header, a 65-byte key, a 12-byte IV and a 16-byte tag), which base64url and deflate treat alike.
Target (issue 17, item 6): at most 6,000 characters for ten years. Figures: docs/group-play.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "py"))

from adjutant.group_play import cluster_links as cg  # noqa: E402
from adjutant.group_play import cluster_views  # noqa: E402
from adjutant.group_play.codes import Intake, b64  # noqa: E402
from adjutant.randomgame import random_game  # noqa: E402
from adjutant_ui import sealed  # noqa: E402

KEY = b"\x04" + bytes(64)
SEAL_JS = 33 + 16  # web/seal.js: format, iterations, salt, IV; the tag
GROUP_JS = 7 + 65 + 12 + 16  # web/group.js to the game master's key: header, ephemeral key, IV, tag


def fake_seal(plaintext: bytes, overhead: int) -> str:
    return b64(os.urandom(len(plaintext) + overhead))


def sizes(game: object) -> tuple[int, int, int, int, int]:
    phrases = {p: sealed.generate_passphrase() for p in [sealed.GM, *game.variant.powers]}  # type: ignore[attr-defined]
    plain = sealed.plaintexts(game, phrases)  # type: ignore[arg-type]
    seals = {name: fake_seal(data, SEAL_JS) for name, data in plain.items()}
    new = sealed.sealed_link(game, seals).fragment()  # type: ignore[arg-type]
    old_plain = version_1_plaintexts(game, phrases)
    old = sealed.encode_sealed_link(
        cluster_views.public_data(game), {name: fake_seal(data, SEAL_JS) for name, data in old_plain.items()}  # type: ignore[arg-type]
    )
    public = cg.public_text(game)  # type: ignore[arg-type]
    players = cg.players_link("cluster", KEY, public, {p: seals[p] for p in game.variant.powers})  # type: ignore[attr-defined]
    gm_part = fake_seal(cg.gm_plaintext(game, phrases), GROUP_JS)  # type: ignore[arg-type]
    gm = cg.gm_link("cluster", KEY, fake_seal(bytes(32), SEAL_JS), Intake(len(game.history)), public, gm_part)  # type: ignore[attr-defined]
    return len(new), len(old), len(players), len(gm), len(public)


def version_1_plaintexts(game: object, phrases: dict[str, str]) -> dict[str, bytes]:
    """The parts as a version 1 link seals them: JSON, the game master's the whole game file."""
    digest = sealed.public_digest(cluster_views.public_data(game))  # type: ignore[arg-type]
    out = {}
    for name, part in cluster_views.secret_parts(game).items():  # type: ignore[arg-type]
        content = {"part": part, "public_sha256": digest}
        if name == sealed.GM:
            content["passphrases"] = {p: v for p, v in phrases.items() if p != sealed.GM}
        out[name] = zlib.compress(json.dumps(content, separators=(",", ":"), sort_keys=True).encode(), 9)[2:-4]
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--years", type=int, nargs="+", default=[2, 5, 10])
    ap.add_argument("--seeds", type=int, default=5)
    args = ap.parse_args()
    names = ("sealed link (cluster.s=3~)", "sealed link version 1 (cluster.s=)", "players' link (cluster.grp~)",
             "game master's link (cluster.gm~)", "public part alone")
    rows: dict[int, list[tuple[int, int, int, int, int]]] = {years: [] for years in args.years}
    for seed in range(args.seeds):
        for game in random_game("cluster", seed, max(args.years)):
            year = game.phase.year - game.variant.first_year
            if year in rows and game.phase.season == "spring" and game.phase.kind == "movement":
                rows[year].append(sizes(game))
    for years in args.years:
        print(f"Cluster, {years} years, {len(rows[years])} seeded random games: characters (median / max)")
        for index, name in enumerate(names):
            column = [row[index] for row in rows[years]] or [0]
            print(f"  {name:36} {statistics.median(column):>8.0f} / {max(column)}")


if __name__ == "__main__":
    main()
