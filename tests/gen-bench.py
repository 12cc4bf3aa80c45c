#!/usr/bin/env python3
"""Benchmark inputs and timing for patchreview; driven by tests/bench.sh.

  gen-bench.py gen DIR
      Writes DIR/typical.eml (only when tests/mails/demo.eml is missing),
      DIR/mbox30.eml (30 format-patch patches in one message, ~360 KB),
      DIR/big20m.eml (one patch adding a ~20 MiB C file), and the series
      DIR/series30.mbox and DIR/series10.mbox (a cover letter and 30 or 10
      patches, each its own message, as git format-patch --stdout writes
      them). Deterministic.
  gen-bench.py measure PR ARGS NAME=FILE:RUNS...
      Runs "PR ARGS < FILE > /dev/null" RUNS times per input, prints wall
      time (median, max) and peak RSS (os.wait4 per child, or one extra
      run under /usr/bin/time for small ones, see measure()), then targets.
      Exits 1 only when the filter crashes (status >= 3 or a signal).
Standard library only.
"""
import os
import random
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

SEED = 20240917
BIG_TARGET = 20 * 1024 * 1024

# ---------------------------------------------------------------- generation

WORDS = ("dev priv buf len ret idx reg val mask flags ctx req node entry "
         "count offset addr irq lock state queue desc cfg hw stat").split()
CALLS = ("big_hw_read big_hw_write readl_relaxed spin_lock_irqsave "
         "mutex_lock kfree memset dev_dbg list_add_tail "
         "dma_map_single").split()


def c_stmt(rng):
    """One C-ish statement of roughly 40-80 columns, without indentation."""
    a, b, c = rng.choice(WORDS), rng.choice(WORDS), rng.choice(WORDS)
    k = rng.randrange(64)
    return rng.choice((
        f"{a}->{b}_{c} = {rng.choice(CALLS)}(priv, BIG_REG_{b.upper()}_{k});",
        f"ret = {rng.choice(CALLS)}(priv->{a}, {b} + {k}, &{c});",
        f"if ({a}->{b} & BIT({k % 32}))\n\t{c} |= BIG_{b.upper()}_MASK;",
        f"{a} = min_t(u32, {b}->{c}_len, BIG_MAX_{c.upper()});",
        f"dev_dbg(&priv->pdev->dev, \"{a} {b}=%u\\n\", {c});",
        f"for ({a} = 0; {a} < priv->num_{b}; {a}++)\n\t{c}[{a}] = 0;",
        f"{a}_{b} = ({c} >> {k % 16}) & 0x{k:02x}; /* {b} field */",
    ))


def c_function(rng, tag):
    """A small C function as a list of lines; @N@ is replaced per copy."""
    name = f"big_{rng.choice(WORDS)}_{tag}_@N@"
    lines = [f"static int {name}(struct big_priv *priv, unsigned long flags)",
             "{", "\tstruct big_dev *dev = priv->dev;", "\tint ret = 0;", "",
             "\tif (!dev || (flags & BIG_FLAG_DISABLED))",
             "\t\treturn -ENODEV;", ""]
    for _ in range(rng.randrange(6, 16)):
        lines += ["\t" + s for s in c_stmt(rng).split("\n")]
    lines += ["\tif (ret)", f"\t\tgoto err_{tag};", "\treturn 0;",
              f"err_{tag}:", "\tdev_err(&dev->dev, \"failed: %d\\n\", ret);",
              "\treturn ret;", "}", ""]
    return lines


def hexid(rng, n=40):
    return "%0*x" % (n, rng.getrandbits(4 * n))


def headers(subject, msgid):
    return "\n".join([
        "From: =?UTF-8?q?J=C3=B6rg_Hacker?= <jorg@example.org>",
        "To: linux-kernel@vger.example.org",
        "Cc: Maintainer Person <maint@example.org>, drivers@lists.example.org",
        f"Subject: {subject}",
        "Date: Mon, 16 Sep 2024 10:00:00 +0200",
        f"Message-ID: <{msgid}@example.org>",
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=UTF-8",
        "Content-Transfer-Encoding: 8bit", "", ""])


def hunk(rng, pool, old_start, new_start):
    """One hunk: 3 context, some - and + lines, 3 context; (lines, -n, +n)."""
    src = [x.replace("@N@", str(old_start)) for x in rng.choice(pool)]
    i = rng.randrange(0, max(1, len(src) - 12))
    ctx1, old = src[i:i + 3], src[i + 3:i + 3 + rng.randrange(1, 5)]
    ctx2 = src[i + 3 + len(old):i + 6 + len(old)]
    new = ["\t" + s for s in "\n".join(c_stmt(rng) for _ in range(
        rng.randrange(1, 7))).split("\n")]
    o, n = len(ctx1) + len(old) + len(ctx2), len(ctx1) + len(new) + len(ctx2)
    body = ([" " + x for x in ctx1] + ["-" + x for x in old]
            + ["+" + x for x in new] + [" " + x for x in ctx2])
    head = f"@@ -{old_start},{o} +{new_start},{n} @@ static int big_probe(void)"
    return [head] + body, len(old), len(new)


