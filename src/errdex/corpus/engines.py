"""The engines that run corpus tasks, one task per artifact: a local process pool or a Ray cluster.

A task's function downloads, unpacks, mines and stores one artifact, and is idempotent: running
it again replaces what an earlier try wrote.  So an engine may rerun a task whose worker died,
and may kill work the caller no longer wants, without leaving anything half done behind.  Both
engines yield ``(task, result)`` as each task finishes, in no particular order, so the caller
records progress as it goes; a task given up on comes back as :class:`Lost` instead of raising.
A ``large`` task (an artifact big enough to need a machine's memory to itself) never runs
beside another large one: at most one at a time on the pool, one per node on a cluster.
"""

from __future__ import annotations

import gc
import importlib
import logging
import multiprocessing
import os
import sys
import time
from collections import deque
from collections.abc import Callable, Generator, Hashable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from errdex.errors import ErrdexError
from errdex.mine.pipeline import die_with_parent

__all__ = ["LARGE_RESOURCE", "Lost", "Results", "run_local", "run_ray"]

T = TypeVar("T")
R = TypeVar("R")

log = logging.getLogger(__name__)

#: The custom Ray resource a node offers once per large task it may run at a time.
LARGE_RESOURCE = "errdex_large"

#: How often the Ray engine reads the cluster again (nodes joined or lost), in seconds.
_RECHECK_S = 2.0

#: Tasks queued on a cluster per CPU, so a node that finishes one finds the next already there.
_AHEAD = 2


@dataclass(frozen=True, slots=True)
class Lost(Generic[T]):
    """A task the engine gave up on: its worker or node died past the retries, or its
    function raised (it should catch its own failures; this is the backstop)."""

    task: T
    reason: str


#: What an engine yields: each task with its result or :class:`Lost`, as each finishes; a
#: generator, so the caller can ``close()`` it to stop the rest.
Results = Generator[tuple[T, R | Lost[T]], None, None]


def _never(_task: object) -> bool:
    return False


def _unchained(_task: object) -> None:
    return None


def _reason(exc: BaseException) -> str:
    """One line for a report: the class and the first line of the message, capped."""
    text = str(exc).strip()
    first = text.splitlines()[0] if text else ""
    return f"{type(exc).__name__}: {first}"[:300] if first else type(exc).__name__


# --- the local pool --------------------------------------------------------------------------


def run_local(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    *,
    jobs: int,
    large: Callable[[T], bool] = _never,
    chain: Callable[[T], Hashable | None] = _unchained,
) -> Results[T, R]:
    """Run ``fn`` on each task in ``jobs`` worker processes (forked on Linux, and killed by the
    kernel if this process dies, even by ``kill -9``).  Tasks of one ``chain`` (the releases of
    one package) run one after another, in the order given; None chains nothing.

    Only as many tasks as workers are handed to the pool at once, so the tasks a dead worker
    takes down with its pool are exactly those running.  Which of them killed it is unknown,
    so they run again one at a time: a task whose worker dies while it runs alone is
    :class:`Lost`; the others (and one that only died beside a large artifact, of memory) get
    their result.  Closing the generator early kills the running workers: their tasks are
    idempotent, and waiting for an artifact of minutes is what the caller stopped to avoid.

    The caller must hold no SQLite connection open while it iterates (workers are forked at
    the start and after a death): a forked child inherits SQLite's lock bookkeeping for the
    file, and its own connections to it then fail or corrupt it (sqlite.org/howtocorrupt.html).
    """
    workers = max(1, jobs)
    smalls: deque[int] = deque()
    larges: deque[int] = deque()
    for n, task in enumerate(tasks):
        (larges if large(task) else smalls).append(n)
    is_large = set(larges)
    keys = [chain(task) for task in tasks]
    suspects: deque[int] = deque()  # running when a worker died: rerun alone
    running: dict[Future[R], int] = {}
    pool = _pool(workers)
    try:
        while smalls or larges or suspects or running:
            broken = not _submit_local(
                pool, fn, tasks, workers, running, (smalls, larges, suspects), is_large, keys
            )
            if not broken:
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                broken = any(isinstance(f.exception(), BrokenProcessPool) for f in done)
            if broken:  # every running future fails with it: collect them all
                done, _ = wait(running)
            died = [running[f] for f in done if isinstance(f.exception(), BrokenProcessPool)]
            for future in done:
                n = running.pop(future)
                exc = future.exception()
                if exc is None:
                    yield tasks[n], future.result()
                elif not isinstance(exc, BrokenProcessPool):
                    yield tasks[n], Lost(tasks[n], _reason(exc))
            if not broken:
                continue
            log.warning("a corpus worker died running %d task(s); starting a new pool", len(died))
            pool.shutdown(wait=True)
            pool = _pool(workers)
            if len(died) == 1:
                yield tasks[died[0]], Lost(tasks[died[0]], "its worker process died")
            else:
                suspects.extend(died)
    finally:
        _stop(pool, bool(running))


