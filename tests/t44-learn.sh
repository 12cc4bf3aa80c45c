#!/bin/sh
# Learning from the maintainer (issue 16): fingerprints that survive a v2,
# patchreview dismiss (by fingerprint, from a draft, scoped to a list,
# saying what it dismissed, trusting only patchreview's own hand),
# patchreview learn on sent replies (kept, deleted, dismissed after
# learn_after deletions, idempotent, only replies written from the draft),
# patchreview stats, --show-dismissed.
. "$(dirname "$0")/lib.sh"
WS=$MAILS/whitespace.eml
NET=$MAILS/llm-net.eml
DISMISSED=$XDG_DATA_HOME/patchreview/dismissed
LEARNED=$XDG_DATA_HOME/patchreview/learned
fps() { python3 "$ROOT/tests/tools/fields.py" X-Patchreview-Fingerprints "$1"; }

# Fingerprints: in a header field of their own, the same after the patch moves.
run_pr < "$WS"
cp "$T/out" "$T/draft1"
v1=$(fps "$T/draft1")
check "fingerprints: a header field with a fingerprint per finding, none in the text" \
	sh -c "[ \$(echo '$v1' | wc -w) -eq 4 ] && echo '$v1' | grep -q '^[0-9a-f]\{12\} ' && ! grep -q 'patchreview-fingerprints' '$T/draft1'"
# A v2: five lines earlier in the file, re-indented, another Message-ID.
python3 - "$WS" > "$T/v2.eml" <<'PY'
import email, re, sys
m = email.message_from_binary_file(open(sys.argv[1], 'rb'))
body = m.get_payload(decode=True).decode()
body = re.sub(r'(?m)^@@ -1,4 \+1,6 @@', '@@ -6,4 +6,6 @@', body)
del m['Content-Transfer-Encoding'], m['Message-ID']
m['Message-ID'] = '<ws-2@example.org>'
m['Content-Transfer-Encoding'] = '8bit'
m.set_payload(body)
sys.stdout.write(m.as_string())
PY
run_pr < "$T/v2.eml"
# (Python's writer drops the CR of the DOS line ending: that finding goes.)
v2=$(fps "$T/out")
check "fingerprints: a v2 with other line numbers has the same ones" \
	sh -c "[ -n '$v1' ] && [ '$v2' = '$(echo "$v1" | cut -d' ' -f1,2,4)' ] && grep -q '^> @@ -6,4 +6,6 @@' '$T/out'"
PATCHREVIEW_FINGERPRINTS=none run_pr < "$WS"
check "fingerprints = none: neither field nor line" sh -c "! grep -q -i 'patchreview-fingerprints' '$T/out'"
PATCHREVIEW_FINGERPRINTS=line run_pr < "$WS"
check "fingerprints = line: the line at the end, no field" \
	sh -c "tail -n 1 '$T/out' | grep -q -x '\[patchreview-fingerprints: $v1\]' && ! grep -q -i '^X-Patchreview-Fingerprints' '$T/out'"

# dismiss < draft: lists; N dismisses; the finding is gone from the next draft.
"$PR" dismiss < "$T/draft1" > "$T/list" 2>"$T/err"
check "dismiss < draft: the findings numbered, with source, file and text" \
	sh -c "grep -q '^ 1  [0-9a-f]\{12\}  trailing-whitespace  tools/foo/table.c: This line adds trailing whitespace.' '$T/list' && [ \$(grep -c '^ [0-9]  ' '$T/list') -eq 4 ] && [ ! -e '$DISMISSED' ]"
"$PR" dismiss --reason "house style" 1 < "$T/draft1" >"$T/said" 2>"$T/err"
check "dismiss 1 < draft: one line in the dismissed list, with the reason" \
	sh -c "[ \$(wc -l < '$DISMISSED') -eq 1 ] && grep -q '^trailing-whitespace fp=[0-9a-f]\{12\} # house style (' '$DISMISSED'"