def format_patch(rng, pool, n, total, author, nfiles=(2, 5), nhunks=(5, 10)):
    """One git format-patch mail (mbox From line included) as text."""
    files = [f"drivers/big/{rng.choice(WORDS)}_{n}_{k}.c"
             for k in range(rng.randrange(*nfiles))]
    width = max(map(len, files))
    diffs, stat, ins, dels = [], [], 0, 0
    for path in files:
        d = [f"diff --git a/{path} b/{path}",
             f"index {hexid(rng, 7)}..{hexid(rng, 7)} 100644",
             f"--- a/{path}", f"+++ b/{path}"]
        fi = fd = 0
        line = rng.randrange(20, 80)
        for _ in range(rng.randrange(*nhunks)):
            h, m, p = hunk(rng, pool, line, line + fi - fd)
            d += h
            fd, fi, line = fd + m, fi + p, line + rng.randrange(40, 200)
        diffs += d
        graph = "+" * min(fi, 30) + "-" * min(fd, 30)
        stat.append(f" {path:<{width}} | {fi + fd:>3} {graph}")
        ins, dels = ins + fi, dels + fd
    what, nth = rng.choice(WORDS), f" {n}/{total}" if total > 1 else ""
    s = "s" if len(files) > 1 else ""
    msg = [f"From {hexid(rng)} Mon Sep 17 00:00:00 2001", f"From: {author}",
           "Date: Mon, 16 Sep 2024 10:00:00 +0200",
           f"Subject: [PATCH{nth}] big: rework {what} handling", "",
           f"The {what} path in the big driver took the lock twice and leaked",
           f"the {rng.choice(WORDS)} on the error path. Move the check before",
           "the allocation and unwind in reverse order.", "",
           f"Signed-off-by: {author}", "---", *stat,
           f" {len(files)} file{s} changed, {ins} insertions(+), {dels} deletions(-)",
           "", *diffs, "-- ", "2.46.0", "", ""]
    return "\n".join(msg)


def gen(outdir):
    rng = random.Random(SEED)
    pool = [c_function(rng, i) for i in range(300)]
    author = "Jörg Hacker <jorg@example.org>"
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    if not os.path.exists(os.path.join(root, "tests/mails/demo.eml")):
        # as git send-email sends it: no mbox From line, no in-body headers
        p = format_patch(rng, pool, 1, 1, author, (1, 2), (6, 9)).split("\n")
        with open(os.path.join(outdir, "typical.eml"), "w") as f:
            f.write(headers(p[3][9:], "typical-1") + "\n".join(p[5:]))

    parts = [headers("[PATCH 0/30] big: driver cleanup series", "series-0")]
    parts += [format_patch(rng, pool, n, 30, author) for n in range(1, 31)]
    with open(os.path.join(outdir, "mbox30.eml"), "w") as f:
        f.write("".join(parts))

    for total in (30, 10):
        cover = (f"From {hexid(rng)} Mon Sep 17 00:00:00 2001\nFrom: {author}\n"
                 "Date: Mon, 16 Sep 2024 10:00:00 +0200\n"
                 f"Subject: [PATCH 0/{total}] big: driver cleanup series\n\n"
                 "The big driver's error paths, one at a time.\n\n-- \n2.46.0\n\n")
        with open(os.path.join(outdir, f"series{total}.mbox"), "w") as f:
            f.write(cover + "".join(format_patch(rng, pool, n, total, author)
                                    for n in range(1, total + 1)))

    blocks = ["\n".join("+" + x if x else "+" for x in fn) + "\n" for fn in pool]
    head = headers("[PATCH] big: add the big driver", "big-1") + "\n".join([
        f"From {hexid(rng)} Mon Sep 17 00:00:00 2001", f"From: {author}",
        "Subject: [PATCH] big: add the big driver", "",
        "Add a driver for the big device.", "", f"Signed-off-by: {author}",
        "---", " drivers/big.c | @LINES@ +++++++++++++++++++++++++",
        " 1 file changed, @LINES@ insertions(+)", " create mode 100644 drivers/big.c",
        "", "diff --git a/drivers/big.c b/drivers/big.c", "new file mode 100644",
        f"index 0000000..{hexid(rng, 7)}", "--- /dev/null", "+++ b/drivers/big.c",
        "@@ -0,0 +1,@LINES@ @@", ""])
    tail = "-- \n2.46.0\n\n"
    out, size, lines, i = [], len(head.encode()) + len(tail) + 30, 0, 0
    while size < BIG_TARGET:
        b = blocks[i % len(blocks)].replace("@N@", str(i))
        if i % 4000 == 7:                       # a few trailing-whitespace lines
            b += "+\tret = 0; \t\n+\n+/* trailing space */  \n"
        out.append(b)
        size += len(b.encode())
        lines += b.count("\n")
        i += 1
    with open(os.path.join(outdir, "big20m.eml"), "w") as f:
        f.write(head.replace("@LINES@", str(lines)) + "".join(out) + tail)


