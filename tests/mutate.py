#!/usr/bin/env python3
"""mutate.py: a generated mutation pass, a few single-line mutants per
function, over the folders or files named on the command line. The
hand-named mutations of the rules are in tests/mutations.py.

    python3 tests/mutate.py [OPTIONS] TARGET...    (make mutate FOLDERS="patch mail")

A TARGET is a folder under filter/ ("patch") or a file or glob in it
("backend/wire*.c"), or several joined by commas ("transport,answer"): the
tool finds the .c files and their functions itself, and each TARGET is
one line of the summary.

Mutants: for each function (a line "{" at column 0 after its signature, up
to the "}" at column 0) the tool lists every change the OPERATORS below
can make to one line, shuffles them with a random generator seeded by
--seed, the file's name and the function's name, and takes up to
--per-function of them (2), one operator after another. The same source
gives the same mutants. A mutant's id is file:function:operator:hash (the
hash of the line before and after): it stays the same when a file moves
to another folder and changes when its line does.

Built once: `make` builds the binaries; a mutant recompiles only its own
object (build/mutate/obj), relinks build/asan/patchreview, build/asan/dump
and, when a chosen test runs it, the release patchreview, into
build/mutate/root: a checkout made of symbolic links in which only the
binaries are the mutant's. There the tests that reach the mutated
line run, cheapest first, and the first failing result stops them.

Which tests reach which line, from gcov: every test runs once on a
--coverage build (build/mutate/cover) with its own GCOV_PREFIX, and
gcov tells which lines it ran. A mutant runs the tests that ran its line
(any line of its function when the line holds no code of its own, as a
declaration); none is a survivor at once. The map is kept in
build/mutate/reach.json, redone whole when a source under filter/
changed (its line numbers would no longer hold), and for a test whose
script changed;
--remap TEST redoes a test that gained fixtures (tests/parse/NAME.eml),
--remap all redoes every test. Not run: the tests in SEPARATE below.

Outcomes: killed (a test failed or ran past its time), survived (every
reaching test passed, or no test reaches the line), equivalent (in
tests/mutate-equivalent.txt with a one-line reason why no behaviour can
change), not compiled (neither killed nor survived). The summary gives,
per TARGET, the four counts and the survival rate survived/(killed +
survived). Outcomes are kept in build/mutate/results.tsv and reused by the
next run, so a long pass can be run in chunks; --rerun-survivors tries the
survivors again after a test was added. Exit status 1 when a mutant
survived, 0 otherwise. CPU-heavy: `make mutate` runs it under nice -n 15;
--jobs N tries N mutants at once (each worker in build/mutate/worker-N),
--skip TEST leaves a slow test out (its survivors may be killed by it).
"""
import argparse
import concurrent.futures
import glob
import hashlib
import json
import os
import queue
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, "build", "mutate")
EQUIVALENT = os.path.join(ROOT, "tests", "mutate-equivalent.txt")
BINARIES = ("build/asan/patchreview", "build/asan/dump", "patchreview")

# Tests that never run a mutant: they run their own build (t41, t60) or
# run the release binary under valgrind, 50 times slower, for the memory
# errors that ASan finds in the others (t21, t33).
SEPARATE = {"t21-valgrind", "t33-llm-valgrind", "t41-install", "t60-fuzz"}

# A test that outlives its time on the unmutated build times this, plus
# TIME_SLACK seconds, is a mutant caught in a loop: killed.
TIME_FACTOR = 5
TIME_SLACK = 60

OPERATORS = """
  cmp    a comparison flipped: < and <=, > and >=, == and !=
  bound  a decimal literal compared, added or subtracted, plus one
  ret    an early "return -1;" (or NULL, false, true, 0) dropped
  neg    the condition of an if or while negated
  cap    a numeric macro (a cap), or a literal of 16 and more, times two
  andor  && and || swapped
  call   a call statement "f(...);" dropped
"""

COMPARISON = re.compile(r"(?<![<>=!\-])(<=|>=|==|!=|<|>)(?![<>=])")
FLIP = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
LITERAL_BOUND = re.compile(
    r"(?:(?:<=|>=|==|!=|(?<![<>\-])<|(?<![<>\-])>|[\w)\]]\s*[-+])\s*(\d+)\b(?![.\w])"
    r"|(?<![\w.])(\d+)\s*(?:<=|>=|==|!=|<(?!<)|>(?!>)))")
