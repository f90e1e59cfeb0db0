"""A corpus run: plan what the requirements name, then mine each artifact not yet done.

The store is the run's only memory.  Planning adds the artifacts the package index lists
(``errdex.corpus.plan``), each release once; the tasks (``errdex.corpus.task``) mark each
artifact done in the store as they finish.  So a run killed at any point is finished by the
next one, which fetches only what is new, changed, or not yet done, and a run on another
machine against the same PostgreSQL store sees the same queue.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from packaging.requirements import InvalidRequirement, Requirement

from errdex.corpus.task import Outcome, Task, checkout_artifact, record_failure, run_task
from errdex.errors import ErrdexError
from errdex.mine.cache import CacheCount
from errdex.record import release_key, utc_now
from errdex.store.artifacts import Artifact

if TYPE_CHECKING:
    pass

Engine = Literal["local", "ray"]
#: What ``corpus add`` keeps for a local checkout.
CHECKOUT = "path:"
#: A failed artifact waits this long before it is tried again, doubled at each further failure.
COOL_OFF_SECONDS = 3600.0
#: A run stops after this many failures in a row: something is wrong beyond one package.
MAX_CONSECUTIVE_FAILURES = 10


@dataclass(slots=True)
class RunReport:
    planned: int = 0
    #: Planning problems: (requirement, why), e.g. a project the index does not have.
    problems: list[tuple[str, str]] = field(default_factory=list)
    done: list[Artifact] = field(default_factory=list)
    failed: list[Artifact] = field(default_factory=list)
    #: Artifacts not tried in this run, with why (cooling off after a failure; the run stopped).
    skipped: list[tuple[Artifact, str]] = field(default_factory=list)
    #: Artifacts done before this run: not fetched again.
    already_done: int = 0
    cache_hits: int = 0
    cache_misses: int = 0
    seconds: float = 0.0
    stopped: str | None = None

    @property
    def cache_rate(self) -> float:
        return CacheCount(self.cache_hits, self.cache_misses).rate


def requirement_entry(text: str) -> str:
    """What ``corpus add`` stores for one argument: a PEP 508 requirement as written (checked),
    or ``path:<absolute dir>`` for a directory that exists."""
    text = text.strip()
    path = Path(text)
    if text.startswith((".", "/", "~")) or (os.sep in text and path.exists()):
        root = path.expanduser().resolve()
        if not root.is_dir():
            raise ErrdexError(f"{text} is not a directory")
        return CHECKOUT + os.fspath(root)
    try:
        Requirement(text)
    except InvalidRequirement as exc:
        raise ErrdexError(f"{text!r} is neither a package requirement nor a directory: {exc}") from None
    return text


def read_names(path: Path) -> list[str]:
    """Requirements from a file: one per line, ``#`` comments and blank lines ignored."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ErrdexError(f"cannot read {path}: {exc}") from None
    return [line.split("#", 1)[0].strip() for line in lines if line.split("#", 1)[0].strip()]


def plan(
    requirements: list[str], index_url: str, *, timeout: float = 30.0
) -> tuple[list[Artifact], list[tuple[str, str]]]:
    """The artifacts every requirement names now (from the index, or a checkout as it is), and
    the requirements that could not be planned, with why.  Reads the network, not the store."""
    from errdex.corpus import plan as planning

    found: list[Artifact] = []
    problems: list[tuple[str, str]] = []
    for entry in requirements:
        try:
            if entry.startswith(CHECKOUT):
                found.append(checkout_artifact(Path(entry.removeprefix(CHECKOUT))))
            else:
                found += planning.plan(entry, index_url=index_url, timeout=timeout)
        except ErrdexError as exc:
            problems.append((entry, str(exc)))
    return found, problems


def due(
    artifacts: list[Artifact], *, retry_failed: bool, now: float | None = None
) -> tuple[list[Artifact], list[tuple[Artifact, str]]]:
    """Of the planned artifacts, those to try now, and those skipped with why: a failed one
    waits ``COOL_OFF_SECONDS``, doubled at each further failure, unless ``retry_failed``."""
    now = time.time() if now is None else now
    wanted: list[Artifact] = []
    skipped: list[tuple[Artifact, str]] = []
    for artifact in artifacts:
        if artifact.state == "queued":
            wanted.append(artifact)
        elif artifact.state == "failed":
            ready = _failed_at(artifact) + COOL_OFF_SECONDS * 2 ** max(0, artifact.attempts - 1)
            if retry_failed or now >= ready:
                wanted.append(artifact)
            else:
                until = datetime.fromtimestamp(ready).astimezone().isoformat(timespec="minutes")
                skipped.append((artifact, f"cooling off after {artifact.attempts} failures, until {until}"))
    return wanted, skipped


def _failed_at(artifact: Artifact) -> float:
    try:
        return datetime.fromisoformat(artifact.updated_at or "").timestamp()
    except ValueError:
        return 0.0