# ---------------------------------------------------------------- measuring

def run_once(argv, path, errf):
    """Runs argv < path once; returns (ms, exit status or -signal, maxrss KiB)."""
    with open(path, "rb") as stdin:
        errf.seek(0)
        errf.truncate()
        t = time.perf_counter()
        p = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.DEVNULL,
                             stderr=errf)
        _, status, ru = os.wait4(p.pid, 0)
        ms = (time.perf_counter() - t) * 1000
    p.returncode = os.waitstatus_to_exitcode(status)
    return ms, p.returncode, ru.ru_maxrss


def gnu_time_rss(argv, path, errf):
    """Peak RSS in KiB from one run under /usr/bin/time -f %M, or 0."""
    if not os.access("/usr/bin/time", os.X_OK):
        return 0
    with tempfile.NamedTemporaryFile("r") as out:
        run_once(["/usr/bin/time", "-f", "%M", "-o", out.name] + argv, path, errf)
        text = out.read().split()
    return int(text[-1]) if text and text[-1].isdigit() else 0


def human(n):
    for unit in ("B", "KiB", "MiB"):
        if n < 1024 or unit == "MiB":
            return f"{n:.1f} {unit}" if unit != "B" else f"{n} B"
        n /= 1024


def measure(pr, args, specs):
    argv = [pr] + shlex.split(args)
    crashed, rows = False, {}
    with tempfile.TemporaryFile() as errf:
        # A child's ru_maxrss never reads below this process's own peak RSS
        # (Linux counts the pre-exec copy of our memory), so values at that
        # floor mean "at most"; /usr/bin/time, when present, sees below it.
        base = [run_once(["/bin/true"], "/dev/null", errf) for _ in range(20)]
        floor = max(b[2] for b in base)
        print(f"binary: {' '.join(argv)}\nspawn overhead (/bin/true): median "
              f"{statistics.median(b[0] for b in base):.2f} ms, included below\n")
        print(f"{'input':<10}{'size':>11}{'runs':>6}{'median ms':>11}{'max ms':>9}"
              f"{'peak RSS MiB':>14}{'RSS/input':>11}  exit")
        for spec in specs:
            name, rest = spec.split("=", 1)
            path, runs = rest.rsplit(":", 1)
            size = os.path.getsize(path)
            times, rss, codes = [], 0, set()
            for _ in range(int(runs)):
                try:
                    ms, code, maxrss = run_once(argv, path, errf)
                except OSError as e:
                    sys.exit(f"bench: cannot run {pr}: {e}")
                times.append(ms)
                rss, codes = max(rss, maxrss), codes | {code}
                if code < 0 or code >= 3:
                    errf.seek(0)
                    err = errf.read().decode(errors="replace")[-2000:]
                    print(f"CRASH {name}: exit {code}\n{err}", flush=True)
                    crashed = True
                    break
            mark = ""
            if rss <= floor * 1.02:     # at the floor: wait4 cannot tell
                exact = gnu_time_rss(argv, path, errf)
                rss, mark = (exact, "") if exact else (rss, "<=")
            med, mx = statistics.median(times), max(times)
            rows[name] = (med, rss * 1024, size)
            print(f"{name:<10}{human(size):>11}{len(times):>6}{med:>11.2f}{mx:>9.2f}"
                  f"{mark + format(rss / 1024, '.1f'):>14}"
                  f"{mark + format(rss * 1024 / size, '.1f'):>10}x  "
                  + ",".join(f"sig{-c}" if c < 0 else str(c)
                             for c in sorted(codes)))

    def target(label, ok, got):
        print(f"  {label:<32} {'PASS' if ok else 'MISS'}  ({got})")
    print("\ntargets:")
    first = next(iter(rows), None)     # the typical mail comes first
    if first:
        med = rows[first][0]
        target(f"{first}: median <= 5 ms", med <= 5, f"{med:.2f} ms")
    if "big20m" in rows:
        med, rss, size = rows["big20m"]
        target("big20m: median <= 1000 ms", med <= 1000, f"{med:.0f} ms")
        target("big20m: peak RSS <= 4x input", rss <= 4 * size,
               f"{rss / size:.2f}x")
    return 1 if crashed else 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "gen":
        gen(sys.argv[2])
    elif len(sys.argv) >= 5 and sys.argv[1] == "measure":
        sys.exit(measure(sys.argv[2], sys.argv[3], sys.argv[4:]))
    else:
        sys.exit(__doc__)
