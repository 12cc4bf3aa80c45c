#!/usr/bin/env python3
"""checks-work.py OUT: the work of each built-in check in a callgrind
profile (valgrind --tool=callgrind --callgrind-out-file=OUT patchreview),
as instructions: one line per check ("kstyle 123456"), then "checks",
all of them with the series checks, and "run", the whole program.
A count of instructions moves with the work done, not with the machine's
load, so tests compare two of them. Reads callgrind_annotate's inclusive
costs; standard library only.
"""
import re
import subprocess
import sys

# Where each check starts: file and function, under filter/.
ENTRIES = {
    "checks/form.c:run": "form", "checks/message.c:run": "message",
    "checks/log.c:run": "log", "checks/whitespace.c:run": "whitespace",
    "checks/kstyle.c:run": "kstyle", "checks/kcode.c:run": "kcode",
    "checks/spelling.c:run": "spelling", "checks/tree.c:tree_run": "tree",
    "checks/tree.c:checks_checkpatch_start": "checkpatch",
    "checks/tree.c:checks_checkpatch_finish": "checkpatch", "series/checks.c:series_check": "series",
    "run/reviewers.c:reviewers_run_all": "checks", "run/reviewers.c:reviewers_run_series": "checks",
    "main.c:main": "run",
}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", "--auto=no",
                           sys.argv[1]],
                          capture_output=True, text=True, check=True).stdout
    work = dict.fromkeys(ENTRIES.values(), 0)
    for m in re.finditer(r"^\s*([\d,]+) \([^)]*\)\s+\S*?filter/(\S+:\w+) \[", text, re.M):
        name = ENTRIES.get(m.group(2))
        if name:
            work[name] += int(m.group(1).replace(",", ""))
    for name, ir in work.items():
        print(name, ir)


if __name__ == "__main__":
    main()
