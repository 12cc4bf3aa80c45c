#!/bin/sh
# A whole series at once (issue 11): an mbox from b4, patchwork, lore or
# git format-patch, aerc's :pipe -m of marked mails, mutt's tagged pipe
# with $pipe_sep; grouped, ordered, replies and duplicates set aside, the
# newest version taken; one draft per patch plus one to the cover letter
# with the series-level checks and a summary; on stdout as an mbox, into
# a Maildir, or into a directory of NNNN-<subject>.eml files.
. "$(dirname "$0")/lib.sh"
export SOURCE_DATE_EPOCH=1764763200

# drafts FILE: the drafts of an mbox on stdout, one "index|In-Reply-To|Subject" line each.
drafts() {
	python3 - "$1" <<'PY'
import mailbox, sys
for m in mailbox.mbox(sys.argv[1]):
    print("%s|%s" % (m.get("In-Reply-To", ""), " ".join(m.get("Subject", "").split())))
PY
}
# draft N FILE: the body of the N-th draft (from 1) of an mbox.
draft() {
	python3 - "$1" "$2" <<'PY'
import mailbox, sys
m = list(mailbox.mbox(sys.argv[2]))[int(sys.argv[1]) - 1]
sys.stdout.buffer.write(m.as_bytes())
PY
}
# subjects FILE: the drafts' subjects without "Re: ", joined by '|', into $T/subj.
subjects() { drafts "$1" | cut -d'|' -f2 | sed 's/^Re: //' | tr '\n' '|' > "$T/subj"; }
# count FILE: how many drafts, into $n.
count() { n=$(drafts "$1" | wc -l); }

# --- a b4 series from the corpus: cover letter and four patches ----------
if have_corpus; then
	run_pr < "$CORPUS/b4-series-0-4.mbox"
	check "b4 mbox: exit 0" test "$status" -eq 0
	drafts "$T/out" > "$T/list"
	subjects "$T/out"
	check "b4 mbox: five drafts, the cover letter's first, then 1/4..4/4" \
		grep -q '^\[PATCH 0/4\] This is a cover for test series 1|\[PATCH 1/4\] [^|]*|\[PATCH 2/4\] [^|]*|\[PATCH 3/4\] [^|]*|\[PATCH 4/4\] [^|]*|$' "$T/subj"
	check "b4 mbox: each draft answers its own message" \
		sh -c "for i in 0 1 2 3 4; do grep -q \"^<20221025-test1-v1-\$i-e4f28f57990c@linuxfoundation.org>|.*\$i/4\" '$T/list' || exit 1; done"
	draft 1 "$T/out" > "$T/cover"
	check "b4 mbox: the cover letter's draft sums up every patch" \
		sh -c "[ \$(python3 '$ROOT/tests/tools/fields.py' X-Patchreview-Summary '$T/cover' | grep -c '^- [1-4]/4 ') -eq 4 ]"
	check "b4 mbox: the cover letter's quote stops before its signature" \
		sh -c "grep -q '^> Best regards,\$' '$T/cover' && ! grep -q '^> -- ' '$T/cover' && ! grep -q '^> Konstantin Ryabitsev <' '$T/cover'"
	check "b4 mbox: base-commit is recognised" \
		sh -c "python3 '$ROOT/tests/tools/fields.py' X-Patchreview-Summary '$T/cover' | grep -q 'based on f435c12df7c0ecf20ab8937859e63cddffacabb4'"
	check "b4 mbox: every draft is a complete reply" \
		sh -c "python3 '$ROOT/tests/check-draft.py' --series '$CORPUS/b4-series-0-4.mbox' '$T/out'"

	# aerc's :pipe -m of marked messages: "From ???@???" lines, mboxo, two blank lines after each.
	python3 - "$CORPUS/b4-series-0-4.mbox" > "$T/aerc.mbox" <<'PY'
import re, sys
raw = open(sys.argv[1], 'rb').read()
for p in re.split(rb'(?m)^From mboxrd@git Thu Jan  1 00:00:00 1970\n', raw)[1:]:
    p = re.sub(rb'(?m)^>(>*From )', rb'\1', p).rstrip(b'\n') + b'\n'
    p = re.sub(rb'(?m)^From ', rb'>From ', p)
    sys.stdout.buffer.write(b'From ???@??? Thu Dec  3 14:25:03 2026\n' + p + b'\n\n')
