#!/usr/bin/env python3
"""bench-consume.py PR MAIL...: the key press on a mail reviewed at delivery,
for make bench.

For each MAIL: `PR consume` takes it as a delivery agent's pipe would, with
the stand-in model (tests/llm_server.py) answering after 1 s; once the
worker is done (its lock free), 30 key presses (PR < MAIL with the model
configured: answered from the cache and the consume state) alternate with
30 reviews of the same mail with no model. Prints the median wall time of
each and their ratio, and checks that the key presses sent the stand-in no
request. Exits 1 only when PR crashes or a key press asked the model.
Standard library only.
"""
import fcntl
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNS = 30


def timed(argv, path, env):
    """Wall seconds, CPU seconds (user + sys) and exit status of argv < path."""
    with open(path, "rb") as f:
        t = time.perf_counter()
        p = subprocess.Popen(argv, stdin=f, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, env=env)
        _, status, ru = os.wait4(p.pid, 0)
        return (time.perf_counter() - t, ru.ru_utime + ru.ru_stime,
                os.waitstatus_to_exitcode(status))


def requests(log):
    with open(log) as f:
        return sum(1 for line in f if line.strip())


def start_server(tmp):
    port_file, log = os.path.join(tmp, "port"), os.path.join(tmp, "llm.log")
    srv = subprocess.Popen([sys.executable, os.path.join(ROOT, "tests/llm_server.py"),
                            "--port-file", port_file, "--log", log, "--delay", "1",
                            "--idle", "120"], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    for _ in range(100):
        if os.path.exists(port_file) and os.path.getsize(port_file):
            break
        time.sleep(0.1)
    with open(port_file) as f:
        port = f.read().strip()
    open(log, "a").close()
    return srv, port, log


def bench(pr, mail, tmp, port, log):
    home = tempfile.mkdtemp(dir=tmp)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PATCHREVIEW_")}
    env.update(HOME=home, XDG_CONFIG_HOME=home + "/config", XDG_CACHE_HOME=home + "/cache",
               XDG_DATA_HOME=home + "/data", XDG_STATE_HOME=home + "/state")
    os.makedirs(home + "/config/patchreview")
    with open(home + "/config/patchreview/config", "w") as f:
        f.write("backend = openai\nurl = http://127.0.0.1:%s/v1\nmodel = test\n"
                "retries = 0\n" % port)
    # The delivery: consume returns at once; its worker holds the lock until done.
    before = requests(log)
    t, _, status = timed([pr, "consume"], mail, env)
    lock = home + "/state/patchreview/worker.lock"
    with open(lock) as f:
        fcntl.flock(f, fcntl.LOCK_EX)
    sent = requests(log) - before
    none = dict(env, PATCHREVIEW_BACKEND="none")
    key, plain = ([], []), ([], [])
    for _ in range(RUNS):
        for times, e, args in ((key, env, []), (plain, none, ["--no-cache"])):
            wall, cpu, status = timed([pr] + args, mail, e)
            if status >= 3:
                print("bench-consume: %s crashed (status %d) on %s" % (pr, status, mail))
                return False
            times[0].append(wall)
            times[1].append(cpu)
    asked = requests(log) - before - sent
    k, p = [statistics.median(v) * 1000 for v in key], [statistics.median(v) * 1000 for v in plain]
    print("%s: consume returned in %.0f ms, %d request(s) at delivery, %d at the key presses"
          % (os.path.basename(mail), t * 1000, sent, asked))
    print("  key press %6.1f ms wall, %5.1f ms CPU; no model %6.1f ms wall, %5.1f ms CPU; "
          "ratio %.2f wall, %.2f CPU" % (k[0], k[1], p[0], p[1], k[0] / p[0], k[1] / p[1]))
    return asked == 0 and sent > 0


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    pr, mails = sys.argv[1], [m for m in sys.argv[2:] if os.path.isfile(m)]
    tmp = tempfile.mkdtemp()
    srv, port, log = start_server(tmp)
    try:
        print("key press on a mail reviewed at delivery vs a review with no model "
              "(median of %d each, alternating; stand-in answering after 1 s):" % RUNS)
        ok = all([bench(pr, m, tmp, port, log) for m in mails])
    finally:
        srv.terminate()
        srv.wait()
        shutil.rmtree(tmp, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
