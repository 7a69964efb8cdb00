"""How long a group game's sealed orders codes are, and how long sealing and opening them takes.

    python benchmarks/sealed_codes.py [--samples 200] [--rounds 20]

Python (adjutant.group_play.codes) makes the payloads: every order of a power with nine units, picked at random
among the legal orders of positions from seeded random games (so supports and convoys are as common as
moves). Node 20 runs web/group.js itself (its Web Crypto is the same API as the browser's) to seal them
to a game master's key and open them again, and reports the codes' length in characters (with their
``orders~`` prefix) and the time to seal and to open nine codes, one per power, as a player's and the
game master's pages do. Target (issue 19): a code for a power with nine units in at most 300 characters.
Method and figures: docs/group-play.md.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import shutil
import statistics
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "py"))

from adjutant.game import Game  # noqa: E402
from adjutant.group_play import codes as group  # noqa: E402
from adjutant.legal import Candidates  # noqa: E402
from adjutant.randomgame import random_game  # noqa: E402

NODE_SCRIPT = r"""
import { readFileSync } from "node:fs";
globalThis.window = globalThis;
const root = process.argv[1];
new Function(readFileSync(root + "/web/seal.js", "utf8"))();
new Function(readFileSync(root + "/web/group.js", "utf8"))();
const G = globalThis.adjutantGroup;
const input = JSON.parse(readFileSync(0, "utf8"));
const bytes = (b64) => Uint8Array.from(Buffer.from(b64, "base64url"));
const made = await G.newGame("a benchmark passphrase");
const key = made.privateKey;
const codes = [];
for (const item of input.items) {
  codes.push(await G.sealOrders(made.publicKey, bytes(item.header), bytes(item.aad), bytes(item.plain)));
}
const seal = [], open = [];
for (let round = 0; round < input.rounds; round++) {
  const batch = input.items.slice(0, 9);
  let start = performance.now();
  const sealed = await Promise.all(batch.map((item) =>
    G.sealOrders(made.publicKey, bytes(item.header), bytes(item.aad), bytes(item.plain))));
  seal.push(performance.now() - start);
  start = performance.now();
  const opened = await Promise.all(sealed.map((code, i) =>
    G.openOrders(key, bytes(code), 10, bytes(batch[i].aad))));
  open.push(performance.now() - start);
  if (opened.some((p) => p === null)) throw new Error("a code did not open");
}
process.stdout.write(JSON.stringify({ codes, seal, open }));
"""


def nine_unit_positions(seed: int) -> Iterator[tuple[Game, str]]:
    """Movement phases of a seeded random Standard game where a power has nine units or more (the
    game is the same object, advanced: use each position before asking for the next)."""
    for game in random_game("standard", seed, 12):
        if game.phase.kind != "movement":
            continue
        counts: dict[str, int] = {}
        for unit in game.units.values():
            counts[unit.power] = counts.get(unit.power, 0) + 1
        for power, count in counts.items():
            if count >= 9:
                yield game, power


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=20)
    args = ap.parse_args()
    node = shutil.which("node")
    if node is None:
        sys.exit("Node 20 is needed (its Web Crypto runs web/group.js)")
    rng = random.Random(19)
    key = b"\x04" + bytes(64)  # the clear header and the additional data need a key; Node makes its own
    items, payloads, units = [], [], []
    seed = 0
    while len(items) < args.samples:
        seed += 1
        for game, power in itertools.islice(nine_unit_positions(seed), 5):
            c = Candidates(game.variant, game.units, game.phase.season)
            mine = sorted(p for p, u in game.units.items() if u.power == power)[:9]
            orders = [rng.choice(c.of(p)) for p in mine]
            payload = group.encode_orders(game, power, orders)
            header = group.header_for(game, key, power)
            items.append({
                "header": group.b64(header.pack()),
                "aad": group.b64(group.additional_data(header, game, key)),
                "plain": group.b64(group.plaintext(1_700_000_000_000, payload)),
            })
            payloads.append(len(payload))
            units.append(len(mine))
    request = json.dumps({"items": items[: args.samples], "rounds": args.rounds})
    command = [node, "--input-type=module", "-e", NODE_SCRIPT, str(ROOT)]
    done = subprocess.run(command, input=request, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"Node failed: {done.stderr.strip()[-2000:]}")
    result = json.loads(done.stdout)
    lengths = [len(group.CODE_PREFIX) + len(code) for code in result["codes"]]
    print(f"codes for a power with 9 units: {len(lengths)} samples; order payload bytes median "
          f"{statistics.median(payloads)}, max {max(payloads)}")
    print(f"code length (characters, with 'orders~'): min {min(lengths)}, median {statistics.median(lengths)}, "
          f"max {max(lengths)} (target <= 300)")
    print(f"seal 9 codes (Node {subprocess.run([node, '--version'], capture_output=True, text=True).stdout.strip()},"
          f" {args.rounds} rounds): median {statistics.median(result['seal']):.1f} ms, "
          f"max {max(result['seal']):.1f} ms")
    print(f"open 9 codes: median {statistics.median(result['open']):.1f} ms, max {max(result['open']):.1f} ms")


if __name__ == "__main__":
    main()