check "dismiss 1 < draft: says what it dismissed" \
	grep -q -x "dismissed   1  $(echo "$v1" | cut -d' ' -f1)  trailing-whitespace  tools/foo/table.c: This line adds trailing whitespace." "$T/said"
run_pr < "$T/v2.eml"
check "dismissed: not shown again, in a v2 either" \
	sh -c "! grep -q 'trailing whitespace' '$T/out' && grep -q '1 known finding left out' '$T/err'"
run_pr --show-dismissed < "$WS"
check "--show-dismissed: listed in a section at the end" \
	sh -c "grep -q '^Dismissed earlier, and left out above' '$T/out' && grep -q '^\[[0-9a-f]\{12\}\] trailing-whitespace, tools/foo/table.c:3: This line adds' '$T/out'"
"$PR" dismiss 1 < "$T/draft1" 2>"$T/err"
check "dismiss: a finding dismissed already is not written twice" \
	sh -c "[ \$(wc -l < '$DISMISSED') -eq 1 ] && grep -q 'dismissed already' '$T/err'"
"$PR" dismiss 9 < "$T/draft1" 2>"$T/err"; st=$?
check "dismiss: a number the draft does not have is an error" \
	sh -c "[ $st -eq 3 ] && grep -q \"'9' is not one of the 4 findings\" '$T/err'"
"$PR" dismiss 0123abcd 2>"$T/err" </dev/null; st=$?
check "dismiss: a bad fingerprint is an error" sh -c "[ $st -eq 3 ] && grep -q 'not a fingerprint' '$T/err'"

# A fingerprint scoped to a list: only mail to that list loses it.
fp=$(fps "$T/draft1" | cut -d' ' -f2)
"$PR" dismiss --list other@vger.kernel.org "$fp" >"$T/said" 2>"$T/err"
check "dismiss FINGERPRINT: says what it dismissed" grep -q -x "dismissed  $fp  \*  " "$T/said"
run_pr < "$WS"
check "dismiss --list: mail to another list keeps the finding" grep -q 'space before a tab' "$T/out"
sed 's/^To: .*/To: other@vger.kernel.org/' "$WS" > "$T/tolist.eml"
run_pr < "$T/tolist.eml"
check "dismiss --list: mail to that list loses it" sh -c "! grep -q 'space before a tab' '$T/out'"
# The list file's format, written and read in one place: a value with '#',
# '%' or a blank is escaped on the way in and read back as it was.
cp "$DISMISSED" "$T/dismissed.saved"
fp=$(fps "$T/draft1" | cut -d' ' -f3)
"$PR" dismiss --list 'dev#1%x@example.org' --reason 'why # not' "$fp" 2>"$T/err"
check "dismissed list: '#' and '%' in a value are escaped, the reason is a comment" \
	grep -q "^\\* fp=$fp list=dev%231%25x@example.org # why # not (" "$DISMISSED"
sed 's/^To: .*/To: dev#1%x@example.org/' "$WS" > "$T/odd.eml"
run_pr < "$T/odd.eml"
check "dismissed list: the escaped entry reads back and matches, without a warning" \
	sh -c "grep -q 'space before a tab' '$T/out' && ! grep -q 'DOS line ending' '$T/out' &&
		! grep -q 'ignored' '$T/err'"
cp "$T/dismissed.saved" "$DISMISSED"

