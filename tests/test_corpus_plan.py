"""Corpus planning, download and unpacking against real archives on a real (loopback) index.

The index serves PyPI's own sdists of ``CORPUS_RELEASES``; hostile archives are built here,
since no index would keep them.
"""

from __future__ import annotations

import hashlib
import io
import shutil
import stat
import struct
import tarfile
import urllib.error
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.corpus.fetch import ArtifactError, download, unpack
from errdex.corpus.plan import PlanError, plan, project_files
from errdex.mine.sources import describe, directory_source
from package_index import PackageIndex, corpus_archives
from pypi import cache_dir, fetch_wheel


@pytest.fixture(scope="module")
def archives() -> dict[str, Path]:
    return {path.name: path for path in corpus_archives()}


@pytest.fixture
def index(archives: dict[str, Path]) -> Iterator[PackageIndex]:
    with PackageIndex(list(archives.values())) as served:
        yield served


def versions(requirement: str, index: PackageIndex) -> list[str]:
    return [a.version for a in plan(requirement, index_url=index.url)]


# -- planning ---------------------------------------------------------------------------------


@pytest.mark.pypi
def test_a_specifier_plans_every_release_it_admits_with_the_index_facts(
    index: PackageIndex, archives: dict[str, Path]
) -> None:
    planned = plan("click>=8.1.6", index_url=index.url)
    assert [(a.package, a.version, a.kind) for a in planned] == [
        ("click", "8.1.6", "sdist"),
        ("click", "8.1.7", "sdist"),
    ]
    for artifact in planned:
        data = archives[artifact.filename].read_bytes()
        listed = index.entry(artifact.filename)
        assert artifact.url == f"{index.base}/files/{artifact.filename}"  # resolved from ../../files/
        assert artifact.sha256 == hashlib.sha256(data).hexdigest()
        assert artifact.size == len(data)
        assert artifact.upload_time == listed["upload-time"]
        assert artifact.state == "queued"


@pytest.mark.pypi
def test_a_bare_name_is_the_newest_release_and_a_pin_is_one(index: PackageIndex) -> None:
    assert versions("idna", index) == ["3.7"]
    assert versions("packaging==23.1", index) == ["23.1"]
    assert versions("Packaging<23.2,!=23.0", index) == ["23.1"]  # names are canonicalised
    assert versions("click>=9", index) == []


@pytest.mark.pypi
def test_yanked_files_and_releases_are_left_out(index: PackageIndex) -> None:
    index.yank("click-8.1.7.tar.gz", "broke the world")
    index.yank("click-8.1.5.tar.gz", True)
    assert versions("click>=8", index) == ["8.1.6"]
    assert versions("click", index) == ["8.1.6"]
    assert versions("click==8.1.7", index) == []
    assert [f.yanked for f in project_files(index.url, "click")] == [True, False, True]


@pytest.mark.pypi
def test_a_release_published_later_appears_in_the_next_plan(archives: dict[str, Path]) -> None:
    first = [archives["idna-3.5.tar.gz"], archives["idna-3.6.tar.gz"]]
    with PackageIndex(first) as index:
        before = plan("idna>=3", index_url=index.url)
        index.add(archives["idna-3.7.tar.gz"])
        after = plan("idna>=3", index_url=index.url)
    assert [a.version for a in before] == ["3.5", "3.6"]
    assert after[:2] == before
    assert [a.filename for a in after[2:]] == ["idna-3.7.tar.gz"]


@pytest.mark.pypi
def test_the_sdist_comes_first_then_a_pure_wheel_then_any_wheel(
    archives: dict[str, Path], tmp_path: Path
) -> None:
    # The plan reads names only, so the real wheel's bytes stand in for a platform wheel too.
    wheel = fetch_wheel("idna", "3.7")
    platform = tmp_path / "idna-3.7-cp311-cp311-manylinux_2_17_x86_64.whl"
    shutil.copy(wheel, platform)
    with PackageIndex([platform, wheel, archives["idna-3.7.tar.gz"]]) as index:
        assert [a.filename for a in plan("idna", index_url=index.url)] == ["idna-3.7.tar.gz"]
        index.yank("idna-3.7.tar.gz")
        (pure,) = plan("idna", index_url=index.url)
        assert (pure.filename, pure.kind) == (wheel.name, "wheel")
        index.yank(wheel.name)
        assert [a.filename for a in plan("idna", index_url=index.url)] == [platform.name]