def _submit_local(
    pool: ProcessPoolExecutor,
    fn: Callable[[T], R],
    tasks: Sequence[T],
    workers: int,
    running: dict[Future[R], int],
    queues: tuple[deque[int], deque[int], deque[int]],
    is_large: set[int],
    keys: list[Hashable | None],
) -> bool:
    """Fill the free workers: a suspect alone, else the next large task if none runs (first, as
    the long pole), then small ones, each the first of its queue whose chain has none running.
    False if the pool turned out broken."""
    smalls, larges, suspects = queues

    def submit(queue: deque[int]) -> bool | None:
        n = queue.popleft() if queue is suspects else _take(queue, keys, running.values())
        if n is None:
            return None  # every task left waits for its chain
        try:
            running[pool.submit(fn, tasks[n])] = n
        except BrokenProcessPool:  # refused, so never started: queued again
            queue.appendleft(n)
            return False
        return True

    if suspects:
        return bool(running) or submit(suspects) is not False
    free = len(running) < workers and not is_large.intersection(running.values())
    if larges and free and submit(larges) is False:
        return False
    while smalls and len(running) < workers:
        submitted = submit(smalls)
        if submitted is None:
            break
        if not submitted:
            return False
    return True


def _take(queue: deque[int], keys: list[Hashable | None], running: Iterable[int]) -> int | None:
    """Take the first task of ``queue`` whose chain has no task running (None if there is none):
    a chain's tasks leave the queue in order, one at a time."""
    busy = {keys[n] for n in running} - {None}
    for i, n in enumerate(queue):
        if keys[n] is None or keys[n] not in busy:
            del queue[i]
            return n
    return None


def _pool(workers: int) -> ProcessPoolExecutor:
    # fork starts a worker in milliseconds and needs no importable __main__.  Collected first:
    # an SQLite connection no longer referenced stays open until the collector runs (cycles).
    gc.collect()
    method = "fork" if sys.platform == "linux" else "spawn"
    return ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context(method),
        initializer=die_with_parent,
        initargs=(os.getpid(),),
    )


def _stop(pool: ProcessPoolExecutor, busy: bool) -> None:
    """Shut the pool down; with tasks still running (the caller stopped early), kill its
    workers first.  Python 3.11 has no public way to (``terminate_workers`` is 3.14's)."""
    if busy:
        for process in list(pool._processes.values()):
            process.kill()
    pool.shutdown(wait=True, cancel_futures=True)


# --- Ray ---------------------------------------------------------------------------------


def run_ray(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    *,
    address: str | None,
    jobs: int | None,
    large: Callable[[T], bool] = _never,
    retries: int = 3,
    chain: Callable[[T], Hashable | None] = _unchained,
) -> Results[T, R]:
    """Run ``fn`` on each task as a Ray task, on the cluster at ``address`` (``ray://...``,
    ``host:port`` or ``auto``), or else on a local one of ``jobs`` CPUs (``None``: all).

    Ray runs a task again when its worker or node dies, up to ``retries`` times; past them, or
    if ``fn`` raised, the task is :class:`Lost`.  A large task asks for one unit of the node
    resource ``errdex_large`` (a node offers one per large task it may run at once); on a
    cluster where no node with a CPU offers it, for all the CPUs of the smallest node instead,
    so it is never left waiting for a node that does not exist, also when such nodes go away
    mid-run.  A driver already connected (``ray.init`` called before) is used as it is; a
    cluster this call started is shut down at the end, one it joined only disconnected from.
    """
    ray = _import_ray()
    owned = not ray.is_initialized()
    if owned:
        quiet: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.WARNING}
        if address:
            try:
                ray.init(address=address, **quiet)
            except ConnectionError as exc:  # after Ray's own retries, minutes
                raise ErrdexError(f"cannot join the Ray cluster at {address}: {_reason(exc)}") from None
        else:
            ray.init(num_cpus=jobs, resources={LARGE_RESOURCE: 1}, include_dashboard=False, **quiet)
    try:
        # The default scheduling: SPREAD stalls new tasks for ~10 s after a node joins or dies.
        remote = ray.remote(max_retries=retries)(fn)
        yield from _gather(ray, remote, tasks, large, chain)
    finally:
        if owned:
            ray.shutdown()


