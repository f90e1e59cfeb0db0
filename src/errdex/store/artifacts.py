"""What a corpus run keeps of each artifact it plans: one release's file, and how its mining went.

An artifact is keyed by package and release: a release is mined from one file (its sdist,
else a wheel), and a changed file for the same release (re-uploaded, or a new kind) queues it
again.  The state lives in the store beside the records, so that every engine and every rerun
of ``errdex corpus run`` sees what is done, whoever did it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

State = Literal["queued", "done", "failed", "skipped"]
#: Why a task failed: the package (a bad archive, a checksum that does not match, a miner error),
#: or the host (no space, no memory, cannot fork): the second is not the artifact's fault and
#: is retried without cooling off.
FailureKind = Literal["package", "host"]
STATES: tuple[State, ...] = ("queued", "done", "failed", "skipped")


@dataclass(frozen=True, slots=True)
class Artifact:
    #: The canonical project name (PEP 503), and the release.
    package: str
    version: str
    filename: str
    #: Where it is downloaded from; for a local checkout, its absolute path.
    url: str
    #: Hex sha256 and size in bytes, as the package index lists them (None for a checkout).
    sha256: str | None
    size: int | None
    #: ``sdist``, ``wheel`` or ``checkout``.
    kind: str
    upload_time: str | None = None
    state: State = "queued"
    #: Why it failed or was skipped; None while queued or once done.
    reason: str | None = None
    failure: FailureKind | None = None
    #: Failed tries since it last succeeded: how long it cools off before the next.
    attempts: int = 0
    #: When it last changed state (ISO 8601, UTC).
    updated_at: str | None = None
    #: Records stored for it, once done.
    records: int = 0

    @property
    def key(self) -> tuple[str, str]:
        return (self.package, self.version)

    def but(self, **changes: object) -> Artifact:
        return replace(self, **changes)  # type: ignore[arg-type]
