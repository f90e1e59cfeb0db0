"""An npm package as a source: its facts from package.json, the files Node loads, monorepo
prefixes, tarballs, and package.json files that cannot be used."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from errdex.errors import ErrdexError
from errdex.languages import LANGUAGES
from errdex.mine import mine
from errdex.mine.npm import (
    MANIFEST_LIMIT,
    PackageError,
    entry_files,
    package_source,
    placeholder_repo,
    read_package,
    repository,
)
from errdex.mine.sources import describe, directory_source
from errdex.store import open_store
from npm import cache_root, fetch_npm

AXIOS = ("axios", "1.7.9")
#: A package of a monorepo: ``repository.directory`` is ``packages/babel-template``.
TEMPLATE = ("@babel/template", "7.25.9")


def tarball(name: str, version: str) -> Path:
    """The registry's own tarball of a release, as ``fetch_npm`` keeps it beside the unpacked copy."""
    fetch_npm(name, version)
    return cache_root() / f"{name.replace('/', '+')}-{version}.tgz"


def errdex(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "errdex", *args], capture_output=True, text=True, check=False
    )


def test_package_facts_are_what_package_json_says() -> None:
    root = fetch_npm(*AXIOS)
    manifest = json.loads((root / "package.json").read_text())
    package = read_package(root)
    assert (package.name, package.version) == (manifest["name"], manifest["version"]) == AXIOS
    assert manifest["repository"]["url"] == "https://github.com/axios/axios.git"
    assert (package.repo, package.directory, package.sha, package.ref) == ("axios/axios", "", None, "v1.7.9")
    origin = describe(root)
    assert (origin.kind, origin.repo, origin.package, origin.version) == ("npm", "axios/axios", *AXIOS)


def test_the_files_node_loads_are_mined_with_the_sources_they_were_built_from() -> None:
    root = fetch_npm(*AXIOS)
    manifest = json.loads((root / "package.json").read_text())
    # Read here from package.json: exports["."].default.require is the CommonJS bundle.
    assert manifest["exports"]["."]["default"]["require"] == "./dist/node/axios.cjs"
    entries = entry_files(root, manifest)
    assert entries[0] == manifest["main"] == "index.js"
    assert {"dist/node/axios.cjs", "dist/browser/axios.cjs", "lib/adapters/http.js"} <= set(entries)
    # "./unsafe/*": "./lib/*" is matched against the files there are; types are no code.
    assert "lib/core/AxiosError.js" in entries
    assert not any(e.endswith((".d.ts", ".d.cts", ".json")) for e in entries)

    source = directory_source(root)
    files = {f.relative: f for f in source.files}
    assert {"dist/node/axios.cjs", "dist/esm/axios.js", "lib/core/AxiosError.js", "index.js"} <= set(files)
    assert "dist/axios.min.js" not in files  # minified and loaded by no field: its original is mined
    # Modules are named by their path in the package, entry files as the others.
    javascript = LANGUAGES["javascript"]
    for rel in ("lib/core/AxiosError.js", "dist/node/axios.cjs"):
        assert files[rel].module == javascript.module_name(rel.split("/"))[0]
        # Named by its path, as a relative ``require`` names it (``.js`` may be left out).
        assert files[rel].module in ("./" + rel.removesuffix(".js"), "./" + rel)
    assert (source.repo, source.ref, source.path_prefix, source.origin.kind) == (
        "axios/axios",
        "v1.7.9",
        "",
        "npm",
    )

    result = mine(root, jobs=2)
    by_file = {r.file_path for r in result.records}
    # Every copy of a site is kept: the bundle Node runs, and the module it was built from.
    assert "dist/node/axios.cjs" in by_file and any(p.startswith("lib/") for p in by_file)
    bundle = next(r for r in result.records if r.file_path == "dist/node/axios.cjs")
    assert bundle.github_url and "/axios/axios/blob/v1.7.9/dist/node/axios.cjs#L" in bundle.github_url
    assert {(r.package, r.version) for r in result.records} == {AXIOS}


def test_a_monorepo_package_is_named_by_its_directory_in_the_repository() -> None:
    root = fetch_npm(*TEMPLATE)
    manifest = json.loads((root / "package.json").read_text())
    directory = manifest["repository"]["directory"]
    assert directory == "packages/babel-template"
    package = read_package(root)
    assert (package.repo, package.directory, package.ref) == ("babel/babel", f"{directory}/", "v7.25.9")
    result = mine(root, jobs=2)
    assert result.records and result.info.kind == "npm"
    for record in result.records:
        assert record.file_path.startswith(f"{directory}/lib/")
        assert f"/babel/babel/blob/v7.25.9/{record.file_path}#L" in (record.github_url or "")
    # --path-prefix still says otherwise where it is given.
    assert directory_source(root, path_prefix="src").path_prefix == "src/"