PY
	run_pr < "$T/aerc.mbox"
	subjects "$T/out"
	check "aerc :pipe -m: the same five drafts" \
		grep -q '^\[PATCH 0/4\][^|]*|\[PATCH 1/4\][^|]*|\[PATCH 2/4\][^|]*|\[PATCH 3/4\][^|]*|\[PATCH 4/4\][^|]*|$' "$T/subj"

	# mutt's tagged pipe, pipe_split unset, $pipe_sep a line of four Ctrl-A: from a
	# Maildir the raw messages (no From_ lines, bodies unescaped), from an mbox
	# folder each with its From_ line and mboxo escaping.
	python3 - "$CORPUS/b4-series-0-4.mbox" "$T/mutt-maildir" "$T/mutt-mbox" <<'PY'
import re, sys
raw = open(sys.argv[1], 'rb').read()
parts = [re.sub(rb'(?m)^>(>*From )', rb'\1', p).rstrip(b'\n') + b'\n'
         for p in re.split(rb'(?m)^From mboxrd@git Thu Jan  1 00:00:00 1970\n', raw)[1:]]
# A body line starting "From " in 1/4, as the clients notes show mutt piping it.
parts[1] = parts[1].replace(b'\n\nSigned-off-by:', b'\n\nFrom now on, frob.\n\nSigned-off-by:', 1)
sep = b'\x01\x01\x01\x01\n'
open(sys.argv[2], 'wb').write(b''.join(p + sep for p in parts))
open(sys.argv[3], 'wb').write(b''.join(
    b'From k@example.org Tue Oct 25 17:38:41 2022\n' + re.sub(rb'(?m)^From ', b'>From ', p) + sep
    for p in parts))
PY
	for form in maildir mbox; do
		run_pr < "$T/mutt-$form"
		subjects "$T/out"
		check "mutt \$pipe_sep stream from a $form: five drafts, in order" \
			grep -q '^\[PATCH 0/4\][^|]*|\[PATCH 1/4\][^|]*|\[PATCH 2/4\][^|]*|\[PATCH 3/4\][^|]*|\[PATCH 4/4\][^|]*|$' "$T/subj"
		draft 2 "$T/out" > "$T/p1"
		check "mutt \$pipe_sep stream from a $form: the body line 'From now on' is the patch's" \
			grep -q '^> From now on, frob.$' "$T/p1"
	done

	# Replies in the thread are set aside, and stderr says so.
	run_pr < "$CORPUS/patchew-series-luks-v4-reviewed.mbox"
	count "$T/out"
	check "replies: ignored, one line on stderr" \
		sh -c "grep -q 'ignoring 2 replies' '$T/err' && [ $n -eq 3 ]"

	# patchwork's base-different-versions: the patches say v1, the cover letter v3,
	# and the cover letter's diffstat is from before a patch was dropped.
	run_pr < "$CORPUS/pw-series-netdev-dsa-v3.mbox"
	draft 1 "$T/out" > "$T/cover"
	count "$T/out"
	check "mixed versions: the patches join the cover letter they answer" test "$n" -eq 5
	check "mixed versions: the cover letter's draft says so" \
		grep -q 'All the patches give another version in their subject than the' "$T/cover"
	check "diffstat: the cover letter's lists files no patch touches" \
		sh -c "tr '\n' ' ' < '$T/cover' | grep -q 'drivers/net/dsa/qca8k.c, which no patch touches'"

	# Mercurial's "[PATCH 1 of 2]".
	run_pr < "$CORPUS/pw-series-mercurial.mbox"
	subjects "$T/out"
	check "hg patchbomb: 0 of 2, 1 of 2, 2 of 2 in order" \
		grep -q '^\[PATCH 0 of 2\][^|]*|\[PATCH 1 of 2\][^|]*|\[PATCH 2 of 2\][^|]*|$' "$T/subj"
fi

# --- this project's own history, as git format-patch --stdout ------------
# Three commits of main that stay in its history: the layout, the dumps.
tip=2a14565
if command -v git >/dev/null && git -C "$ROOT" cat-file -e "$tip~3" 2>/dev/null; then
	git clone -q "$ROOT" "$T/clone" 2>/dev/null
	base=$(git -C "$T/clone" rev-parse "$tip~3")
	git -C "$T/clone" format-patch -q --stdout "$base..$tip" > "$T/fp.mbox"
	git -C "$T/clone" format-patch -q --stdout --cover-letter --base="$base" "$base..$tip" > "$T/fpc.mbox"
	run_pr < "$T/fp.mbox"
	subjects "$T/out"
	check "format-patch: one draft per commit, in order" \
		grep -q '^\[PATCH 1/3\][^|]*|\[PATCH 2/3\][^|]*|\[PATCH 3/3\][^|]*|$' "$T/subj"
	run_pr < "$T/fpc.mbox"
	draft 1 "$T/out" > "$T/cover"
	subjects "$T/out"
	check "format-patch --cover-letter: the cover letter's draft comes first, with the base" \
		sh -c "grep -q '^\[PATCH 0/3\]' '$T/subj' && python3 '$ROOT/tests/tools/fields.py' X-Patchreview-Summary '$T/cover' | grep -q 'based on $base'"