@pytest.mark.pypi
def test_pre_releases_only_where_the_specifier_names_one(archives: dict[str, Path], tmp_path: Path) -> None:
    candidate = tmp_path / "idna-3.8rc1.tar.gz"
    unparsable = tmp_path / "idna-latest.tar.gz"
    for path in (candidate, unparsable):
        shutil.copy(archives["idna-3.7.tar.gz"], path)
    with PackageIndex(
        [archives["idna-3.6.tar.gz"], archives["idna-3.7.tar.gz"], candidate, unparsable]
    ) as index:
        assert versions("idna>=3.6", index) == ["3.6", "3.7"]
        assert versions("idna", index) == ["3.7"]
        assert versions("idna>=3.8rc1", index) == ["3.8rc1"]
        assert versions("idna==3.8rc1", index) == ["3.8rc1"]
        assert versions("idna>3.8", index) == []  # no fallback to the pre-release that is there


@pytest.mark.pypi
def test_a_missing_project_or_an_unreachable_index_is_a_plan_error(index: PackageIndex) -> None:
    with pytest.raises(PlanError, match=rf"^no project no-such-project on {index.url}$"):
        plan("no_such.project>=1", index_url=index.url)
    with pytest.raises(PlanError, match="direct reference"):
        plan("idna @ https://example.org/idna.tar.gz", index_url=index.url)
    with pytest.raises(PlanError, match="not a requirement"):
        plan("idna >>= 3", index_url=index.url)
    gone = index.url
    index.__exit__(None, None, None)
    with pytest.raises(PlanError, match="cannot reach"):
        plan("idna", index_url=gone, timeout=5)


@pytest.mark.pypi
def test_pypi_org_lists_what_pip_downloaded() -> None:
    (artifact,) = plan("click==8.1.7")
    cached = cache_dir() / "click-8.1.7.tar.gz"
    assert (artifact.package, artifact.kind, artifact.filename) == ("click", "sdist", cached.name)
    assert artifact.url.startswith("https://files.pythonhosted.org/")
    assert artifact.sha256 == hashlib.sha256(cached.read_bytes()).hexdigest()
    assert artifact.size == cached.stat().st_size
    assert artifact.upload_time is not None and artifact.upload_time.startswith("2023-08-17")


# -- downloading ------------------------------------------------------------------------------


@pytest.mark.pypi
def test_download_verifies_and_names_the_file(
    index: PackageIndex, archives: dict[str, Path], tmp_path: Path
) -> None:
    (artifact,) = plan("packaging==23.2", index_url=index.url)
    got = download(artifact, tmp_path)
    assert got == tmp_path / "packaging-23.2.tar.gz"
    assert got.read_bytes() == archives[artifact.filename].read_bytes()
    assert list(tmp_path.iterdir()) == [got]
    local = artifact.but(url=archives[artifact.filename].as_uri())
    again = tmp_path / "again"
    again.mkdir()
    assert download(local, again).read_bytes() == got.read_bytes()


@pytest.mark.pypi
def test_a_wrong_checksum_or_size_leaves_no_file(index: PackageIndex, tmp_path: Path) -> None:
    (artifact,) = plan("packaging==23.2", index_url=index.url)
    assert artifact.sha256 is not None and artifact.size is not None
    with pytest.raises(ArtifactError, match=f"sha256 expected {'0' * 64}, got {artifact.sha256}"):
        download(artifact.but(sha256="0" * 64), tmp_path)
    with pytest.raises(ArtifactError, match=f"size expected {artifact.size - 1} bytes, got more"):
        download(artifact.but(size=artifact.size - 1), tmp_path)
    with pytest.raises(ArtifactError, match=f"size expected {artifact.size + 1} bytes, got {artifact.size}$"):
        download(artifact.but(size=artifact.size + 1), tmp_path)
    with pytest.raises(ArtifactError, match="over the 1000-byte limit"):
        download(artifact.but(size=None, sha256=None), tmp_path, max_bytes=1000)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.pypi
def test_what_is_the_package_s_fault_and_what_is_the_host_s(index: PackageIndex, tmp_path: Path) -> None:
    (artifact,) = plan("packaging==23.2", index_url=index.url)
    with pytest.raises(ArtifactError, match="HTTP 404"):
        download(artifact.but(url=f"{index.base}/files/gone.tar.gz"), tmp_path)
    with pytest.raises(ArtifactError, match="no such file"):
        download(artifact.but(url=(tmp_path / "gone.tar.gz").as_uri()), tmp_path)
    with pytest.raises(ArtifactError, match="not a plain file name"):
        download(artifact.but(filename="../packaging-23.2.tar.gz"), tmp_path)
    index.__exit__(None, None, None)
    with pytest.raises(urllib.error.URLError) as refused:  # an OSError: the host's, retried
        download(artifact, tmp_path, timeout=5)
    assert not isinstance(refused.value, ArtifactError)
    assert list(tmp_path.iterdir()) == []


