#!/usr/bin/env python3
"""The worst case of each built-in check, at a size: tests/t19-linear.sh
runs each at N and 4N and compares the work, make bench times them.

  gen-worst.py list             the cases, one a line: NAME N CHECKS
  gen-worst.py CASE N > mail    the mail (or mbox) of CASE at size N

N counts what the check loops over (lines, files, trailers, paths); the
N in list is where the work of the checks outweighs the fixed cost of a
run. Each case is what made, or would make, its check quadratic: a
search back or across for each line, file, trailer or report.
Deterministic; standard library only.
"""
import sys

HEAD = ("From: Ada Lovelace <ada@example.org>\nTo: linux-kernel@vger.kernel.org\n"
        "Subject: [PATCH] drivers: worst case\nMessage-ID: <worst@example.org>\n"
        "Date: Mon, 16 Sep 2024 10:00:00 +0200\n\n")
MESSAGE = "Make it so.\n\nSigned-off-by: Ada Lovelace <ada@example.org>\n---\n"


def diff(path, old, new, start=1, mode=None):
    """One file's diff: the removed lines old, then the added lines new."""
    head = "diff --git a/%s b/%s\n" % (path, path)
    if mode:
        head += "old mode 100644\nnew mode %s\n" % mode
    return head + "--- a/%s\n+++ b/%s\n@@ -%d,%d +%d,%d @@\n%s%s" % (
        path, path, start, len(old), start, len(new),
        "".join("-%s\n" % l for l in old), "".join("+%s\n" % l for l in new))


def form(n):
    """n source files made executable, each hunk one line short of its header."""
    files = "".join(diff("drivers/f%d.c" % k, ["int a;", "int b;"], ["int c;", "int d;"],
                         mode="100755").replace("+int d;\n", "")
                    for k in range(n))
    return HEAD + MESSAGE + files


def message(n):
    """n trailers of each kind, none the same, and n sign-offs below the ---."""
    trailers = "".join("Cc: Person %d <p%d@example.org>\nCo-developed-by: Dev %d <d%d@example.org>\n"
                       "Signed-off-by: Dev %d <d%d@example.org>\n" % ((k,) * 6) for k in range(n))
    below = "".join("Signed-off-by: Other %d <o%d@example.org>\n" % (k, k) for k in range(n))
    return (HEAD + "Make it so.\n\n" + trailers + "Signed-off-by: Ada Lovelace <ada@example.org>\n---\n"
            + below + "\n" + diff("drivers/x.c", ["int a;"], ["int b;"]))


def log(n):
    """n long lines of commit message, each naming a commit the wrong way."""
    lines = "".join("Line %d of a message that runs on well past seventy-five columns, "
                    "after commit %07x went in.\n" % (k, 0x1000000 + k) for k in range(n))
    return HEAD + lines + "\n" + MESSAGE.split("\n", 2)[2] + diff("drivers/x.c", ["int a;"], ["int b;"])


def whitespace(n):
    """n files, each adding a line with every whitespace error and no final newline."""
    files = "".join(diff("drivers/w%d.c" % k, ["int a;"], [" \tint b; \r"])
                    + "\\ No newline at end of file\n" for k in range(n))
    return HEAD + MESSAGE + files


def kstyle_indent(n):
    """A new file of n space-indented lines, and n space-indented lines replacing n others."""
    new = "diff --git a/drivers/new.c b/drivers/new.c\nnew file mode 100644\n--- /dev/null\n" \
          "+++ b/drivers/new.c\n@@ -0,0 +1,%d @@\n%s" % (n, "+ x = 1;\n" * n)
    changed = diff("drivers/old.c", ["  y = %d;" % k for k in range(n)],
                   [" y = %d;" % k for k in range(n)])
    return HEAD + MESSAGE + new + changed


def kstyle_if(n):
    """One added line of n ifs, each inside the condition of the one before."""
    line = "\tif (" * n + "x = 1" + ")" * n + ";"
    return HEAD + MESSAGE + diff("drivers/x.c", ["int a;"], [line])


def c_files(n, line):
    """n C files, one hunk each, adding the lines of line(k)."""
    return "".join(diff("drivers/c%d.c" % k, ["int a;"], line(k)) for k in range(n))


def kcode(n):
    """n C files (a walk for each used to look through every hunk) of kernel code to flag."""
    return HEAD + MESSAGE + c_files(n, lambda k: [
        "\tBUG_ON(x%d); printk(\"no level\\n\"); trace_printk(\"%%s %%d\", __func__, __LINE__);" % k,
        "struct s%d { int a; } __attribute__((packed));" % k, "", "EXPORT_SYMBOL(s%d);" % k])


def spelling(n):
    """n C files with misspelt comments and strings, and a document of n misspelt lines."""
    doc = diff("Documentation/x.rst", ["Old."], ["Teh %d recieve seperate." % k for k in range(n)])
    return HEAD + MESSAGE + c_files(n, lambda k: [
        "/* teh %d occured */ char *s%d = \"recieved\";" % (k, k)]) + doc


def series(n):
    """A cover letter whose diffstat lists n paths (half as .../tail), and a patch of n files."""
    stat = "".join(" drivers/series/file%d.c | 2 +-\n" % k if k % 2 else
                   " .../series/file%d.c | 2 +-\n" % k for k in range(n))
    stat += " drivers/series/gone.c | 2 +-\n %d files changed, %d insertions(+), %d deletions(-)\n" % (
        n + 1, n + 1, n + 1)
    cover = ("From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
             "From: Ada Lovelace <ada@example.org>\nDate: Mon, 16 Sep 2024 10:00:00 +0200\n"
             "Subject: [PATCH 0/1] drivers: a series\nMessage-ID: <c@example.org>\n\n"
             "The cover letter.\n\n" + stat + "\n-- \n2.46.0\n\n")
    patch = ("From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001\n"
             "From: Ada Lovelace <ada@example.org>\nDate: Mon, 16 Sep 2024 10:00:00 +0200\n"
             "Subject: [PATCH 1/1] drivers: many files\nMessage-ID: <p1@example.org>\n"
             "In-Reply-To: <c@example.org>\n\n" + MESSAGE
             + "".join(diff("drivers/series/file%d.c" % k, ["int a;"], ["int b;"])
                       for k in range(n)) + "-- \n2.46.0\n\n")
    return cover + patch


def checkpatch(n):
    """n C files, one added line each, for a stand-in checkpatch.pl to report on."""
    return HEAD + MESSAGE + c_files(n, lambda k: ["int b%d;" % k])


# name, N, the checks it aims at (tree: --tree with a stand-in checkpatch.pl)
CASES = [
    ("form", 2000, form, "form"),
    ("message", 1000, message, "message"),
    ("log", 2000, log, "log"),
    ("whitespace", 2000, whitespace, "whitespace"),
    ("kstyle-indent", 2000, kstyle_indent, "kstyle"),
    ("kstyle-if", 500, kstyle_if, "kstyle"),
    ("kcode", 2000, kcode, "kcode"),
    ("spelling", 1000, spelling, "spelling"),
    ("series", 1000, series, "series"),
    ("checkpatch", 2000, checkpatch, "checkpatch"),
]


def main():
    if sys.argv[1:] == ["list"]:
        for name, n, _, checks in CASES:
            print(name, n, checks)
        return 0
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    for name, _, fn, _ in CASES:
        if name == sys.argv[1]:
            sys.stdout.write(fn(int(sys.argv[2])))
            return 0
    sys.exit("gen-worst.py: no case '%s'" % sys.argv[1])


if __name__ == "__main__":
    sys.exit(main())
