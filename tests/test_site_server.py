"""The site's file server (build.SiteServer: `build.py --serve`, the browser tests, the start-up benchmark)."""

from __future__ import annotations

import http.client
import threading
from pathlib import Path

import pytest

import build


def test_a_page_asking_for_many_files_at_once_is_let_in_before_the_server_answers(tmp_path: Path) -> None:
    """A page's start opens some 30 connections at once: the server's listen backlog takes them all, where
    socketserver's default of 5 leaves the kernel dropping the rest (the browser retries a second later)."""
    for number in range(40):
        (tmp_path / f"f{number}.txt").write_text(str(number), encoding="utf-8")
    server = build.site_server(tmp_path)  # listening, not yet accepting
    port = server.server_address[1]
    connections = [http.client.HTTPConnection("127.0.0.1", port, timeout=2) for _ in range(40)]
    serving = threading.Thread(target=server.serve_forever, daemon=True)
    try:
        for connection in connections:
            connection.connect()  # times out where the backlog is full
        serving.start()
        for number, connection in enumerate(connections):
            connection.request("GET", f"/f{number}.txt")
            assert connection.getresponse().read() == str(number).encode()
    finally:
        for connection in connections:
            connection.close()
        if serving.is_alive():
            server.shutdown()
        server.server_close()


def test_a_browser_leaving_mid_file_is_not_reported_but_other_errors_are(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server = build.site_server(tmp_path)
    try:
        try:
            raise BrokenPipeError(32, "Broken pipe")
        except BrokenPipeError:
            server.handle_error(None, ("127.0.0.1", 1))
        assert capsys.readouterr().err == ""
        try:
            raise ValueError("a fault of the server's own")
        except ValueError:
            server.handle_error(None, ("127.0.0.1", 1))
        assert "a fault of the server's own" in capsys.readouterr().err
    finally:
        server.server_close()