@pytest.mark.parametrize(
    ("manifest", "expected"),
    [
        ({"repository": "github:acme/widget"}, ("acme/widget", "")),
        ({"repository": "acme/widget"}, ("acme/widget", "")),  # npm's shorthand means GitHub
        ({"repository": "git+https://github.com/acme/widget.git"}, ("acme/widget", "")),
        ({"repository": "git+ssh://git@github.com/acme/widget.git"}, ("acme/widget", "")),
        ({"repository": "git://github.com/acme/widget.git#main"}, ("acme/widget", "")),
        ({"repository": "git@github.com:acme/widget.git"}, ("acme/widget", "")),
        ({"repository": "https://github.com/acme/mono/tree/main/packages/w"}, ("acme/mono", "packages/w/")),
        (
            {"repository": {"type": "git", "url": "https://github.com/acme/mono.git", "directory": "pkgs/w"}},
            ("acme/mono", "pkgs/w/"),
        ),
        (
            {"repository": {"url": "https://github.com/acme/mono", "directory": "../../etc"}},
            ("acme/mono", ""),
        ),
        (
            {"repository": "gitlab:acme/widget", "homepage": "https://github.com/acme/site#readme"},
            ("acme/site", ""),
        ),
        (
            {
                "repository": "https://gitlab.com/acme/widget",
                "bugs": {"url": "https://github.com/o/n/issues"},
            },
            ("o/n", ""),
        ),
        ({"repository": "bitbucket:acme/widget"}, (None, "")),
        ({"repository": 42, "homepage": "https://example.com"}, (None, "")),
        ({"repository": "https://github.com/sponsors/acme"}, (None, "")),
    ],
)
def test_the_repository_is_read_from_every_form_npm_takes(
    manifest: dict[str, object], expected: tuple[str | None, str]
) -> None:
    assert repository(manifest) == expected


def test_a_package_on_no_github_gets_a_placeholder_and_no_permalink(tmp_path: Path) -> None:
    assert placeholder_repo("left-pad") == "npm/left-pad"
    assert placeholder_repo("@babel/core") == "npm/babel__core"  # as @types/babel__core
    (tmp_path / "package.json").write_text(json.dumps({"name": "@acme/tool", "version": "1.0.0"}))
    (tmp_path / "index.js").write_text("throw new Error('no tool here')\n")
    package = read_package(tmp_path)
    assert (package.repo, package.on_github, package.ref) == ("npm/acme__tool", False, None)
    source = directory_source(tmp_path)
    assert (source.repo, source.ref, [f.relative for f in source.files]) == (
        "npm/acme__tool",
        None,
        ["index.js"],
    )


def test_git_head_is_the_commit_permalinks_point_at(tmp_path: Path) -> None:
    sha = "0123456789abcdef0123456789abcdef01234567"
    manifest = {"name": "w", "version": "2.0.0", "repository": "acme/w", "gitHead": sha.upper()}
    (tmp_path / "package.json").write_text(json.dumps(manifest))
    (tmp_path / "index.js").write_text("function f(x) {\n  if (!x) throw new TypeError('x is required')\n}\n")
    package = read_package(tmp_path)
    assert (package.sha, package.ref) == (sha, sha)
    result = mine(tmp_path, jobs=1)
    assert result.info.sha == sha and result.records
    assert all(f"/acme/w/blob/{sha}/index.js#L" in (r.github_url or "") for r in result.records)
    # Short or odd, it names no commit: the release tag then.
    (tmp_path / "package.json").write_text(json.dumps({**manifest, "gitHead": "0123abc"}))
    assert read_package(tmp_path).ref == "v2.0.0"


