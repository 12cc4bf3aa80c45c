#!/usr/bin/env python3
"""layout.py: the shape of filter/. Prints the include graph between its
folders and fails when it has a cycle, when an include does not name an
existing file as "folder/file.h", or when a .c file is over 600 lines."""
import os
import re
import sys

MAX_LINES = 600
root = sys.argv[1] if len(sys.argv) > 1 else "filter"
problems, edges = [], {}
for dirpath, _, names in os.walk(root):
    for name in sorted(names):
        if not name.endswith((".c", ".h")):
            continue
        path = os.path.join(dirpath, name)
        rel = os.path.relpath(path, root)
        folder = os.path.dirname(rel) or "(top)"
        lines = open(path, encoding="utf-8").read().split("\n")
        if name.endswith(".c") and len(lines) - 1 > MAX_LINES:
            problems.append("%s: %d lines (over %d)" % (rel, len(lines) - 1, MAX_LINES))
        for line in lines:
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not m:
                continue
            target = m.group(1)
            if not os.path.isfile(os.path.join(root, target)):
                problems.append('%s: #include "%s" names no file under %s/' % (rel, target, root))
                continue
            to = os.path.dirname(target) or "(top)"
            if to != folder:
                edges.setdefault(folder, set()).add(to)

# A cycle: depth-first search with colours.
state, stack = {}, []
def visit(n):
    state[n] = 1
    stack.append(n)
    for m in sorted(edges.get(n, ())):
        if state.get(m) == 1:
            problems.append("include cycle: " + " -> ".join(stack[stack.index(m):] + [m]))
        elif not state.get(m):
            visit(m)
    stack.pop()
    state[n] = 2
for n in sorted(edges):
    if not state.get(n):
        visit(n)

for n in sorted(edges):
    print("%-8s -> %s" % (n, " ".join(sorted(edges[n]))))
for p in problems:
    print("PROBLEM: " + p)
sys.exit(1 if problems else 0)
