"""What drawing the maps costs: CPU seconds per board of `adjutant_maps.build_maps`, and that the SVGs are
the same as a drawing kept from before a change.

    .venv/bin/python benchmarks/maps.py [--out FOLDER] [--compare FOLDER] [--profile FOLDER] [board ...]

Draws the boards (default: every drawn and shared variant) with `build_maps` into --out (default: a
temporary folder) in one process, as the site's build does, and prints each board's CPU time
(`time.process_time()` around `render_variant`; the first board drawn also pays for reading the land mask)
and the whole run's. --compare names a folder of SVGs drawn before (by this script's --out, or
`build_maps`): every SVG drawn is compared byte for byte with the one of the same name there, and the run
fails naming those that differ. --profile writes a cProfile of each board's drawing (in CPU time) to
FOLDER/<board>.prof.
Figures in docs/performance.md ("The renderer's share").
"""

from __future__ import annotations

import argparse
import cProfile
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "py"))

import adjutant_maps  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("boards", nargs="*", help="variants to draw (default: all)")
    parser.add_argument("--out", type=Path, help="where the SVGs go (default: a temporary folder)")
    parser.add_argument("--compare", type=Path, help="a folder of SVGs drawn before, to compare with")
    parser.add_argument("--profile", type=Path, help="write a cProfile of each board to this folder")
    args = parser.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="maps-"))
    seconds: dict[str, float] = {}
    draw = adjutant_maps.render_variant

    def timed(variant_id: str, shown: str | None = None) -> Any:
        profile = cProfile.Profile(time.process_time) if args.profile else None
        start = time.process_time()
        if profile:
            profile.enable()
        result = draw(variant_id, shown)
        if profile:
            profile.disable()
            args.profile.mkdir(parents=True, exist_ok=True)
            profile.dump_stats(args.profile / f"{variant_id}.prof")
        seconds[variant_id] = time.process_time() - start
        return result

    adjutant_maps.render_variant = timed  # build_maps draws through this name
    start = time.process_time()
    written = adjutant_maps.build_maps(out, args.boards or None)
    total = time.process_time() - start
    for board, taken in seconds.items():
        print(f"{board:14} {taken:7.1f} s CPU")
    print(f"{'total':14} {total:7.1f} s CPU ({len(written)} SVG files in {out}; load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())})")
    if args.compare is None:
        return 0
    kept = {p.name: args.compare / p.name for p in written}
    differ = [p.name for p in written if not kept[p.name].is_file() or p.read_bytes() != kept[p.name].read_bytes()]
    print(f"compared with {args.compare}: " + (f"DIFFERENT: {', '.join(differ)}" if differ else "all identical"))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
