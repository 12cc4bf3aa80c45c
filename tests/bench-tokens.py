#!/usr/bin/env python3
"""bench-tokens.py PR CORPUS [NAME=BASE_PR...]: what each model request
weighs, for make bench (issue 22), this build beside earlier ones.

Every mail and mbox of CORPUS goes through each build, with its defaults,
against the stand-in server (tests/llm_server.py, no findings, so no verify
request), which logs what it is sent; earlier builds had no --requests-out,
so this is the one way that measures them all alike. Each request is split
by its fences: instructions (the system prompt and the words around the
fences), patch (<<<PATCH), tree context (<<<CONTEXT), series context
(<<<SERIES, and the thread's <<<THREAD). Printed per build: the number of
requests, the mean and the maximum of each part, the tokens of the two
large patches of the corpus (dm-vdo, 1.26 MB, and the 216 KB one-file cifs
patch) and the largest request against the build's context_tokens (from
--list-keys); then this build over each base, so that more reads above 1.
Tokens are estimated as the program estimates them for its budget
(TOKEN_BYTES, backend/budget.h): 3 bytes a token. Standard library only.
"""
import glob
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FENCES = {"PATCH": "patch", "CONTEXT": "tree", "SERIES": "series", "THREAD": "series"}
PARTS = ("instructions", "patch", "tree", "series")
TOKEN_BYTES = 3
LARGE = (("dm-vdo 1.26 MB", "lore-dm-vdo-large-patch.eml"),
         ("cifs 216 KB, one file", "lore-cifs-large-qp-patch.eml"))


def text_of(content):
    if isinstance(content, str):
        return content
    if isinstance(content, list):      # Anthropic's and OpenAI's parts
        return "".join(p.get("text", "") if isinstance(p, dict) else str(p) for p in content)
    return json.dumps(content) if content else ""


def split(request):
    """Bytes of each part of one request body."""
    sizes = dict.fromkeys(PARTS, 0)
    sizes["instructions"] = len(text_of(request.get("system")))
    for message in request.get("messages", []):
        text = text_of(message.get("content"))
        rest = len(text)
        for m in re.finditer(r"^<<<(\w+)\n.*?^\1>>>$", text, re.M | re.S):
            part = FENCES.get(m.group(1))
            if part:
                sizes[part] += len(m.group(0))
                rest -= len(m.group(0))
        sizes["instructions"] += rest
    return sizes


def keys(pr):
    """context_tokens and max_tokens of pr's defaults (None when it has none)."""
    out = subprocess.run([pr, "--list-keys"], capture_output=True, text=True).stdout
    found = dict(re.findall(r"^(context_tokens|max_tokens)\s+(\d+)", out, re.M))
    return {k: int(v) for k, v in found.items()}


def start_server(d):
    port_file, log = os.path.join(d, "port"), os.path.join(d, "log")
    server = subprocess.Popen([sys.executable, os.path.join(ROOT, "tests/llm_server.py"),
                               "--port-file", port_file, "--log", log,
                               "--scenario", "ok-empty", "--idle", "600"])
    for _ in range(100):
        if os.path.exists(port_file) and open(port_file).read().strip():
            return server, int(open(port_file).read()), log
        time.sleep(0.05)
    server.terminate()
    sys.exit("bench-tokens: the stand-in server did not start")


def measure(pr, mails, d):
    """{mail: [sizes of each request]} for one build."""
    os.makedirs(d)
    server, port, log = start_server(d)
    env = dict(os.environ, PATCHREVIEW_BACKEND="openai", PATCHREVIEW_MODEL="bench",
               PATCHREVIEW_URL=f"http://127.0.0.1:{port}/v1", PATCHREVIEW_CACHE="no",
               PATCHREVIEW_VERIFY="no", PATCHREVIEW_API_KEY="bench",
               XDG_CACHE_HOME=os.path.join(d, "cache"), XDG_DATA_HOME=os.path.join(d, "data"))
    out, seen = {}, 0
    try:
        for mail in mails:
            with open(mail, "rb") as f:
                subprocess.run([pr, "--quiet", "--no-cache"], stdin=f, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            lines = open(log).read().splitlines() if os.path.exists(log) else []
            out[mail] = [split(json.loads(l)["body"] or {}) for l in lines[seen:]]
            seen = len(lines)
    finally:
        server.terminate()
        server.wait()
    return out


def total(r):
    return sum(r.values())


def main():
    if len(sys.argv) < 3 or not all("=" in a for a in sys.argv[3:]):
        sys.exit(__doc__)
    pr, corpus = sys.argv[1:3]
    builds = [("this", pr)] + [tuple(a.split("=", 1)) for a in sys.argv[3:]]
    mails = sorted(glob.glob(os.path.join(corpus, "*.eml")) + glob.glob(os.path.join(corpus, "*.mbox")))
    if not mails:
        print(f"\nbench-tokens: no mails in {corpus}; skipped")
        return 0
    res = {}
    with tempfile.TemporaryDirectory() as d:
        for k, (name, b) in enumerate(builds):
            res[name] = measure(b, mails, os.path.join(d, str(k)))
    names = [n for n, _ in builds]
    print(f"\ntokens per request (bytes / {TOKEN_BYTES}, estimated), defaults, "
          f"{len(mails)} mails of {corpus}; mean / max over all requests")
    print(f"{'part':<16}" + "".join(f"{n + ' mean':>14}{n + ' max':>14}" for n in names))
    rows = {n: [r for rs in res[n].values() for r in rs] for n in names}
    print(f"{'requests':<16}" + "".join(f"{len(rows[n]):>14}{'':>14}" for n in names))
    for part in PARTS + ("total",):
        cells = ""
        for n in names:
            v = [total(r) if part == "total" else r[part] for r in rows[n]] or [0]
            cells += f"{statistics.mean(v) / TOKEN_BYTES:>14.0f}{max(v) / TOKEN_BYTES:>14.0f}"
        print(f"{part:<16}{cells}")
    print("\nlarge patches: requests, all their tokens, the largest request")
    for label, name in LARGE:
        path = os.path.join(corpus, name)
        if path not in res["this"]:
            continue
        cells = ""
        for n in names:
            rs = res[n][path]
            cells += f"   {n}: {len(rs)}, {sum(map(total, rs)) / TOKEN_BYTES / 1000:.0f}k, " \
                     f"{max(map(total, rs), default=0) / TOKEN_BYTES / 1000:.1f}k"
        print(f"{label:<22}{cells}")
    print("\nthe largest request against the build's context_tokens (max_tokens kept for the answer)")
    for n, b in builds:
        k = keys(b)
        big = max(map(total, rows[n]), default=0) / TOKEN_BYTES
        if "context_tokens" in k and k["context_tokens"]:
            room = k["context_tokens"] - k.get("max_tokens", 0)
            print(f"  {n}: {big:.0f} tokens of {room} ({k['context_tokens']} - {k.get('max_tokens', 0)}): "
                  f"{big / room:.2f}, {'within' if big <= room else 'OVER'}")
        else:
            print(f"  {n}: {big:.0f} tokens; no context_tokens")
    for n in names[1:]:
        a, b = rows["this"], rows[n]
        if a and b:
            print(f"  this/{n}: requests {len(a) / len(b):.2f}, tokens "
                  f"{sum(map(total, a)) / max(sum(map(total, b)), 1):.2f}, largest request "
                  f"{max(map(total, a)) / max(max(map(total, b)), 1):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
