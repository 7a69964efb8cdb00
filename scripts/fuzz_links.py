"""Mutation fuzzer of the links that carry a check (adjutant.group_play.codes.link_check) and the same links as they
were made before they had one: Cluster's players' and game master's links, the Cluster Sandbox sealed
link (version 3, and version 2 without the check), the classic game master's link and players' link.

    python scripts/fuzz_links.py [--seed 0] [--mutations 3000] [--budget 2]

Each link is cut at every length, then mutated ``--mutations`` times (characters deleted, inserted or
replaced, `~` parts deleted, duplicated, swapped or replaced, its check duplicated, a check of other text
put among an old link's parts, a check forged with huge lengths, non-ASCII and lone surrogates, the
start cut off). Each mutation is read as the page reads a link (:func:`read`). Reading it must give the
same game and parts (a no-op), another game or parts (counted: where the check does not cover the part,
or a link without a check), or a GameFileError/AdjutantError; anything else (another exception, or a read
taking more than ``--budget`` seconds) is printed and makes the exit status 1. Method and last counts:
docs/group-play.md ("Fuzzing the links").
"""

from __future__ import annotations

import argparse
import collections
import random
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "py"))

from adjutant import AdjutantError  # noqa: E402
from adjutant.formats.gamefile import dumps  # noqa: E402
from adjutant.formats.link import decode_link  # noqa: E402
from adjutant.game import Game  # noqa: E402
from adjutant.group_play import cluster_links as cg  # noqa: E402
from adjutant.group_play import cluster_views  # noqa: E402
from adjutant.group_play import codes as group
from adjutant_ui import sealed  # noqa: E402

KEY = b"\x04" + bytes(range(64))
#: stand-ins for seals, as long as real ones (a power's part is a few hundred bytes, a sealed key 81)
SEALS = {p: group.b64(bytes([1]) + f"part {p}".encode() * 40) for p in cluster_views.new_game(seed=1).variant.powers}
SEALED_KEY = group.b64(bytes([1]) + bytes(range(80)))
#: characters a mutation puts in: base64url, the link's separators, what a mail program may add
CHARACTERS = "ABCxyz019-_~.=%é€\x00 #?&"


class Hang(Exception):
    """A read that took longer than the budget."""


def _alarm(*_: object) -> None:
    raise Hang


def read(fragment: str) -> tuple[Any, ...]:
    """What the page takes from a link (py/adjutant_ui/group.py, app.py's read_fragment): its kind, key,
    sealed parts and game."""
    if group.is_group_link(fragment):
        if cg.is_cluster_group_link(fragment):
            link = cg.read_link(fragment)
            game = link.public_game()
            if link.is_gm:
                group.Intake.from_text(link.intake, game)
            seals = tuple(sorted(link.seals.items()))
            return "cluster", link.public_key, link.sealed_private, link.intake, link.gm_part, seals, link.power, \
                dumps(game)
        glink = group.read_group_link(fragment)
        if glink.is_gm:
            group.Intake.from_text(glink.intake, glink.game)
        return "group", glink.public_key, glink.sealed_private, glink.intake, glink.power, dumps(glink.game)
    if sealed.is_sealed_link(fragment):
        slink = sealed.decode_sealed_link(fragment)
        return "sealed", tuple(sorted(slink.sealed.items())), dumps(sealed.public_game(slink))
    return "game", dumps(decode_link(fragment))


def without_check(link: str) -> str:
    """The link as made before links had a check (a sealed link: version 2)."""
    parts = [part for part in link.split("~") if not group.is_link_check(part)]
    return "~".join(parts).replace(".s=3~", ".s=2~", 1)


def links() -> dict[str, str]:
    made: dict[str, str] = {}
    public = cg.public_text(cluster_views.new_game(seed=1))
    made["cluster players"] = cg.players_link("cluster", KEY, public, SEALS)
    made["cluster players, power"] = cg.players_link("cluster", KEY, public, SEALS, "france")
    made["cluster game master"] = cg.gm_link("cluster", KEY, SEALED_KEY, group.Intake(3), public, SEALS["turkey"])
    game = cluster_views.new_game(1901)
    game.nominate("england", 3, "edi")
    game.add_orders("France: A par - bur\nEngland: F lon - nth")
    game.adjudicate()
    plain = sealed.plaintexts(game, {p: f"{p}-passphrase-long" for p in sealed.part_names(game.variant)})
    seals = {name: group.b64(bytes(33) + data + bytes(16)) for name, data in plain.items()}
    made["sealed v3"] = sealed.sealed_link(game, seals).fragment()
    classic = Game.new("standard")
    classic.add_orders("A Par - Bur; F Lon - Nth")
    intake = group.Intake(0)
    intake.typed("france")
    made["classic game master"] = group.gm_link(classic, KEY, SEALED_KEY, intake)
    for name in list(made):
        made[f"{name} (no check)"] = without_check(made[name])
    made["classic players, power (no check)"] = group.public_link(classic, KEY, "france")
    return made