# A model finding: dismissed on its line content, whatever the words next time.
ANS=$T/answers
mkdir -p "$ANS"
answer() {
	printf '{"summary": "S.", "findings": [{"file": "net/bar/bar_rx.c", "quote": "if (skb->len > sizeof(frame)) {", "severity": "warning", "confidence": 0.9, "comment": "%s"}, {"file": "net/bar/bar_rx.c", "quote": "return bar_deliver(bd, hdr, skb);", "severity": "nit", "confidence": 0.9, "comment": "OTHER-LINE: a second remark."}]}\n' "$1" > "$ANS/net.json"
}
answer "MODEL-ONE: is the length the right bound?"
PATCHREVIEW_BACKEND=none run_pr --answers "$ANS" --request-name net < "$NET"
cp "$T/out" "$T/netdraft"
"$PR" dismiss < "$T/netdraft" > "$T/list"
n=$(grep 'MODEL-ONE' "$T/list" | awk '{print $1}')
"$PR" dismiss "$n" < "$T/netdraft" > "$T/said"
answer "MODEL-TWO: the bound looks wrong to me, frame is smaller."
PATCHREVIEW_BACKEND=none run_pr --answers "$ANS" --request-name net < "$NET"
check "dismissed model finding: the model is quiet on that line, in other words too" \
	sh -c "! grep -q 'MODEL-' '$T/out' && grep -q 'OTHER-LINE' '$T/out'"

# learn: a sent reply that deletes one comment and keeps the others.
rm -f "$DISMISSED"
reply() { # DRAFT: the draft as sent, without the space-before-tab comment and the fingerprints
	grep -v -e 'indents with a space before a tab' -e '^\[patchreview-fingerprints' "$1"
}
run_pr < "$WS"
reply "$T/out" > "$T/sent1"
"$PR" learn < "$T/sent1" 2>"$T/err"
check "learn: one reply, 3 kept, 1 deleted, nothing dismissed yet (learn_after = 2)" \
	sh -c "grep -q '1 reply to reviewed mail: 3 comments kept, 1 deleted, 0 newly dismissed' '$T/err' && [ ! -e '$DISMISSED' ] && [ \$(grep -c '^kept	' '$LEARNED') -eq 3 ] && grep -q '^deleted	[0-9a-f]*	space-before-tab	' '$LEARNED'"
"$PR" learn < "$T/sent1" 2>"$T/err"
check "learn: the same reply again changes nothing" \
	sh -c "grep -q '0 replies' '$T/err' && [ \$(wc -l < '$LEARNED') -eq 4 ]"
run_pr < "$WS"
mkdir -p "$T/Sent/cur" "$T/Sent/new" "$T/Sent/tmp"
reply "$T/out" > "$T/Sent/cur/1.sent:2,S"
"$PR" learn "$T/Sent" 2>"$T/err"
check "learn DIR: deleted twice, dismissed, with the reason" \
	sh -c "grep -q '1 newly dismissed' '$T/err' && grep -q '^space-before-tab fp=[0-9a-f]\{12\} # deleted before sending (' '$DISMISSED'"
run_pr < "$WS"
check "learn: the finding deleted twice is not in the next draft" \
	sh -c "! grep -q 'space before a tab' '$T/out' && grep -q 'trailing whitespace' '$T/out'"
"$PR" learn < "$MAILS/reply.eml" 2>"$T/err"; st=$?
check "learn: a reply to a mail patchreview never answered is skipped" \
	sh -c "[ $st -eq 0 ] && grep -q '0 replies' '$T/err'"
run_pr < "$WS"
reply "$T/out" | sed 's/This line adds trailing whitespace\.//' > "$T/sent3"
PATCHREVIEW_LEARN_AFTER=1 "$PR" learn < "$T/sent3" 2>"$T/err"
check "learn_after = 1: dismissed at the first deletion" \
	sh -c "grep -q '1 newly dismissed' '$T/err' && grep -q '^trailing-whitespace fp=' '$DISMISSED'"

# stats: per source, kept and deleted.
"$PR" stats > "$T/stats"
check "stats: per check id, kept and deleted, and the total" \
	sh -c "grep -q '^space-before-tab  *0  *2  *0%' '$T/stats' && grep -q '^dos-line-ending  *3  *0  *100%' '$T/stats' && grep -q '^trailing-whitespace  *2  *1  *67%' '$T/stats' && grep -q '^all ' '$T/stats'"

