"""What the page costs a browser test: the CPU Chromium spends opening Adjutant in a fresh context, as the
browser tests' `app` fixture does (tests/browser/conftest.py), by kind of Chromium process.

    .venv/bin/python benchmarks/browser_test_cpu.py [--runs 3] [--site FOLDER] [--same-context]
        [--block-service-workers] [--after SECONDS] [FLAG ...]

Serves the site (built now, or `--site`: one built beforehand, e.g. $ADJUTANT_TESTS_SHARED/site/dist),
starts Debian's Chromium as the tests do (plus any Chromium FLAGs given, e.g. --js-flags=--no-wasm-tier-up),
opens the app once to warm the browser, then `--runs` times: a new context (or, with --same-context, a new
page of one context), the app opened until Python is ready, 1 s more (`--after`), the context closed. It prints each
run's CPU seconds by process kind (the browser, the renderers, the GPU process, the network service, the
Playwright driver), read from /proc (each process's own time and that of the children it reaped, so the
renderers that ended count too), and its wall time. Linux only. Figures: docs/performance.md ("Tests and
CI time").
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "py"), str(ROOT / "tests"), str(ROOT / "tests" / "browser")]

from app_driver import open_app  # noqa: E402 - tests/browser is on the path only now
from chromium import CHROMIUM, CHROMIUM_FLAGS  # noqa: E402

import build  # noqa: E402 - the repository root is on the path only now

TICK = os.sysconf("SC_CLK_TCK")


def cpu_by_kind(root: int) -> collections.Counter[str]:
    """CPU seconds of every process below `root`, by kind (Chromium's --type; zygote: the renderers)."""
    children: dict[int, list[tuple[int, list[str], str]]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                stat = Path(f"/proc/{name}/stat").read_text()
                command = Path(f"/proc/{name}/cmdline").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2 :].split()
            children.setdefault(int(fields[1]), []).append((int(name), fields, command))
    found: collections.Counter[str] = collections.Counter()
    pending = [root]
    while pending:
        for pid, fields, command in children.get(pending.pop(), []):
            kind = re.search(r"--type=([a-z-]+)", command)
            service = re.search(r"--utility-sub-type=([\w.]+)", command)
            label = kind.group(1) if kind else Path(command.split("\0")[0]).name or "renderer"
            label = "renderer" if label == "zygote" else label  # (a zygote reaps the renderers it forked)
            found[label + (f" ({service.group(1)})" if service else "")] += sum(map(int, fields[11:15])) / TICK
            pending.append(pid)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--site", type=Path, help="a site built beforehand (default: build one now)")
    parser.add_argument("--same-context", action="store_true", help="a new page of one context each run")
    parser.add_argument("--block-service-workers", action="store_true", help="contexts without service workers")
    parser.add_argument("--after", type=float, default=1.0, help="seconds the page stays open once Python is ready")
    options, flags = parser.parse_known_args()
    from playwright.sync_api import sync_playwright

    site = options.site or build.build(Path(tempfile.mkdtemp()) / "dist")
    with build.serving(site) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=[*CHROMIUM_FLAGS, *flags])
        context_options: dict[str, object] = {"viewport": {"width": 1280, "height": 800}}
        if options.block_service_workers:
            context_options["service_workers"] = "block"
        kept = browser.new_context(**context_options)
        open_app(kept, url).close()
        for run in range(options.runs):
            before, start = cpu_by_kind(os.getpid()), time.perf_counter()
            context = kept if options.same_context else browser.new_context(**context_options)
            page = open_app(context, url)
            page.wait_for_timeout(options.after * 1000)
            page.close() if options.same_context else context.close()
            time.sleep(0.5)  # (the closed renderers reaped)
            spent = cpu_by_kind(os.getpid())
            spent.subtract(before)
            shown = ", ".join(f"{kind} {seconds:.2f}" for kind, seconds in spent.most_common() if seconds > 0.05)
            print(f"run {run + 1}: {sum(spent.values()):.2f} s CPU ({shown}); {time.perf_counter() - start:.1f} s wall")
        browser.close()


if __name__ == "__main__":
    main()
