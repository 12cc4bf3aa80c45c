#!/usr/bin/env python3
"""bench-tokens.py PR CORPUS: what each model request weighs, for make bench.

Every mail and mbox of CORPUS goes through PR --requests-out (a backend is
named, none is asked), and each request written is split by its fences:
instructions (the system prompt and the words around the fences), patch
(<<<PATCH), tree context (<<<CONTEXT), series context (<<<SERIES, and the
thread's <<<THREAD). Prints the mean and the maximum of each over all
requests, and the number of requests. Tokens are estimated as bytes / 4
until the token budget (issue 22) gives the program its own count: this
is the hook that will print it. Standard library only.
"""
import glob
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

FENCES = {"PATCH": "patch", "CONTEXT": "tree", "SERIES": "series", "THREAD": "series"}
PARTS = ("instructions", "patch", "tree", "series")


def split(request):
    """Bytes of each part of one request."""
    sizes = dict.fromkeys(PARTS, 0)
    sizes["instructions"] = len(request.get("system") or "")
    for message in request.get("messages", []):
        text = message.get("content") or ""
        if not isinstance(text, str):
            text = json.dumps(text)
        rest = len(text)
        for m in re.finditer(r"^<<<(\w+)\n.*?^\1>>>$", text, re.M | re.S):
            part = FENCES.get(m.group(1))
            if part:
                sizes[part] += len(m.group(0))
                rest -= len(m.group(0))
        sizes["instructions"] += rest
    return sizes


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    pr, corpus = sys.argv[1:]
    mails = sorted(glob.glob(os.path.join(corpus, "*.eml")) + glob.glob(os.path.join(corpus, "*.mbox")))
    env = dict(os.environ, PATCHREVIEW_BACKEND="openai", PATCHREVIEW_MODEL="bench",
               PATCHREVIEW_URL="http://127.0.0.1:9/v1", PATCHREVIEW_CACHE="no")
    rows = []
    with tempfile.TemporaryDirectory() as d:
        for k, mail in enumerate(mails):
            out = os.path.join(d, str(k))
            os.mkdir(out)
            with open(mail, "rb") as f:
                subprocess.run([pr, "--quiet", "--requests-out", out], stdin=f, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for path in glob.glob(os.path.join(out, "*.json")):
                with open(path) as f:
                    rows.append(split(json.load(f)))
    print(f"\ntokens per request (bytes / 4, estimated): {len(rows)} requests "
          f"from {len(mails)} mails of {corpus}")
    if not rows:
        return 0
    print(f"{'part':<14}{'mean':>10}{'max':>10}")
    for part in PARTS + ("total",):
        values = [sum(r.values()) if part == "total" else r[part] for r in rows]
        print(f"{part:<14}{statistics.mean(values) / 4:>10.0f}{max(values) / 4:>10.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
