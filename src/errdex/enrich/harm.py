"""What no field may carry, whoever wrote it and whatever the record says: actions on the user's
system, installs the error does not call for, requests for secrets, and text addressed to a
language model or an agent.

These rules read the answer alone, never to excuse it by the input: a mined docstring that tells
its reader to ``curl ... | sh`` is data the model was shown, and an answer repeating it is still
dropped.  Code is checked here as text too (a comment is text); what a snippet calls is the
language's to read (``ClaimReader.snippet``'s ``dangerous``), and so are the names a language's
system calls and environment dumps go by in any text (``ClaimReader.SYSTEM_CALLS``,
``ENVIRONMENT_DUMPS``), each language's applied whatever the record's.  The one thing the record
decides is which package an install may name: its own, or one its message names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from errdex.languages import LANGUAGES
from errdex.record import canonical

#: Shell and system actions, in prose or in code, as a user would be told to run them.
_SHELL = [
    (
        re.compile(r"(?:^|[`$;&|(]\s*|\b(?:run|then|and|or|sudo)\s+)rm\s+\S", re.I | re.M),
        "deletes files (rm)",
    ),
    (re.compile(r"\brm\s+(?:-{1,2}[a-z-]+\s+)*(?:-[a-z]*[rf]|[~/$*.])", re.I), "deletes files (rm)"),
    (re.compile(r"(?:^|[`$;&|]\s*)(?:unlink|rd|rmdir|del|erase)\s+\S", re.I | re.M), "deletes files"),
    (
        re.compile(
            r"(?:^|[`$;&|(]\s*|\brun\s+)(?:ba|z|k|da)?sh\s+[\w./~-]+\.sh\b|(?:^|[`\s])\./[\w./-]+\.sh\b|\bsource\s+[\w./~-]+\.sh\b",
            re.I | re.M,
        ),
        "runs a script",
    ),
    (
        re.compile(
            r">>?\s*(?:/etc/|/usr/|/bin/|/boot/|~/\.(?:bashrc|zshrc|profile|bash_profile|ssh)|\$HOME/\.)",
            re.I,
        ),
        "writes system files",
    ),
    (
        re.compile(
            r"\bdocker\s+(?:run\s+--privileged|rm\b|rmi\b|system\s+prune|volume\s+rm)|\bkubectl\s+delete\b",
            re.I,
        ),
        "removes containers or data",
    ),
    (
        re.compile(r"\b(?:reg\s+(?:add|delete)|setx|Set-ExecutionPolicy|bcdedit|diskpart)\b", re.I),
        "changes the system",
    ),
    (
        re.compile(
            r"\bnpx\s+\S|\bpipx\s+run\b|\buvx\s+\S|\beasy_install\b|\bpipenv\s+install\b",
            re.I,
        ),
        "runs or installs a tool",
    ),
    (
        re.compile(
            r"\b(?:uname\s+-a|whoami|ifconfig|ipconfig|netstat|systeminfo|lsof\s+-i)\b|/etc/hosts\b", re.I
        ),
        "reads the system's details",
    ),
    (re.compile(r"\b(?:rmdir|rimraf|shred|mkfs(?:\.\w+)?|fdisk|wipefs)\b", re.I), "deletes or formats"),
    (re.compile(r"\bdd\s+if=", re.I), "writes a device (dd)"),
    (re.compile(r"\b(?:chmod|chown|chgrp|icacls|takeown|setfacl)\b", re.I), "changes permissions"),
    (re.compile(r"\b(?:sudo|doas|runas)\b|\bsu\s+(?:-|root)", re.I), "runs as another user"),
    (re.compile(r"\b(?:curl|wget|iwr|Invoke-WebRequest|Invoke-RestMethod|irm)\b", re.I), "downloads"),
    (
        re.compile(r"\|\s*(?:sudo\s+)?(?:ba|z|da|k|c|fi)?sh\b|\bsh\s+-c\b|\bbash\s+<\(", re.I),
        "pipes into a shell",
    ),
    (
        re.compile(r"\b(?:iex|Invoke-Expression|powershell(?:\.exe)?|cmd(?:\.exe)?\s+/c)\b", re.I),
        "runs a shell",
    ),
    (re.compile(r"\b(?:killall|pkill|kill\s+-9|shutdown|reboot|halt|poweroff)\b", re.I), "stops processes"),
    (
        re.compile(r"\b(?:systemctl|crontab|iptables|ufw\s+disable|setenforce|launchctl)\b", re.I),
        "changes the system",
    ),
    (
        re.compile(r"\bgit\s+(?:reset\s+--hard|clean\s+-[a-z]*f|push\s+(?:-f|--force))", re.I),
        "discards work (git)",
    ),
    (re.compile(r"\bformat\s+[a-z]:|\bdel\s+/[sfq]|\bRemove-Item\b", re.I), "deletes files"),
    (re.compile(r":\(\)\s*\{|>\s*/dev/(?:sd|nvme|hd)", re.I), "damages the system"),
    (
        re.compile(r"\bfind\s+\S+.*?\s-(?:delete|exec\s+rm)\b|\bxargs\s+(?:-\S+\s+)*(?:rm|pip)\b", re.I),
        "deletes files (find)",
    ),
    (re.compile(r"\|\s*xargs\b|\bfind\s+\S+.*?\s-exec\b", re.I), "runs a command over many files"),
    (
        re.compile(
            r"\b(?:sed|perl|ruby)\s+(?:-\w+\s+)*-[a-z]*i|\btruncate\s+-s|\bmv\s+\S+\s+/dev/null", re.I
        ),
        "rewrites files in place",
    ),
]
#: Every language's calls that act on the system, after the shell's: a model may name any
#: language's in prose, whatever the record's is (each reader's, once: TypeScript shares one).
_READERS = {id(entry.claims): entry.claims for entry in LANGUAGES.values() if entry.claims is not None}
_SYSTEM_ACTIONS = [*_SHELL, *(call for reader in _READERS.values() for call in reader.SYSTEM_CALLS)]
_ENVIRONMENT_DUMPS = [reader.ENVIRONMENT_DUMPS for reader in _READERS.values()]
#: Asking for secrets or for the system's details.
_SECRET_PLACES = re.compile(
    r"~/\.ssh|\.ssh/|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|/etc/(?:passwd|shadow|sudoers)|\.aws/credentials|"
    r"\.netrc\b|\.pypirc\b|\.npmrc\b|\.docker/config\.json|\.kube/config|\bprintenv\b|"
    r"\.git-credentials\b|\b(?:cat|type|Get-Content|more|less)\s+\S*\.env\b|\b(?:cat|type)\s+\S*(?:credentials|secrets?|tokens?)\b",
    re.I,
)
#: What a user's environment or installation is made of, asked to be shared: details, not a fix.
_SHARE_DETAILS = re.compile(
    r"\b(?:share|send|paste|post|upload|email|e-mail|attach)\b[^.\n]{0,60}?\b(?:pip\s+freeze|pip\s+list|conda\s+list|"
    r"nvidia-smi|env\b|printenv|set\b|history|logs?\s+of\s+your\s+shell)",
    re.I,
)
#: A request, not a description: the verb in its plain form, not denied (``does not send back
#: the cookie``) and not a method (``console.log(tokens)``).
_REVEAL = re.compile(
    r"(?<![.\w])(?<!\bnot )(?<!never )(?<!\bdoes )(?<!\bdo )(?<!\bdid )(?<!n't )(?:share|send|paste|post|upload|email|e-mail|reveal|disclose|print|echo|cat|show|display|dump|log|"
    r"give|provide|include|tell)\b[^.\n]{0,60}?\b(?:your|the|all|any|their|my|our|users?'?s?|these|those)\s+"
    r"(?:[\w-]+\s+){0,2}?(?:api[\s_-]?keys?|access[\s_-]?keys?|secret[\s_-]?keys?|"
    r"tokens?|passwords?|passphrases?|credentials?|private[\s_-]?keys?|ssh[\s_-]?keys?|cookies?|"
    r"session[\s_-]?ids?|environment(?:\s+variables)?)\b",
    re.I,
)
#: An environment dump as a command: ``env``, ``set`` alone on a line or in backticks.
_ENV_COMMAND = re.compile(r"(?:^|`|\$\s*)(?:env|set|export\s+-p)\s*(?:`|$)", re.M)
#: Text addressed to a model or an agent, not to the developer.
_INJECTION = [
    re.compile(
        r"\b(?:ignore|disregard|forget|override|bypass|skip|drop)\b[^.\n]{0,40}?\b(?:previous|prior|above|earlier|"
        r"preceding|all|any|your|the|system|safety|remaining|user'?s?)\b[^.\n]{0,30}?\b(?:instructions?|prompts?|rules?|"
        r"messages?|directions?|guidelines?|guardrails?|constraints?|checks?|policies|policy|facts|source|code|"
        r"context|question|request|task|validation|assertions?|verification)\b",
        re.I,
    ),
    re.compile(
        r"<\|[a-z_]*\|>|\[/?INST\]|<</?SYS>>|</?(?:system|assistant|user|tool)>|\[(?:system|assistant)\b",
        re.I,
    ),
    re.compile(
        r"(?:^|[.!?:;]\s+|\n|[\"'`(\[#/*]\s*)(?:system|assistant|developer|ai|llm|gpt)\s*[:>,]\s", re.I
    ),
    re.compile(r"\b(?:SYSTEM|ASSISTANT|DEVELOPER)\b\s*[:,]"),
    re.compile(r"^\s*#{1,4}\s*(?:instructions?|system|assistant|response|prompt)\s*:?\s*$", re.I | re.M),
    re.compile(
        r"\b(?:you\s+are\s+now|from\s+now\s+on,?\s+you|act\s+as\s+(?:an?\s+)?(?:unrestricted|different|new)|"
        r"developer\s+mode|jailbreak|do\s+anything\s+now|system\s+prompt|new\s+instructions?|"
        r"as\s+an\s+(?:ai|a\.i\.|llm|language\s+model)|dear\s+(?:ai|assistant|model|llm)|"
        r"if\s+you\s+are\s+an?\s+(?:ai|llm|language\s+model|assistant|agent|bot)|"
        r"mark\s+(?:this|the)\s+(?:answer|fix|snippet|code|record|field|file|output)\s+as\s+(?:verified|safe|correct|approved)|"
        r"approve\s+(?:this|it|the\s+(?:answer|fix|snippet|file))\b|(?:stop|skip)\s+(?:validating|verifying|checking)\b|"
        r"(?:report|treat)\s+(?:this|it)\s+as\s+(?:safe|verified|valid))\b",
        re.I,
    ),
    re.compile(
        r"\b(?:ai|a\.i\.|llm|gpt|chatbot|language[\s-]models?|assistants?|coding[\s-]agents?|autonomous\s+"
        r"agents?|automated\s+agents?|agents?)\b[^.\n]{0,40}?\b(?:reading|processing|parsing|seeing|reviewing|"
        r"summari[sz]ing|checking|validating)\s+this\b",
        re.I,
    ),
    re.compile(
        r"\b(?:note|message|instruction|reminder|attention|important)\s*(?:to|for|:)\s+(?:the\s+|any\s+)?(?:ai|a\.i\.|"
        r"llm|gpt|models?|assistants?|agents?|bots?|reviewers?|language\s+models?)\b",
        re.I,
    ),
    re.compile(
        r"\b(?:ai|llm|gpt|automated)\s+(?:code\s+)?(?:agents?|assistants?|models?|tools?|reviewers?|checkers?|"
        r"validators?|bots?|systems?)\b|\b(?:coding|autonomous)\s+agents?\b|\blanguage\s+models?\b",
        re.I,
    ),
    re.compile(r"\b(?:tell|instruct|ask|convince|advise)\s+(?:the\s+)?users?\s+(?:to|that)\b", re.I),
    re.compile(
        r"\b(?:reply|respond|answer|output)\s+(?:only\s+(?:with\s+)?|with\s+only\b|that\s|the\s+word\b)", re.I
    ),
    re.compile(r"\bdo\s+not\s+(?:tell|inform|warn|show)\s+the\s+user\b", re.I),
    re.compile(r"<!--|\[//\]:\s*#|\{\{\s*system|\bBEGIN\s+(?:SYSTEM|PROMPT|INSTRUCTIONS)\b", re.I),
    re.compile(
        r"\b(?:repeat|print|reveal|show|output|leak)\s+(?:the|your)\s+(?:above|previous|system|initial|hidden)\s+"
        r"(?:text|prompt|instructions?|messages?|context)\b",
        re.I,
    ),
]
#: Characters that hide or reorder text: nothing a developer's explanation needs.
_INVISIBLE = re.compile(
    "[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u00ad\U000e0000-\U000e007f]"
)
#: An install, upgrade or removal, the package named after its options.
_INSTALLER = re.compile(
    r"\b(?:pip(?:\d(?:\.\d+)?)?|python[\d.]*\s+-m\s+pip|uv\s+pip|uv|pipx|poetry|pdm|conda|mamba|micromamba|npm|pnpm|yarn|bun|"
    r"apt(?:-get)?|brew|yum|dnf|pacman|apk|choco|winget|gem|cargo|go)\s+(install|add|i|uninstall|remove|"
    r"rm|un|purge|upgrade|update|get)\b((?:[ \t]+[^\s`;|&]+)*)",
    re.I,
)
#: Package managers of the system, not of the language: what they install is no library's.
_SYSTEM_INSTALLERS = re.compile(r"^(?:apt(?:-get)?|brew|yum|dnf|pacman|apk|choco|winget)\b", re.I)
_RISKY_OPTIONS = re.compile(
    r"--force-reinstall|--break-system-packages|--ignore-installed|--no-deps|--pre\b|--index-url|"
    r"--extra-index-url|-i\s|--trusted-host|--global|-g\b|--unsafe-perm|--force\b|-f\b",
    re.I,
)
_UPGRADE = re.compile(r"(?:^|\s)(?:-U|--upgrade|--latest|@latest)\b|\S@latest\b")
#: Words of an error that speak of versions, so that upgrading is an answer to it.
_VERSIONED = re.compile(
    r"\b(?:upgrade|update|newer|older|later|outdated|at\s+least|minimum|version|requires?)\b|>=|\s-U\b", re.I
)
_REQUIREMENT_NAME = re.compile(r"^([A-Za-z0-9@][A-Za-z0-9._/@-]*)")


def harmful(text: str, allowed_packages: Iterable[str], upgrades: bool = False) -> str | None:
    """Why ``text`` must not reach a user, or None: a system action, an install of what the
    error does not name, a request for secrets, hidden characters, or words for a model.

    ``upgrades`` says whether the error itself speaks of versions (``upgrades_asked``): an
    upgrade it does not call for claims that a newer release behaves otherwise, which nothing
    showed."""
    if _INVISIBLE.search(text):
        return "holds characters that hide or reorder text"
    for pattern in _INJECTION:
        if pattern.search(text):
            return "holds text addressed to a model or an agent"
    if (
        _SECRET_PLACES.search(text)
        or _REVEAL.search(text)
        or _ENV_COMMAND.search(text)
        or _SHARE_DETAILS.search(text)
        or any(dump.search(text) for dump in _ENVIRONMENT_DUMPS)
    ):
        return "asks for secrets or the system's details"
    allowed = {canonical(p) for p in allowed_packages if p}
    for match in _INSTALLER.finditer(text):
        reason = _install(match, allowed, upgrades)
        if reason is not None:
            return reason
    for pattern, what in _SYSTEM_ACTIONS:
        if pattern.search(text):
            return f"tells the user to run a system action: {what}"
    return None


def _install(match: re.Match[str], allowed: set[str], upgrades: bool) -> str | None:
    """What is wrong with one install command, or None for an install of a package the record
    allows, with no option that forces or redirects it (and an upgrade only where asked)."""
    tool, verb, rest = match.group(0).split()[0], match.group(1).lower(), match.group(2) or ""
    # What one command names ends with its sentence: ``pip install x. After that ...``.
    rest = re.split(r"(?<=[\w\]])[.:](?:\s|$)|[,)]|\s(?=[A-Z][a-z])", rest, maxsplit=1)[0]
    if _SYSTEM_INSTALLERS.match(match.group(0)):
        return f"installs system software ({tool} {verb})"
    if verb in ("uninstall", "remove", "rm", "un", "purge"):
        return f"removes a package ({tool} {verb})"
    if _RISKY_OPTIONS.search(rest + " "):
        return f"installs with an option that forces or redirects it ({match.group(0).strip()})"
    if not upgrades and (verb in ("upgrade", "update") or _UPGRADE.search(rest + " ")):
        return f"upgrades a package where the error speaks of no version or requirement ({match.group(0).strip()})"
    named = [word for word in rest.split() if not word.startswith("-")]
    if tool.lower() == "go" or tool.lower() == "cargo":
        return f"installs {' '.join(named) or 'a tool'} with {tool}"
    for word in named:
        found = _REQUIREMENT_NAME.match(word.strip("\"'"))
        if found is None:
            continue
        name = (
            re.split(r"[\[<>=!~;@]", found.group(1).lstrip("@"), maxsplit=1)[0]
            if not word.startswith("@")
            else "@" + found.group(1).lstrip("@").split("@")[0]
        )
        if canonical(name) not in allowed:
            return f"installs a package the error does not name ({name})"
    return None


def allowed_installs(package: str | None, message: str, words: Iterable[str]) -> set[str]:
    """What an install may name for a record: its own package, and any package its message
    names (``pip install deepspeed`` in the message, or a word of it that is a known
    dependency, ``words``)."""
    allowed = {package} if package else set()
    for match in _INSTALLER.finditer(message):
        allowed.update(w.strip("`'\"") for w in (match.group(2) or "").split() if not w.startswith("-"))
        allowed.update(
            re.split(r"[\[<>=!~;]", w.strip("`'\""), maxsplit=1)[0] for w in (match.group(2) or "").split()
        )
    text = message.lower()
    allowed.update(w for w in words if w and re.search(rf"(?<![\w-]){re.escape(w.lower())}(?![\w-])", text))
    return {a for a in allowed if a}


def upgrades_asked(message: str) -> bool:
    """Whether an error's message speaks of versions or requirements, so that telling its user
    to upgrade answers what it says."""
    return _VERSIONED.search(message) is not None
