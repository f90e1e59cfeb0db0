"""A package index on loopback, serving real archives the way PyPI does (tests and bench/).

``/simple/<project>/`` is PEP 691 JSON (API 1.1: sha256, PEP 700 size and upload time, yanked)
when the ``Accept`` header asks for it, else PEP 503 HTML; ``/files/<filename>`` is the file.
Links are relative, as PyPI's need not be, so a client must resolve them against the page.
A release can be added or yanked while it runs: a corpus run's second plan sees the change.
"""

from __future__ import annotations

import hashlib
import html
import json
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any

from packaging.utils import canonicalize_name, parse_sdist_filename, parse_wheel_filename

from pypi import cache_dir, download, find_archive, locked

JSON_TYPE = "application/vnd.pypi.simple.v1+json"

#: Small real projects, three releases each, served by their sdists (each under 350 kB).
CORPUS_RELEASES: tuple[tuple[str, str], ...] = (
    ("click", "8.1.5"), ("click", "8.1.6"), ("click", "8.1.7"),
    ("idna", "3.5"), ("idna", "3.6"), ("idna", "3.7"),
    ("packaging", "23.0"), ("packaging", "23.1"), ("packaging", "23.2"),
)  # fmt: skip


def corpus_archives() -> list[Path]:
    """The sdists of ``CORPUS_RELEASES``, downloaded from PyPI into the test cache once."""
    cache = cache_dir()
    archives = []
    for name, version in CORPUS_RELEASES:
        with locked(cache / f"{canonicalize_name(name)}-{version}.sdist.lock"):
            archive = find_archive(cache, name, version, "sdist") or download(
                cache, name, version, sdist=True
            )
        archives.append(archive)
    return archives


@dataclass
class _Entry:
    path: Path
    project: str
    sha256: str
    size: int
    upload_time: str
    yanked: str | bool = False


class PackageIndex:
    """``with PackageIndex(files) as index:`` an index at ``index.url`` (the ``/simple`` base)."""

    def __init__(self, files: list[Path]) -> None:
        self._lock = threading.Lock()
        self._entries: dict[str, _Entry] = {}
        for path in files:
            self.add(path)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self.base = f"http://127.0.0.1:{self._server.server_address[1]}"
        self.url = f"{self.base}/simple"

    def __enter__(self) -> PackageIndex:
        self._thread.start()
        return self

    def __exit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()

    def add(self, path: Path) -> None:
        """Publish a file now: its upload time is this moment."""
        data = path.read_bytes()
        entry = _Entry(
            path=path,
            project=_project(path.name),
            sha256=hashlib.sha256(data).hexdigest(),
            size=len(data),
            upload_time=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
        )
        with self._lock:
            self._entries[path.name] = entry

    def yank(self, filename: str, reason: str | bool = True) -> None:
        with self._lock:
            self._entries[filename].yanked = reason or True

    def entry(self, filename: str) -> dict[str, Any]:
        """The file as the JSON page lists it."""
        with self._lock:
            return _json_file(self._entries[filename])

    def _files(self, project: str) -> list[_Entry]:
        with self._lock:
            return [e for e in self._entries.values() if e.project == project]

    def _file(self, filename: str) -> _Entry | None:
        with self._lock:
            return self._entries.get(filename)


def _project(filename: str) -> str:
    """The project a file belongs to; for a name no client can parse (``idna-latest.tar.gz``,
    served as old indexes do), what comes before its first dash."""
    try:
        if filename.endswith(".whl"):
            return str(parse_wheel_filename(filename)[0])
        return str(parse_sdist_filename(filename)[0])
    except ValueError:
        return canonicalize_name(filename.partition("-")[0])


def _json_file(entry: _Entry) -> dict[str, Any]:
    return {
        "filename": entry.path.name,
        "url": f"../../files/{entry.path.name}",
        "hashes": {"sha256": entry.sha256},
        "requires-python": None,
        "size": entry.size,
        "upload-time": entry.upload_time,
        "yanked": entry.yanked,
    }


def _handler(index: PackageIndex) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass  # quiet: a test's stderr is for its failures

        def do_GET(self) -> None:
            parts = self.path.split("?")[0].strip("/").split("/")
            if len(parts) == 2 and parts[0] == "simple":
                self._project(parts[1])
            elif len(parts) == 2 and parts[0] == "files" and (entry := index._file(parts[1])):
                self._send(200, "application/octet-stream", entry.path.read_bytes())
            else:
                self._send(404, "text/plain", b"not found\n")

        def _project(self, name: str) -> None:
            canonical = canonicalize_name(name)
            if canonical != name:  # PEP 503: redirect to the normalised name
                self.send_response(301)
                self.send_header("Location", f"/simple/{canonical}/")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            files = index._files(canonical)
            if not files:
                self._send(404, "text/plain", b"not found\n")
            elif JSON_TYPE in self.headers.get("Accept", ""):
                page = {
                    "meta": {"api-version": "1.1"},
                    "name": canonical,
                    "versions": sorted({v for e in files if (v := _version(e.path.name))}),
                    "files": [_json_file(e) for e in files],
                }
                self._send(200, JSON_TYPE, json.dumps(page).encode())
            else:
                self._send(200, "text/html", _html(canonical, files).encode())

        def _send(self, status: int, content_type: str, body: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    return Handler


def _version(filename: str) -> str | None:
    try:
        if filename.endswith(".whl"):
            return str(parse_wheel_filename(filename)[1])
        return str(parse_sdist_filename(filename)[1])
    except ValueError:
        return None


def _html(project: str, files: list[_Entry]) -> str:
    links = []
    for e in files:
        reason = "" if e.yanked is True else str(e.yanked)
        yanked = "" if e.yanked is False else f' data-yanked="{html.escape(reason)}"'
        href = html.escape(f"../../files/{e.path.name}#sha256={e.sha256}")
        links.append(f'<a href="{href}"{yanked}>{html.escape(e.path.name)}</a><br>')
    return f"<!DOCTYPE html><html><body><h1>Links for {project}</h1>{''.join(links)}</body></html>\n"
