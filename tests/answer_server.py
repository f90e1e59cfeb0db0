"""An OpenAI-compatible chat server on loopback that answers with written answers, not a model's.

``errdex enrich --llm URL`` talks to it through the real ``openai`` client over real HTTP, as it
would to any server; the server finds the record a request is about in the prompt (the line
``Source (FILE, the raise at line N):`` errdex writes) and answers with the JSON object written
for it (``labelled.answers``).  A record it has no answer for gets ``{}``, which errdex counts
as an answer with no field it takes.  Standard library only.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_ASKED = re.compile(r"Source \((?P<file>.+?), the raise at line (?P<line>\d+)\):")
#: The largest request read: a prompt is a few KB.
_MAX_BODY = 4 << 20
MODEL = "labelled-answers"


@contextmanager
def answer_server(answers: Mapping[tuple[str, int], dict[str, Any]]) -> Iterator[str]:
    """Serve ``answers`` on a free loopback port; yields the ``/v1`` base URL."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:  # quiet: the test prints its own
            return

        def _send(self, status: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            if self.path.rstrip("/").endswith("/models"):
                self._send(200, {"object": "list", "data": [{"id": MODEL, "object": "model"}]})
            else:
                self._send(404, {"error": {"message": "not found"}})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            if not self.path.rstrip("/").endswith("/chat/completions") or length > _MAX_BODY:
                self._send(404, {"error": {"message": "not found"}})
                return
            request = json.loads(self.rfile.read(length))
            prompt = "\n".join(m.get("content") or "" for m in request.get("messages", []))
            asked = _ASKED.search(prompt)
            answer = answers.get((asked.group("file"), int(asked.group("line")))) if asked else None
            content = json.dumps(answer or {}, ensure_ascii=False)
            self._send(
                200,
                {
                    "id": f"chatcmpl-{time.monotonic_ns()}",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": request.get("model", MODEL),
                    "system_fingerprint": "labelled-1",
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": content},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": {
                        "prompt_tokens": len(prompt) // 4,
                        "completion_tokens": len(content) // 4,
                        "total_tokens": (len(prompt) + len(content)) // 4,
                    },
                },
            )

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
