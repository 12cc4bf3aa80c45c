#!/bin/sh
# The input's limits (doc/limits.md), each just within and just past:
# past a limit the draft still comes, with one note at its top and one line
# on stderr, and what is past it is left out. Inputs come from gen() below.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { skip "limits" "python3 missing"; exit 0; }

# gen KIND N > mail: a mail that has N of KIND (see the Python below).
gen() {
	python3 - "$1" "$2" <<'PY'
import sys
kind, n = sys.argv[1], int(sys.argv[2])
head = ("From: Ada Lovelace <ada@example.org>\nTo: list@example.org\n"
        "Message-ID: <limits@example.org>\n")
patch = ("Fix it.\n\nSigned-off-by: Ada Lovelace <ada@example.org>\n---\n"
         "diff --git a/x.c b/x.c\n--- a/x.c\n+++ b/x.c\n@@ -1 +1 @@\n-int x;\n+int x = 1;\n")
out = sys.stdout
if kind == "parts":          # n parts, the patch in the last
    out.write(head + "Subject: [PATCH] parts\nMIME-Version: 1.0\n"
              "Content-Type: multipart/mixed; boundary=\"B\"\n\n")
    for i in range(n - 1):
        out.write("--B\nContent-Type: text/plain\n\npart %d\n" % i)
    out.write("--B\nContent-Type: text/x-patch\n\n" + patch + "--B--\n")
elif kind == "decoys":       # 64 small multiparts first, then one of n parts (issue 21)
    out.write(head + "Subject: [PATCH] decoys\nMIME-Version: 1.0\n"
              "Content-Type: multipart/mixed; boundary=\"T\"\n\n")
    for i in range(64):
        out.write("--T\nContent-Type: multipart/mixed; boundary=\"d%d\"\n\n--d%d\n\nx\n--d%d--\n" % (i, i, i))
    out.write("--T\nContent-Type: multipart/mixed; boundary=\"Z\"\n\n" + "--Z\n\nx\n" * n + "--Z--\n--T--\n")
elif kind.startswith("spelled-"):  # n parts of a boundary declared as GMime reads it, not as grep would
    top = {
        "space": "Content-Type : multipart/mixed; boundary=BQ\n\n",
        "2231": "Content-Type: multipart/mixed; boundary*0=\"B\"; boundary*1=\"Q\"\n\n",
        "percent": "Content-Type: multipart/mixed; boundary*=us-ascii''%42%51\n\n",
        "junk": "a line that is no field\nContent-Type: multipart/mixed; boundary=BQ\n\n",
        "news": "Content-Type: multipart/mixed; boundary=T\n\n--T\nContent-Type: message/news\n\n"
                "From: x@example.org\nContent-Type: multipart/mixed; boundary=BQ\n\n",
        "digest": "Content-Type: multipart/digest; boundary=T\n\n--T\n\n"
                  "From: x@example.org\nContent-Type: multipart/mixed; boundary=BQ\n\n",
    }[kind[8:]]
    out.write(head + "Subject: [PATCH] spelled\nMIME-Version: 1.0\n" + top + "--BQ\n\nx\n" * n + "--BQ--\n")
elif kind == "fields":       # n header fields in all, 500 a part; the patch in the last part
    out.write(head + "Subject: [PATCH] fields\nMIME-Version: 1.0\n"
              "Content-Type: multipart/mixed; boundary=\"B\"\n\n")
    for i in range((n - 6) // 500):
        out.write("--B\n" + "".join("X-F%d: y\n" % k for k in range(500)) + "\npart %d\n" % i)
    rest = (n - 6) % 500
    out.write("--B\n" + "".join("X-F%d: y\n" % k for k in range(rest - 1)) +
              "Content-Type: text/x-patch\n\n" + patch + "--B--\n")
elif kind == "epilogue":     # n lines of epilogue after "--B--", which closes a part of headers only
    out.write(head + "Subject: [PATCH] epilogue\nMIME-Version: 1.0\n"
              "Content-Type: multipart/mixed; boundary=\"B\"\n\n--B\nContent-Type: text/x-patch\n\n" +
              patch + "--B\nX-Empty: yes\n--B--\n" + "".join("X-E%d: y\n" % k for k in range(n)))
elif kind == "open-field":   # an mbox: a reply of headers only, its Content-Type the last line before
    # the next "From " line, then a patch with n lines "--B" in its message
    out.write("From r Mon Sep 17 00:00:00 2001\nFrom: Mal <m@example.org>\nTo: l@example.org\n"
              "Subject: Re: [PATCH] x: change\nMessage-ID: <r@example.org>\nMIME-Version: 1.0\n"
              "Content-Type: multipart/mixed; boundary=\"B\"\n"
              "From p Mon Sep 17 00:00:00 2001\n" + head + "Subject: [PATCH] x: change\n\n" +
              "--B\n" * n + patch)
elif kind == "series":       # an mbox of 10 patches, a reply with n parts after the third
    def one(i):
        return ("From p%d Mon Sep 17 00:00:00 2001\nFrom: Ada <ada@example.org>\nTo: l@example.org\n"
                "Subject: [PATCH %d/10] x: change %d\nMessage-ID: <p%d@example.org>\n\n" % (i, i, i, i)
                + patch.replace("int x = 1;", "int x = %d;" % i) + "\n")
    out.write(one(1) + one(2) + one(3))
    out.write("From r Mon Sep 17 00:00:00 2001\nFrom: Mal <m@example.org>\nTo: l@example.org\n"
              "Subject: Re: [PATCH 1/10] x: change 1\nMessage-ID: <r@example.org>\n"
              "In-Reply-To: <p1@example.org>\nMIME-Version: 1.0\n"
              "Content-Type: multipart/mixed; boundary=\"B\"\n\n" + "--B\n\nx\n" * n + "--B--\n\n")
    out.write("".join(one(i) for i in range(4, 11)))
elif kind == "depth":        # the patch n multiparts deep
    out.write(head + "Subject: [PATCH] depth\nMIME-Version: 1.0\n")
    for i in range(n):
        out.write("Content-Type: multipart/mixed; boundary=\"B%d\"\n\n--B%d\n" % (i, i))
    out.write("Content-Type: text/plain\n\n" + patch)
    for i in reversed(range(n)):
        out.write("--B%d--\n" % i)
elif kind == "headers":      # n header fields, Subject the last of them
    out.write(head + "".join("X-Filler-%d: yes\n" % i for i in range(n - 4)))
    out.write("Subject: [PATCH] headers\n\n" + patch)
elif kind == "header-bytes": # a Subject field of n bytes
    words = "[PATCH] long" + " word" * n
    out.write(head + ("Subject: " + words)[:n] + "\n\n" + patch)
elif kind == "addresses":    # n addresses in Cc
    out.write(head + "Subject: [PATCH] addresses\nCc: " +
              ",\n ".join("u%04d@example.org" % i for i in range(n)) + "\n\n" + patch)
elif kind == "references":   # n ids in References
    out.write(head + "Subject: [PATCH] references\nReferences: " +
              "\n ".join("<r%03d@example.org>" % i for i in range(n)) + "\n\n" + patch)
elif kind == "id":           # a Message-ID of n bytes
    out.write(head.replace("limits@example.org", "i" * (n - 12) + "@example.org") +
              "Subject: [PATCH] id\n\n" + patch)
elif kind == "files":        # n files
    out.write(head + "Subject: [PATCH] files\n\n" + patch.split("diff")[0])
    out.write("".join("diff --git a/f%d b/f%d\n--- a/f%d\n+++ b/f%d\n@@ -1 +1 @@\n-a\n+b\n"
                      % (i, i, i, i) for i in range(n)))
elif kind == "hunks":        # n hunks
    out.write(head + "Subject: [PATCH] hunks\n\n" + patch.split("@@")[0])
    out.write("".join("@@ -%d +%d @@\n-a\n+b\n" % (2 * i + 1, 2 * i + 1) for i in range(n)))
elif kind == "lines":        # n lines of text in all
    out.write(head + "Subject: lines\n\n" + "x\n" * (n - 1) + "LAST-LINE\n")
elif kind == "quoted":       # diff --git names git quoted, n octal escapes each
    name = '"a/' + "\\303\\251" * (n // 2) + '"'
    out.write(head + "Subject: [PATCH] quoted\n\n" + patch.split("diff")[0] +
              "diff --git %s %s\nnew file mode 100644\n" % (name, name.replace("a/", "b/", 1)))
elif kind == "prerequisites":  # n prerequisite-patch-id: lines below the diff
    out.write(head + "Subject: [PATCH] prerequisites\n\n" + patch + "\nbase-commit: " +
              "0" * 40 + "\n" + "".join("prerequisite-patch-id: %040x\n" % i for i in range(n)))
elif kind == "line-bytes":   # an added line of n bytes
    out.write(head + "Subject: [PATCH] line\n\n" + patch.replace("+int x = 1;", "+" + "y" * (n - 2) + "z"))
PY
}

# within KIND N / past KIND N NOTE: no note at N, NOTE at N + 1, on stderr too.
within() {
	gen "$1" "$2" > "$T/in.eml"
	run_pr --full < "$T/in.eml"
	check "$1: $2 is within the limit" sh -c "[ $status -le 1 ] && ! grep -q 'not read' '$T/out' '$T/err'"
}
past() {
	gen "$1" "$2" > "$T/in.eml"
	run_pr --full < "$T/in.eml"
	check "$1: $2 is past the limit, a note says so" \
		sh -c "[ $status -le 1 ] && python3 '$ROOT/tests/tools/fields.py' X-Patchreview-Note '$T/out' | grep -q -F -- '$3' && grep -q -F -- '$3' '$T/err'"
}

within parts 1000
check "parts: the patch in part 1000 is read" grep -q '^> +int x = 1;$' "$T/out"
past parts 1001 "the mail has more than 1000 MIME parts; the rest was not read"
check "parts: ... the part past it is not" sh -c "[ $status -eq 1 ] && ! grep -q 'int x = 1' '$T/out'"

# Every part counts, whatever boundary opens it: after 64 other boundaries,
# and for a boundary declared in any form GMime reads.
past decoys 1000 "the mail has more than 1000 MIME parts; the rest was not read"
for spelling in space 2231 percent junk news digest; do
	past spelled-$spelling 1001 "the mail has more than 1000 MIME parts; the rest was not read"
done
within fields 10000
check "fields: the patch after 10000 fields in all is read" grep -q '^> +int x = 1;$' "$T/out"
past fields 10001 "the mail has more than 10000 header fields in all; the rest were not read"

# Limits are per message: a reply past one in an mbox is skipped, with a
# line on stderr and a note in the first draft, and the series is reviewed.
gen series 1001 > "$T/in.mbox"
run_pr < "$T/in.mbox"
check "series: a reply past the part limit leaves the ten patches reviewed" \
	sh -c "[ $status -eq 0 ] && [ \$(grep -c '^Subject: Re: \[PATCH [0-9]*/10\]' '$T/out') -eq 10 ]"
check "series: ... it is skipped, one line on stderr saying why" grep -q \
	'^patchreview: message 4 of 11 ("Re: \[PATCH 1/10\] x: change 1") was skipped: the mail has more than 1000 MIME parts$' "$T/err"
check "series: ... and a note in the first draft" sh -c \
	"sed -n '1,/^Subject/p' '$T/out' | grep -q '^Subject: Re: \[PATCH 1/10\]' &&
	python3 '$ROOT/tests/tools/fields.py' X-Patchreview-Note '$T/out' |
	grep -q '^message 4 of 11 (.*) was skipped: the mail has more than 1000 MIME parts$'"

# A closing delimiter ends a header block as an opening one does: what
# follows "--B--" is the epilogue, not fields. A field open at an mbox
# "From " line belongs to the message it is in: its boundary is not the
# next message's.
within epilogue 2000
check "epilogue: ... the patch before it is read" grep -q '^> +int x = 1;$' "$T/out"
gen open-field 1001 > "$T/in.mbox"
run_pr < "$T/in.mbox"
check "open field: the boundary of a field open at a From line stays in its message" \
	sh -c "[ $status -le 1 ] && ! grep -q 'skipped' '$T/err' && grep -q '^> +int x = 1;$' '$T/out'"

within depth 31
check "depth: a patch 31 multiparts deep is read" grep -q '^> +int x = 1;$' "$T/out"
past depth 40 "MIME parts are nested more than 32 deep; the deeper ones were not read"
check "depth: ... a deeper one is not" sh -c "! grep -q 'int x = 1' '$T/out'"

within headers 1000
check "headers: the 1000th field is read" grep -q '^Subject: Re: \[PATCH\] headers$' "$T/out"
past headers 1001 "a header block has more than 1000 fields; the rest were not read"
check "headers: ... the 1001st is not" grep -q '^Subject: Re: *$' "$T/out"

within header-bytes 65000
check "header bytes: a 65000-byte Subject is read" grep -q '^Subject: Re: \[PATCH\] long word' "$T/out"
past header-bytes 70000 "a header field is over 64 KiB long; it was not read"
check "header bytes: ... a 70000-byte one is not" grep -q '^Subject: Re: *$' "$T/out"

within addresses 500
past addresses 501 "a header names more than 500 addresses; the rest were not read"
check "addresses: the first 500 are in Cc, not the 501st" \
	sh -c "sed -n '/^Cc:/,/^Subject:/p' '$T/out' | grep -q 'u0499@' && ! grep -q 'u0500@' '$T/out'"

gen references 40 > "$T/in.eml"
run_pr < "$T/in.eml"
check "references: of 40, the first and the last 29 are kept, and the Message-ID" \
	sh -c "[ \"\$(sed -n '/^References:/,/^Date:/p' '$T/out' | grep -o '<[^>]*>' | tr '\n' ' ')\" = \"<r000@example.org> $(seq -f '<r%03g@example.org>' 11 39 | tr '\n' ' ')<limits@example.org> \" ]"

gen id 250 > "$T/in.eml"
run_pr < "$T/in.eml"
check "message id: 250 bytes is kept" grep -q "^In-Reply-To: <i*@example.org>$" "$T/out"
gen id 251 > "$T/in.eml"
run_pr < "$T/in.eml"
check "message id: 251 bytes is dropped, with a line on stderr" \
	sh -c "! grep -q '^In-Reply-To:' '$T/out' && grep -q 'Message-ID is malformed' '$T/err'"

within files 10000
past files 10001 "the patch changes more than 10000 files; the rest was not read"
check "files: ... the 10001st is not quoted" sh -c "grep -q '^> diff --git a/f9999 ' '$T/out' && ! grep -q 'f10000' '$T/out'"

within hunks 100000
past hunks 100001 "the patch has more than 100000 hunks; the rest was not read"

within lines 2000000
check "lines: the 2,000,000th line is read" grep -q '^> LAST-LINE$' "$T/out"
past lines 2000001 "the mail text has more than 2000000 lines; the rest was not read"
check "lines: ... the 2,000,001st is not" sh -c "! grep -q 'LAST-LINE' '$T/out'"

gen line-bytes 996 > "$T/in.eml"
run_pr --full < "$T/in.eml"
check "line length: a quoted line of 998 bytes is whole" \
	sh -c "grep -q '^> +y*z\$' '$T/out' && [ \$(grep '^> +y' '$T/out' | wc -c) -eq 999 ]"
gen line-bytes 2000 > "$T/in.eml"
run_pr --full < "$T/in.eml"
check "line length: a longer one is cut to 998 bytes, marked [...]" \
	sh -c "grep -q '^> +y* \[\.\.\.\]\$' '$T/out' && [ \$(grep '^> +y' '$T/out' | wc -c) -le 999 ] && [ \$(awk '{ if (length(\$0) > m) m = length(\$0) } END { print m }' '$T/out') -le 998 ]"

# Of the prerequisites a mail states, the first 1000 are kept (patch/facts.h).
DUMP=$ROOT/build/asan/dump
if [ -x "$DUMP" ]; then
	gen prerequisites 1001 > "$T/in.eml"
	"$DUMP" < "$T/in.eml" > "$T/dump" 2>/dev/null
	check "prerequisites: 1000 of 1001 are kept, the first ones" sh -c "
		[ \$(grep -c '^prerequisite-patch-id: ' '$T/dump') -eq 1000 ] &&
		grep -q '^prerequisite-patch-id: 0*3e7\$' '$T/dump' && ! grep -q '^prerequisite-patch-id: 0*3e8\$' '$T/dump'"
else
	skip "prerequisites" "no build/asan/dump"
fi

# The input limit: more than 256 MiB is refused, nothing is written.
mkfifo "$T/fifo"
head -c $((256 * 1024 * 1024 + 1)) /dev/zero > "$T/fifo" &
run_pr < "$T/fifo"
wait
check "input: over 256 MiB is exit 3, one line on stderr, no draft" \
	sh -c "[ $status -eq 3 ] && [ \$(wc -l < '$T/err') -eq 1 ] && grep -q 'larger than 256 MiB' '$T/err' && [ ! -s '$T/out' ]"
# A flood of NUL bytes with no headers: a small draft, not three times the input.
head -c $((64 * 1024 * 1024)) /dev/zero > "$T/fifo" &
run_pr < "$T/fifo"
check "input: 64 MiB of NUL bytes gives a small draft" \
	sh -c "[ $status -eq 1 ] && [ \$(wc -c < '$T/out') -lt 4096 ]"

# Peak memory (doc/limits.md): at most four times the input plus 16 MiB,
# measured on the release binary (ASan's shadow memory would swamp it).
# peak_within NAME FILE: runs ./patchreview on FILE, checks its peak RSS.
PEAK_TIMES=${PEAK_TIMES:-4}
peak_within() {
	python3 - "$ROOT/patchreview" "$2" "$PEAK_TIMES" > "$T/peak" <<'PY'
import os, resource, subprocess, sys
with open(sys.argv[2], "rb") as f:
    subprocess.run([sys.argv[1]], stdin=f, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
size = os.path.getsize(sys.argv[2])
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024  # KiB on Linux
bound = int(sys.argv[3]) * size + (16 << 20)
print("peak %.1f MiB, bound %.1f MiB for %.1f MiB in" % (peak / 2**20, bound / 2**20, size / 2**20))
sys.exit(peak > bound)
PY
	if [ $? -eq 0 ]; then
		pass "memory: $1 stays within ${PEAK_TIMES}x the input + 16 MiB"
	else
		fail "memory: $1 stays within ${PEAK_TIMES}x the input + 16 MiB" "$(cat "$T/peak")"
	fi
}
if [ -x "$ROOT/patchreview" ]; then
	head -c $((16 * 1024 * 1024)) /dev/zero > "$T/in.eml"
	peak_within "16 MiB of NUL bytes" "$T/in.eml"
	gen parts 100000 > "$T/in.eml"
	peak_within "100,000 MIME parts" "$T/in.eml"
	gen headers 1000000 > "$T/in.eml"
	peak_within "1,000,000 header fields" "$T/in.eml"
	gen decoys 1000000 > "$T/in.eml"
	peak_within "64 multiparts, then one of 1,000,000 parts" "$T/in.eml"
	gen fields 1000000 > "$T/in.eml"
	peak_within "1,000,000 header fields in 2,000 parts" "$T/in.eml"
	gen quoted 4000000 > "$T/in.eml"
	peak_within "a quoted name of 4,000,000 escapes" "$T/in.eml"
	gen prerequisites 1000000 > "$T/in.eml"
	peak_within "1,000,000 prerequisite-patch-id: lines" "$T/in.eml"
else
	skip "memory" "no release binary ./patchreview (make)"
fi
