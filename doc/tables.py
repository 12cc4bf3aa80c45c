#!/usr/bin/env python3
"""tables.py: fills the reference tables of doc/*.md from the program's own.

A table between the lines
    <!-- generated: --list-keys -->
    <!-- end generated -->
is rewritten from the output of `patchreview --list-keys` (or
--list-checks, --list-exit-codes, --list-prompts), so that the keys,
checks, exit statuses and prompt sizes the docs list are the code's;
--explain-prompt writes a paragraph: what the instructions of three kinds
of C patch weigh, from `--explain-prompt` on test mails. Usage:
    python3 doc/tables.py PATCHREVIEW PAGE.md...
Rewrites the pages in place; prints nothing and exits 0 when all is well."""
import os
import re
import subprocess
import sys
import textwrap

BEGIN = re.compile(r"^<!-- generated: (--[a-z-]+) -->$")
END = "<!-- end generated -->"


def cell(text):
    """Text for a table cell: Markdown's special characters taken literally."""
    return re.sub(r"([\\`*_<>|\[\]])", r"\\\1", text)


def lines(out, option, pattern):
    """The fields of each line the program printed for option."""
    for line in out.splitlines():
        m = re.match(pattern, line)
        if not m:
            sys.exit("tables.py: cannot read %s line: %s" % (option, line))
        yield m.groups()


def keys(out):
    rows = ["| key | default | meaning |", "| --- | --- | --- |"]
    for name, default, meaning in lines(out, "--list-keys", r'^(\S+) +("[^"]*"|\S+) +(.*)$'):
        default = default.strip('"')
        shown = "unset" if default == "unset" else "`%s`" % default
        rows.append("| `%s` | %s | %s |" % (name, shown, cell(meaning)))
    return rows


def checks(out):
    rows = ["| id | applies | what it finds (the checkpatch.pl type it stands for) |",
            "| --- | --- | --- |"]
    pattern = r"^(\S+) +(any|kernel) +(.*?)(?: \[([A-Z0-9_]+)(, in part)?\])?$"
    for rule, scope, summary, ctype, part in lines(out, "--list-checks", pattern):
        stands = " (%s%s)" % (ctype, ", in part" if part else "") if ctype else ""
        rows.append("| `%s` | %s | %s%s |" % (rule, scope, cell(summary), cell(stands)))
    return rows


def exit_codes(out):
    rows = ["| status | meaning |", "| --- | --- |"]
    for status, meaning in lines(out, "--list-exit-codes", r"^(\d+)  (.*)$"):
        rows.append("| %s | %s |" % (status, cell(meaning)))
    return rows


def prompts(out):
    rows = ["| prompt file | bytes sent | what it is |", "| --- | ---: | --- |"]
    guides = 0
    for name, size, title in lines(out, "--list-prompts", r"^(\S+) +(\d+)  (.*)$"):
        guides += int(size) if name != "core" else 0
        rows.append("| `%s` | %s | %s |" % (name, "{:,}".format(int(size)), cell(title)))
    rows.append("| every guide together | %s | what a patch that chose them all would carry |"
                % "{:,}".format(guides))
    return rows


# A C patch's instructions: the fewest guides (kernel C no subsystem claims),
# userspace C, and a kernel network driver's (two subsystem guides).
C_PATCHES = (("kernel C that no subsystem guide claims", "clean.eml"),
             ("userspace C", "signed-qp.eml"),
             ("a network driver", "demo.eml"))


def kb(size):
    return "%.1f KB" % (size / 1000)


def tokens(size):
    return "{:,}".format(int(round(size / 3, -2)))


def explain(binary, env):
    """The paragraph on what a C patch's instructions weigh."""
    mails = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "mails")
    sizes = []
    for what, mail in C_PATCHES:
        with open(os.path.join(mails, mail), "rb") as f:
            out = subprocess.run([binary, "--explain-prompt"], stdin=f, check=True,
                                 capture_output=True, text=True, env=env).stdout
        m = re.search(r"^Request 1 of \d+: \d+ bytes, about \d+ tokens: instructions (\d+),", out, re.M)
        if not m:
            sys.exit("tables.py: no instructions in --explain-prompt of %s" % mail)
        sizes.append((what, int(m.group(1))))
    every = sum(int(size) for _, size, _ in lines(
        subprocess.run([binary, "--list-prompts"], check=True, capture_output=True, text=True,
                       env=env).stdout, "--list-prompts", r"^(\S+) +(\d+)  (.*)$"))
    low, high = min(s for _, s in sizes), max(s for _, s in sizes)
    text = ("A C patch's instructions (the core prompt and the guides its files and "
            "symbols choose) are %.1f-%s, about %s-%s tokens at 3 bytes a token, before "
            "the patch: %s. The core prompt and every guide together are %s."
            % (low / 1000, kb(high), tokens(low), tokens(high),
               ", ".join("%s for %s" % (kb(s), what) for what, s in sizes), kb(every)))
    return textwrap.wrap(text, 72)


TABLES = {"--list-keys": keys, "--list-checks": checks, "--list-exit-codes": exit_codes,
          "--list-prompts": prompts}


def main():
    binary, pages = sys.argv[1], sys.argv[2:]
    made = {}
    # The installed prompts as they ship: none of the user's own guides.
    env = dict(os.environ, PATCHREVIEW_PROMPTS_DIR="/nonexistent/patchreview-prompts")
    for opt, make in TABLES.items():
        out = subprocess.run([binary, opt], check=True, capture_output=True, text=True,
                             env=env).stdout
        made[opt] = make(out)
    made["--explain-prompt"] = explain(binary, env)
    for page in pages:
        lines = open(page, encoding="utf-8").read().split("\n")
        result, i = [], 0
        while i < len(lines):
            result.append(lines[i])
            m = BEGIN.match(lines[i])
            i += 1
            if not m:
                continue
            if m.group(1) not in made:
                sys.exit("%s: no table for %s" % (page, m.group(1)))
            while i < len(lines) and lines[i] != END:
                i += 1
            if i == len(lines):
                sys.exit("%s: '%s' has no end line" % (page, m.group(0)))
            result += made[m.group(1)]
        open(page, "w", encoding="utf-8").write("\n".join(result))


main()