# -- unpacking real archives ------------------------------------------------------------------


@pytest.mark.pypi
def test_an_sdist_unpacks_to_its_project_directory(archives: dict[str, Path], tmp_path: Path) -> None:
    root = unpack(archives["click-8.1.7.tar.gz"], tmp_path / "out")
    assert root == tmp_path / "out" / "click-8.1.7"
    assert (root / "src" / "click" / "core.py").is_file()
    origin = describe(root)
    assert (origin.kind, origin.package, origin.version) == ("sdist", "click", "8.1.7")


@pytest.mark.pypi
def test_a_wheel_unpacks_to_its_root_which_errdex_reads_as_a_wheel(tmp_path: Path) -> None:
    root = unpack(fetch_wheel("idna", "3.7"), tmp_path / "out")
    assert root == tmp_path / "out"
    assert (root / "idna" / "core.py").is_file() and (root / "idna-3.7.dist-info" / "RECORD").is_file()
    origin = describe(root)
    assert (origin.kind, origin.package, origin.version, origin.repo) == ("wheel", "idna", "3.7", "kjd/idna")
    assert "idna/core.py" in {f.relative for f in directory_source(root).files}


# -- hostile archives -------------------------------------------------------------------------


@pytest.fixture
def sandbox(tmp_path: Path) -> Path:
    """Where an escape would land: the destination is ``sandbox/dest``."""
    (tmp_path / "sandbox").mkdir()
    return tmp_path / "sandbox"


def tar_of(path: Path, *members: tuple[tarfile.TarInfo, bytes]) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for info, data in members:
            info.size = len(data) if info.isfile() else 0
            tar.addfile(info, io.BytesIO(data) if info.isfile() else None)
    return path


def file_info(name: str) -> tarfile.TarInfo:
    return tarfile.TarInfo(name)


def link_info(name: str, target: str, kind: bytes = tarfile.SYMTYPE) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, target
    return info


def refused(archive: Path, sandbox: Path, match: str, **caps: int) -> None:
    """Unpacking fails as the archive's fault, and nothing is left, inside or out."""
    dest = sandbox / "dest"
    with pytest.raises(ArtifactError, match=match):
        unpack(archive, dest, **caps)
    assert list(sandbox.rglob("*")) == [dest]


def test_a_tar_that_climbs_out_is_refused(tmp_path: Path, sandbox: Path) -> None:
    ok = (file_info("pkg-1.0/ok.py"), b"x = 1\n")
    for name in ("../escape", "pkg-1.0/../../escape", str(sandbox / "absolute")):
        archive = tar_of(tmp_path / "climb.tar.gz", ok, (file_info(name), b"owned\n"))
        refused(archive, sandbox, "climbs out|absolute path")
    assert not (tmp_path / "escape").exists()


def test_a_tar_link_out_of_the_tree_is_refused_and_one_inside_is_not_extracted(
    tmp_path: Path, sandbox: Path
) -> None:
    for target in ("/etc", "../../etc", "a/../../.."):
        archive = tar_of(tmp_path / "link.tar.gz", (link_info("pkg-1.0/etc", target), b""))
        refused(archive, sandbox, "absolute path|leads out")
    hard = tar_of(
        tmp_path / "hard.tar.gz", (link_info("pkg-1.0/passwd", "../etc/passwd", tarfile.LNKTYPE), b"")
    )
    refused(hard, sandbox, "leads out")
    inside = tar_of(
        tmp_path / "inside.tar.gz",
        (file_info("pkg-1.0/real.py"), b"x = 1\n"),
        (link_info("pkg-1.0/alias.py", "real.py"), b""),
        (link_info("pkg-1.0/here", "."), b""),
        (file_info("pkg-1.0/here/through.py"), b"y = 2\n"),  # not through a link: there is none
    )
    root = unpack(inside, sandbox / "dest")
    assert sorted(p.name for p in root.rglob("*")) == ["here", "real.py", "through.py"]
    assert not any(p.is_symlink() for p in root.rglob("*"))


def test_a_tar_device_or_fifo_is_refused(tmp_path: Path, sandbox: Path) -> None:
    fifo = tarfile.TarInfo("pkg-1.0/pipe")
    fifo.type = tarfile.FIFOTYPE
    refused(tar_of(tmp_path / "fifo.tar.gz", (fifo, b"")), sandbox, "corrupt or hostile")


