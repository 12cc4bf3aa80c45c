#!/bin/sh
# The machine-readable outputs (issue 14): --format json against the schema
# in contrib/, b4's check-command formats (b4-check, lines), and --fail-on.
# Real b4 drives the same formats in t42-b4.sh.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { skip "formats" "python3 missing"; exit 0; }

no_escape() { ! grep -q "$(printf '\033')" "$T/out" && ! grep -q "$(printf '\302\233')" "$T/out"; }

# --format json
run_pr --format json < "$MAILS/demo.eml"
check "json: exit 0" test "$status" -eq 0
check "json: valid against contrib/patchreview.schema.json" valid
check "json: format 1, the mail's id and subject, no counter, no model, no draft" \
	jsonq 'd["format"] == 1 and d["tool"] == "patchreview" and p["message_id"] == "20261201081402.4711-1-jose.garcia@example.org" and p["subject"].startswith("[PATCH net v2] net: foo:") and p["index"] == 0 and p["total"] == 0 and p["reviewed"] and p["model"] is None and p["draft"] is None'
check "json: a trailer finding has no file and no line, and quotes the trailer" \
	jsonq 'f[0] == {"severity": "warning", "source": "fixes-tag", "file": None, "line": None, "old_line": None, "kind": "trailer", "quote": "Fixes: 3c5e1a7d (\"net: foo: add rx ring\")", "text": f[0]["text"]} and f[0]["text"].startswith("This Fixes: tag is malformed")'
check "json: an added line has its file and new-side line number" \
	jsonq 'f[1]["source"] == "trailing-whitespace" and f[1]["file"] == "drivers/net/ethernet/foo/foo_main.c" and f[1]["line"] == 219 and f[1]["old_line"] is None and f[1]["kind"] == "added" and f[1]["quote"].endswith("priv->irq); ")'
check "json: nothing but the JSON on stdout" sh -c "[ \$(grep -c '^{' '$T/out') -eq 1 ] && ! grep -q '^Subject:' '$T/out'"

run_pr --format json < "$MAILS/whitespace.eml"
check "json: findings in line order; a CR kept in the quote; no-newline has no number" \
	jsonq '[x["line"] for x in f] == [2, 3, 4, None] and f[2]["quote"].endswith("\r") and f[3]["kind"] == "no-newline" and f[3]["file"] == "tools/foo/table.c"'
check "json: whitespace.eml valid" valid

sed 's/^Subject: \[PATCH\]/Subject: [PATCH v2 3\/7]/' "$MAILS/clean.eml" > "$T/series.eml"
run_pr --format json < "$T/series.eml"
check "json: index and total from [PATCH v2 3/7], no findings" \
	jsonq 'p["index"] == 3 and p["total"] == 7 and f == [] and p["reviewed"]'

run_pr --format json < "$MAILS/reply.eml"
check "json: a mail without a patch: exit 1" test "$status" -eq 1
check "json: ... reviewed false, no findings, the note" \
	jsonq 'not p["reviewed"] and f == [] and p["notes"] == ["no patch found in this mail; nothing was reviewed"]'
check "json: ... valid" valid

run_pr --format json --maildir "$T/md" < "$MAILS/demo.eml"
draft=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["patches"][0]["draft"])' "$T/out" 2>/dev/null)
check "json --maildir: the draft's path, a file in new/ holding the draft" \
	sh -c "[ $status -eq 0 ] && [ -f '$draft' ] && [ \"\$(dirname '$draft')\" = '$T/md/new' ] && grep -q '^Subject: Re: ' '$draft'"

run_pr --format json < "$MAILS/hostile.eml"
check "json: escape sequences from the mail never reach the output" no_escape
check "json: ... they are U+FFFD in subject and quote" \
	jsonq '"\ufffd[31m" in p["subject"] and "\ufffd[31mhi" in f[0]["quote"]'
check "json: ... and the output is valid" valid
check "json: no header injection through the subject" jsonq '"\n" not in p["subject"]'

# --format lines: b4 prep --check and b4 am --check
run_pr --format lines < "$MAILS/clean.eml"
check "lines: a clean patch prints nothing and exits 0" \
	sh -c "[ $status -eq 0 ] && [ ! -s '$T/out' ] && [ ! -s '$T/err' ]"