else
	skip "format-patch" "no git, or not main's history in $ROOT"
fi

# --- a series written for this test: v1, a reply, v2 with a duplicate ----
run_pr < "$MAILS/series-v2.mbox"
subjects "$T/out"
check "versions: only v2 is reviewed, cover letter first" \
	grep -q '^\[PATCH v2 0/3\][^|]*|\[PATCH v2 1/3\][^|]*|\[PATCH v2 2/3\][^|]*|\[PATCH v2 3/3\][^|]*|$' "$T/subj"
check "versions: stderr names the version reviewed and the older one" \
	grep -q 'reviewing v2 of "foo: add a frobnicator"; not the older v1' "$T/err"
check "duplicates and replies: one line each on stderr" \
	sh -c "grep -q 'ignoring 1 duplicate' '$T/err' && grep -q 'ignoring 1 reply' '$T/err'"
draft 1 "$T/out" > "$T/cover"
check "series-author: 2/3 came from another address without an in-body From:" \
	grep -q '^2/3 was sent from another address than the cover letter' "$T/cover"
check "series-signoff: 3/3 has none" grep -q '^3/3 has no Signed-off-by: line.' "$T/cover"
check "series-diffstat: a file no patch touches, and more lines than they have" \
	sh -c "tr '\n' ' ' < '$T/cover' | grep -q 'it lists tools/foo/baz.c, which no patch touches; it counts 5 files'"
check "cover letter: the list footer and the signature are not quoted" \
	sh -c "grep -q '^> base-commit: ' '$T/cover' && ! grep -q -e '^> Ada\$' -e '^> ____' -e 'mailing list' '$T/cover'"
check "cover letter: the summary names each patch's worst finding" \
	sh -c "python3 '$ROOT/tests/tools/fields.py' X-Patchreview-Summary '$T/cover' | grep -q '^- 3/3 foo: README: describe the flags: 1 comment; error:'"
printf 'skip_checks = series-author series-diffstat\n' > "$T/skip.conf"
run_pr --config "$T/skip.conf" < "$MAILS/series-v2.mbox"
draft 1 "$T/out" > "$T/cover"
check "skip_checks turns series rules off by id" \
	sh -c "! grep -q -e 'another address' -e 'diffstat' '$T/cover' && grep -q 'no Signed-off-by' '$T/cover'"

# A gap: 2/3 is missing; the rest is reviewed, and the cover letter's draft says which.
run_pr < "$MAILS/series-gap.mbox"
count "$T/out"
check "gap: the rest is reviewed" sh -c "[ $n -eq 3 ] && [ $status -eq 0 ]"
check "gap: stderr names the missing patch" grep -q '2/3 is not in the input; reviewing the rest' "$T/err"
draft 1 "$T/out" > "$T/cover"
check "gap: the cover letter's draft names it" \
	sh -c "grep -q '^2/3 of this series was not in the input' '$T/cover' && python3 '$ROOT/tests/tools/fields.py' X-Patchreview-Summary '$T/cover' | grep -q '^- Not in the input, not reviewed: 2/3.'"

# --- one message is a series of one: reviewed as it is --------------------
# nth N FILE: the N-th message (from 1) of an mbox, as one mail.
nth() {
	python3 - "$1" "$2" <<'PY'
import mailbox, sys
sys.stdout.write(list(mailbox.mbox(sys.argv[2]))[int(sys.argv[1]) - 1].as_string())
PY
}
nth 3 "$MAILS/series-gap.mbox" > "$T/three.eml"
run_pr < "$T/three.eml"
check "one message: 3/3 alone is reviewed, and nothing is said of the rest of its series" \
	sh -c "[ $status -eq 0 ] && grep -q '^Subject: Re: \[PATCH 3/3\]' '$T/out' &&
		grep -q '^X-Patchreview-Summary: The built-in checks' '$T/out' &&
		! grep -q -e 'in the input' -e 'series' '$T/out' '$T/err'"
sed 's/^Subject: /Subject: Re: /' "$MAILS/demo.eml" > "$T/re.eml"
run_pr < "$T/re.eml"
check "one message: a reply with a diff, given alone, is reviewed" \
	sh -c "[ $status -eq 0 ] && python3 '$ROOT/tests/tools/fields.py' X-Patchreview-Summary '$T/out' | grep -q '^The built-in checks made 2 comments.'"
