#!/usr/bin/env python3
"""layout.py: the shape of filter/. Prints the include graph between its
folders and fails when it has a cycle, when the modules (a .c and its .h)
depend on each other in a cycle, when an include does not name an existing
file as "folder/file.h", when a .c file is over 600 lines, or when a folder
holds more than 20 files."""
import os
import re
import sys

MAX_LINES = 600
MAX_FILES = 20
# Folders whose file cycles are being cut in work not merged yet; each is
# a problem again once its cycle is gone, so that the entry goes too.
PENDING = {}

root = sys.argv[1] if len(sys.argv) > 1 else "filter"
problems, edges, sources = [], {}, {}
for dirpath, _, names in os.walk(root):
    code = [n for n in sorted(names) if n.endswith((".c", ".h"))]
    if len(code) > MAX_FILES:
        problems.append("%s/: %d files (over %d)" % (os.path.relpath(dirpath, root), len(code), MAX_FILES))
    for name in code:
        path = os.path.join(dirpath, name)
        rel = os.path.relpath(path, root)
        folder = os.path.dirname(rel) or "(top)"
        text = open(path, encoding="utf-8").read()
        sources[rel] = text
        lines = text.split("\n")
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

def cycles(graph):
    """One cycle of each strongly connected part of graph (Tarjan), as a list of nodes."""
    index, low, stack, on, found = {}, {}, [], set(), []
    def connect(n):
        index[n] = low[n] = len(index)
        stack.append(n)
        on.add(n)
        for m in sorted(graph.get(n, ())):
            if m not in index:
                connect(m)
                low[n] = min(low[n], low[m])
            elif m in on:
                low[n] = min(low[n], index[m])
        if low[n] == index[n]:
            part = set()
            while True:
                m = stack.pop()
                on.discard(m)
                part.add(m)
                if m == n:
                    break
            if len(part) > 1:
                found.append(path_back(graph, part))
    for n in sorted(graph):
        if n not in index:
            connect(n)
    return found

def path_back(graph, part):
    """The shortest way from the first node of part back to itself, inside part."""
    start = min(part)
    came = {start: None}
    queue = [start]
    for n in queue:
        for m in sorted(graph.get(n, ())):
            if m == start:
                way = [n]
                while came[way[0]] is not None:
                    way.insert(0, came[way[0]])
                return way + [start]
            if m in part and m not in came:
                came[m] = n
                queue.append(m)
    return [start, start]

# Folders: includes only.
for c in cycles(edges):
    problems.append("include cycle: " + " -> ".join(c))

# Modules: a .c and its .h are one. A module depends on the modules whose
# headers it includes and on those whose .c defines a function it uses:
# a header declaring another file's functions hides no circle from this.
def strip(s):
    return re.sub(r'/\*.*?\*/|//[^\n]*|"(\\.|[^"\\\n])*"|\'(\\.|[^\'\\\n])*\'', " ", s, flags=re.S)

defined = {}
for rel, text in sources.items():
    if rel.endswith(".c"):
        for m in re.finditer(r"^(?!static\b)[A-Za-z_][^;{}()=#]*?\b(\w+)\([^;{]*?\)\s*\{", strip(text), re.M):
            defined.setdefault(m.group(1), set()).add(rel[:-2])
uses, why = {}, {}
for rel, text in sources.items():
    mod = rel[:-2]
    for m in re.finditer(r'^\s*#\s*include\s+"([^"]+)\.h"', text, re.M):
        if m.group(1) != mod and (mod, m.group(1)) not in why:
            uses.setdefault(mod, set()).add(m.group(1))
            why[mod, m.group(1)] = "includes %s.h" % m.group(1)
    if rel.endswith(".c"):
        for word in sorted(set(re.findall(r"\b[A-Za-z_]\w*\b", strip(text)))):
            for to in defined.get(word, ()):
                if to != mod and (mod, to) not in why:
                    uses.setdefault(mod, set()).add(to)
                    why[mod, to] = "calls %s()" % word
pending_seen = set()
for c in cycles(uses):
    steps = " -> ".join("%s (%s)" % (a, why[a, b]) for a, b in zip(c, c[1:]))
    folder = os.path.dirname(c[0])
    if folder in PENDING and all(os.path.dirname(n) == folder for n in c):
        pending_seen.add(folder)
        print("NOTE: file cycle being cut elsewhere: %s -> %s" % (steps, c[-1]))
    else:
        problems.append("file cycle: %s -> %s" % (steps, c[-1]))
for folder in sorted(PENDING):
    if os.path.isdir(os.path.join(root, folder)) and folder not in pending_seen:
        problems.append("%s/: no file cycle left; take it out of PENDING in tests/layout.py" % folder)

for n in sorted(edges):
    print("%-8s -> %s" % (n, " ".join(sorted(edges[n]))))
for p in problems:
    print("PROBLEM: " + p)
sys.exit(1 if problems else 0)