def test_a_tar_over_the_caps_is_refused_before_it_is_written(tmp_path: Path, sandbox: Path) -> None:
    bomb = tar_of(tmp_path / "bomb.tar.gz", (file_info("pkg-1.0/zeros"), bytes(20_000_000)))
    assert bomb.stat().st_size < 100_000
    refused(bomb, sandbox, "more than 10000000 bytes", max_bytes=10_000_000)
    many = tar_of(tmp_path / "many.tar.gz", *[(file_info(f"pkg-1.0/{i}.py"), b"") for i in range(30)])
    refused(many, sandbox, "more than 20 members", max_files=20)


def test_a_tar_header_claiming_gigabytes_is_not_read_into_memory(tmp_path: Path, sandbox: Path) -> None:
    # A pax header of 4 GB of zeros compresses to a few megabytes; tarfile would read it whole.
    archive = tmp_path / "pax.tar.gz"
    header = tarfile.TarInfo("././@PaxHeader")
    header.type, header.size = tarfile.XHDTYPE, 4 << 30
    import gzip

    with gzip.open(archive, "wb", compresslevel=1) as out:
        out.write(header.tobuf(format=tarfile.USTAR_FORMAT))
        out.write(bytes(1 << 20))  # the stream ends long before the claim: never read that far
    refused(archive, sandbox, "a header of")


def test_a_corrupt_archive_is_the_package_s_fault(tmp_path: Path, sandbox: Path) -> None:
    for name, data in [
        ("cut.tar.gz", b"\x1f\x8b\x08\x00" + bytes(100)),
        ("cut.zip", b"PK\x03\x04" + bytes(100)),
    ]:
        (tmp_path / name).write_bytes(data)
        refused(tmp_path / name, sandbox, "corrupt or hostile")
    (tmp_path / "x.rar").write_bytes(b"")
    refused(tmp_path / "x.rar", sandbox, "not an archive errdex unpacks")


def zip_of(path: Path, *members: tuple[str | zipfile.ZipInfo, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zipped:
        for name, data in members:
            zipped.writestr(name, data)
    return path


def test_a_zip_that_climbs_out_or_links_is_refused(tmp_path: Path, sandbox: Path) -> None:
    for name in ("../escape", "pkg/../../escape", "..\\escape", str(sandbox / "absolute")):
        archive = zip_of(tmp_path / "climb.zip", ("pkg/ok.py", b"x = 1\n"), (name, b"owned\n"))
        refused(archive, sandbox, "climbs out|absolute path")
    link = zipfile.ZipInfo("pkg/etc")
    link.external_attr = (stat.S_IFLNK | 0o777) << 16
    refused(zip_of(tmp_path / "link.whl", (link, b"/etc")), sandbox, "is a symlink")
    with pytest.warns(UserWarning, match="Duplicate name"):
        twice = zip_of(tmp_path / "twice.zip", ("pkg/a.py", b"x = 1\n"), ("pkg/a.py", b"x = 2\n"))
    refused(twice, sandbox, "corrupt or hostile")
    assert not (tmp_path / "escape").exists()


def test_a_zip_over_the_caps_is_refused(tmp_path: Path, sandbox: Path) -> None:
    bomb = zip_of(tmp_path / "bomb.zip", *[(f"pkg/{i}", bytes(4_000_000)) for i in range(3)])
    assert bomb.stat().st_size < 100_000
    refused(bomb, sandbox, "by its headers", max_bytes=10_000_000)
    many = zip_of(tmp_path / "many.zip", *[(f"pkg/{i}.py", b"") for i in range(30)])
    refused(many, sandbox, "30 members, over the 20 limit", max_files=20)


def test_a_zip_whose_headers_understate_its_size_is_refused(tmp_path: Path, sandbox: Path) -> None:
    """The central directory says 100 bytes; the data is 5 MB of zeros.  Reading stops at the
    claim and the checksum then fails: the header neither lets more through nor passes as true."""
    archive = zip_of(tmp_path / "liar.zip", ("pkg/zeros", bytes(5_000_000)))
    data = bytearray(archive.read_bytes())
    central = data.index(b"PK\x01\x02")
    struct.pack_into("<I", data, central + 24, 100)  # uncompressed size
    archive.write_bytes(bytes(data))
    assert zipfile.ZipFile(archive).infolist()[0].file_size == 100
    refused(archive, sandbox, "corrupt or hostile")