def mutations(link: str, rng: random.Random, count: int) -> Iterator[tuple[str, str]]:
    """(kind, mutated link): every cut, then ``count`` random mutations."""
    for at in range(len(link)):
        yield "cut", link[:at]
    parts = link.split("~")
    checks = [i for i, part in enumerate(parts) if group.is_link_check(part)]
    kinds = ["delete", "insert", "replace", "several", "non-ASCII", "start cut", "part deleted", "part doubled",
             "parts swapped", "part replaced"]
    if checks:
        kinds += ["check doubled", "old parts, a check", "check forged"]
    for _ in range(count):
        kind = rng.choice(kinds)
        text, mutated = link, list(parts)
        if kind == "delete":
            at = rng.randrange(len(text))
            text = text[:at] + text[at + rng.choice([1, 1, 2, 5, 50]) :]
        elif kind == "insert":
            at = rng.randrange(len(text) + 1)
            text = text[:at] + "".join(rng.choice(CHARACTERS) for _ in range(rng.choice([1, 3, 20]))) + text[at:]
        elif kind == "replace":
            at = rng.randrange(len(text))
            text = text[:at] + rng.choice(CHARACTERS) + text[at + 1 :]
        elif kind == "several":
            for _ in range(rng.randrange(2, 6)):
                at = rng.randrange(len(text))
                text = text[:at] + rng.choice(CHARACTERS) + text[at + 1 :]
        elif kind == "non-ASCII":
            at = rng.randrange(len(text))
            text = text[:at] + rng.choice(["é", "€", "𝔸", "\ud800", "٣", "²", "Ａ"]) + text[at:]
        elif kind == "start cut":
            text = text[rng.randrange(1, len(text)) :]
        elif kind == "part deleted" and len(mutated) > 1:
            del mutated[rng.randrange(1, len(mutated))]
        elif kind == "part doubled":
            at = rng.randrange(len(mutated))
            mutated.insert(at, mutated[at])
        elif kind == "parts swapped" and len(mutated) > 2:
            i, j = rng.sample(range(1, len(mutated)), 2)
            mutated[i], mutated[j] = mutated[j], mutated[i]
        elif kind == "part replaced" and len(mutated) > 1:
            at = rng.randrange(1, len(mutated))
            half = mutated[at][: len(mutated[at]) // 2]
            mutated[at] = rng.choice(["", "A", "A" * 100_000, "0" * 18, ".", "." * 7, half])
        elif kind == "check doubled":
            mutated.insert(rng.randrange(1, len(mutated) + 1), mutated[checks[0]])
        elif kind == "old parts, a check":
            old = [part for i, part in enumerate(mutated) if i not in checks]
            covered = "~".join(old[1:])
            old.insert(rng.randrange(1, len(old) + 1), group.link_check(rng.choice([covered, covered[:-3], "x"])))
            mutated = old
        elif kind == "check forged":
            size = rng.choice([0, 1, 2**31, 2**32 - 1, 10**9, len(link)])
            mutated[checks[0]] = group.b64(bytes([group.CHECK_FORMAT]) + size.to_bytes(4, "big") + rng.randbytes(8))
        if mutated != parts:
            text = "~".join(mutated)
        yield kind, text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--mutations", type=int, default=3000, help="random mutations per link (besides every cut)")
    parser.add_argument("--budget", type=float, default=2.0, help="seconds a read may take")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    signal.signal(signal.SIGALRM, _alarm)
    failures = 0
    print(f"{'link':38} {'reads':>6} {'refused':>7} {'same':>5} {'other':>5} {'cut: LINK_CUT':>13} {'failed':>6}")
    for name, link in links().items():
        base = read(link)
        counts: collections.Counter[str] = collections.Counter()
        for kind, text in mutations(link, rng, args.mutations):
            signal.setitimer(signal.ITIMER_REAL, args.budget)
            try:
                counts["same" if read(text) == base else "other"] += 1
            except AdjutantError as error:  # (GameFileError is one)
                counts["refused"] += 1
                counts["cut"] += kind == "cut"
                counts["cut: LINK_CUT"] += kind == "cut" and str(error) == group.LINK_CUT
            except Hang:
                counts["failed"] += 1
                print(f"  {name}: {kind}: took more than {args.budget} s: {text[:200]!r}")
            except Exception as error:  # noqa: BLE001 (what the fuzzer looks for)
                counts["failed"] += 1
                print(f"  {name}: {kind}: {type(error).__name__}: {error}: {text[:200]!r}")
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        total = sum(counts[k] for k in ("refused", "same", "other", "failed"))
        cut = f"{counts['cut: LINK_CUT']}/{counts['cut']}"
        print(f"{name:38} {total:6} {counts['refused']:7} {counts['same']:5} {counts['other']:5} {cut:>13} "
              f"{counts['failed']:6}")
        failures += counts["failed"]
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