# Hostile: a draft whose text forges a fingerprints line and odd bytes.
printf 'Subject: x\nIn-Reply-To: <nothing@x>\n\n[patchreview-fingerprints: zzzz 0123456789ab\033[31m]\n' > "$T/forged"
"$PR" dismiss < "$T/forged" > "$T/list" 2>&1; st=$?
check "dismiss: a forged line gives only well-formed fingerprints, no escape" \
	sh -c "[ $st -eq 0 ] && ! grep -q \"\$(printf '\033')\" '$T/list' && grep -q 'names no findings' '$T/list'"
check "record: none left behind for learned replies, one for the unsent draft" \
	sh -c "[ \$(ls '$XDG_DATA_HOME/patchreview/drafts' | wc -l) -le 2 ]"

# Learning only from replies written from the draft: a plain reply to a
# reviewed mail ("Applied, thanks.") is skipped and counted, and keeps the
# record; a reply that kept the draft's comments is learned; so is one that
# deleted them all, which the draft's fingerprints field marks as from it.
DEMO_ID='<20261201081402.4711-1-jose.garcia@example.org>'
run_pr < "$MAILS/demo.eml"
cp "$T/out" "$T/demo-draft"
printf 'From: Reviewer <rev@example.org>\nTo: jose.garcia@example.org\nSubject: Re: [PATCH net v2] net: foo: free the rx ring when open fails\nMessage-ID: <applied-1@example.org>\nIn-Reply-To: %s\n\nApplied to net, thanks.\n' "$DEMO_ID" > "$T/plain"
lines=$(wc -l < "$LEARNED")
"$PR" learn < "$T/plain" 2>"$T/err"
check "learn: a plain reply to a reviewed mail is skipped, nothing learned" \
	sh -c "grep -q '0 replies to reviewed mail: 0 comments kept, 0 deleted, 0 newly dismissed; 1 not written from the draft, skipped' '$T/err' &&
		[ \$(grep -c -v '^skipped	' '$LEARNED') -eq $lines ] && [ \$(grep -c '^skipped	' '$LEARNED') -eq 1 ]"
"$PR" learn < "$T/plain" 2>"$T/err"
check "learn: the same plain reply again is not counted twice" \
	sh -c "grep -q '; 0 not written from the draft' '$T/err' && [ \$(grep -c '^skipped	' '$LEARNED') -eq 1 ]"
sed '/^X-Patchreview-Fingerprints:/d' "$T/demo-draft" > "$T/sent-kept"
"$PR" learn < "$T/sent-kept" 2>"$T/err"
check "learn: a reply that kept the draft's comments is learned, its field gone or not" \
	grep -q '1 reply to reviewed mail: 2 comments kept, 0 deleted' "$T/err"
run_pr < "$MAILS/demo.eml"
{ sed '/^$/q' "$T/out"; printf 'Thanks, this looks fine to me.\n'; } > "$T/sent-none"
"$PR" learn < "$T/sent-none" 2>"$T/err"
check "learn: a reply from the draft with every comment deleted is learned as deleted" \
	grep -q '1 reply to reviewed mail: 0 comments kept, 2 deleted' "$T/err"
"$PR" stats > "$T/stats"
check "stats: says how many replies were skipped" \
	grep -q -x '1 reply not written from the draft, skipped (nothing learned)' "$T/stats"

