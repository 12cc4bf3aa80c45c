#!/usr/bin/env python3
"""bench-checkpatch.py PATCHREVIEW TARBALL MAIL...: the speed side of issue 15.
Takes checkpatch.pl (and the two data files it reads) out of Debian's
linux-source tarball into a scratch directory, never into the checkout,
and times it against patchreview on the same mails: median wall and CPU
of repeated whole-process runs, and the ratio."""
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

RUNS = 20


def timed(cmd, mail):
    walls, cpus = [], []
    for _ in range(RUNS):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        with open(mail, 'rb') as f:
            subprocess.run(cmd, stdin=f, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls) * 1000, statistics.median(cpus) * 1000


def main():
    pr, tarball, mails = sys.argv[1], sys.argv[2], sys.argv[3:]
    with tempfile.TemporaryDirectory() as d:
        names = ['scripts/checkpatch.pl', 'scripts/spelling.txt', 'scripts/const_structs.checkpatch']
        top = subprocess.run(['tar', '-tJf', tarball], capture_output=True, text=True).stdout.split('\n', 1)[0]
        top = top.split('/')[0]
        subprocess.run(['tar', '-xJf', tarball, '-C', d] + ['%s/%s' % (top, n) for n in names], check=True)
        cp = os.path.join(d, top, 'scripts/checkpatch.pl')
        print('%-28s %14s %14s %12s' % ('mail', 'checkpatch ms', 'patchreview ms', 'ratio'))
        for mail in mails:
            cw, cc = timed(['perl', cp, '--no-tree', '--show-types', '--terse', '-'], mail)
            pw, pc = timed([pr, '--no-cache', '--quiet', '--format', 'json'], mail)
            print('%-28s %6.0f (%4.0f cpu) %6.1f (%4.1f cpu) %5.0fx wall %4.0fx cpu'
                  % (os.path.basename(mail)[:28], cw, cc, pw, pc, cw / pw, cc / max(pc, 0.01)))


main()
