"""Ordinary code that makes the Python standard library raise (from its Python source)."""

LIBRARY = "stdlib"

SNIPPETS = [
    """
    import json
    json.loads("")
    """,
    """
    import json
    json.loads('{"name": "ada"} trailing')
    """,
    """
    import json
    json.dumps({"when": object})
    """,
    """
    import ipaddress
    ipaddress.ip_address("300.1.1.1")
    """,
    """
    import ipaddress
    ipaddress.ip_network("10.0.0.1/24")
    """,
    """
    import ipaddress
    ipaddress.IPv4Address("192.168.1")
    """,
    """
    import ipaddress
    ipaddress.IPv4Address("10.0.0.256")
    """,
    """
    from datetime import datetime
    datetime.strptime("2024-13-01", "%Y-%m-%d")
    """,
    """
    from datetime import datetime
    datetime.strptime("2024-01-01 10:00", "%Y-%m-%d")
    """,
    """
    import argparse
    parser = argparse.ArgumentParser(prog="tool", exit_on_error=False)
    parser.add_argument("--count", type=int)
    parser.parse_args(["--count", "many"])
    """,
    """
    import argparse
    parser = argparse.ArgumentParser(prog="tool")
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("-v", "--version", action="version")
    """,
    """
    import argparse
    parser = argparse.ArgumentParser(prog="tool", exit_on_error=False)
    parser.add_argument("--mode", choices=["fast", "slow"])
    parser.parse_args(["--mode", "medium"])
    """,
    """
    import shlex
    shlex.split('echo "unterminated')
    """,
    """
    import configparser
    config = configparser.ConfigParser()
    config.read_string("[server]\\nport = 80\\n[server]\\nport = 81\\n")
    """,
    """
    import configparser
    config = configparser.ConfigParser()
    config.read_string("port = 80\\n")
    """,
    """
    import configparser
    config = configparser.ConfigParser()
    config.read_string("[paths]\\nhome = %(base)s/home\\n")
    config.get("paths", "home")
    """,
    """
    import configparser
    config = configparser.ConfigParser()
    config.get("database", "host")
    """,
    """
    from fractions import Fraction
    Fraction("three quarters")
    """,
    """
    from fractions import Fraction
    Fraction(7, 0)
    """,
    """
    import statistics
    statistics.mean([])
    """,
    """
    import statistics
    statistics.stdev([4.5])
    """,
    """
    import textwrap
    textwrap.wrap("some words to wrap", width=0)
    """,
    """
    import uuid
    uuid.UUID("not-a-uuid")
    """,
    """
    import base64
    base64.b32decode("MZXW6")
    """,
    """
    import base64
    base64.b16decode("zz")
    """,
    """
    import tomllib
    tomllib.loads("title = \\"x\\"\\ntitle = \\"y\\"\\n")
    """,
    """
    import tomllib
    tomllib.loads("[tool]\\nname = \\n")
    """,
    """
    import io, zipfile
    zipfile.ZipFile(io.BytesIO(b"definitely not a zip archive"))
    """,
    """
    import io, tarfile
    tarfile.open(fileobj=io.BytesIO(b"junk" * 200))
    """,
    """
    import email.utils
    email.utils.parsedate_to_datetime("yesterday at noon")
    """,
    """
    import inspect
    inspect.signature(42)
    """,
    """
    import functools

    @functools.singledispatch
    def render(value):
        return str(value)

    render.register(3)
    """,
    """
    import functools

    @functools.total_ordering
    class Version:
        pass
    """,
    """
    from pathlib import PurePosixPath
    PurePosixPath("/srv/app/static").relative_to("/var/www")
    """,
    """
    from pathlib import PurePosixPath
    PurePosixPath("report.txt").with_suffix("pdf")
    """,
    """
    from urllib.parse import urlsplit
    urlsplit("http://[::1/index.html")
    """,
    """
    from urllib.parse import urlsplit
    urlsplit("http://example.com:eighty/").port
    """,
    """
    import string
    string.Template("Total: $").substitute(total=3)
    """,
    """
    import calendar
    calendar.monthrange(2024, 13)
    """,
    """
    from collections import namedtuple
    namedtuple("Point", ["x", "y", "x"])
    """,
    """
    from collections import namedtuple
    namedtuple("Row", ["id", "class"])
    """,
    """
    import enum

    class Color(enum.Enum):
        RED = 1
        GREEN = 2

    Color(5)
    """,
    """
    import random
    random.choice([])
    """,
    """
    import random
    random.randrange(10, 5)
    """,
    """
    import random
    random.sample(range(3), 5)
    """,
    """
    import logging.config
    logging.config.dictConfig({"version": 2})
    """,
    """
    import logging.config
    logging.config.dictConfig({"version": 1, "handlers": {"audit": {"class": "nowhere.AuditHandler"}}})
    """,
    """
    import importlib
    importlib.import_module("..helpers")
    """,
    """
    from dataclasses import dataclass

    @dataclass
    class Basket:
        items: list = []
    """,
    """
    from dataclasses import dataclass

    @dataclass
    class Point:
        x: int = 0
        y: int
    """,
    """
    from contextlib import contextmanager

    @contextmanager
    def opened():
        if False:
            yield

    with opened():
        pass
    """,
    """
    import os.path
    os.path.join("/srv", 8080)
    """,
    """
    import getopt
    getopt.getopt(["-x", "file"], "ab:")
    """,
    """
    import re
    re.compile("(unclosed")
    """,
    """
    import re
    re.compile("*wild")
    """,
    """
    import re
    re.compile(r"\\q")
    """,
    """
    import re
    re.compile("(?<name>x)")
    """,
    """
    import re
    re.compile("[z-a]")
    """,
    """
    import gzip
    gzip.decompress(b"plain text, not gzip")
    """,
    """
    import plistlib
    plistlib.loads(b"not a plist")
    """,
    """
    from http.cookies import Morsel
    Morsel().set("expires", "x", "x")
    """,
    """
    import difflib
    difflib.get_close_matches("apple", ["ape", "apply"], n=0)
    """,
    """
    import subprocess
    subprocess.run(["cat"], input=b"data", stdin=subprocess.PIPE)
    """,
    """
    import asyncio
    asyncio.run(42)
    """,
    """
    from concurrent.futures import ThreadPoolExecutor
    ThreadPoolExecutor(max_workers=0)
    """,
    """
    import threading
    threading.Semaphore(-1)
    """,
    """
    import queue
    queue.Queue().get_nowait()
    """,
    """
    from email.message import EmailMessage
    message = EmailMessage()
    message["To"] = "ada@example.com"
    message["To"] = "bob@example.com"
    """,
    """
    import shutil
    shutil.unpack_archive("/nonexistent/backup.rar")
    """,
    """
    import zoneinfo
    zoneinfo.ZoneInfo("Mars/Olympus_Mons")
    """,
    """
    import ipaddress
    ipaddress.ip_interface("fe80::1/129")
    """,
    """
    import json
    json.loads('{"a": 1} {"b": 2}')
    """,
    """
    from datetime import datetime
    datetime.strptime("31/12/2023", "%d/%m/%Y %H")
    """,
]