run_pr --format lines < "$MAILS/demo.eml"
cat > "$T/expect" <<'EOF'
commit message: WARNING: This Fixes: tag is malformed: the commit id needs at least 12 hex digits. The usual form is Fixes: 123456789abc ("subject of the fixed commit"), which git log -1 --abbrev=12 --format='Fixes: %h ("%s")' prints.
drivers/net/ethernet/foo/foo_main.c:219: CHECK: This line adds trailing whitespace.
EOF
check "lines: one line per finding, location first, checkpatch's levels" \
	sh -c "[ $status -eq 0 ] && cmp -s '$T/expect' '$T/out' && [ ! -s '$T/err' ]"
run_pr --format lines < "$MAILS/no-signoff.eml"
check "lines: an error is the one line with ERROR:" \
	sh -c "[ \$(grep -c 'ERROR:' '$T/out') -eq 1 ] && grep -q '^commit message: ERROR: There is no Signed-off-by' '$T/out'"
run_pr --format lines < "$MAILS/reply.eml"
check "lines: no patch: nothing on stdout or stderr, exit 0" \
	sh -c "[ $status -eq 0 ] && [ ! -s '$T/out' ] && [ ! -s '$T/err' ]"
run_pr --format lines < "$MAILS/hostile.eml"
check "lines: escape sequences never reach the output" no_escape
# b4 takes any line holding "ERROR:" for a failure: a file named so must not make a nit one.
printf 'From: a@example.org\nSubject: [PATCH] x\nMessage-ID: <err@example.org>\n\nx\n\nSigned-off-by: a@example.org\n---\ndiff --git a/ERROR:x.c b/ERROR:x.c\n--- a/ERROR:x.c\n+++ b/ERROR:x.c\n@@ -1 +1 @@\n-a\n+b \n' > "$T/errname.eml"
run_pr --format lines < "$T/errname.eml"
check "lines: 'ERROR:' from the mail is defused in a line that is not an error" \
	sh -c "[ $status -eq 0 ] && grep -q '^Error:x.c:1: CHECK: This line adds trailing whitespace.$' '$T/out' && ! grep -q 'ERROR:' '$T/out'"

# --format b4-check: b4 review's check commands
run_pr --format b4-check < "$MAILS/demo.eml"
check "b4-check: one object for the checks, warn, counts in the summary" \
	jsonq 'len(d) == 1 and d[0]["tool"] == "patchreview" and d[0]["status"] == "warn" and d[0]["summary"] == "1 warning, 1 nit" and d[0]["url"] == ""'
check "b4-check: details give place, severity, check, quoted line and text" \
	jsonq '"drivers/net/ethernet/foo/foo_main.c:219: nit (trailing-whitespace)\n> +\t\tnetdev_err(" in d[0]["details"] and "commit message: warning (fixes-tag)\n> Fixes: 3c5e1a7d" in d[0]["details"]'
run_pr --format b4-check < "$MAILS/no-signoff.eml"
check "b4-check: an error fails" jsonq 'd[0]["status"] == "fail" and d[0]["summary"] == "1 error"'
run_pr --format b4-check < "$MAILS/clean.eml"
check "b4-check: a clean patch passes" \
	jsonq 'd == [{"tool": "patchreview", "status": "pass", "summary": "no comments", "url": "", "details": ""}]'
run_pr --format b4-check < "$MAILS/reply.eml"
check "b4-check: no patch: [] and exit 0" sh -c "[ $status -eq 0 ] && [ \"\$(cat '$T/out')\" = '[]' ]"
run_pr --format b4-check < "$MAILS/hostile.eml"
check "b4-check: escape sequences never reach the output" no_escape