EARLY_RETURN = re.compile(r"^(\t\t+)return (-1|NULL|false|true|0);\s*$")
CONDITION = re.compile(r"\b(if|while)\s*\(")
CALL = re.compile(r"^(\s+)([a-z_]\w*)\s*\(.*\);\s*$")
KEYWORDS = {"if", "while", "for", "switch", "return", "sizeof", "do"}
NUMERIC_DEFINE = re.compile(r"^#define\s+([A-Z][A-Z0-9_]+)\s+(.+?)\s*(?:/\*.*)?$")
CAST = re.compile(r"\((?:size_t|u?int\w*|long|unsigned|double)\)")


def log(*words):
    print(*words, flush=True)


def sha(text, n=6):
    return hashlib.sha1(text.encode()).hexdigest()[:n]


def run(argv, **kw):
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, **kw)


# ---------------------------------------------------------------- the source

def mask(lines):
    """The lines with comments, strings and character literals blanked, so
    that the operators see only code; positions stay where they were."""
    out, in_comment = [], False
    for line in lines:
        m, i = list(line), 0
        while i < len(line):
            if in_comment:
                if line.startswith("*/", i):
                    m[i] = m[i + 1] = " "
                    in_comment = False
                    i += 2
                    continue
                m[i] = " "
            elif line.startswith("/*", i):
                in_comment = True
                m[i] = m[i + 1] = " "
                i += 2
                continue
            elif line.startswith("//", i):
                for k in range(i, len(line)):
                    m[k] = " "
                break
            elif line[i] in "\"'":
                quote, k = line[i], i + 1
                while k < len(line) and line[k] != quote:
                    k += 2 if line[k] == "\\" else 1
                for j in range(i + 1, min(k, len(line))):
                    m[j] = " "
                i = k + 1
                continue
            i += 1
        out.append("".join(m))
    return out


def functions(lines, masked):
    """(name, first body line, last body line) of each function definition."""
    found, i = [], 0
    while i < len(lines):
        if lines[i].rstrip() != "{":
            i += 1
            continue
        start = i - 1
        while start > 0 and masked[start][:1] in (" ", "\t") and masked[start].strip():
            start -= 1
        signature = " ".join(masked[start:i])
        end = i + 1
        while end < len(lines) and lines[end].rstrip() != "}":
            end += 1
        name = re.search(r"([A-Za-z_]\w*)\s*\(", signature)
        if name and "=" not in signature and not signature.startswith("#"):
            found.append((name.group(1), i + 1, end - 1))
        i = end + 1
    return found


def closing_paren(text, open_at):
    depth = 0
    for k in range(open_at, len(text)):
        depth += {"(": 1, ")": -1}.get(text[k], 0)
        if depth == 0:
            return k
    return -1


def numeric_macros():
    """The names #defined as a number anywhere under filter/: the caps."""
    names = set()
    for path in glob.glob(os.path.join(ROOT, "filter", "**", "*.[ch]"), recursive=True):
        for line in open(path, errors="replace"):
            m = NUMERIC_DEFINE.match(line)
            if m and re.fullmatch(r"[\s()\d*+<\-xXa-fA-FuUlL]*\d[\s()\d*+<\-xXa-fA-FuUlL]*",
                                  CAST.sub("", m.group(2))):
                names.add(m.group(1))
    return names


