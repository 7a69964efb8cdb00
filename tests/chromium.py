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
#: debug log (DEBUG=pw:browser, DEBUG_FILE); a failing browser test's report shows what it added.
CHROMIUM_LOG = Path(__file__).resolve().parents[1] / "test-artifacts" / "chromium.log"
