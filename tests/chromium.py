"""Debian's Chromium as the tests and benchmarks start it (Playwright's own browsers are never used)."""

import os
from pathlib import Path

CHROMIUM = os.environ.get("ADJUTANT_CHROMIUM", "/usr/bin/chromium")
#: Headless, and without the background traffic that this machine's closed network would refuse.
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

#: Everything Chromium writes to its stderr (a renderer's crash report included) lands here, through Playwright's
#: debug log (DEBUG=pw:browser, DEBUG_FILE); a failing browser test's report shows what it added. Each worker
#: of a parallel run (pytest-xdist) has a log of its own: test-artifacts/chromium-gw0.log, ...
_WORKER = os.environ.get("PYTEST_XDIST_WORKER")
_LOG_NAME = f"chromium-{_WORKER}.log" if _WORKER else "chromium.log"
CHROMIUM_LOG = Path(__file__).resolve().parents[1] / "test-artifacts" / _LOG_NAME