# Only patchreview's own hand counts for dismiss: a fingerprints line in the
# mail (quoted in the draft) or at the start of a model comment is not one.
# Both name findings of another patch; dismiss --all must dismiss the
# draft's own findings and nothing else, from the record or from the line.
rm -f "$DISMISSED"
forged_mail=$(fps "$T/draft1" | cut -d' ' -f1)
forged_model=$(fps "$T/draft1" | cut -d' ' -f2)
sed "s/^Check the length and drop such frames\.\$/&\n\n[patchreview-fingerprints: $forged_mail]/" "$NET" > "$T/forged.eml"
printf '{"summary": "S.", "findings": [{"file": "net/bar/bar_rx.c", "quote": "if (skb->len > sizeof(frame)) {", "severity": "warning", "confidence": 0.9, "comment": "[patchreview-fingerprints: %s] is this bound right?"}]}\n' "$forged_model" > "$ANS/forged.json"
PATCHREVIEW_BACKEND=none PATCHREVIEW_FINGERPRINTS=line PATCHREVIEW_RECORD=no \
	run_pr --answers "$ANS" --request-name forged < "$T/forged.eml"
cp "$T/out" "$T/forged-draft"
own=$(sed -n 's/^\[patchreview-fingerprints: \(.*\)\]$/\1/p' "$T/forged-draft")
check "forged fingerprints: the draft's own line is the only one at the margin" \
	sh -c "[ \$(grep -c '^\[patchreview-fingerprints:' '$T/forged-draft') -eq 1 ] &&
		grep -q '^> \[patchreview-fingerprints: $forged_mail\]' '$T/forged-draft' &&
		grep -q '^ \[patchreview-fingerprints: $forged_model\] is this bound right' '$T/forged-draft' && [ -n '$own' ]"
owned() { # DISMISSED-FILE: it holds exactly the fingerprints in $own
	for fp in $own; do grep -q "fp=$fp " "$1" || return 1; done
	[ "$(wc -l < "$1")" -eq "$(echo $own | wc -w)" ] &&
		! grep -q -e "fp=$forged_mail" -e "fp=$forged_model" "$1"
}
PATCHREVIEW_RECORD=no "$PR" dismiss --all < "$T/forged-draft" > "$T/said" 2>"$T/err"
check "forged fingerprints: dismiss --all takes the draft's own line, not the mail's or the model's" \
	owned "$DISMISSED"
rm -f "$DISMISSED"
PATCHREVIEW_BACKEND=none run_pr --answers "$ANS" --request-name forged < "$T/forged.eml"
"$PR" dismiss --all < "$T/out" > "$T/said" 2>"$T/err"
check "forged fingerprints: with the record, dismiss --all takes the record" owned "$DISMISSED"

# Bounded: a draft naming 100,000 fingerprints on its own line (1.3 MB)
# lists at most 1000 of them (learn/own.h), in one pass.
python3 - "$T/many" <<'PY'
import sys
fps = " ".join("%012x" % (0x100000000 + i) for i in range(100000))
open(sys.argv[1], "w").write("Subject: x\n\n[patchreview-fingerprints: %s]\n" % fps)
PY
"$PR" dismiss < "$T/many" > "$T/list" 2>"$T/err"; st=$?
check "dismiss: 100,000 fingerprints in a draft list as 1000, the output under a twentieth of the input" \
	sh -c "[ $st -eq 0 ] && [ \$(grep -c '^ *[0-9][0-9]*  [0-9a-f]\{12\}  ' '$T/list') -eq 1000 ] &&
		[ \$((\$(wc -c < '$T/list') * 20)) -lt \$(wc -c < '$T/many') ]"

# The send hook (contrib/learn/patchreview-sendmail): the X-Patchreview
# fields go, the rest of the mail goes on byte for byte, with the
# arguments and the exit status of the real sendmail. When the fields
# cannot be removed (a tool fails, no room for the copy), nothing is sent
# and the hook exits 75 (EX_TEMPFAIL), so that the client keeps the mail.
HOOK=$ROOT/contrib/learn/patchreview-sendmail
mkdir -p "$T/hookbin" "$T/failbin"
ln -s "$PR" "$T/hookbin/patchreview"
printf '#!/bin/sh\nprintf "%%s\\n" "$*" >"%s/hook.args"\ncat >"%s/hook.sent"\nexit 7\n' \
	"$T" "$T" >"$T/hookbin/sendmail"