def run(
    target: str,
    *,
    index_url: str,
    engine: Engine = "local",
    address: str | None = None,
    jobs: int | None = None,
    retry_failed: bool = False,
    max_failures: int = MAX_CONSECUTIVE_FAILURES,
    work_dir: str | None = None,
    timeout: float = 30.0,
    progress: Callable[[Outcome, int, int], None] | None = None,
) -> RunReport:
    """Plan, then run every artifact due on ``engine``; what each task finished is stored by
    the task.  Stops after ``max_failures`` failures in a row, leaving the rest queued.
    ``progress`` hears of each outcome with how many tasks are done, and of how many."""
    from errdex.store import open_store, writing

    start = time.monotonic()
    report = RunReport()
    with open_store(target) as store:
        requirements = store.corpus_requirements()
    # The index is read with the store closed: a SQLite store's other writers need not wait
    # for the network.  Only what the plan found is then added, under the writer lock.
    found, report.problems = plan(requirements, index_url, timeout=timeout)
    with writing(target), open_store(target) as store:
        report.planned = len(store.plan_artifacts(found))
        artifacts = store.artifacts()
    report.already_done = sum(a.state == "done" for a in artifacts)
    wanted, report.skipped = due(artifacts, retry_failed=retry_failed)
    tasks = [Task(a, target, work_dir) for a in _cache_friendly(wanted)]
    finished: set[tuple[str, str]] = set()
    in_a_row = 0
    outcomes = _engine(engine, tasks, jobs=jobs, address=address)
    try:
        for task, outcome in outcomes:
            finished.add(task.artifact.key)
            report.cache_hits += outcome.cache_hits
            report.cache_misses += outcome.cache_misses
            artifact = outcome.artifact
            (report.done if artifact.state == "done" else report.failed).append(artifact)
            in_a_row = 0 if artifact.state == "done" else in_a_row + 1
            if progress is not None:
                progress(outcome, len(finished), len(tasks))
            if in_a_row >= max_failures:
                report.stopped = f"{in_a_row} failures in a row; the last: {artifact.reason}"
                break
    finally:
        outcomes.close()
    report.skipped += [
        (t.artifact, "not tried: the run stopped") for t in tasks if t.artifact.key not in finished
    ]
    report.seconds = time.monotonic() - start
    return report


def _cache_friendly(artifacts: list[Artifact]) -> list[Artifact]:
    """Every package's oldest release due first, then every package's next, and so on: a
    release then finds in the file cache the files it shares with the one before, while other
    packages keep the workers busy (``_chain`` makes each package's second wait for its first)."""
    return [artifact for _, _, artifact in sorted(_ranked(artifacts), key=lambda item: item[:2])]


def _ranked(artifacts: list[Artifact]) -> list[tuple[int, str, Artifact]]:
    """Each artifact with its place among its package's releases due, oldest first (0)."""
    rank: dict[str, int] = {}
    ranked = []
    for artifact in sorted(artifacts, key=lambda a: (a.package, release_key(a.version))):
        ranked.append((rank.get(artifact.package, 0), artifact.package, artifact))
        rank[artifact.package] = rank.get(artifact.package, 0) + 1
    return ranked


def _engine(
    engine: Engine, tasks: list[Task], *, jobs: int | None, address: str | None
) -> Generator[tuple[Task, Outcome], None, None]:
    """Each task's outcome from the chosen engine; a task the engine lost (its worker or node
    died past the engine's retries) is a host failure, stored as such, left queued."""
    from errdex.corpus import engines

    workers = jobs or os.cpu_count() or 1
    chain = _chains(tasks)
    if engine == "local":
        results = engines.run_local(run_task, tasks, jobs=workers, large=_large, chain=chain)
    elif engine == "ray":
        results = engines.run_ray(run_task, tasks, address=address, jobs=jobs, large=_large, chain=chain)
    else:
        raise ErrdexError(f"--engine must be local or ray, not {engine!r}")
    try:
        for task, result in results:
            if isinstance(result, Outcome):
                yield task, result
            else:
                lost = task.artifact.but(
                    state="queued", failure="host", reason=f"lost: {result.reason}", updated_at=utc_now()
                )
                record_failure(task.db, lost)
                yield task, Outcome(lost)
    finally:
        results.close()  # stops the engine's outstanding work


def _chains(tasks: list[Task]) -> Callable[[Task], str | None]:
    """The chains the engine keeps: each package's first two releases due, so that the second
    waits for the first to be stored and finds the files they share in the file cache; the
    releases after those run as they come, their predecessors' files already cached."""
    seeds = {a.key: a.package for rank, _, a in _ranked([t.artifact for t in tasks]) if rank < 2}
    return lambda task: seeds.get(task.artifact.key)


def _large(task: Task) -> bool:
    return task.large
