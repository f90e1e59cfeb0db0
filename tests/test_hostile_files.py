"""Filesystem oddities in a mined tree or an environment: skipped with a reason, never a crash or a hang.

Everything that could block (a FIFO) or loop runs in a child process with a timeout, so a
regression fails the test instead of hanging the suite; the child is killed on timeout.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.errors import ErrdexError
from errdex.mine import mine
from errdex.mine.sources import describe

SHA = "0123456789abcdef0123456789abcdef01234567"
TIMEOUT = 60
GOOD = 'raise ValueError("still mined")\n'

#: Mines argv[1] as acme/widgets and prints what came of it, as JSON.
_MINE = """
import json, sys
from errdex.mine import mine
result = mine(sys.argv[1], repo="acme/widgets", sha=sys.argv[2], jobs=1)
print(json.dumps({
    "skipped": {s.path: s.reason for s in result.skipped},
    "records": sorted(r.file_path for r in result.records),
    "kind": result.info.kind,
}))
"""

#: Indexes an environment whose site-packages is argv[1] (and whose standard library is the
#: empty argv[2]) into the store argv[3], as ``errdex index`` does after probing the interpreter.
_INDEX = """
import json, sys
from pathlib import Path
from errdex.envindex import refresh
from errdex.mine.environment import Environment
from errdex.store import open_store
site, stdlib, db = (Path(a) for a in sys.argv[1:4])
env = Environment(sys.executable, site.parent, "3.11.0", stdlib, (site,))
with open_store(db) as store:
    done = refresh(store, env, jobs=1)
    records = sorted((r.package, r.file_path) for r in store.records() if r.package != "python")