chmod +x "$T/hookbin/sendmail"
hook() { # [PATH-PREFIX] < mail: runs the hook; $st its status
	rm -f "$T/hook.sent" "$T/hook.args"
	env PATH="${1:+$1:}$T/hookbin:$PATH" PATCHREVIEW_RECORD=no \
		sh "$HOOK" sendmail -oi rcpt@example.org >"$T/hook.out" 2>"$T/hook.err"
	st=$?
}
run_pr < "$MAILS/demo.eml"
cp "$T/out" "$T/hook-draft"
sed '/^X-Patchreview-[A-Za-z]*:/d' "$T/hook-draft" > "$T/hook-want"
hook < "$T/hook-draft"
check "send hook: the fields go, the rest byte for byte, with the sendmail's arguments and status" \
	sh -c "[ $st -eq 7 ] && grep -q '^X-Patchreview-Fingerprints: ' '$T/hook-draft' &&
		cmp -s '$T/hook.sent' '$T/hook-want' && [ \"\$(cat '$T/hook.args')\" = '-oi rcpt@example.org' ]"
hook < "$MAILS/demo.eml"
check "send hook: a mail without the fields goes byte for byte" \
	sh -c "[ $st -eq 7 ] && cmp -s '$T/hook.sent' '$MAILS/demo.eml'"
for tool in tail head awk; do
	printf '#!/bin/sh\nexit 1\n' >"$T/failbin/$tool"
	chmod +x "$T/failbin/$tool"
	hook "$T/failbin" < "$T/hook-draft"
	check "send hook: $tool failing: nothing sent, exit 75, one line saying so" \
		sh -c "[ $st -eq 75 ] && [ ! -e '$T/hook.sent' ] && grep -q 'the mail was not sent' '$T/hook.err'"
	rm -f "$T/failbin/$tool"
done
TMPDIR=$T/no/such/dir hook < "$T/hook-draft"
check "send hook: no room for the copy: nothing sent, exit 75" \
	sh -c "[ $st -eq 75 ] && [ ! -e '$T/hook.sent' ]"

# Linear: patchreview learn reads the dismissed list and the learned log
# once a run, not once a reply or a finding. A Sent folder of N replies
# (half written from their drafts, every comment deleted; half plain
# replies, skipped), N records of 4 findings, a log of 20 N lines: the
# instructions at 4N over those at N, counted by callgrind, under 6 (4 is
# linear; reading the log once a finding made it 16). Counts, never times.
if ! command -v valgrind >/dev/null 2>&1 || [ ! -x "$ROOT/patchreview" ]; then
	skip "learn: linear" "valgrind or the release build is missing"
	exit 0
fi
# lin_case KIND N: the generated case of KIND (learn, dismiss) under $T/lin.
lin_case() {
	rm -rf "$T/lin"
	mkdir -p "$T/lin/data/patchreview/drafts"
	python3 - "$T/lin" "$1" "$2" <<'PY'
import os, sys
d, kind, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
def record(msgid):
    h = 14695981039346656037	# FNV-1a 64 of the Message-ID names the record
    for b in msgid.encode():
        h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    f = open(os.path.join(d, "data/patchreview/drafts", "%016x" % h), "w")
    f.write("msgid %s\n" % msgid)
    return f
if kind == "learn":
    log = open(os.path.join(d, "data/patchreview/learned"), "w")
    for i in range(20 * n):
        log.write("kept\t%012x\tsome-check\t2026-12-01\n" % (0x500000000000 + i))
    sent = open(os.path.join(d, "sent.mbox"), "w")
    for i in range(n):
        msgid = "m%d@example.org" % i
        fps = ["%012x" % (0x100000000000 + 4 * i + k) for k in range(4)]
        with record(msgid) as f:
            for k, fp in enumerate(fps):
                f.write("%s\tsome-check\tfile%d.c\tComment number %d about something wrong here\n" % (fp, i, k))
        sent.write("From x Thu Jan  1 00:00:00 1970\nFrom: R <r@example.org>\n"
                   "Subject: Re: [PATCH] p%d\nMessage-ID: <r%d@example.org>\nIn-Reply-To: <%s>\n" % (i, i, msgid))
        if i % 2:
            sent.write("\nApplied, thanks.\n\n")
        else:
            sent.write("X-Patchreview-Fingerprints: %s\n\nThanks, fine.\n\n" % " ".join(fps))
else:
    with open(os.path.join(d, "data/patchreview/dismissed"), "w") as f:
        for i in range(20 * n):
            f.write("some-check fp=%012x # old\n" % (0x500000000000 + i))
    fps = ["%012x" % (0x100000000000 + i) for i in range(n)]
    with record("m@example.org") as f:
        for i, fp in enumerate(reversed(fps)):
            f.write("%s\tsome-check\tfile%d.c\tComment %d\n" % (fp, i, i))
    with open(os.path.join(d, "draft"), "w") as f:
        f.write("Subject: Re: x\nIn-Reply-To: <m@example.org>\nX-Patchreview-Fingerprints: %s\n\nx\n" % " ".join(fps))
PY
}
# lin_work INPUT ARGS...: the instructions of patchreview ARGS < INPUT on
# the case, in $work; its stdout in $T/lin.out, stderr in $T/lin.err.
lin_work() {
	in=$1
	shift
	env XDG_DATA_HOME="$T/lin/data" valgrind --tool=callgrind \
		--callgrind-out-file="$T/lin.cg" "$ROOT/patchreview" "$@" <"$in" >"$T/lin.out" 2>"$T/lin.err"
	work=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$T/lin.cg")
}
export PATCHREVIEW_LEARN_AFTER=1
lin_case learn 100
lin_work /dev/null learn "$T/lin/sent.mbox"
w1=$work
said1=$(grep -c 'newly dismissed' "$T/lin.err")
lin_case learn 400
lin_work /dev/null learn "$T/lin/sent.mbox"
w4=$work
unset PATCHREVIEW_LEARN_AFTER
ratio=$(awk -v a="$w1" -v b="$w4" 'BEGIN { if (a > 0) printf "%.2f", b / a; else print "none" }')
check "learn: linear: ${ratio}x the instructions at 4x the replies and the log" \
	awk -v r="$ratio" 'BEGIN { exit !(r != "none" && r + 0 > 0 && r + 0 < 6) }'
check "learn: linear: the case did what it says (200 learned, 200 skipped, 800 dismissed)" \
	sh -c "[ $said1 -eq 1 ] && grep -q '200 replies to reviewed mail: 0 comments kept, 800 deleted, 800 newly dismissed; 200 not written from the draft, skipped' '$T/lin.err'"

# Linear: patchreview dismiss --all on a draft naming N fingerprints, with
# a record of N findings and a dismissed list of 20 N lines: each
# fingerprint looked up, not compared with every finding or entry.
lin_case dismiss 200
lin_work "$T/lin/draft" dismiss --all
w1=$work
lin_case dismiss 800
lin_work "$T/lin/draft" dismiss --all
w4=$work
ratio=$(awk -v a="$w1" -v b="$w4" 'BEGIN { if (a > 0) printf "%.2f", b / a; else print "none" }')
check "dismiss: linear: ${ratio}x the instructions at 4x the fingerprints, record and list" \
	awk -v r="$ratio" 'BEGIN { exit !(r != "none" && r + 0 > 0 && r + 0 < 6) }'
check "dismiss: linear: the case did what it says (800 dismissed, each with its record's file)" \
	sh -c "[ \$(grep -c '^dismissed  *[0-9]*  [0-9a-f]\{12\}  some-check  file[0-9]*\.c: Comment' '$T/lin.out') -eq 800 ]"
