"""A folder served over HTTP on 127.0.0.1, recording the paths asked for (a package mirror)."""

from __future__ import annotations

import functools
import http.server
import re
import threading
from pathlib import Path
from types import TracebackType


class WheelServer:
    """``with WheelServer(folder) as server:`` serves ``folder`` at ``server.url``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.requests: list[str] = []
        requests = self.requests

        class Handler(http.server.SimpleHTTPRequestHandler):
            def do_GET(self) -> None:
                requests.append(self.path)
                super().do_GET()

            def log_message(self, format: str, *args: object) -> None:
                pass

        self._server = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(Handler, directory=str(folder)))
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> WheelServer:
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 trace: TracebackType | None) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


def simple_index(folder: Path, wheels: list[Path]) -> None:
    """A PEP 503 index of ``wheels`` under ``folder/simple/`` (files in ``folder/files/``)."""
    files = folder / "files"
    files.mkdir(parents=True, exist_ok=True)
    projects: dict[str, list[str]] = {}
    for wheel in wheels:
        (files / wheel.name).symlink_to(wheel.resolve())
        project = re.sub(r"[-_.]+", "-", wheel.name.split("-")[0]).lower()
        projects.setdefault(project, []).append(wheel.name)
    for project, names in projects.items():
        page = folder / "simple" / project / "index.html"
        page.parent.mkdir(parents=True)
        links = "".join(f'<a href="../../files/{name}">{name}</a>\n' for name in names)
        page.write_text(f"<!DOCTYPE html>\n<html><body>\n{links}</body></html>\n",
                        encoding="utf-8")
