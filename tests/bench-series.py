#!/usr/bin/env python3
"""bench-series.py PR DIR: a series through patchreview, for make bench.

  parse+draft  PR < DIR/series30.mbox (a cover letter and 30 patches, no
               model): median wall time, and peak RSS above that of a run
               on one small mail (the fixed cost of the libraries) against
               the mbox's size; in the same run, git mailsplit plus one git
               mailinfo per message on the same mbox, and the ratio.
  requests     PR -j 10 and -j 1 on DIR/series10.mbox with the stand-in
               model server (tests/llm_server.py) answering each request
               after 1 s: the wall time of each.
Targets: parse+draft under 50 ms and 4x the input; -j 10 under 2 s (and
-j 1 about 10 s). Prints PASS or MISS; exits 1 only when PR crashes.
Standard library only.
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(argv, stdin_path, env=None):
    """Runs argv < stdin_path; returns (seconds, exit status, peak RSS KiB or 0)."""
    with open(stdin_path, "rb") as f:
        t = time.perf_counter()
        p = subprocess.Popen(argv, stdin=f, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, env=env)
        _, status, ru = os.wait4(p.pid, 0)
        return time.perf_counter() - t, os.waitstatus_to_exitcode(status), ru.ru_maxrss


def peak_rss(argv, stdin_path):
    """Peak RSS in KiB under /usr/bin/time, which sees below this process's own."""
    if not os.access("/usr/bin/time", os.X_OK):
        return 0
    with tempfile.NamedTemporaryFile("r") as out:
        run(["/usr/bin/time", "-f", "%M", "-o", out.name] + argv, stdin_path)
        text = out.read().split()
    return int(text[-1]) if text and text[-1].isdigit() else 0


def git_mailsplit_mailinfo(mbox, scratch):
    """git mailsplit, then git mailinfo on every message; wall seconds."""
    t = time.perf_counter()
    subprocess.run(["git", "mailsplit", "-o" + scratch, mbox], check=True,
                   stdout=subprocess.DEVNULL)
    for name in sorted(os.listdir(scratch)):
        with open(os.path.join(scratch, name), "rb") as f:
            # The cover letter has no patch: mailinfo says so and exits 1.
            subprocess.run(["git", "mailinfo", os.path.join(scratch, "msg"),
                            os.path.join(scratch, "patch")], stdin=f,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.unlink(os.path.join(scratch, name))
    return time.perf_counter() - t


def target(label, ok, got):
    print(f"  {label:<44} {'PASS' if ok else 'MISS'}  ({got})")


def parse_and_draft(pr, mbox):
    size = os.path.getsize(mbox)
    runs = [run([pr, "--no-cache", "--quiet"], mbox) for _ in range(20)]
    if any(code < 0 or code >= 3 for _, code, _ in runs):
        print(f"CRASH: {pr} on {mbox}: exit {runs[0][1]}")
        return False
    ms = statistics.median(r[0] for r in runs) * 1000
    rss = peak_rss([pr, "--no-cache", "--quiet"], mbox) or max(r[2] for r in runs)
    # What any run costs (the libraries GMime loads): the typical mail's peak.
    base = peak_rss([pr, "--no-cache", "--quiet"], os.path.join(ROOT, "tests/mails/demo.eml"))
    grown = (rss - base) * 1024 / size
    print(f"series30.mbox ({size / 1024:.0f} KiB, 31 messages), no model, 20 runs: "
          f"median {ms:.1f} ms, peak RSS {rss / 1024:.1f} MiB, {(rss - base) / 1024:.1f} "
          f"MiB above a one-mail run's {base / 1024:.1f} MiB ({grown:.1f}x the mbox)")
    if shutil.which("git"):
        with tempfile.TemporaryDirectory() as d:
            git = statistics.median(git_mailsplit_mailinfo(mbox, d) for _ in range(5)) * 1000
        print(f"git mailsplit + 31 git mailinfo on the same mbox, 5 runs: median "
              f"{git:.1f} ms; patchreview, review and drafts included, takes "
              f"{ms / git:.2f}x that")
    target("series30: parse and draft under 50 ms", ms < 50, f"{ms:.1f} ms")
    target("series30: memory above a one-mail run < 4x", grown < 4, f"{grown:.1f}x")
    return True


def requests(pr, mbox):
    with tempfile.TemporaryDirectory() as d:
        port_file = os.path.join(d, "port")
        server = subprocess.Popen([sys.executable, os.path.join(ROOT, "tests/llm_server.py"),
                                   "--port-file", port_file, "--delay", "1", "--idle", "120"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(100):
                if os.path.exists(port_file):
                    break
                time.sleep(0.1)
            port = open(port_file).read().strip()
            env = dict(os.environ, PATCHREVIEW_BACKEND="openai", PATCHREVIEW_MODEL="bench",
                       PATCHREVIEW_URL=f"http://127.0.0.1:{port}/v1", PATCHREVIEW_CACHE="no")
            times = {}
            for jobs in (10, 1):
                secs, code, _ = run([pr, "--quiet", "-j", str(jobs)], mbox, env)
                if code < 0 or code >= 3:
                    print(f"CRASH: {pr} -j {jobs}: exit {code}")
                    return False
                times[jobs] = secs
                print(f"series10.mbox, stand-in answering after 1 s, -j {jobs}: {secs:.2f} s wall")
        finally:
            server.terminate()
            server.wait()
    target("series10, -j 10: under 2 s", times[10] < 2, f"{times[10]:.2f} s")
    target("series10, -j 1: about 10 s (9-12 s)", 9 <= times[1] <= 12, f"{times[1]:.2f} s")
    return True


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    pr, d = sys.argv[1], sys.argv[2]
    print("\nseries:")
    ok = parse_and_draft(pr, os.path.join(d, "series30.mbox"))
    ok = requests(pr, os.path.join(d, "series10.mbox")) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
