"""Downloading a planned artifact and unpacking it, both bounded, both checked.

What fails here is either the package's fault or the host's, and a corpus run treats them
differently (``store.artifacts.FailureKind``): a package's failure cools off before a retry, a
host's is retried at once.  So the package's faults (a checksum or size that does not match,
a missing file, a corrupt or hostile archive, an archive over the caps) are ``ArtifactError``;
the host's (no space, no memory, the network down, an index answering 503) leave as the
``OSError`` they are (``urllib.error.URLError`` is one).
"""

from __future__ import annotations

import bz2
import errno
import gzip
import hashlib
import http.client
import lzma
import os
import shutil
import stat
import struct
import tarfile
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import IO, Any, cast

from errdex.corpus.plan import is_plain_filename
from errdex.errors import ErrdexError
from errdex.store.artifacts import Artifact

CHUNK = 1 << 20
#: No header of a real archive comes near this; tarfile reads a pax or GNU long-name header
#: whole, so a hostile one claiming gigabytes would otherwise be read into memory.
MAX_HEADER_READ = 64 << 20
#: The archive's fault when extracting fails with these: a name too long or not encodable,
#: a file where its directory should be (or the other way round), the same name twice.
_PACKAGE_ERRNOS = frozenset(
    {errno.ENAMETOOLONG, errno.EILSEQ, errno.EEXIST, errno.EISDIR, errno.ENOTDIR, errno.ELOOP,
     errno.EINVAL, errno.ENOTEMPTY}
)  # fmt: skip
#: What a corrupt archive raises: zipfile's encrypted or unknown-method members are
#: ``RuntimeError`` and ``NotImplementedError``.
_CORRUPT = (
    tarfile.TarError, zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, lzma.LZMAError, EOFError,
    RuntimeError, NotImplementedError, UnicodeError, ValueError, struct.error,
)  # fmt: skip
_TAR_OPENERS: dict[str, Any] = {
    ".tar.gz": gzip.open, ".tgz": gzip.open, ".tar.bz2": bz2.open, ".tar.xz": lzma.open,
    ".tar": open,
}  # fmt: skip


class ArtifactError(ErrdexError):
    """The artifact's own fault: retrying soon on the same file would fail the same way."""


def download(
    artifact: Artifact, dest_dir: Path, *, timeout: float = 60.0, max_bytes: int = 500_000_000
) -> Path:
    """``dest_dir/<filename>``, downloaded from the artifact's http(s) or file URL.

    Streamed to a temporary file beside it, hashed as it goes, checked against the index's
    size and sha256, then renamed into place: no half-written or unverified file ever has the
    artifact's name.  An artifact without a sha256 is checked for size only.  A 404 or 410 is
    the artifact's fault; other HTTP statuses and network failures are ``OSError`` (the
    index's or the host's), as is a full disk.
    """
    if not is_plain_filename(artifact.filename):
        raise ArtifactError(f"{artifact.filename!r} is not a plain file name")
    expected = artifact.size
    if expected is not None and expected > max_bytes:
        raise ArtifactError(f"{artifact.filename} is {expected} bytes, over the {max_bytes}-byte limit")
    limit = max_bytes if expected is None else expected
    target = dest_dir / artifact.filename
    fd, temp = tempfile.mkstemp(prefix=f".{artifact.filename}.", suffix=".part", dir=dest_dir)
    try:
        with os.fdopen(fd, "wb") as out, _opened(artifact.url, timeout) as source:
            digest, size = hashlib.sha256(), 0
            # One byte past the limit tells "too long" from "just right".
            while size <= limit and (chunk := source.read(min(CHUNK, limit + 1 - size))):
                digest.update(chunk)
                out.write(chunk)
                size += len(chunk)
        if size > max_bytes:
            raise ArtifactError(f"{artifact.filename} is over the {max_bytes}-byte limit")
        if expected is not None and size != expected:
            got = f"more than {expected}" if size > expected else str(size)
            raise ArtifactError(f"{artifact.filename}: size expected {expected} bytes, got {got}")
        if artifact.sha256 is not None and digest.hexdigest() != artifact.sha256.lower():
            raise ArtifactError(
                f"{artifact.filename}: sha256 expected {artifact.sha256.lower()}, got {digest.hexdigest()}"
            )
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return target


