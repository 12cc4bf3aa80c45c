#!/usr/bin/env python3
# tests/bench-guess.py REPO OLD-BINARY NEW-BINARY OUT.json [COUNT]: the base
# guess (doc/tree.md) measured on a real history. REPO is a clone whose
# work tree this script checks out at will (a scratch clone, never yours).
# For COUNT commits of a real history (30) formatted without --base, reviewed
# with --tree at the first-parent commit N later (50, 200, 1,000), each binary
# writes its model request (--requests-out, no model asked), and for each:
#   files   the patch's files at the base the note names are the true parent's
#   code    every item of the request's context (changed functions, callees,
#           definitions) is, line for line, in the commit's own tree: the code
#           as the author saw it, with the patch (items marked "[..." cut aside)
#   applies the note says the patch applies, and it does there
# and the wall time of the whole run (git included).
import subprocess, sys, os, time, re, json, tempfile
R = sys.argv[1]; bins = dict(old=sys.argv[2], new=sys.argv[3]); out = sys.argv[4]
SCRATCH = os.environ.get("TMPDIR", "/tmp") + "/bench-guess"
NS = [50, 200, 1000]; K = int(sys.argv[5]) if len(sys.argv) > 5 else 30
def git(*a, check=True):
    return subprocess.run(["git", "-C", R] + list(a), capture_output=True, text=True,
                          errors="replace", check=check).stdout
L = git("rev-list", "--first-parent", "--reverse", "HEAD").split()
lo, hi = len(L) - 1000 - 3000, len(L) - 1000
picks = []
step = (hi - lo) // (K * 3)
for i in range(max(lo, 0), hi, max(step, 1)):
    c = L[i]
    if len(git("rev-list", "--parents", "-1", c).split()) != 2: continue
    files = git("diff-tree", "--no-commit-id", "--name-only", "-r", c).split()
    if not any(f.endswith(".c") for f in files) or len(files) > 20: continue
    picks.append(i)
    if len(picks) == K: break
env = dict(os.environ, PATCHREVIEW_VERIFY="no", XDG_CONFIG_HOME=os.path.join(SCRATCH, "cfg"),
           XDG_CACHE_HOME=os.path.join(SCRATCH, "cache"), HOME=os.path.join(SCRATCH, "home"))
# A backend is needed for a request to be written; --requests-out stops before any is sent.
env.update(PATCHREVIEW_BACKEND="openai", PATCHREVIEW_URL="http://127.0.0.1:9/v1",
           PATCHREVIEW_PROMPTS_DIR=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "prompts"))
rows = []
def blobs(commit, files):
    r = {}
    for f in files:
        o = git("ls-tree", commit, "--", f, check=False).split()
        r[f] = o[2] if len(o) >= 3 else None
    return r
shown = {}
def show(commit, path):
    if (commit, path) not in shown:
        shown[(commit, path)] = git("show", "%s:%s" % (commit, path), check=False)
    return shown[(commit, path)]
def context_of(req):
    """The note and the items of the request's context fence."""
    u = json.load(open(req))["messages"][0]["content"]
    a = u.find("\n<<<CONTEXT\n")
    if a < 0: return "", []
    body = u[a + 12:u.find("\nCONTEXT>>>", a)]
    # an item is "=== path:N-M: what", a call "=== path:N, in f(): what"
    parts = re.split(r"^=== (\S+?):\d+(?:-\d+)?[:,] .*\n", body, flags=re.M)
    return parts[0].strip(), [(parts[k], parts[k + 1]) for k in range(1, len(parts) - 1, 2)]
def as_author_saw(commit, items):
    """Every run of lines of every item is in the commit's version of its file."""
    for path, text in items:
        have = show(commit, path)
        for run in re.split(r"^\[\.\.\..*\]\n", text, flags=re.M):
            if run.strip() and run.rstrip("\n") not in have: return False
    return True
tmp = tempfile.mkdtemp(prefix="bench-guess-")
for i in picks:
    c = L[i]; p = c + "^"
    files = git("diff-tree", "--no-commit-id", "--name-only", "-r", "--no-renames", c).split()
    pre = blobs(p, files)
    mail = git("format-patch", "--stdout", "-1", c)
    for n in NS:
        if i + n >= len(L): continue
        h = L[i + n]
        subprocess.run(["git", "-C", R, "checkout", "-q", "-f", "--detach", h], capture_output=True)
        for which, b in bins.items():
            req = os.path.join(tmp, "%s.json" % which)
            # A long patch is reviewed in parts (which.part1.json...), each with the same context.
            for f in os.listdir(tmp):
                if f.startswith(which + "."): os.unlink(os.path.join(tmp, f))
            t0 = time.time()
            subprocess.run([b, "--tree", R, "--requests-out", tmp, "--request-name", which],
                           input=mail, capture_output=True, text=True, env=env)
            dt = time.time() - t0
            if not os.path.exists(req): req = os.path.join(tmp, "%s.part1.json" % which)
            note, items = context_of(req) if os.path.exists(req) else ("", [])
            m = re.search(r"to commit ([0-9a-f]{12})", note)
            base = git("rev-parse", m.group(1)).strip() if m else h
            same = blobs(base, files) == pre
            applies = note.startswith("tree: the patch applies")
            rows.append(dict(c=c, n=n, which=which, same=same, applies=applies, secs=dt,
                             items=len(items), code=bool(items) and as_author_saw(c, items),
                             guessed=bool(m), note=note[:200]))
            print(json.dumps(rows[-1]), flush=True)
json.dump(rows, open(out, "w"))
for which in bins:
    for n in NS:
        rs = [r for r in rows if r["which"] == which and r["n"] == n]
        if not rs: continue
        withc = [r for r in rs if r["items"]]
        print("%s N=%4d: %d patches, files as at the true parent %d, context as the author saw it %d of %d with context, applies where the note says %d, median run %.2f s" % (
            which, n, len(rs), sum(r["same"] for r in rs), sum(r["code"] for r in withc), len(withc),
            sum(r["applies"] for r in rs), sorted(r["secs"] for r in rs)[len(rs) // 2]))