print(json.dumps({
    "skipped": sorted([where, s.path, s.reason] for where, s in done.skipped),
    "mined": sorted(info.package for info in done.mined if info.package != "python"),
    "records": records,
}))
"""


def child(code: str, *args: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=TIMEOUT, check=False
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def mined(root: Path) -> dict[str, object]:
    return child(_MINE, str(root), SHA)


@pytest.fixture
def fifos() -> Iterator[list[Path]]:
    """FIFOs a test makes, removed after it, so none is left for anything to open."""
    made: list[Path] = []
    yield made
    for path in made:
        path.unlink(missing_ok=True)


def mkfifo(path: Path, made: list[Path]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    made.append(path)


def test_symlink_loops_and_dangling_links_are_skipped_and_valid_links_still_mined(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "real.py").write_text(GOOD)
    (pkg / "loop.py").symlink_to("loop.py")
    (pkg / "ping.py").symlink_to("pong.py")
    (pkg / "pong.py").symlink_to("ping.py")
    (pkg / "gone.py").symlink_to("nowhere.py")
    (pkg / "alias.py").symlink_to("real.py")  # inside the tree: read as before
    (pkg / "again").symlink_to("..", target_is_directory=True)  # a directory loop: never walked
    result = mined(tmp_path)
    assert result["skipped"] == {
        "pkg/loop.py": "symlink loop",
        "pkg/ping.py": "symlink loop",
        "pkg/pong.py": "symlink loop",
        "pkg/gone.py": "dangling symlink",
    }
    assert result["records"] == ["pkg/alias.py", "pkg/real.py"]


def test_a_symlink_loop_in_site_packages_is_skipped_and_fifo_metadata_does_not_block(
    tmp_path: Path, fifos: list[Path]
) -> None:
    site, stdlib = tmp_path / "site-packages", tmp_path / "stdlib"
    (site / "pkg").mkdir(parents=True)
    stdlib.mkdir()
    (site / "pkg" / "__init__.py").write_text(GOOD)
    (site / "pkg" / "loop.py").symlink_to("loop.py")
    info = site / "pkg-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: pkg\nVersion: 1.0\n")
    (info / "RECORD").write_text("pkg/__init__.py,,\npkg/loop.py,,\n")
    (site / "loop-1.0.dist-info").symlink_to("loop-1.0.dist-info")
    (site / "blocked-1.0.dist-info").mkdir()
    mkfifo(site / "blocked-1.0.dist-info" / "METADATA", fifos)
    listless = site / "listless-1.0.dist-info"
    listless.mkdir()
    (listless / "METADATA").write_text("Metadata-Version: 2.1\nName: listless\nVersion: 1.0\n")
    mkfifo(listless / "RECORD", fifos)

    result = child(_INDEX, str(site), str(stdlib), str(tmp_path / "env.db"))
    assert result["skipped"] == [
        [
            "metadata",
            str(site / "blocked-1.0.dist-info"),
            "metadata cannot be read: not a regular file (a FIFO)",
        ],
        ["pkg", "pkg/loop.py", "symlink loop"],
    ]
    assert result["mined"] == ["listless", "pkg"]
    assert result["records"] == [["pkg", "pkg/__init__.py"]]


def test_a_fifo_named_like_a_source_is_skipped_not_read(tmp_path: Path, fifos: list[Path]) -> None:
    (tmp_path / "m.py").write_text(GOOD)
    mkfifo(tmp_path / "x.py", fifos)
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(tmp_path / "s.py"))
        result = mined(tmp_path)
    assert result["skipped"] == {
        "x.py": "not a regular file (a FIFO)",
        "s.py": "not a regular file (a socket)",
    }
    assert result["records"] == ["m.py"]


@pytest.mark.parametrize("fifo", ["HEAD", "config"])
def test_git_metadata_that_is_a_fifo_leaves_its_fact_unknown(
    tmp_path: Path, fifos: list[Path], fifo: str
) -> None:
    (tmp_path / "m.py").write_text(GOOD)
    git = tmp_path / ".git"
    (git / "refs" / "heads").mkdir(parents=True)
    (git / "HEAD").write_text("ref: refs/heads/main\n")
    (git / "refs" / "heads" / "main").write_text(SHA + "\n")
    (git / "config").write_text('[remote "origin"]\n\turl = git@github.com:acme/widgets.git\n')
    (git / fifo).unlink()
    mkfifo(git / fifo, fifos)
    result = mined(tmp_path)  # --repo and --sha given: what git says is only read, and must not block
    assert result["kind"] == "checkout"
    assert result["records"] == ["m.py"]


@pytest.mark.parametrize("name", ["a\nb.py", "dir\nname/m.py", "\udcff.py"])
def test_a_file_name_no_permalink_can_carry_is_skipped_and_the_rest_mined(tmp_path: Path, name: str) -> None:
    (tmp_path / "m.py").write_text(GOOD)
    path = tmp_path / name
    path.parent.mkdir(exist_ok=True)
    path.write_text('raise ValueError("unreachable name")\n')
    result = mined(tmp_path)
    assert result["records"] == ["m.py"]
    assert isinstance(result["skipped"], dict)
    [(shown, reason)] = result["skipped"].items()
    assert "\n" not in shown and "\\" in shown  # escaped, so a report stays one line
    assert reason in ("file name holds '\\n', which no path or permalink can carry", "file name is not UTF-8")


@pytest.mark.parametrize("huge", ["refs/heads/main", "packed-refs", "config"])
def test_oversized_git_metadata_is_not_read_and_its_fact_is_unknown(tmp_path: Path, huge: str) -> None:
    git = tmp_path / ".git"
    (git / "refs" / "heads").mkdir(parents=True)
    (git / "HEAD").write_text("ref: refs/heads/main\n")
    big = git / huge
    with big.open("wb") as f:
        f.truncate(300 * 2**20)  # sparse: 300 MB long, no disk used
    tracemalloc.start()
    try:
        origin = describe(tmp_path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (origin.kind, origin.sha, origin.repo) == ("checkout", None, None)
    assert peak < 2**20, f"read {peak} bytes of a 300 MB {huge}"


@pytest.mark.parametrize("repo", ["../..", "acme/..", "./widgets", "acme/.", "-acme/widgets"])
def test_a_repo_that_would_break_the_permalink_is_refused(tmp_path: Path, repo: str) -> None:
    (tmp_path / "m.py").write_text(GOOD)
    db = str(tmp_path / "x.db")
    done = subprocess.run(
        [sys.executable, "-m", "errdex", "mine", str(tmp_path), "--repo", repo, "--sha", SHA, "--db", db],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert done.returncode != 0
    assert done.stderr.strip() == f"errdex: error: --repo must look like OWNER/NAME, not {repo!r}"
    with pytest.raises(ErrdexError, match="OWNER/NAME"):  # the Python API checks the same
        mine(tmp_path, repo=repo, sha=SHA, jobs=1)


def test_a_hash_or_question_mark_in_a_file_name_is_percent_encoded_in_the_permalink(tmp_path: Path) -> None:
    (tmp_path / "a#b?c d.py").write_text(GOOD)
    [record] = mine(tmp_path, repo="acme/widgets", sha=SHA, jobs=1).records
    assert record.file_path == "a#b?c d.py"
    assert record.github_url.startswith(f"https://github.com/acme/widgets/blob/{SHA}/a%23b%3Fc%20d.py#L1-L")