@contextmanager
def _opened(url: str, timeout: float) -> Iterator[IO[bytes]]:
    """The artifact's bytes as a stream; a missing file (404, 410, no such path) is its fault."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme == "file":
        if parts.netloc not in ("", "localhost"):
            raise ArtifactError(f"{url}: a file URL on another host")
        with _regular_file(urllib.request.url2pathname(parts.path), url) as file:
            yield file
        return
    if parts.scheme not in ("http", "https"):
        raise ArtifactError(f"{url}: errdex downloads only http(s) and file URLs")
    try:
        response = urllib.request.urlopen(url, timeout=timeout)
    except urllib.error.HTTPError as exc:
        if exc.code in (404, 410):
            raise ArtifactError(f"{url}: HTTP {exc.code} {exc.reason}") from None
        raise
    except http.client.HTTPException as exc:  # a garbled answer: the server's, not the file's
        raise ConnectionError(f"{url}: {exc!r}") from exc
    with response:
        try:
            yield response
        except http.client.HTTPException as exc:  # IncompleteRead: the connection, not the file
            raise ConnectionError(f"{url}: {exc!r}") from exc


def _regular_file(path: str, url: str) -> IO[bytes]:
    """The file, opened only if regular: a FIFO would block, a device never end."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise ArtifactError(f"{url}: no such file") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise ArtifactError(f"{url}: not a regular file")
    return os.fdopen(fd, "rb")


def unpack(archive: Path, dest_dir: Path, *, max_files: int = 50_000, max_bytes: int = 2_000_000_000) -> Path:
    """Extract ``archive`` into ``dest_dir`` (new or empty), and the directory to mine in it.

    An sdist's is its single top-level directory (``pkg-1.0/``); a wheel's, the extraction
    root, which holds the packages and ``*.dist-info`` (``mine.sources.describe`` reads either).
    Work is bounded: more than ``max_files`` members or ``max_bytes`` bytes is an
    ``ArtifactError``, checked before each member is written (a tar member's size is what
    tarfile copies, no more; a zip's sizes are checked from its headers, then counted as it
    decompresses, and a header that understates fails the member's CRC).  So is a member that
    would land outside ``dest_dir`` (an absolute path, ``..``), a link leading out, a device
    or FIFO.  A tar's links that stay inside are left out, not extracted: the ``data`` filter
    of Pythons before 3.11.13 can be led out by chains of links (CVE-2025-4517), and a link
    inside only names a file that is mined anyway.  A zip's symlinks are refused.  On failure
    ``dest_dir`` is emptied again.
    """
    dest_dir.mkdir(parents=True, exist_ok=True)
    if any(dest_dir.iterdir()):
        raise ValueError(f"unpack needs a new or empty directory, not {dest_dir}")
    name = archive.name.lower()
    try:
        if name.endswith((".zip", ".whl")):
            _unzip(archive, dest_dir, max_files, max_bytes)
        elif opener := next((o for suffix, o in _TAR_OPENERS.items() if name.endswith(suffix)), None):
            _untar(opener, archive, dest_dir, max_files, max_bytes)
        else:
            raise ArtifactError(f"{archive.name}: not an archive errdex unpacks (.tar.gz, .zip, .whl)")
    except BaseException as exc:
        _empty(dest_dir)
        if _archive_fault(exc):
            raise ArtifactError(f"{archive.name}: corrupt or hostile archive ({_why(exc)})") from exc
        raise
    if name.endswith(".whl"):
        return dest_dir
    entries = list(dest_dir.iterdir())
    if len(entries) == 1 and entries[0].is_dir() and not entries[0].is_symlink():
        return entries[0]
    return dest_dir


def _archive_fault(exc: BaseException) -> bool:
    """Whether a failure to extract is the archive's: its format or contents, not the host.

    bz2 and gzip report corrupt data as an ``OSError`` without an errno; the host's own
    failures (no space, no memory, too many open files) carry one.
    """
    if isinstance(exc, OSError):
        return exc.errno is None or exc.errno in _PACKAGE_ERRNOS
    return isinstance(exc, _CORRUPT)


def _why(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _empty(directory: Path) -> None:
    for child in directory.iterdir():
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child, ignore_errors=True)
        else:
            child.unlink(missing_ok=True)


def _member_parts(name: str, archive: str) -> tuple[str, ...]:
    """A member's path as parts, refusing what would leave the destination (``\\`` is read as
    a separator too: a zip made on Windows may use it)."""
    if "\x00" in name:
        raise ArtifactError(f"{archive}: a member name holds a NUL")
    posix = name.replace("\\", "/")
    if posix.startswith("/") or (len(posix) > 1 and posix[1] == ":" and posix[0].isalpha()):
        raise ArtifactError(f"{archive}: member {name!r} has an absolute path")
    parts = tuple(p for p in PurePosixPath(posix).parts if p != ".")
    if ".." in parts:
        raise ArtifactError(f"{archive}: member {name!r} climbs out with '..'")
    return parts