def line_mutants(line, code, caps):
    """(operator, mutated line) for each change the operators make to a line."""
    if not code.strip() or code.lstrip().startswith("#"):
        return []
    out = []

    def at(op, a, b, new):
        out.append((op, line[:a] + new + line[b:]))

    for m in COMPARISON.finditer(code):
        at("cmp", m.start(), m.end(), FLIP[m.group(1)])
    for m in LITERAL_BOUND.finditer(code):
        g = 1 if m.group(1) is not None else 2
        at("bound", m.start(g), m.end(g), str(int(m.group(g)) + 1))
    m = EARLY_RETURN.match(code)
    if m:
        out.append(("ret", m.group(1) + "(void)0;"))
    for m in CONDITION.finditer(code):
        close = closing_paren(code, m.end() - 1)
        if close > 0:
            at("neg", m.end(), close, "!(" + line[m.end():close] + ")")
    for m in re.finditer(r"\b[A-Z][A-Z0-9_]{2,}\b|(?<![\w.])\d+\b(?![.\w])", code):
        word = m.group(0)
        if word in caps or (word.isdigit() and int(word) >= 16):
            at("cap", m.start(), m.end(), "(2 * %s)" % word)
    for m in re.finditer(r"&&|\|\|", code):
        at("andor", m.start(), m.end(), "||" if m.group(0) == "&&" else "&&")
    m = CALL.match(code)
    if m and m.group(2) not in KEYWORDS and closing_paren(code, code.index("(")) == len(code.rstrip()) - 2:
        out.append(("call", m.group(1) + "(void)%s;" % m.group(2)))
    return out


class Mutant:
    def __init__(self, rel, func, body, lineno, op, before, after, nth):
        self.rel, self.func, self.body, self.lineno, self.op = rel, func, body, lineno, op
        self.before, self.after = before, after
        key = "%s\0%s\0%d" % (before.strip(), after.strip(), nth)
        self.id = "%s:%s:%s:%s" % (os.path.basename(rel), func, op, sha(key))

    def describe(self):
        return "%s:%d %s [%s] %s  ->  %s" % (self.rel, self.lineno, self.func, self.op,
                                            self.before.strip(), self.after.strip())


def mutants_of(rel, per_function, seed, caps):
    """The chosen mutants of filter/REL, in the order of its functions."""
    lines = open(os.path.join(ROOT, "filter", rel)).read().split("\n")
    masked = mask(lines)
    chosen = []
    for func, first, last in functions(lines, masked):
        by_op, seen = {}, {}
        for n in range(first, last + 1):
            for op, after in line_mutants(lines[n], masked[n], caps):
                key = (lines[n].strip(), after.strip())
                nth = seen[key] = seen.get(key, -1) + 1
                by_op.setdefault(op, []).append(Mutant(rel, func, (first + 1, last + 1), n + 1, op, lines[n], after, nth))
        rng = random.Random("%s:%s:%s" % (seed, os.path.basename(rel), func))
        ops = sorted(by_op)
        rng.shuffle(ops)
        for op in ops:
            rng.shuffle(by_op[op])
        picked = []
        while len(picked) < per_function and any(by_op.values()):
            for op in ops:
                if by_op[op] and len(picked) < per_function:
                    picked.append(by_op[op].pop())
        chosen += sorted(picked, key=lambda m: m.lineno)
    return chosen


def target_files(target):
    """The .c files a TARGET names, relative to filter/."""
    files = []
    for part in target.split(","):
        base = os.path.join(ROOT, "filter", part)
        pattern = os.path.join(base, "*.c") if os.path.isdir(base) else base
        found = sorted(os.path.relpath(p, os.path.join(ROOT, "filter"))
                       for p in glob.glob(pattern) if p.endswith(".c"))
        if not found:
            sys.exit("mutate: no .c file under filter/%s" % part)
        files += [f for f in found if f not in files]
    return files


# ---------------------------------------------------------------- building

def build_commands():
    """How make compiles each object and links each binary: {output: argv}."""
    out = run(["make", "-n", "-B", "V=1", *BINARIES])
    if out.returncode:
        sys.exit("mutate: make -n failed: %s" % out.stderr.strip())
    commands = {}
    for line in out.stdout.splitlines():
        argv = shlex.split(line)
        if "-o" in argv and not argv[0] in ("echo", "mkdir", "cp", "cmp"):
            commands[argv[argv.index("-o") + 1]] = argv
    return commands


def replace_output(argv, output):
    argv = list(argv)
    argv[argv.index("-o") + 1] = output
    return argv


