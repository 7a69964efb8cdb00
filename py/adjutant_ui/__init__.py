"""Adjutant's in-browser UI: the only package that imports `pyscript` and `js`.

:mod:`adjutant_ui.session`, :mod:`adjutant_ui.sealed` (games with secrets: the sealed link) and
:mod:`adjutant_ui.compass` (where an arrow key goes on the map) are plain Python (tested under
CPython); :mod:`adjutant_ui.app` and :mod:`adjutant_ui.board` drive the page and run only inside Pyodide
(web/seal.js does the encryption, by Web Crypto).
"""

from __future__ import annotations


def start(view: str = "play") -> None:
    """Run the UI in the page (called from index.html's <script type="py">); view is "play" or "embed"."""
    from .app import run

    run(view)