class _Capped:
    """A decompressed tar stream that refuses to be read past ``limit`` bytes in all, or in
    one read past ``MAX_HEADER_READ``: a gzip bomb costs the cap, not the disk or memory."""

    def __init__(self, raw: IO[bytes], limit: int, archive: str) -> None:
        self._raw, self._limit, self._archive, self._read = raw, limit, archive, 0

    def read(self, size: int = -1) -> bytes:
        if size < 0 or size > MAX_HEADER_READ:
            raise ArtifactError(f"{self._archive}: a header of {size} bytes; no real archive has one")
        if self._read + size > self._limit:
            raise ArtifactError(f"{self._archive}: over {self._limit} bytes decompressed")
        data = self._raw.read(size)
        self._read += len(data)
        return data

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        position = self._raw.tell()
        if whence != os.SEEK_SET or offset < position:
            return self._raw.seek(offset, whence)  # tarfile only ever seeks forward
        while position < offset and (skipped := self.read(min(CHUNK, offset - position))):
            position += len(skipped)
        return position

    def tell(self) -> int:
        return self._raw.tell()


def _untar(opener: Any, archive: Path, dest: Path, max_files: int, max_bytes: int) -> None:
    # Headers, pax records and padding on top of the data: a few blocks per member.
    stream_limit = max_bytes + 4096 * max_files + CHUNK
    with opener(archive, "rb") as raw:
        capped = cast(IO[bytes], _Capped(raw, stream_limit, archive.name))
        # errorlevel 1: a member the filter refuses raises, as does a failed write.
        with tarfile.TarFile(fileobj=capped, mode="r", errorlevel=1) as tar:
            _extract_tar(tar, archive.name, dest, max_files, max_bytes)


def _extract_tar(tar: tarfile.TarFile, archive: str, dest: Path, max_files: int, max_bytes: int) -> None:
    """Member by member, each checked before it is written."""
    count = total = 0
    for member in tar:
        count += 1
        if count > max_files:
            raise ArtifactError(f"{archive}: more than {max_files} members")
        parts = _member_parts(member.name, archive)
        if member.issym() or member.islnk():
            _check_link(member, parts, archive)
            continue
        if member.isfile():
            total += member.size  # exactly what tarfile writes: it copies size bytes
            if total > max_bytes:
                raise ArtifactError(f"{archive}: more than {max_bytes} bytes unpacked")
        if parts:
            # No modes or times: a read-only directory would stop its own members.
            tar.extract(member, dest, set_attrs=False, filter="data")


def _check_link(member: tarfile.TarInfo, parts: tuple[str, ...], archive: str) -> None:
    """Refuse a link that leads out of the tree, read as written (no ``realpath``)."""
    target = member.linkname.replace("\\", "/")
    base = parts[:-1] if member.issym() else ()  # a hard link's target is from the root
    depth = len(base)
    if target.startswith("/"):
        raise ArtifactError(f"{archive}: link {member.name!r} points to the absolute path {target!r}")
    for part in PurePosixPath(target).parts:
        depth += -1 if part == ".." else 0 if part == "." else 1
        if depth < 0:
            raise ArtifactError(f"{archive}: link {member.name!r} leads out of the archive ({target!r})")


def _unzip(archive: Path, dest: Path, max_files: int, max_bytes: int) -> None:
    with zipfile.ZipFile(archive) as zipped:
        members = zipped.infolist()
        if len(members) > max_files:
            raise ArtifactError(f"{archive.name}: {len(members)} members, over the {max_files} limit")
        if sum(m.file_size for m in members) > max_bytes:
            raise ArtifactError(f"{archive.name}: over {max_bytes} bytes unpacked, by its headers")
        total = 0
        for member in members:
            parts = _member_parts(member.filename, archive.name)
            if stat.S_ISLNK(member.external_attr >> 16):
                raise ArtifactError(f"{archive.name}: member {member.filename!r} is a symlink")
            if not parts:
                continue
            target = dest.joinpath(*parts)
            if member.is_dir():
                target.mkdir(parents=True, exist_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            # "x": a name twice is refused, never written through.
            with zipped.open(member) as source, target.open("xb") as out:
                while chunk := source.read(CHUNK):
                    total += len(chunk)
                    if total > max_bytes:
                        raise ArtifactError(f"{archive.name}: more than {max_bytes} bytes unpacked")
                    out.write(chunk)
