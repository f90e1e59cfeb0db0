"""The errors of ``http-errors``' ``createError(status, message, props)``: how Express, Koa,
body-parser and their kin answer a request with an error.

Its class and default message follow from the status (``createError(413)`` is a
``PayloadTooLargeError`` saying "Payload Too Large"), and its stack starts at the call
(``Error.captureStackTrace(err, createError)``), so each call is a site of its own.  The names
are those of the ``statuses`` package that ``http-errors`` 2 reads, as it turns them into
classes (``toClassName``: "Error" appended unless the name ends with it).
"""

from __future__ import annotations

MODULE = "http-errors"

#: Status codes ``http-errors`` makes a class of (4xx and 5xx), with their messages.
STATUS_MESSAGES = {
    400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden",
    404: "Not Found", 405: "Method Not Allowed", 406: "Not Acceptable",
    407: "Proxy Authentication Required", 408: "Request Timeout", 409: "Conflict", 410: "Gone",
    411: "Length Required", 412: "Precondition Failed", 413: "Payload Too Large",
    414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable",
    417: "Expectation Failed", 418: "I'm a Teapot", 421: "Misdirected Request",
    422: "Unprocessable Entity", 423: "Locked", 424: "Failed Dependency", 425: "Too Early",
    426: "Upgrade Required", 428: "Precondition Required", 429: "Too Many Requests",
    431: "Request Header Fields Too Large", 451: "Unavailable For Legal Reasons",
    500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway",
    503: "Service Unavailable", 504: "Gateway Timeout", 505: "HTTP Version Not Supported",
    506: "Variant Also Negotiates", 507: "Insufficient Storage", 508: "Loop Detected",
    509: "Bandwidth Limit Exceeded", 510: "Not Extended", 511: "Network Authentication Required",
}  # fmt: skip


def class_name(status: int) -> str:
    """The class ``createError(status)`` makes: ``NotFoundError``, ``InternalServerError``."""
    words = STATUS_MESSAGES[status].replace("'", "").replace("-", " ").split()
    name = "".join(w[:1].upper() + w[1:] for w in words)
    return name if name.endswith("Error") else f"{name}Error"
