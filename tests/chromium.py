"""Debian's Chromium as the tests and benchmarks start it (Playwright's own browsers are never used)."""

import os

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
