"""The pages, as a person uses them: a real server, a real browser, real tracebacks; and over
plain HTTP, in-process, the app ``errdex serve`` runs.

The store holds the real ``ipaddress`` and ``fractions`` modules of this interpreter and a tiny
hostile package whose messages, source and docstrings carry markup that would run script if
any page let it through.
"""

from __future__ import annotations

import ipaddress
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, Page, expect, sync_playwright

from errdex.mine import mine
from errdex.record import Record
from errdex.serve.app import create_app
from errdex.store import open_store

SHA = "0" * 40
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
HOSTILE_MESSAGE = "<script>window.pwned=1</script> bad <img src=x onerror=window.pwned=2>"
HOSTILE_SOURCE = f'''\
"""<img src=x onerror=window.pwned=3> helpers."""


def detonate(payload):
    """Detonate <script>window.pwned=4</script> the payload.

    Raises:
        ValueError: when <img src=x onerror=window.pwned=5> is given.
    """
    if payload != "</textarea><script>window.pwned=6</script>":
        raise ValueError("{HOSTILE_MESSAGE}")
    return payload
'''


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store with the real stdlib ``ipaddress`` and ``fractions``, and the hostile package."""
    stdlib = tmp_path_factory.mktemp("stdlib")
    for module in ("ipaddress.py", "fractions.py"):
        shutil.copy(Path(ipaddress.__file__).parent / module, stdlib / module)
    hostile = tmp_path_factory.mktemp("hostile")
    (hostile / "hostile.py").write_text(HOSTILE_SOURCE)
    path = tmp_path_factory.mktemp("db") / "errdex.db"
    with open_store(path) as store:
        for root, repo, prefix in ((stdlib, "python/cpython", "Lib/"), (hostile, "evil/hostile", "")):
            result = mine(root, repo=repo, sha=SHA, path_prefix=prefix, jobs=1)
            store.replace_repo(result.info, result.records)
    return path


@pytest.fixture(scope="module")
def records(db: Path) -> list[Record]:
    with open_store(db, readonly=True) as store:
        return list(store.records())


@pytest.fixture(scope="module")
def hostile(records: list[Record]) -> Record:
    (record,) = [r for r in records if r.error_message == HOSTILE_MESSAGE]
    return record


@pytest.fixture(scope="module")
def server(db: Path) -> Iterator[str]:
    """The app under a real uvicorn on a free loopback port, for the module's tests."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(str(db)), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    assert httpx.get(url + "/").status_code == 200
    yield url
    server.should_exit = True
    thread.join(10)
    sock.close()


@pytest.fixture(scope="module")
def client(db: Path) -> Iterator[httpx.Client]:
    """The same app in-process, for what plain HTTP shows: no socket, no browser."""
    with TestClient(create_app(str(db))) as client:
        yield client


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A page with JavaScript on, so that any script that got through would run."""
    context = browser.new_context()
    yield context.new_page()
    context.close()


def real_traceback(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 1 and "Traceback" in done.stderr, done.stderr
    return done.stderr


# --- in a browser ---------------------------------------------------------------------------------


def test_paste_a_traceback_then_follow_the_top_match_to_the_raising_line(
    browser: Browser, server: str, records: list[Record]
) -> None:
    stderr = real_traceback("import ipaddress; ipaddress.ip_address('999.1.1.1')")
    line = int(re.findall(r'File ".*ipaddress\.py", line (\d+)', stderr)[-1])
    expected = {
        r.id
        for r in records
        if any((s.file_path, s.line_number) == ("Lib/ipaddress.py", line) for s in r.sites)
    }
    assert expected
    # Without JavaScript: the pages must not need it.
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(server + "/")
    expect(page.locator(".repos a", has_text="python/cpython")).to_be_visible()
    page.locator("textarea[name=text]").fill(stderr)
    page.get_by_role("button", name="Explain").click()
    page.wait_for_url("**/explain")

    expect(page.locator("h1").first).to_contain_text("does not appear to be an IPv4 or IPv6 address")
    top = page.locator(".match").first
    link = top.locator("a.record")
    href = link.get_attribute("href")
    assert href is not None and href.removeprefix("/errors/") in expected
    expect(top.locator(".evidence")).to_have_text("frame")
    expect(top.locator(".where")).to_contain_text(f"Lib/ipaddress.py:{line}")
    expect(top.locator(".captures")).to_contain_text("'999.1.1.1'")

    link.click()
    page.wait_for_url(f"**{href}")
    marked = page.locator(".source tr[aria-current]")
    expect(marked).to_have_count(1)
    expect(marked.locator(".ln")).to_have_text(str(line))
    expect(marked.locator("mark")).to_contain_text("raise ValueError")
    expect(page.locator("#raise")).to_have_count(1)
    permalink = page.locator(".permalink a")
    expect(permalink).to_have_attribute(
        "href", re.compile(rf"^https://github\.com/python/cpython/blob/{SHA}/Lib/ipaddress\.py#L\d+-L\d+$")
    )
    context.close()


#: Two real errors in one paste: the second raised while handling the first.
CHAINED = """\
import fractions, ipaddress
try:
    ipaddress.IPv4Address('')