def test_entry_files_are_mined_where_the_default_excludes_drop_them(tmp_path: Path) -> None:
    root = tmp_path / "pkg"
    manifest = {
        "name": "tool",
        "version": "1.0.0",
        "main": "dist/tool.min",  # Node adds .js
        "module": "./esm",  # a folder: its index
        "exports": {
            ".": {
                "types": "./dist/tool.d.ts",
                "import": "./esm/index.mjs",
                "require": ["./missing.cjs", "./vendor/cjs.js"],
            },
            "./features/*": "./src/features/*.js",
            "./features/internal/*": None,
            "./examples/*": "./examples/*.js",  # a pattern allows files; it makes no example a source
            "./package.json": "./package.json",
        },
        "bin": {"tool": "bin/tool", "setup": "scripts/setup.sh"},
    }
    files = {
        "package.json": json.dumps(manifest),
        "dist/tool.min.js": "throw new Error('minified')",
        "dist/tool.d.ts": "export declare function f(): void;",
        "esm/index.mjs": "export const x = 1",
        "vendor/cjs.js": "module.exports = 1",
        "src/features/a.js": "exports.a = 1",
        "src/features/deep/b.js": "exports.b = 1",
        "examples/demo.js": "console.log(1)",
        "bin/tool": "#!/usr/bin/env node\nrequire('../vendor/cjs.js')\n",
        "scripts/setup.sh": "#!/bin/sh\necho hi\n",
        "node_modules/dep/index.js": "throw new Error('another package')",
        "node_modules/dep/package.json": '{"name": "dep"}',
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    (tmp_path / "secret.js").write_text("throw new Error('outside')")
    (root / "lib").mkdir()
    os.symlink(tmp_path / "secret.js", root / "lib" / "secret.js")
    (root / "package.json").write_text(
        json.dumps({**manifest, "bin": {**manifest["bin"], "s": "lib/secret.js"}})
    )

    assert entry_files(root, json.loads((root / "package.json").read_text())) == [
        "dist/tool.min.js", "esm/index.mjs", "vendor/cjs.js", "src/features/a.js", "src/features/deep/b.js",
        "examples/demo.js", "bin/tool", "lib/secret.js",
    ]  # fmt: skip
    source = directory_source(root)
    assert [f.relative for f in source.files] == [
        "bin/tool", "dist/tool.min.js", "esm/index.mjs", "src/features/a.js", "src/features/deep/b.js",
        "vendor/cjs.js",
    ]  # fmt: skip
    assert {f.relative: f.language for f in source.files}["bin/tool"] == "javascript"
    assert [(s.path, s.reason) for s in source.skipped] == [
        ("lib/secret.js", "symlink pointing outside the mined directory")
    ]
    # The caller's own excludes still hold for entry files.
    kept = package_source(read_package(root), exclude=["vendor"])
    assert "vendor/cjs.js" not in {f.relative for f in kept.files}


def test_a_bad_package_json_is_a_skip_with_its_reason(tmp_path: Path) -> None:
    cases = {
        "invalid": (b'{"name": "x",', "package.json is not JSON (Expecting property name enclosed in double"),
        "list": (b"[1, 2]", "package.json holds no object"),
        "latin1": (b'{"name": "caf\xe9"}', "package.json is not UTF-8"),
        "nameless": (b'{"version": "1.0.0"}', None),
        "deep": (b"[" * 100_000 + b"]" * 100_000, "package.json is nested too deeply to read"),
        "huge": (
            b'{"name": "x", "readme": "' + b"a" * MANIFEST_LIMIT + b'"}',
            f"larger than {MANIFEST_LIMIT}",
        ),
        "badname": (b'{"name": "a b"}', "package.json names no valid package ('a b')"),
    }
    for name, (data, reason) in cases.items():
        root = tmp_path / name
        root.mkdir()
        (root / "package.json").write_bytes(data)
        if reason is None:  # no name of its own: the one its directory gives
            assert read_package(root, root.name).name == "nameless"
            with pytest.raises(PackageError, match="names no package"):
                read_package(root)
            continue
        with pytest.raises(PackageError) as raised:
            read_package(root, name)
        assert reason in str(raised.value), name
        assert describe(root).kind == "directory"
    fifo = tmp_path / "fifo"
    fifo.mkdir()
    os.mkfifo(fifo / "package.json")
    with pytest.raises(PackageError, match=r"package.json cannot be read: not a regular file \(a FIFO\)"):
        read_package(fifo, "fifo")  # refused before it is opened: nothing waits for a writer
    (fifo / "index.js").write_text("throw new Error('x')")
    with pytest.raises(
        ErrdexError, match=r"not a git checkout, and package.json cannot be read: not a regular"
    ):
        directory_source(fifo)
    assert directory_source(fifo, repo="acme/fifo").repo == "acme/fifo"  # told, it is mined as files


def test_errdex_mine_takes_an_npm_tarball(tmp_path: Path) -> None:
    db = tmp_path / "npm.db"
    done = errdex("mine", str(tarball(*AXIOS)), "--db", str(db), "--jobs", "2")
    assert done.returncode == 0, done.stderr
    assert "axios/axios (axios 1.7.9):" in done.stdout
    assert "permalinks point at the tag v1.7.9" in done.stderr
    with open_store(db) as store:
        (info,) = store.repos()
        paths = {r.file_path for r in store.records()}
    assert (info.kind, info.package, info.version) == ("npm", *AXIOS)
    assert "dist/node/axios.cjs" in paths and any(p.startswith("lib/") for p in paths)


def test_a_hostile_tarball_is_refused_whole(tmp_path: Path) -> None:
    evil = tmp_path / "evil-1.0.0.tgz"
    payload = tmp_path / "payload.js"
    payload.write_text("throw new Error('escaped')")
    with tarfile.open(evil, "w:gz") as tar:
        tar.add(payload, arcname="package/../../escaped.js")
    done = errdex("mine", str(evil), "--db", str(tmp_path / "evil.db"))
    assert done.returncode == 1
    assert "corrupt or hostile archive" in done.stderr or "climbs out" in done.stderr
    assert not (tmp_path.parent / "escaped.js").exists()
