#!/usr/bin/env python3
"""bench-compare.py PR DIR CORPUS CHECKPATCH NAME=BASE_PR...: this build
against earlier ones, and all against the anchors, for make bench (issue 22).

  side by side  PR and each BASE_PR (built from BENCH_BASE) on the same inputs,
                runs interleaved: the typical mail, the large real patch of
                the corpus, the generated inputs of DIR (gen-bench.py), and
                each check's worst case (gen-worst.py, at 4 times its N).
                Median CPU time (user + system) of each, and this over
                each base: a regression reads as a number above 1.
  anchors       a bare process start (/bin/true) and git mailinfo on the
                typical mail (ratio: patchreview over the anchor, goal at
                most 1.2 for mailinfo), checkpatch.pl on the typical and
                the large mail (ratio: checkpatch.pl over patchreview, goals
                at least 50 and 1000). CHECKPATCH is the script, or "" when
                there is none.
CPU time, not wall: other work on the machine moves it less. Not a
pass/fail test: exits 1 only when a build crashes. Standard library only.
"""
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARGS = ["--no-cache", "--quiet"]


def cpu_ms(argv, stdin_path):
    """Runs argv < stdin_path once; (CPU ms of the child, exit status)."""
    with open(stdin_path, "rb") as f:
        p = subprocess.Popen(argv, stdin=f, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
    return (ru.ru_utime + ru.ru_stime) * 1000, os.waitstatus_to_exitcode(status)


def medians(cmds, stdin_path, runs):
    """The median CPU ms of each command, runs of them interleaved."""
    times = [[] for _ in cmds]
    for _ in range(runs):
        for k, argv in enumerate(cmds):
            ms, code = cpu_ms(argv, stdin_path)
            if code < 0 or code >= 3:
                sys.exit(f"bench: {' '.join(argv)} < {stdin_path}: exit {code}")
            times[k].append(ms)
    return [statistics.median(t) for t in times]


def human(n):
    return f"{n / 1024 / 1024:.1f} MiB" if n >= 1 << 20 else f"{n / 1024:.1f} KiB"


def inputs(d, corpus):
    """(name, path, runs) of the side-by-side inputs."""
    typical = os.path.join(ROOT, "tests/mails/demo.eml")
    out = [("typical", typical, 30)]
    large = os.path.join(corpus, "lore-dm-vdo-large-patch.eml")
    if os.path.exists(large):
        out.append(("dm-vdo (corpus)", large, 7))
    cifs = os.path.join(corpus, "lore-cifs-large-qp-patch.eml")
    if os.path.exists(cifs):
        out.append(("cifs 216 KB (corpus)", cifs, 7))
    out += [("mbox30", os.path.join(d, "mbox30.eml"), 7),
            ("series30", os.path.join(d, "series30.mbox"), 7),
            ("big20m", os.path.join(d, "big20m.eml"), 3)]
    gen = os.path.join(ROOT, "tests/gen-worst.py")
    cases = subprocess.run([sys.executable, gen, "list"], capture_output=True, text=True,
                           check=True).stdout.split("\n")
    for line in filter(None, cases):
        name, n, check = line.split()
        if check == "checkpatch":
            continue            # needs a tree; t19-linear covers it
        path = os.path.join(d, f"worst-{name}.eml")
        with open(path, "w") as f:
            subprocess.run([sys.executable, gen, name, str(4 * int(n))], stdout=f, check=True)
        out.append((f"worst {name}", path, 5))
    return out


def side_by_side(pr, bases, d, corpus):
    print(f"\nside by side: this build ({pr}) and " +
          ", ".join(f"{n} ({b})" for n, b in bases) + "; median CPU ms, runs interleaved")
    print(f"{'input':<22}{'size':>11}{'runs':>6}{'this ms':>10}" +
          "".join(f"{n + ' ms':>12}{'this/' + n:>16}" for n, _ in bases))
    for name, path, runs in inputs(d, corpus):
        t = medians([[pr] + ARGS] + [[b] + ARGS for _, b in bases], path, runs)
        print(f"{name:<22}{human(os.path.getsize(path)):>11}{runs:>6}{t[0]:>10.2f}" +
              "".join(f"{w:>12.2f}{t[0] / max(w, 0.001):>16.2f}" for w in t[1:]))


def anchors(pr, bases, corpus, checkpatch):
    typical = os.path.join(ROOT, "tests/mails/demo.eml")
    large = os.path.join(corpus, "lore-dm-vdo-large-patch.eml")
    names = ["this"] + [n for n, _ in bases]
    cmds = [[pr] + ARGS] + [[b] + ARGS for _, b in bases]
    print("\nanchors: median CPU ms; patchreview over a process start and git mailinfo, "
          "checkpatch.pl over patchreview")
    print(f"{'anchor':<34}{'anchor ms':>10}" + "".join(f"{n:>10}" for n in names) + "  goal")
    t = medians(cmds + [["/bin/true"]], typical, 30)
    true = t.pop()
    print(f"{'process start (/bin/true)':<34}{true:>10.2f}" +
          "".join(f"{x / max(true, 0.001):>9.2f}x" for x in t))
    mailinfo = medians([["git", "mailinfo", os.devnull, os.devnull]], typical, 30)[0]
    print(f"{'git mailinfo, typical mail':<34}{mailinfo:>10.2f}" +
          "".join(f"{x / max(mailinfo, 0.001):>9.2f}x" for x in t) + "  at most 1.2x")
    if not checkpatch:
        print("checkpatch.pl: none (no Linux tree, no linux-source tarball); not compared")
        return
    cp = ["perl", checkpatch, "--no-tree", "--show-types", "--terse", "-"]
    for label, mail, runs, goal in (("typical", typical, 5, 50), ("large (dm-vdo)", large, 1, 1000)):
        if not os.path.exists(mail):
            continue
        c = medians([cp], mail, runs)[0]
        t = medians(cmds, mail, 7)
        print(f"{'checkpatch.pl, ' + label:<34}{c:>10.0f}" +
              "".join(f"{c / max(x, 0.001):>9.0f}x" for x in t) + f"  at least {goal}x")


def main():
    if len(sys.argv) < 6 or not all("=" in a for a in sys.argv[5:]):
        sys.exit(__doc__)
    pr, d, corpus, checkpatch = sys.argv[1:5]
    bases = [tuple(a.split("=", 1)) for a in sys.argv[5:]]
    side_by_side(pr, bases, d, corpus)
    anchors(pr, bases, corpus, checkpatch)
    return 0


if __name__ == "__main__":
    sys.exit(main())