def precompile_sources(argv, objdir, transform=lambda a: a):
    """A link command that also compiles .c files (tests/tools/dump.c)
    gets them compiled once here; returns the command using the object."""
    out = []
    flags = [x for x in argv if not x.endswith((".o", ".c")) and not x.startswith("-l")]
    for a in argv:
        if a.endswith(".c"):
            key = sha(open(os.path.join(ROOT, a)).read() + "\0".join(transform(flags)))
            obj = os.path.join(objdir, "tools", "%s-%s.o" % (os.path.basename(a)[:-2], key))
            if not os.path.exists(obj):
                os.makedirs(os.path.dirname(obj), exist_ok=True)
                compile_ok(transform(replace_output(flags, obj) + ["-c", a]))
            a = obj
        out.append(a)
    return out


def compile_ok(argv):
    done = run(argv)
    if done.returncode:
        sys.exit("mutate: %s failed:\n%s" % (" ".join(argv[:3]), done.stderr[-2000:]))


def make_root(root):
    """A checkout of symbolic links whose build/ and patchreview are its own."""
    os.makedirs(os.path.join(root, "build", "asan"), exist_ok=True)
    for name in os.listdir(ROOT):
        link = os.path.join(root, name)
        if name not in ("build", "patchreview") and not os.path.lexists(link):
            os.symlink(os.path.join(ROOT, name), link)


def install(binary, root, rel):
    """Puts BINARY at ROOT/REL, a hard link replaced in one step: not a
    symbolic one, because the binary finds prompts/ from /proc/self/exe."""
    dest = os.path.join(root, rel)
    tmp = dest + ".new"
    if os.path.lexists(tmp):
        os.unlink(tmp)
    os.link(binary, tmp)
    os.replace(tmp, dest)


# ---------------------------------------------------------------- running tests

def test_names():
    return sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(ROOT, "tests", "t[0-9]*.sh"))
                  if os.path.basename(p)[:-3] not in SEPARATE)


def script(test):
    return open(os.path.join(ROOT, "tests", test + ".sh")).read()


def needs_release(test):
    return "$ROOT/patchreview" in script(test)