except ValueError:
    fractions.Fraction('one half')
"""


def test_the_top_answer_of_each_error_says_what_it_means_and_how_to_fix_it(
    browser: Browser, server: str
) -> None:
    stderr = real_traceback(CHAINED)
    assert "During handling of the above exception" in stderr
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(server + "/")
    page.locator("textarea[name=text]").fill(stderr)
    page.get_by_role("button", name="Explain").click()
    page.wait_for_url("**/explain")
    errors = page.locator("section.error")
    expect(errors).to_have_count(2)
    fixes = 0
    for n in range(2):
        matches = errors.nth(n).locator(".match")
        top = matches.first
        href = top.locator("a.record").get_attribute("href")
        assert href is not None
        record = httpx.get(server + "/api/errors/" + href.removeprefix("/errors/")).json()["record"]
        assert record["documentation"], record["id"]
        # The prose as a reader sees it: code spans set apart, their backticks not shown.
        expect(top.locator(".meaning")).to_contain_text(unquoted(record["documentation"]))
        expect(matches.locator(".meaning")).to_have_count(1)  # the top answer's, not every one's
        # The prose is the record's first site's: a frame that ran another line is told so.
        ran = int(top.locator(".where code").nth(1).inner_text().rpartition(":")[2])
        if ran != record["lineNumber"]:
            expect(top.locator(".written")).to_contain_text(f"line {record['lineNumber']} of")
        else:
            expect(top.locator(".written")).to_have_count(0)
        if record["solutions"]:  # none is written without a fact behind it
            expect(top.locator(".fix")).to_contain_text(unquoted(record["solutions"][0]))
            fixes += 1
        else:
            expect(top.locator(".fix")).to_have_count(0)
    assert fixes  # an empty address has one: its guard says what to pass
    context.close()


def unquoted(prose: str) -> str:
    return re.sub(r"`([^`\n]+)`", r"\1", prose)


def assert_inert(page: Page) -> None:
    """No script ran, no element came from mined text, and the markup shows as text."""
    assert page.evaluate("window.pwned") is None
    assert page.locator("script").count() == 0
    assert page.locator("img").count() == 0
    expect(page.get_by_text("<script>window.pwned=1</script>").first).to_be_visible()


def test_a_hostile_record_page_shows_its_markup_as_text(page: Page, server: str, hostile: Record) -> None:
    page.goto(f"{server}/errors/{hostile.id}")
    assert_inert(page)
    expect(page.locator("h1")).to_contain_text(HOSTILE_MESSAGE)
    expect(page.locator(".source tr[aria-current]")).to_contain_text(HOSTILE_MESSAGE)


def test_explaining_a_hostile_message_shows_its_markup_as_text(
    page: Page, server: str, hostile: Record
) -> None:
    page.goto(server + "/")
    # The paste comes back inside the textarea: closing it early must not work either.
    paste = f"ValueError: {HOSTILE_MESSAGE}\n</textarea><script>window.pwned=7</script>"
    page.locator("textarea[name=text]").fill(paste)
    page.get_by_role("button", name="Explain").click()
    page.wait_for_url("**/explain")
    assert_inert(page)
    expect(page.locator("a.record").first).to_have_attribute("href", f"/errors/{hostile.id}")
    expect(page.locator("textarea[name=text]")).to_have_value(paste)


def test_a_repository_page_lists_its_errors(page: Page, server: str, hostile: Record) -> None:
    page.goto(server + "/")
    page.locator(".repos a", has_text="evil/hostile").click()
    page.wait_for_url("**/repos/evil/hostile")
    assert_inert(page)
    row = page.locator("table.records tbody tr", has_text="window.pwned=1")
    expect(row).to_contain_text(f"hostile.py:{hostile.line_number}")
    expect(row).to_contain_text("detonate")
    row.get_by_role("link").click()
    page.wait_for_url(f"**/errors/{hostile.id}")


# --- over plain HTTP ------------------------------------------------------------------------------


def assert_page(response: httpx.Response, status: int) -> str:
    assert response.status_code == status, response.text[:500]
    assert response.headers["content-type"].startswith("text/html")
    csp = response.headers["content-security-policy"]
    assert "default-src 'none'" in csp and "script-src" not in csp and "form-action 'self'" in csp
    assert "Traceback (most recent call last)" not in response.text
    return response.text


def test_every_page_is_html_under_a_strict_policy(
    client: httpx.Client, records: list[Record], hostile: Record
) -> None:
    record = next(r for r in records if r.repo == "python/cpython" and len(r.sites) > 1)
    for path in (
        "/",
        "/repos/python/cpython",
        f"/errors/{record.id}",
        f"/errors/{record.repo}/{record.slug}",
        "/explain",
        "/explain?text=ValueError%3A+Invalid+literal+for+Fraction%3A+%27x%27",
    ):
        assert_page(client.get(path), 200)
    sites = assert_page(client.get(f"/errors/{record.id}"), 200)
    for site in record.sites[1:]:
        assert f"{site.file_path}:{site.line_number}" in sites
    assert_page(client.get(f"/errors/{hostile.id}"), 200)
    css = client.get("/static/errdex.css")
    assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")


def test_hostile_text_is_escaped_in_the_html_itself(client: httpx.Client, hostile: Record) -> None:
    for response in (
        client.get(f"/errors/{hostile.id}"),
        client.get("/repos/evil/hostile"),
        client.get("/explain", params={"text": f"ValueError: {HOSTILE_MESSAGE}"}),
    ):
        html = assert_page(response, 200)
        assert "<script" not in html and "<img" not in html
        assert "&lt;script&gt;window.pwned=1&lt;/script&gt;" in html


def test_unknown_records_and_repositories_get_a_404_page(client: httpx.Client) -> None:
    for path in (
        "/errors/ffffffffffffffff",
        "/errors/python/cpython/no-such-slug",
        "/repos/nobody/nothing",
    ):
        assert "The store holds no" in assert_page(client.get(path), 404)


@pytest.mark.parametrize("encoding", ["urlencoded", "multipart"])
def test_a_paste_errdex_cannot_read_gets_a_400_page_that_says_why(
    client: httpx.Client, encoding: str
) -> None:
    cases = {"": "the paste is empty", " \n\t\n": "the paste is empty", "a\x00b": "binary"}
    for text, reason in cases.items():
        if encoding == "multipart":
            response = client.post("/explain", files={"text": (None, text)})
        else:
            response = client.post("/explain", data={"text": text})
        assert reason in assert_page(response, 400)
    assert "the paste is empty" in assert_page(client.get("/explain", params={"text": ""}), 400)
    assert "the paste is empty" in assert_page(client.post("/explain"), 400)


def test_a_paste_over_a_megabyte_is_refused_with_a_page(client: httpx.Client) -> None:
    text = "ValueError: " + "x" * 1_000_000
    response = client.post("/explain", files={"text": (None, text)})
    html = assert_page(response, 400)
    assert "over the limit" in html
    assert len(html) < 100_000  # the paste is not sent back


def test_an_answer_links_to_itself(client: httpx.Client) -> None:
    text = "ValueError: Invalid literal for Fraction: 'x'"
    posted = assert_page(client.post("/explain", files={"text": (None, text)}), 200)
    link = re.search(r'<a href="(/explain\?text=[^"]+)">Link to this answer', posted)
    assert link is not None
    linked = assert_page(client.get(link[1].replace("&amp;", "&")), 200)
    first = re.compile(r'<a class="record" href="(/errors/[0-9a-f]{16})"')
    assert first.search(posted)[1] == first.search(linked)[1]  # type: ignore[index]


def test_a_lookup_over_the_time_budget_gets_a_503_page(db: Path) -> None:
    with TestClient(create_app(str(db), time_budget=0)) as client:
        html = assert_page(client.post("/explain", data={"text": "ValueError: x"}), 503)
    assert "the lookup took longer than 0 s" in html


def test_a_file_instead_of_a_paste_gets_a_400_page(client: httpx.Client) -> None:
    response = client.post("/explain", files={"text": ("paste.txt", b"ValueError: x")})
    assert "Too many files" in assert_page(response, 400)


def test_an_error_no_raise_statement_raised_names_its_frame_first(client: httpx.Client) -> None:
    stderr = real_traceback("from fractions import Fraction; Fraction(float('nan'))")
    line = int(re.findall(r'File ".*fractions\.py", line (\d+)', stderr)[-1])
    response = client.post("/explain", files={"text": (None, stderr)})
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    page = response.text  # the paste is in its form again: assert_page would take it for a crash
    origin = re.search(r'<p class="origin">(.*?)</p>', page, re.S)
    assert origin is not None, page
    assert f"fractions.py:{line} (in __new__)" in origin[1] and "not a raise statement" in origin[1]
    assert "No record explains this error" not in page