# $B4_TRACKING_FILE: a patch the maintainer marked "skip" is not reviewed.
tracking() { # MSGID STATE
	printf '{"series": {"header-info": {"msgid": "cover@example.org"}}, "patches": [{"title": "x", "header-info": {"msgid": "%s"}, "reviews": {"m@example.org": {"name": "M", "patch-state": "%s"}}}]}\n' "$1" "$2" > "$T/tracking.json"
}
tracking 20261201081402.4711-1-jose.garcia@example.org skip
B4_TRACKING_FILE=$T/tracking.json run_pr --format b4-check < "$MAILS/demo.eml"
check "b4-check: B4_TRACKING_FILE: a patch marked skip gets []" sh -c "[ $status -eq 0 ] && [ \"\$(cat '$T/out')\" = '[]' ]"
tracking 20261201081402.4711-1-jose.garcia@example.org done
B4_TRACKING_FILE=$T/tracking.json run_pr --format b4-check < "$MAILS/demo.eml"
check "b4-check: B4_TRACKING_FILE: another state is reviewed" jsonq 'd[0]["status"] == "warn"'
tracking other@example.org skip
B4_TRACKING_FILE=$T/tracking.json run_pr --format b4-check < "$MAILS/demo.eml"
check "b4-check: B4_TRACKING_FILE: a skip on another patch does not count" jsonq 'd[0]["status"] == "warn"'
printf '{"patches": [{"header-info": 7}, 3, {"reviews": []}], "series": "x"' > "$T/tracking.json"
B4_TRACKING_FILE=$T/tracking.json run_pr --format b4-check < "$MAILS/demo.eml"
check "b4-check: B4_TRACKING_FILE: a broken file is ignored" jsonq 'd[0]["status"] == "warn"' 
B4_TRACKING_FILE=$T/nonexistent run_pr --format b4-check < "$MAILS/demo.eml"
check "b4-check: B4_TRACKING_FILE: a missing file is ignored" jsonq 'd[0]["status"] == "warn"'

# --fail-on: exit 5 when a finding is at or above the severity.
for case in "error 0" "warning 5" "nit 5"; do
	set -- $case
	run_pr --fail-on "$1" < "$MAILS/demo.eml"
	check "--fail-on $1 with a warning and a nit: exit $2, draft written" \
		sh -c "[ $status -eq $2 ] && grep -q '^Subject: Re:' '$T/out'"
done
run_pr --fail-on error --format lines < "$MAILS/no-signoff.eml"
check "--fail-on error with an error: exit 5 in any format" sh -c "[ $status -eq 5 ] && [ -s '$T/out' ]"
run_pr --fail-on nit < "$MAILS/clean.eml"
check "--fail-on nit on a clean patch: exit 0" test "$status" -eq 0
PATCHREVIEW_SKIP_CHECKS="fixes-tag trailing-whitespace" run_pr --fail-on nit < "$MAILS/demo.eml"
check "--fail-on: skipped checks do not count" test "$status" -eq 0
run_pr --fail-on nit < "$MAILS/reply.eml"
check "--fail-on on a mail without a patch: exit 1 as before" test "$status" -eq 1
run_pr < "$MAILS/demo.eml"
check "without --fail-on the exit status ignores findings" test "$status" -eq 0

run_pr --fail-on fatal < "$MAILS/demo.eml"
check "--fail-on with an unknown severity: exit 2, one line" \
	sh -c "[ $status -eq 2 ] && [ \$(wc -l < '$T/err') -eq 1 ] && grep -q \"unknown severity 'fatal'\" '$T/err' && [ ! -s '$T/out' ]"
run_pr --format yaml < "$MAILS/demo.eml"
check "--format with an unknown format: exit 2, one line" \
	sh -c "[ $status -eq 2 ] && [ \$(wc -l < '$T/err') -eq 1 ] && grep -q \"unknown format 'yaml'\" '$T/err'"
run_pr --format draft < "$MAILS/demo.eml"
check "--format draft is the default draft" grep -q '^Subject: Re: ' "$T/out"

# The validators themselves: a document the schema forbids is caught by both.
run_pr --format json < "$MAILS/demo.eml"
sed 's/"nit"/"nitpick"/' "$T/out" > "$T/bad.json"
check "schema: a wrong severity fails jsonschema (or the small validator)" \
	sh -c "! python3 '$ROOT/tests/schema_check.py' '$SCHEMA' '$T/bad.json' >/dev/null"
