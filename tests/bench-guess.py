#!/usr/bin/env python3
# tests/bench-guess.py REPO OLD-BINARY NEW-BINARY OUT.json [COUNT]: the base
# guess (doc/tree.md) measured on a real history. REPO is a clone whose
# work tree this script checks out at will (a scratch clone, never yours).
# For commits of a real history formatted without --base, reviewed with --tree
# at the first-parent commit N later: which base the note names, whether the
# patch's files there are those of the true parent, whether it applies there.
import subprocess, sys, os, time, re, json
R = sys.argv[1]; bins = dict(old=sys.argv[2], new=sys.argv[3]); out = sys.argv[4]
SCRATCH = os.environ.get("TMPDIR", "/tmp") + "/bench-guess"
NS = [50, 200, 1000]; K = int(sys.argv[5]) if len(sys.argv) > 5 else 30
def git(*a, check=True):
    return subprocess.run(["git", "-C", R] + list(a), capture_output=True, text=True, check=check).stdout
L = git("rev-list", "--first-parent", "--reverse", "HEAD").split()
lo, hi = len(L) - 1000 - 3000, len(L) - 1000
picks = []
step = (hi - lo) // (K * 3)
for i in range(lo, hi, max(step, 1)):
    c = L[i]
    if len(git("rev-list", "--parents", "-1", c).split()) != 2: continue
    files = git("diff-tree", "--no-commit-id", "--name-only", "-r", c).split()
    if not any(f.endswith(".c") for f in files) or len(files) > 20: continue
    picks.append(i)
    if len(picks) == K: break
env = dict(os.environ, PATCHREVIEW_VERIFY="no", XDG_CONFIG_HOME=os.path.join(SCRATCH, "cfg"),
           XDG_CACHE_HOME=os.path.join(SCRATCH, "cache"), HOME=os.path.join(SCRATCH, "home"))
for k in ("PATCHREVIEW_BACKEND",): env.pop(k, None)
rows = []
def blobs(commit, files):
    r = {}
    for f in files:
        o = git("ls-tree", commit, "--", f, check=False).split()
        r[f] = o[2] if len(o) >= 3 else None
    return r
for i in picks:
    c = L[i]; p = c + "^"
    files = git("diff-tree", "--no-commit-id", "--name-only", "-r", "--no-renames", c).split()
    pre = blobs(p, files)
    mail = git("format-patch", "--stdout", "-1", c)
    for n in NS:
        h = L[i + n]
        subprocess.run(["git", "-C", R, "checkout", "-q", "-f", "--detach", h], capture_output=True)
        for which, b in bins.items():
            t0 = time.time()
            r = subprocess.run([b, "--tree", R], input=mail, capture_output=True, text=True, env=env)
            dt = time.time() - t0
            notes = subprocess.run(["python3", os.path.join(os.path.dirname(os.path.abspath(__file__)), "tools", "fields.py"), "X-Patchreview-Note", "/dev/stdin"],
                                   input=r.stdout, capture_output=True, text=True).stdout
            note = next((l for l in notes.split("\n") if l.startswith("tree: ")), "")
            m = re.search(r"to commit ([0-9a-f]{12})", note)
            base = git("rev-parse", m.group(1)).strip() if m else h
            same = blobs(base, files) == pre
            applies = note.startswith("tree: the patch applies")
            rows.append(dict(c=c, n=n, which=which, same=same, applies=applies, secs=dt,
                             guessed=bool(m), partial=" of " in note and "files matched" in note, note=note[:200]))
            print(json.dumps(rows[-1]), flush=True)
json.dump(rows, open(out, "w"))
for which in bins:
    for n in NS:
        rs = [r for r in rows if r["which"] == which and r["n"] == n]
        if not rs: continue
        print("%s N=%4d: %d patches, files as at the true parent %d (%.0f%%), applies where the note says %d (%.0f%%), median run %.2f s" % (
            which, n, len(rs), sum(r["same"] for r in rs), 100 * sum(r["same"] for r in rs) / len(rs),
            sum(r["applies"] for r in rs), 100 * sum(r["applies"] for r in rs) / len(rs),
            sorted(r["secs"] for r in rs)[len(rs) // 2]))