nth 1 "$MAILS/series-gap.mbox" > "$T/cover.eml"
run_pr < "$T/cover.eml"
check "one message: a cover letter alone has no patch: a plain reply, exit 1" \
	sh -c "[ $status -eq 1 ] && [ \$(wc -l < '$T/err') -eq 1 ] &&
		grep -q '^patchreview: no patch found in the mail; writing a plain reply draft\$' '$T/err'"

# --- output modes ----------------------------------------------------------
run_pr --maildir "$T/md" < "$MAILS/series-v2.mbox"
check "maildir: every draft delivered, nothing on stdout, exit 0" \
	sh -c "[ $status -eq 0 ] && [ ! -s '$T/out' ] && [ \$(ls '$T/md/new' | wc -l) -eq 4 ] && [ -z \"\$(ls '$T/md/tmp')\" ]"
run_pr --output-dir "$T/od" < "$MAILS/series-v2.mbox"
check "output-dir: NNNN-<subject>.eml, the cover letter as 0000" \
	sh -c "[ $status -eq 0 ] && ls '$T/od' | tr '\n' ' ' | grep -q '^0000-foo-add-a-frobnicator.eml 0001-foo-add-frob.eml 0002-foo-bar-show-the-flags.eml 0003-foo-README-describe-the-flags.eml \$'"
# The Dates: a second apart in series order, the cover letter's first
# (mutt's recall menu and aerc's Drafts with sort = date list them so),
# and none after the run: the last is the second the drafts were written.
before=$(date +%s)
(unset SOURCE_DATE_EPOCH; run_pr --output-dir "$T/odd" < "$MAILS/series-v2.mbox")
after=$(date +%s)
python3 - "$T/odd" "$before" "$after" > "$T/dates" <<'PY2'
import email.utils, os, sys
d, lo, hi = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
dates = []
for f in sorted(os.listdir(d)):
    for line in open(os.path.join(d, f), encoding="utf-8"):
        if line.startswith("Date: "):
            dates.append(int(email.utils.parsedate_to_datetime(line[6:]).timestamp()))
            break
ok = len(dates) == 4 and all(b == a + 1 for a, b in zip(dates, dates[1:])) and \
    lo - len(dates) <= dates[0] and dates[-1] <= hi
print("ok" if ok else "not ok", [t - hi for t in dates])
PY2
check "series Dates: a second apart in series order, the last no later than the run" \
	grep -q '^ok' "$T/dates"
cp "$T/od/0001-foo-add-frob.eml" "$T/before"
run_pr --output-dir "$T/od" < "$MAILS/series-v2.mbox"
check "output-dir: an existing file is not replaced; exit 3, stderr says so" \
	sh -c "[ $status -eq 3 ] && grep -q \"0001-foo-add-frob.eml' exists; not replacing it\" '$T/err' && cmp -s '$T/before' '$T/od/0001-foo-add-frob.eml' && [ \$(ls -a '$T/od' | wc -l) -eq 6 ]"
run_pr --output-dir "$T/od1" < "$MAILS/demo.eml"
check "output-dir: one mail gives one file" \
	sh -c "[ $status -eq 0 ] && [ ! -s '$T/out' ] && ls '$T/od1' | grep -q '^0001-net-foo-.*\.eml\$'"
run_pr < "$MAILS/demo.eml"
check "one mail: the draft alone on stdout, no mbox line" sh -c "! head -1 '$T/out' | grep -q '^From '"

# --- mutt's default $pipe_sep (a newline) from a Maildir: two mails glued into one
{ cat "$MAILS/demo.eml"; echo; cat "$MAILS/clean.eml"; } > "$T/glued.eml"
run_pr < "$T/glued.eml"
check "glued mails: stderr warns that a message holds another mail's headers" \
	grep -q "message 1 holds another mail's headers at line [0-9]* of its text; were tagged mails piped with mutt's default \$pipe_sep?" "$T/err"
run_pr < "$MAILS/demo.eml"
check "glued mails: no warning for one mail" sh -c "! grep -q 'another mail' '$T/err'"
{ cat "$MAILS/demo.eml"; printf '\nFrom: a@example.org\nSubject: [PATCH] x\n\nMessage-ID: <x@y>\n'; } > "$T/half.eml"
run_pr < "$T/half.eml"
check "glued mails: From:, Subject: and Message-ID: must be in one header block" sh -c "! grep -q 'another mail' '$T/err'"