def run_test(test, root, limit, env_extra=None):
    """Runs tests/TEST.sh from ROOT; stops it at its first failing result.
    Returns (failed, seconds, why)."""
    results = tempfile.NamedTemporaryFile(prefix="mutate-results-", delete=False)
    results.close()
    env = {k: v for k, v in os.environ.items() if k not in ("PR", "DUMP", "TESTS")}
    env["RESULTS"] = results.name
    # No CORPUS: tests/lib.sh finds shared/corpus in the folders above
    # the root, which is under this checkout's build/.
    env.update(env_extra or {})
    start = time.monotonic()
    child = subprocess.Popen(["sh", os.path.join(root, "tests", test + ".sh")], cwd=root, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
    why = None
    try:
        while child.poll() is None:
            time.sleep(0.3)
            why = first_failure(results.name)
            if why or time.monotonic() - start > limit:
                why = why or "ran past %d s" % limit
                stop(child)
                break
        why = why or first_failure(results.name)
        if not why and child.returncode:
            why = "exited with status %d" % child.returncode
    finally:
        if child.poll() is None:
            stop(child)
        os.unlink(results.name)
    return why is not None, time.monotonic() - start, why


def first_failure(path):
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("fail "):
                return line[5:].strip()
    return None


def stop(child):
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
        try:
            os.killpg(child.pid, sig)
        except ProcessLookupError:
            return
        try:
            child.wait(wait)
            return
        except subprocess.TimeoutExpired:
            pass


# ---------------------------------------------------------------- the reach map

def coverage_flags(argv):
    out = [a for a in argv if not a.startswith(("-fsanitize", "-fno-sanitize"))]
    return [("-O0" if a in ("-O1", "-O2") else a) for a in out] + ["--coverage"]


def build_cover(commands):
    """The --coverage build of the ASan objects and binaries, in build/mutate/cover."""
    cover = os.path.join(WORK, "cover")
    objdir = os.path.join(cover, "obj")
    shutil.rmtree(cover, ignore_errors=True)
    jobs = []
    for out, argv in commands.items():
        if out.startswith("build/asan/") and out.endswith(".o"):
            obj = os.path.join(objdir, out[len("build/asan/"):])
            os.makedirs(os.path.dirname(obj), exist_ok=True)
            jobs.append(coverage_flags(replace_output(argv, obj)))
    log("mutate: the coverage build, %d objects" % len(jobs))
    running = []
    for argv in jobs:
        running.append(subprocess.Popen(argv, cwd=ROOT))
        if len(running) >= 2:
            if running.pop(0).wait():
                sys.exit("mutate: the coverage build failed")
    if any(p.wait() for p in running):
        sys.exit("mutate: the coverage build failed")
    root = os.path.join(cover, "root")
    make_root(root)
    for binary in ("build/asan/patchreview", "build/asan/dump"):
        argv = [a.replace("build/asan/", objdir + "/", 1) if a.endswith(".o") else a
                for a in commands[binary]]
        argv = coverage_flags(precompile_sources(replace_output(argv, os.path.join(root, binary)),
                                                 objdir, coverage_flags))
        compile_ok(argv)
    shutil.copy2(os.path.join(root, "build/asan/patchreview"), os.path.join(root, "patchreview"))
    return objdir, root


def lines_run(objdir, prefix):
    """({"patch/diff.c": [lines run]}, {"patch/diff.c": [lines with code]})
    from the gcov data a test left under PREFIX."""
    ran, code = {}, {}
    for gcda in glob.glob(os.path.join(prefix, "**", "*.gcda"), recursive=True):
        rel = os.path.relpath(gcda, prefix)[:-5] + ".c"
        if not os.path.exists(gcda[:-5] + ".gcno"):
            os.symlink(os.path.join(objdir, rel[:-2] + ".gcno"), gcda[:-5] + ".gcno")
        out = run(["gcov", "--json-format", "--stdout", "-o", gcda[:-5], os.path.join("filter", rel)])
        for f in json.loads(out.stdout)["files"] if out.returncode == 0 else []:
            if f["file"] == os.path.join("filter", rel):
                code[rel] = [l["line_number"] for l in f["lines"]]
                ran[rel] = [l["line_number"] for l in f["lines"] if l["count"]]
    return ran, code


def source_hash():
    """The hash of every source under filter/: the map's line numbers hold
    for these sources only."""
    paths = sorted(glob.glob(os.path.join(ROOT, "filter", "**", "*.[ch]"), recursive=True))
    return sha("".join(os.path.relpath(p, ROOT) + open(p, errors="replace").read() for p in paths), 12)


def reach_map(remap, skip):
    """{"tests": {test: {"seconds", "passed", "hash", "ran": {file: [line]}}},
    "code": {file: [line]}}: what each test ran, and which lines hold code.
    A test in SKIP is not mapped (it would run no mutant)."""
    path = os.path.join(WORK, "reach.json")
    reach = json.load(open(path)) if os.path.exists(path) else {}
    if reach.get("source") != source_hash():
        reach = {"source": source_hash(), "tests": {}, "code": {}}
    tests = reach["tests"]
    for gone in set(tests) - set(test_names()):
        del tests[gone]
    todo = [t for t in test_names() if t not in skip and (
            "all" in remap or t in remap or t not in tests or tests[t]["hash"] != sha(script(t), 12))]
    if not todo:
        return reach
    objdir, root = build_cover(build_commands())
    strip = len(os.path.abspath(objdir).strip("/").split("/"))
    for test in todo:
        prefix = os.path.join(WORK, "cover", "gcda", test)
        failed, seconds, why = run_test(test, root, 3600,
                                        {"GCOV_PREFIX": prefix, "GCOV_PREFIX_STRIP": str(strip)})
        ran, code = lines_run(objdir, prefix)
        tests[test] = {"seconds": round(seconds, 1), "passed": not failed, "hash": sha(script(test), 12),
                       "ran": ran}
        reach["code"].update(code)
        log("mutate: %-20s %6.1f s %s, runs %d lines" % (
            test, seconds, "passed" if not failed else "FAILED (%s)" % why,
            sum(len(v) for v in ran.values())))
        json.dump(reach, open(path, "w"), separators=(",", ":"), sort_keys=True)
    return reach


# ---------------------------------------------------------------- mutants

class Baseline:
    """Whether each test passes on the unmutated binaries, and how long it
    takes; kept in build/mutate/baseline.json until a binary or the test
    changes. Shared by the workers, one test run at a time."""

    def __init__(self):
        self.path = os.path.join(WORK, "baseline.json")
        self.known = json.load(open(self.path)) if os.path.exists(self.path) else {}
        self.lock = threading.Lock()

    def passes(self, test, runner):
        key = sha(script(test) + "".join("%s:%d" % (b, os.stat(os.path.join(ROOT, b)).st_mtime_ns)
                                         for b in BINARIES), 12)
        with self.lock:
            if self.known.get(test, {}).get("key") != key:
                runner.restore()
                failed, seconds, why = run_test(test, runner.root, 3600)
                self.known[test] = {"key": key, "passed": not failed, "seconds": round(seconds, 1)}
                json.dump(self.known, open(self.path, "w"), indent=0, sort_keys=True)
                if failed:
                    log("mutate: %s fails on the unmutated build (%s): not used" % (test, why))
            return self.known[test]["passed"]

    def limit(self, test):
        return TIME_SLACK + TIME_FACTOR * self.known[test]["seconds"]


class Runner:
    """One worker: its own root, objects and mutated source under build/mutate/worker-N."""

    def __init__(self, n, commands, reach, baseline, tests, skip):
        self.commands, self.reach, self.baseline = commands, reach, baseline
        self.forced, self.skip = tests, skip
        self.dir = os.path.join(WORK, "worker-%d" % n)
        self.root = os.path.join(self.dir, "root")
        make_root(self.root)
        self.restore()

    def restore(self):
        for binary in BINARIES:
            install(os.path.join(ROOT, binary), self.root, binary)

    def tests_for(self, m):
        """The tests that ran the mutated line, or, when gcov saw no code on
        it (a declaration, say), any line of its function; cheapest first."""
        if self.forced:
            return self.forced
        tests = self.reach["tests"]
        if m.lineno in self.reach["code"].get(m.rel, []):
            lines = {m.lineno}
        else:
            lines = set(range(m.body[0], m.body[1] + 1))
        chosen = [t for t, r in tests.items() if lines & set(r["ran"].get(m.rel, []))
                  and t not in SEPARATE and t not in self.skip
                  and os.path.exists(os.path.join(ROOT, "tests", t + ".sh"))]
        return sorted(chosen, key=lambda t: tests[t]["seconds"])

    def build(self, m, release):
        """Compiles and links the mutant into the root. False if it does not compile.
        The mutated copy finds its headers as the original does, through
        -Ifilter ("folder/file.h"); no -iquote of its folder, which would
        put mail/limits.h before the system's <limits.h>."""
        source = os.path.join(self.dir, "src", m.rel)
        os.makedirs(os.path.dirname(source), exist_ok=True)
        lines = open(os.path.join(ROOT, "filter", m.rel)).read().split("\n")
        lines[m.lineno - 1] = m.after
        open(source, "w").write("\n".join(lines))
        kinds = [("build/asan/", ("build/asan/patchreview", "build/asan/dump"))]
        if release:
            kinds.append(("build/release/", ("patchreview",)))
        for prefix, binaries in kinds:
            obj = prefix + m.rel[:-2] + ".o"
            mobj = os.path.join(self.dir, prefix, "mutant.o")
            os.makedirs(os.path.dirname(mobj), exist_ok=True)
            argv = replace_output(self.commands[obj], mobj)
            argv[argv.index(os.path.join("filter", m.rel))] = source
            if run(argv).returncode:
                return False
            for binary in binaries:
                out = os.path.join(self.dir, prefix, os.path.basename(binary))
                argv = [mobj if a == obj else a for a in self.commands[binary]]
                compile_ok(precompile_sources(replace_output(argv, out), self.dir))
                install(out, self.root, binary)
        return True

    def run(self, m):
        """(outcome, detail) for one mutant."""
        tests = [t for t in self.tests_for(m) if self.baseline.passes(t, self)]
        self.restore()
        if not self.build(m, any(needs_release(t) for t in tests)):
            return "not compiled", ""
        if not tests:
            return "survived", "no test runs line %d" % m.lineno
        for test in tests:
            failed, _, why = run_test(test, self.root, self.baseline.limit(test))
            if failed:
                return "killed", "%s: %s" % (test, why[:100])
        return "survived", "passed: " + " ".join(tests)


def equivalents():
    found = {}
    if os.path.exists(EQUIVALENT):
        for line in open(EQUIVALENT):
            if line.strip() and not line.startswith("#"):
                mid, _, why = line.strip().partition(" ")
                found[mid] = why.strip()
    return found


def load_results():
    path = os.path.join(WORK, "results.tsv")
    results = {}
    if os.path.exists(path):
        for line in open(path):
            mid, outcome, detail = line.rstrip("\n").split("\t")[:3]
            results[mid] = (outcome, detail)
    return results


def save_result(m, outcome, detail):
    with open(os.path.join(WORK, "results.tsv"), "a") as f:
        f.write("%s\t%s\t%s\t%s\n" % (m.id, outcome, detail, m.describe()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="operators:" + OPERATORS,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("targets", nargs="+", metavar="TARGET")
    ap.add_argument("--per-function", type=int, default=2, help="mutants per function (2)")
    ap.add_argument("--seed", default="20", help="the random seed (20)")
    ap.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    ap.add_argument("--only", nargs="+", default=[], metavar="ID", help="only these mutants")
    ap.add_argument("--tests", nargs="+", default=[], metavar="TEST",
                    help="run these tests, not the ones the map names")
    ap.add_argument("--remap", nargs="+", default=[], metavar="TEST",
                    help="redo the reach map of these tests ('all': every test)")
    ap.add_argument("--skip", nargs="+", default=[], metavar="TEST",
                    help="do not map or run these tests (a survivor may still fall to them)")
    ap.add_argument("--jobs", type=int, default=1, help="mutants tried at once (1)")
    ap.add_argument("--rerun-survivors", action="store_true", help="try the survivors again")
    ap.add_argument("--fresh", action="store_true", help="forget the kept outcomes")
    args = ap.parse_args()

    caps = numeric_macros()
    groups = [(t, [m for rel in target_files(t) for m in mutants_of(rel, args.per_function, args.seed, caps)
                   if not args.only or m.id in args.only])
              for t in args.targets]
    if args.list:
        for target, ms in groups:
            for m in ms:
                log("%s  %s" % (m.id, m.describe()))
            log("%s: %d mutants" % (target, len(ms)))
        return 0

    os.makedirs(WORK, exist_ok=True)
    if args.fresh and os.path.exists(os.path.join(WORK, "results.tsv")):
        os.unlink(os.path.join(WORK, "results.tsv"))
    built = run(["make", "-s", *BINARIES])
    if built.returncode:
        sys.exit("mutate: make failed:\n" + built.stderr[-2000:])
    reach = {} if args.tests else reach_map(set(args.remap), set(args.skip))
    commands, baseline = build_commands(), Baseline()
    workers = queue.Queue()
    for n in range(args.jobs):
        workers.put(Runner(n, commands, reach, baseline, args.tests, set(args.skip)))
    kept, same = load_results(), equivalents()

    def decide(m):
        outcome, detail = kept.get(m.id, (None, ""))
        if m.id in same:
            return "equivalent", same[m.id]
        if outcome is None or args.only or (args.rerun_survivors and outcome == "survived"):
            runner = workers.get()
            try:
                outcome, detail = runner.run(m)
            finally:
                workers.put(runner)
            save_result(m, outcome, detail)
        tag = {"killed": "KILLED", "survived": "LIVED ", "not compiled": "NOBUILD"}[outcome]
        log("%s %s  %s%s" % (tag, m.id, m.describe(), ("  (%s)" % detail) if detail else ""))
        return outcome, detail

    summary, survived = [], False
    try:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            outcomes = [(target, list(pool.map(decide, ms))) for target, ms in groups]
    finally:
        while not workers.empty():
            workers.get().restore()
    for target, done in outcomes:
        counts = {"killed": 0, "survived": 0, "equivalent": 0, "not compiled": 0}
        for outcome, _ in done:
            counts[outcome] += 1
        tried = counts["killed"] + counts["survived"]
        survived = survived or counts["survived"] > 0
        summary.append("%-24s %4d killed %4d survived %4d equivalent %4d not compiled  %5.1f%% survive" % (
            target, counts["killed"], counts["survived"], counts["equivalent"], counts["not compiled"],
            100.0 * counts["survived"] / tried if tried else 0))
    log("\n".join(summary))
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