def _import_ray() -> Any:
    """Ray, imported only when asked for: it is an optional extra, and typed as ``Any`` since
    its own annotations cover little of what is used here."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise ErrdexError("--engine ray needs errdex[cluster]: pip install 'errdex[cluster]'") from None


@dataclass(frozen=True, slots=True)
class _Plan:
    """What the cluster offers now: how a large task asks for its room, and how many tasks of
    each kind to keep submitted."""

    large_options: dict[str, Any]
    large_slots: int
    small_slots: int

    @property
    def by_resource(self) -> bool:
        return "resources" in self.large_options


def _plan(ray: Any) -> _Plan:
    nodes = [node["Resources"] for node in ray.nodes() if node["Alive"]]
    cpus = [r.get("CPU", 0.0) for r in nodes if r.get("CPU", 0.0) >= 1]
    if not cpus:
        raise ErrdexError("the Ray cluster has no node with a CPU to run corpus tasks on")
    small_slots = _AHEAD * int(sum(cpus))
    large = sum(int(r.get(LARGE_RESOURCE, 0)) for r in nodes if r.get("CPU", 0.0) >= 1)
    if large:
        return _Plan({"resources": {LARGE_RESOURCE: 1}}, large, small_slots)
    return _Plan({"num_cpus": min(cpus)}, len(cpus), small_slots)


def _gather(
    ray: Any,
    remote: Any,
    tasks: Sequence[T],
    large: Callable[[T], bool],
    chain: Callable[[T], Hashable | None],
) -> Iterator[tuple[T, Any]]:
    """Keep a bounded number of tasks submitted (a corpus has tens of thousands; the scheduler
    need not hold them all), a chain's one at a time, collect each as it finishes, and cancel
    the rest if closed early."""
    exceptions = ray.exceptions
    smalls: deque[int] = deque()
    larges: deque[int] = deque()
    for n, task in enumerate(tasks):
        (larges if large(task) else smalls).append(n)
    keys = [chain(task) for task in tasks]
    flight: dict[Any, tuple[int, bool]] = {}  # ref -> (task, large)
    moved: set[Any] = set()  # large tasks cancelled to ask for their room again
    plan, checked = _plan(ray), time.monotonic()
    try:
        while smalls or larges or flight:
            in_large = sum(big for _, big in flight.values())
            while larges and in_large < plan.large_slots:
                taken = _take(larges, keys, (m for m, _ in flight.values()))
                if taken is None:
                    break
                flight[remote.options(**plan.large_options).remote(tasks[taken])] = (taken, True)
                in_large += 1
            while smalls and len(flight) - in_large < plan.small_slots:
                taken = _take(smalls, keys, (m for m, _ in flight.values()))
                if taken is None:
                    break
                flight[remote.remote(tasks[taken])] = (taken, False)
            ready, _ = ray.wait(list(flight), num_returns=1, timeout=_RECHECK_S, fetch_local=False)
            for ref in ready:
                n, _ = flight.pop(ref)
                was_moved = ref in moved
                moved.discard(ref)
                try:
                    result = ray.get(ref)
                except exceptions.TaskCancelledError as exc:
                    if was_moved:
                        larges.appendleft(n)
                        continue
                    result = Lost(tasks[n], _reason(exc))  # cancelled by someone else
                except exceptions.RayTaskError as exc:  # fn raised
                    result = Lost(tasks[n], _reason(exc.cause or exc))
                except exceptions.RayError as exc:  # its worker or node died past the retries
                    result = Lost(tasks[n], _reason(exc))
                yield tasks[n], result
            if time.monotonic() - checked >= _RECHECK_S:
                plan, checked = _replan(ray, plan, flight, moved), time.monotonic()
    finally:
        for ref in flight:
            ray.cancel(ref, force=True)


def _replan(ray: Any, plan: _Plan, flight: dict[Any, tuple[int, bool]], moved: set[Any]) -> _Plan:
    """The cluster read again; if the last node offering ``errdex_large`` is gone, the large
    tasks waiting for one are cancelled, to be submitted again asking for CPUs instead."""
    new = _plan(ray)
    if plan.by_resource and not new.by_resource:
        log.warning("no node offers %s any more; large tasks ask for whole nodes", LARGE_RESOURCE)
        for ref, (_, big) in flight.items():
            if big and ref not in moved:
                ray.cancel(ref)
                moved.add(ref)
    return new
