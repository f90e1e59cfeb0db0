"""A throwaway PostgreSQL server, started as a user would start one: for the tests of the
PostgreSQL store, which must meet a real server (its locks, its text search, its errors).

``initdb`` into a temporary folder, ``postgres`` on a free loopback port with its socket in that
folder, and everything removed afterwards, whatever the tests did.  PostgreSQL refuses to run
as root, so as root the server runs as the ``postgres`` user Debian's package creates.  The
server programs come from ``scripts/postgres``; without them the fixture fails, never skips:
a skipped store test would pass a suite that tested nothing of it.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest

from servers import free_port

__all__ = ["PgServer", "pg_server", "pg_url", "postgres_server"]

_START_TIMEOUT_S = 60
_OWNER = "postgres"


class PgServer:
    """A running server: URLs of its databases, and fresh empty ones on demand."""

    def __init__(self, port: int) -> None:
        self.port = port
        self._numbers = itertools.count(1)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{_OWNER}@127.0.0.1:{self.port}/{database}"

    def create_database(self) -> str:
        """A new empty database (``tN``); its name."""
        name = f"t{next(self._numbers)}"
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        return name

    def drop_database(self, name: str) -> None:
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def server_bin() -> Path:
    """The newest installed PostgreSQL's programs, or a failure saying how to install them."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parent.parent.name)
    )
    if not found:
        pytest.fail(
            "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): run scripts/postgres",
            pytrace=False,
        )
    return Path(found[-1]).parent


def _as_owner(command: list[str]) -> list[str]:
    """``command`` as the user the server runs as: ``postgres`` under root, else this user."""
    return ["runuser", "-u", _OWNER, "--", *command] if os.geteuid() == 0 else command


@contextmanager
def postgres_server() -> Iterator[PgServer]:
    """A server for the block, stopped and deleted afterwards (also when the block fails)."""
    bin_dir = server_bin()
    root = Path(tempfile.mkdtemp(prefix="errdex-pg-"))
    data, log_path = root / "data", root / "server.log"
    server: subprocess.Popen[bytes] | None = None
    try:
        if os.geteuid() == 0:
            owner = pwd.getpwnam(_OWNER)
            os.chown(root, owner.pw_uid, owner.pw_gid)
        run = {"cwd": root, "capture_output": True, "text": True, "check": False}
        initdb = [str(bin_dir / "initdb"), "-D", str(data), "-U", _OWNER, "--auth=trust"]
        done = subprocess.run(_as_owner([*initdb, "-E", "UTF8", "--locale=C", "--no-sync"]), **run)  # type: ignore[call-overload]
        if done.returncode != 0:
            raise RuntimeError(f"initdb failed:\n{done.stdout}{done.stderr}")
        port = free_port()
        with log_path.open("wb") as log:
            server = subprocess.Popen(
                _as_owner([
                    str(bin_dir / "postgres"), "-D", str(data), "-k", str(root), "-p", str(port),
                    "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off",
                    "-c", "full_page_writes=off", "-c", "max_connections=100",
                ]),
                cwd=root, stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip
        pg = PgServer(port)
        _wait_ready(pg, server, log_path)
        yield pg
    finally:
        if server is not None:
            _stop(bin_dir, data, server)
        shutil.rmtree(root, ignore_errors=True)


def _wait_ready(pg: PgServer, server: subprocess.Popen[bytes], log_path: Path) -> None:
    """Until the server takes connections and has ``pg_trgm`` to offer; else why not."""
    deadline = time.monotonic() + _START_TIMEOUT_S
    while True:
        if server.poll() is not None:
            raise RuntimeError(
                f"postgres exited ({server.returncode}):\n{log_path.read_text(errors='replace')}"
            )
        try:
            with psycopg.connect(pg.url(), connect_timeout=2, autocommit=True) as admin:
                row = admin.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm'").fetchone()
            break
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"postgres did not start:\n{log_path.read_text(errors='replace')}"
                ) from None
            time.sleep(0.1)
    if row is None:
        pytest.fail("this PostgreSQL has no pg_trgm extension: run scripts/postgres", pytrace=False)


def _stop(bin_dir: Path, data: Path, server: subprocess.Popen[bytes]) -> None:
    """A fast shutdown (clients disconnected, no checkpoint wait); a kill if it hangs."""
    subprocess.run(
        _as_owner([str(bin_dir / "pg_ctl"), "stop", "-D", str(data), "-m", "fast", "-w", "-t", "30"]),
        cwd=data.parent, capture_output=True, check=False,
    )  # fmt: skip
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One server for the whole session."""
    with postgres_server() as pg:
        yield pg


@pytest.fixture
def pg_url(pg_server: PgServer) -> Iterator[str]:
    """The URL of a fresh empty database of its own for each test."""
    name = pg_server.create_database()
    try:
        yield pg_server.url(name)
    finally:
        pg_server.drop_database(name)
