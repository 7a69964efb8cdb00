"""Download the board: a past phase with results, as PNG (1600 and 3200 px wide) and SVG, on a desktop and
on a phone; the PNG decodes, has the size asked for and is not blank; the SVG opens alone in Chromium,
with no error and no request."""

from __future__ import annotations

import base64
import struct
import zlib
from pathlib import Path
from typing import Any

import pytest
from app_driver import Site, adjudicate, enter_text, open_app, phase

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, once its image data has been decompressed whole (it decodes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, size = 8, b"", (0, 0)
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            size = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height = size
    raw = zlib.decompress(idat)
    assert len(raw) == height * (width * 4 + 1) or len(raw) == height * (width * 3 + 1)
    return width, height


def colours_in(page: Any, data: bytes) -> int:
    """How many distinct colours the browser finds in a sample of the PNG's pixels."""
    return int(page.evaluate("""async url => {
        const image = new Image(); image.src = url; await image.decode();
        const canvas = document.createElement('canvas'); canvas.width = 400; canvas.height = 300;
        const context = canvas.getContext('2d'); context.drawImage(image, 0, 0, 400, 300);
        const pixels = context.getImageData(0, 0, 400, 300).data; const seen = new Set();
        for (let i = 0; i < pixels.length; i += 4 * 37) seen.add(pixels[i] + ',' + pixels[i + 1] + ',' + pixels[i + 2]);
        return seen.size; }""", "data:image/png;base64," + base64.b64encode(data).decode()))


def download(page: Any, choice: str, tap: bool) -> Path:
    """Open "Download the board", choose ``choice`` and download it; the file's path."""
    press = (lambda selector: page.locator(selector).tap()) if tap else page.click
    press("#picture-open")
    assert page.locator("#picture-dialog").is_visible()
    page.check(f'input[name="picture-format"][value="{choice}"]')
    with page.expect_download(timeout=60_000) as made:
        press("#picture-download")
    path = Path(made.value.path())
    assert made.value.suggested_filename.startswith("adjutant-standard-F1901M.")
    page.wait_for_function("() => document.getElementById('picture-status').textContent.startsWith('Downloaded')")
    page.keyboard.press("Escape")
    return path


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_board_of_a_past_phase_downloads_as_png_and_svg(new_context: Any, browser: Any, site: Site,
                                                            device: str, tmp_path: Path) -> None:
    context, recorder = new_context(**(PHONE if device == "phone" else {}))
    page = open_app(context, site.url)
    enter_text(page, "France: A par - bur; A mar S A par - bur\nGermany: A mun - bur; F kie - den")
    adjudicate(page)
    enter_text(page, "France: A bur - mun")
    adjudicate(page)
    assert phase(page) == "W1901A"
    page.click("#hist-prev")  # Fall 1901, with the spring's results
    assert phase(page) == "F1901M"
    tap = device == "phone"
    first = download(page, "png-1600", tap)
    data = first.read_bytes()
    width, height = png_size(data)
    assert width == 1600 and 1000 < height < 2000
    assert colours_in(page, data) > 20
    assert png_size(download(page, "png-3200", tap).read_bytes())[0] == 3200
    svg = tmp_path / "board.svg"  # (under its name: a file's type, opened from disk, is its extension's)
    svg.write_bytes(download(page, "svg", tap).read_bytes())
    assert recorder.page_errors == [] and recorder.console_errors == []

    # the SVG alone, opened from disk in a fresh profile: no error, no request but for the file itself
    alone = browser.new_context()
    requests: list[str] = []
    errors: list[str] = []
    alone.on("request", lambda request: requests.append(request.url))
    viewer = alone.new_page()
    viewer.on("pageerror", lambda error: errors.append(str(error)))
    viewer.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    viewer.goto(svg.as_uri())
    viewer.wait_for_load_state("networkidle")
    assert requests == [svg.as_uri()] and errors == []
    drawn = viewer.evaluate("""() => [document.documentElement.localName,
        document.querySelectorAll('#adj-overlay .adj-order.result').length,
        document.querySelector('title').textContent]""")
    assert drawn[0] == "svg" and drawn[1] >= 4
    assert drawn[2] == "Standard Diplomacy \u2014 Fall 1901 movement (F1901M)"
    alone.close()
