"""Where a revisit's CPU goes, and whether its WebAssembly comes from V8's code cache.

    .venv/bin/python benchmarks/revisit_cpu.py [--runs 3] [--linger MS] [--site FOLDER] [--trace]

Each run is startup.py's revisit of Adjutant: a fresh profile, a first visit and a reload (each page kept
open --linger ms once Python is ready, 0 by default as in startup.py), the browser closed and started
again, the page opened at once. It prints when Python was ready, and the CPU time every Chromium thread
ran from the browser's start to that moment (Linux: /proc/<pid>/task/<tid>/schedstat), by process (each
renderer on its own, largest first: the page's, and the browser's own, such as its omnibox popup) and by
thread name. With --trace the revisit is traced from the browser's start (Chromium's --trace-startup, as
JSON, the WebAssembly categories only) and it also prints whether V8 read the module's code cache
(wasm.Deserialize) and how many functions Liftoff compiled. Linux only. Figures and what they showed:
docs/performance-startup.md ("a revisit fills both cores").
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from chromium import CHROMIUM  # noqa: E402 - tests/ is on the path only now
from chromium import CHROMIUM_FLAGS as FLAGS  # noqa: E402
from startup import KEPT  # noqa: E402 - benchmarks/ is on the path only now

import build  # noqa: E402 - the repository root is on the path only now

TRACED = "v8.wasm,disabled-by-default-v8.wasm.detailed"
READY = "html[data-python-ready]"

#: Milliseconds each Chromium thread has run, keyed by (process, thread name)
Usage = dict[tuple[str, str], float]


def chromium_threads() -> Usage:
    """The CPU time each running Chromium thread has used so far, keyed by its process (its --type, and
    for a renderer its pid) and its thread name (numbers dropped: a pool's threads count as one)."""
    used: Usage = collections.Counter()
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            words = cmdline.read_bytes().replace(b" ", b"\0").split(b"\0")
        except OSError:
            continue
        if not words or b"chromium" not in words[0]:
            continue
        pid = cmdline.parent.name
        kind = next((w[7:].decode() for w in words if w.startswith(b"--type=")), "browser")
        process = f"renderer {pid}" if kind == "renderer" else kind
        for stat in cmdline.parent.glob("task/*/schedstat"):
            try:
                nanoseconds = int(stat.read_text().split()[0])
                name = (stat.parent / "comm").read_text().strip()
            except (OSError, ValueError, IndexError):
                continue
            used[(process, re.sub(r"\d+$", "", name))] += nanoseconds / 1e6
    return used


def cache_use(trace: Path) -> tuple[int, int]:
    """From a startup trace: how many times V8 deserialized a module from its code cache, and how many
    functions Liftoff compiled."""
    events = json.loads(trace.read_text(encoding="utf-8"))["traceEvents"]
    names = collections.Counter(event.get("name") for event in events)
    return names["wasm.Deserialize"], names["wasm.CompileBaseline"]


def revisit(playwright: Any, url: str, linger: int, trace: Path | None) -> tuple[float, Usage]:
    options: dict[str, Any] = {"executable_path": CHROMIUM, "args": FLAGS, "viewport": {"width": 1280, "height": 800}}
    with tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(profile, **options)
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector(READY, state="attached", timeout=120_000)
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=120_000)
        page.wait_for_function(KEPT, timeout=120_000)
        page.wait_for_timeout(linger)
        page.reload()
        page.wait_for_selector(READY, state="attached", timeout=120_000)
        page.wait_for_timeout(linger)
        context.close()
        if trace is not None:
            options["args"] = [*FLAGS, f"--trace-startup={TRACED}", f"--trace-startup-file={trace}",
                               "--trace-startup-duration=5", "--trace-startup-format=json"]
        context = playwright.chromium.launch_persistent_context(profile, **options)
        before = chromium_threads()
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector(READY, state="attached", timeout=120_000)
        after = chromium_threads()
        ready = float(page.evaluate("window.adjutantShell.marks.pythonReady"))
        if trace is not None:
            page.wait_for_timeout(6_000)  # the trace is written once its 5 s are over
        context.close()
    return ready, {key: used - before.get(key, 0.0) for key, used in after.items()}


def report(ready: float, used: Usage) -> None:
    by_process: dict[str, list[tuple[float, str]]] = collections.defaultdict(list)
    for (process, thread), ms in used.items():
        by_process[process].append((ms, thread))
    total = sum(used.values())
    print(f"Python ready at {ready:.0f} ms; Chromium's CPU from the browser's start: {total:.0f} ms")
    for process, threads in sorted(by_process.items(), key=lambda item: -sum(ms for ms, _ in item[1])):
        threads.sort(reverse=True)
        shown = ", ".join(f"{name} {ms:.0f}" for ms, name in threads if ms >= 5)
        print(f"  {process}: {sum(ms for ms, _ in threads):.0f} ms ({shown})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="revisits, each in a fresh profile (default 3)")
    parser.add_argument("--linger", type=int, default=0, help="ms each earlier visit stays open (default 0)")
    parser.add_argument("--site", type=Path, help="a site built beforehand (build.py --out FOLDER)")
    parser.add_argument("--trace", action="store_true", help="also trace each revisit's WebAssembly")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        site = args.site or build.build(Path(folder) / "dist")
        with build.serving(site) as url, sync_playwright() as playwright:
            for number in range(args.runs):
                trace = Path(folder) / f"revisit-{number}.json" if args.trace else None
                ready, used = revisit(playwright, url, args.linger, trace)
                report(ready, used)
                if trace is not None:
                    deserialized, liftoff = cache_use(trace)
                    print(f"  code cache: {'read' if deserialized else 'not read'} ({deserialized} wasm.Deserialize); "
                          f"{liftoff} functions compiled by Liftoff")


if __name__ == "__main__":
    main()