check "schema: ... and the small validator" \
	sh -c "! python3 '$ROOT/tests/schema_check.py' --mini '$SCHEMA' '$T/bad.json' >/dev/null"

# b4 pipes its check commands the body already decoded under the original
# Content-Transfer-Encoding, and (0.15+) a multipart mail's patch text
# under its multipart header: content that cannot be what the header says
# is read as it is.
run_pr --format json < "$MAILS/b4-decoded-base64.eml"
check "b4's decoded body under 'base64': reviewed as it is" \
	jsonq 'p["reviewed"] and f[0]["quote"] == "+int x = 10; " and f[0]["file"] == "lib/x.c"'
run_pr --format json < "$MAILS/b4-decoded-qp.eml"
check "b4's decoded body under 'quoted-printable': no =10 or soft break decoded" \
	jsonq 'p["reviewed"] and f[0]["quote"] == "+int y=10, z = 2; "'
sed -e 's/^Add y,/Add y for Jos\xc3\xa9,/' -e 's/and "a = b" //' -e 's/, z = 2; $/; /' "$MAILS/b4-decoded-qp.eml" > "$T/qp-8bit.eml"
run_pr --format json < "$T/qp-8bit.eml"
check "... nor in 8-bit text whose every = opens a hex pair" \
	jsonq 'p["reviewed"] and f[0]["quote"] == "+int y=10; "'
run_pr --format json < "$MAILS/b4-multipart-no-boundary.eml"
check "b4's patch text under a multipart header with no boundary: reviewed" \
	jsonq 'p["reviewed"] and f[0]["quote"] == "+int z; "'
run_pr --full < "$MAILS/signed-qp.eml"
check "real quoted-printable is still decoded" grep -q "^> +	if (peek(p) == '}')" "$T/out"

# --- a series in each format: the cover letter carries the series-level findings
run_pr --format json < "$MAILS/series-v2.mbox"
check "series json: one entry per patch plus the cover letter, in order" \
	jsonq '[(x["index"], x["total"], x["reviewed"]) for x in d["patches"]] == [(0, 3, False), (1, 3, True), (2, 3, True), (3, 3, True)]'
check "series json: the cover letter's entry holds the series findings" \
	jsonq 'sorted(x["source"] for x in d["patches"][0]["findings"]) == ["series-author", "series-diffstat", "series-signoff"]'
check "series json: valid" valid
run_pr --format lines < "$MAILS/series-v2.mbox"
check "series lines: the series error printed, marked as the cover letter's" \
	grep -qxF "0/3: ERROR: 3/3 has no Signed-off-by: line." "$T/out"
check "series lines: each line says which patch it is about" \
	sh -c "[ \$(grep -c '^[0-3]/3: ' '$T/out') -eq \$(wc -l < '$T/out') ] && grep -q '^3/3: commit message: ERROR: There is no Signed-off-by' '$T/out'"
run_pr --format lines --fail-on warning < "$MAILS/series-gap.mbox"
check "series lines --fail-on: a series-level warning alone exits 5 and is printed" \
	sh -c "[ $status -eq 5 ] && [ \$(wc -l < '$T/out') -eq 1 ] && grep -q '^0/3: WARNING: 2/3 of this series was not in the input' '$T/out'"
run_pr --format lines --fail-on error < "$MAILS/series-gap.mbox"
check "series lines --fail-on error: a warning alone exits 0" test "$status" -eq 0
run_pr --format b4-check --fail-on error < "$MAILS/series-v2.mbox"
check "series b4-check: the cover letter's series error is a fail, exit 5" \
	sh -c "[ $status -eq 5 ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d) == 4 and d[0][\"status\"] == \"fail\" and \"series-signoff\" in d[0][\"details\"]' '$T/out'"
run_pr --format lines < "$MAILS/demo.eml"
check "lines: one mail, no n/m in front" grep -q '^drivers/net/ethernet/foo/foo_main.c:219: CHECK:' "$T/out"
run_pr --format json --output-dir "$T/od" < "$MAILS/demo.eml"
check "json: draft is the path written with --output-dir" \
	jsonq 'p["draft"] and p["draft"].startswith("'"$T/od/"'") and p["draft"].endswith(".eml")'
