"""No text reaches the page as markup. PyScript runs any ``<script type="py">`` or ``<py-script>`` element
that appears in the document, whatever the Content-Security-Policy says, so one HTML sink fed with text
from a link or file would run Python of the attacker's choosing. The page builds its DOM with
``createElement``/``textContent`` only; this test keeps it so (docs/security.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: every way to turn a string into markup in a page (DOM properties and methods, and their Python spellings)
SINKS = re.compile(
    r"innerHTML|outerHTML|insertAdjacentHTML|document\s*\.\s*write|\.writeln\s*\(|createContextualFragment"
    r"|srcdoc|setHTMLUnsafe|parseHTMLUnsafe|\bjs\.eval\b|\bnew\s+Function\b|\beval\s*\("
    # JS source evaluated at run time: the page's policy has no 'unsafe-eval' (docs/security.md)
    r"|\brun_js\b|\bFunction\s*\("
)
#: the one markup parser the page uses: web/shell.js reads the map (an SVG built by build.py, served by the
#: site itself) with DOMParser as "image/svg+xml"; scripts in a parsed document never run
DOM_PARSER = re.compile(r"DOMParser")


def page_sources() -> list[Path]:
    files = [ROOT / "index.html", ROOT / "build.py"]
    files += sorted((ROOT / "web").glob("*.js"))
    files += sorted((ROOT / "py" / "adjutant_ui").glob("*.py"))
    files += sorted((ROOT / "py" / "adjutant").glob("*.py"))
    return files


def sinks_in(text: str) -> list[str]:
    return [m.group(0) for m in SINKS.finditer(text)]


def test_the_scan_finds_each_kind_of_sink() -> None:
    for line in (
        "el.innerHTML = text",
        "element.outerHTML=x",
        "node.insertAdjacentHTML('beforeend', t)",
        "document.write(t)",
        "document .write(t)",
        "range.createContextualFragment(t)",
        "frame.srcdoc = t",
        "_id('x').innerHTML = str(value)",
        "js.eval(code)",
        "from pyodide.code import run_js",
        "window.Function('return 1')()",
    ):
        assert sinks_in(line), line
    assert not sinks_in("item.textContent = str(problem); element.replaceChildren()")


@pytest.mark.parametrize("path", page_sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_page_source_turns_text_into_markup(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert sinks_in(text) == [], f"{path.relative_to(ROOT)} writes markup from a string"
    if path.name != "shell.js":
        assert not DOM_PARSER.search(text)


def test_the_map_is_the_only_parsed_markup_and_is_parsed_as_svg() -> None:
    shell = (ROOT / "web" / "shell.js").read_text(encoding="utf-8")
    uses = [line.strip() for line in shell.splitlines() if DOM_PARSER.search(line)]
    assert uses == ['const parsed = new DOMParser().parseFromString(text, "image/svg+xml");']
