#!/usr/bin/env python3
"""tables.py: fills the reference tables of doc/*.md from the program's own.

A table between the lines
    <!-- generated: --list-keys -->
    <!-- end generated -->
is rewritten from the output of `patchreview --list-keys` (or
--list-checks, --list-exit-codes, --list-prompts), so that the keys,
checks, exit statuses and prompt sizes the docs list are the code's. Usage:
    python3 doc/tables.py PATCHREVIEW PAGE.md...
Rewrites the pages in place; prints nothing and exits 0 when all is well."""
import os
import re
import subprocess
import sys

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
