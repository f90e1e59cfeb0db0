"""What changed in a package's errors between two of its releases.

Records are compared by what a reader meets: the class and the message template.  A template
only one release has is added or removed; a removed and an added one raised in the same
function of the same file, with the same class, is one message changed (its wording edited).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from errdex.errors import ErrdexError
from errdex.record import Record, canonical

if TYPE_CHECKING:
    from errdex.store import Store


@dataclass(slots=True)
class ReleaseDiff:
    package: str
    old: str
    new: str
    added: list[Record] = field(default_factory=list)
    removed: list[Record] = field(default_factory=list)
    #: (in the old release, in the new one).
    changed: list[tuple[Record, Record]] = field(default_factory=list)
    unchanged: int = 0

    def to_json(self) -> dict[str, object]:
        def brief(r: Record) -> dict[str, object]:
            return {
                "id": r.id,
                "errorClass": r.error_class,
                "errorMessage": r.error_message,
                "messagePattern": r.message_pattern,
                "filePath": r.file_path,
                "lineNumber": r.line_number,
                "function": r.function,
            }

        return {
            "package": self.package,
            "old": self.old,
            "new": self.new,
            "added": [brief(r) for r in self.added],
            "removed": [brief(r) for r in self.removed],
            "changed": [{"old": brief(a), "new": brief(b)} for a, b in self.changed],
            "unchanged": self.unchanged,
        }


def _key(record: Record) -> tuple[str, str]:
    return (record.error_class or "", record.message_pattern)


def _place(record: Record) -> tuple[str, str, str]:
    return (record.file_path, record.function or "", record.error_class or "")


def diff_releases(store: Store, package: str, old: str, new: str) -> ReleaseDiff:
    """The messages added, removed and changed from release ``old`` to ``new`` of ``package``."""
    name = canonical(package)
    # The package as the store keeps it: a corpus keeps canonical names, an index the
    # distribution's own spelling.
    infos = [info for info in store.repos() if info.package and canonical(info.package) == name]
    releases = {info.version for info in infos}
    for version in (old, new):
        if version not in releases:
            known = ", ".join(sorted(v or "?" for v in releases)) or "none"
            raise ErrdexError(f"no release {version} of {name} in the store (it has: {known})")
    stored = infos[0].package
    before = {_key(r): r for r in store.records(package=stored, version=old)}
    after = {_key(r): r for r in store.records(package=stored, version=new)}
    result = ReleaseDiff(name, old, new)
    result.unchanged = len(before.keys() & after.keys())
    gone = [before[k] for k in sorted(before.keys() - after.keys())]
    came = [after[k] for k in sorted(after.keys() - before.keys())]
    arrivals: dict[tuple[str, str, str], list[Record]] = defaultdict(list)
    for record in came:
        arrivals[_place(record)].append(record)
    paired: set[str] = set()
    for record in gone:
        candidates = arrivals.get(_place(record))
        if candidates:
            successor = candidates.pop(0)
            paired.add(successor.id)
            result.changed.append((record, successor))
        else:
            result.removed.append(record)
    result.added = [r for r in came if r.id not in paired]
    return result
