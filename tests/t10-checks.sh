#!/bin/sh
# The built-in checks: each fires on a mail that breaks its rule, and stays
# silent on mails that keep it (clean.eml keeps every rule).
. "$(dirname "$0")/lib.sh"

# has MAIL NAME PATTERN [OPTION]: the draft of MAIL holds PATTERN (grep -E).
has() {
	run_pr $4 < "$MAILS/$1"
	if [ "$status" -eq 0 ] && grep -q -E -- "$3" "$T/out"; then
		pass "$2"
	else
		fail "$2" "exit $status, no /$3/ in draft of $1"
	fi
}
# lacks MAIL NAME PATTERN: the draft of MAIL does not hold PATTERN.
lacks() {
	run_pr < "$MAILS/$1"
	unsaid "$2 ($1)" "$3"
}

# The comment sits right under the line it is about: a blank line, then it.
under() {
	run_pr < "$MAILS/$1"
	said "$2 ($1)" "$3" "$4"
}

has clean.eml "clean: says nothing is wrong" "^X-Patchreview-Summary: The built-in checks found nothing to comment on\.$"
lacks clean.eml "clean: no comments" "^(nit: |There is no|The author is|This )"

under no-signoff.eml "signoff: missing, under the last message line" \
	"> Reviewed-by: Charles" "^There is no Signed-off-by: line"
lacks forwarded.eml "signoff: silent with in-body From and DMARC-munged sender" "Signed-off-by: line|none of the Signed-off-by"
under signoff-other.eml "signoff: not the author's, under the sign-off" \
	"> Signed-off-by: Charles Babbage" "^The author is Ada Lovelace <ada@example.org>"
lacks attached-format-patch.eml "signoff: the author of an attached format-patch mail is its From:" \
	"Signed-off-by: line|none of the Signed-off-by"
under attached-format-patch-other.eml "signoff: an attached format-patch's From:, RFC 2047-decoded" \
	"> Signed-off-by: Charles Babbage" "^The author is Bjørn Nilsen <bjorn@example.org>"
lacks scissors-discussion.eml "message checks: the discussion above git's scissors line is no commit text" \
	"over 75 columns"
lacks clean.eml "signoff: silent when the author signs off" "Signed-off-by: line|none of the Signed-off-by"

under fixes-bad.eml "fixes: no (\"subject\")" \
	"> Fixes: 2092767168f0 bitmap: Add" "^This Fixes: tag is malformed: the commit id should be followed by"
under fixes-bad.eml "fixes: unterminated subject" \
	"> Fixes: 2092767168f0 (\"bitmap: Add bitmap_cut()" "^This Fixes: tag is malformed: the subject should be closed"
under demo.eml "fixes: short commit id" "> Fixes: 3c5e1a7d" "needs at least 12 hex"
lacks clean.eml "fixes: silent on a good tag" "Fixes: tag is malformed"

has long-subject.eml "subject: over 75 characters" "^nit: The subject is 101 characters long after the prefix"
lacks demo.eml "subject: silent within 75" "The subject is"

under whitespace.eml "whitespace: trailing" "> +	4, 5, 6,	" "^nit: This line adds trailing whitespace\.$"
under whitespace.eml "whitespace: space before tab" "> + 	1, 2, 3," "^nit: This line indents with a space before a tab"
under whitespace.eml "whitespace: DOS line ending (quoted as U+FFFD)" "> +	7, 8, 9,�" "^nit: This line ends with a DOS line ending"
under whitespace.eml "whitespace: no newline at end of file" "> \\ No newline at end of file" \
	"^nit: This leaves tools/foo/table.c without a newline"
under demo.eml "whitespace: trailing, inline patch" '> +		netdev_err(dev, "cannot request irq %d\n", priv->irq); ' \
	"^nit: This line adds trailing whitespace"
lacks clean.eml "whitespace: silent on clean lines" "whitespace|space before a tab|DOS line|newline at the end"

under pasted-show.eml "signoff: indented, pasted from git show" \
	">     Signed-off-by: Ada Lovelace" "^This Signed-off-by: is indented"
under pasted-show.eml "corrupt hunk: a wrapped hunk header" \
	"> @@ -1,4 +1,4 @@ int main(int argc, char" "^This hunk ends here, but its header promises 4 old and 4 new"

has attachment.eml "attachment: Latin-1 x-patch attachment decoded" '^> \+msgstr "Bonjour, ça va \?"$' --full
has attachment.eml "attachment: sign-off found in the attached patch" "^X-Patchreview-Summary: The built-in checks found nothing"
has signed-qp.eml "signed: QP patch inside multipart/signed" "^> \+		warn\(p, \"empty switch body – did you mean this\?\"\);$" --full

# Real mails from the corpus.
if have_corpus; then
	c() { run_pr < "$CORPUS/$1"; }
	c lore-man-x-diff-base64.eml
	check "corpus: a base64 x-diff with CR LF throughout: one note, no per-line noise" \
		sh -c "grep -q '^nit: The patch came in a MIME part whose lines all end in CR LF' '$T/out' && ! grep -q 'DOS line ending' '$T/out'"
	c patchew-raw-diff-mixed-crlf.mbox
	check "corpus: CR on some added lines only is a DOS line ending" \
		grep -q "^nit: This line ends with a DOS line ending (CR LF)\. The same goes for 2\$" "$T/out"
	run_pr --full < "$CORPUS/pw-no-newline-at-eof.mbox"
	check "corpus: new symlinks lack a final newline, and that is right" \
		sh -c "grep -q -F '> \\ No newline at end of file' '$T/out' && ! grep -q 'without a newline' '$T/out'"
	c lore-man-flowed-patch.eml
	check "corpus: format=flowed patch" grep -q "^This mail was sent with format=flowed" "$T/out"
	c lore-dm-html-alternative-patch.eml
	check "corpus: wrapped hunk header is a damaged patch" grep -q "^This hunk ends here, but its header promises 12 old and 14 new" "$T/out"
	c notmuch-octet-stream-patch-attachment.eml
	check "corpus: long subject" grep -q "^nit: The subject is 82 characters" "$T/out"
	c git-t5100-nul-b64.eml
	check "corpus: missing sign-off" grep -q "^There is no Signed-off-by: line" "$T/out"
	c lore-nf-rename-case.eml
	check "corpus: a full stop ends the subject, and nothing else is wrong" \
		sh -c "grep -q '^nit: The subject ends with a full stop' '$T/out' && grep -q '^X-Patchreview-Summary: The built-in checks made 1 comment' '$T/out'"
	for m in lore-nf-latin2-2047from-patch.eml lore-dm-base64-inline-patch.eml pw-git-rename.mbox \
		patchew-mode-only-patch.mbox pw-multipart-alternative-patch.mbox; do
		c $m
		check "corpus: $m has no built-in findings" grep -q "^X-Patchreview-Summary: The built-in checks found nothing" "$T/out"
	done
	c lore-nf-latin2-2047from-patch.eml
	check "corpus: Latin-2 author in the sign-off check and attribution" \
		grep -q "^On Wed, 7 Feb 2024 15:50:13 +0100, Ignacy Gawędzki <ignacy.gawedzki@green-communications.fr> wrote:$" "$T/out"
fi

# "diff -u" in the commit message is prose; "diff -urN" output is a diff.
run_pr --full < "$MAILS/diff-in-message.eml"
check "diff -u: prose in the message does not start the diff" \
	sh -c "grep -q '^X-Patchreview-Summary: The built-in checks found nothing' '$T/out' && grep -q '^> +	return print_unified(f);' '$T/out'"

# Universal rules added with the rule table.
under signoff-below.eml "signoff: below the --- line" "> Signed-off-by: Ada Lovelace <ada@example.org>" \
	"^This Signed-off-by: is below the --- line, where git am drops it"
check "signoff: below --- is the only comment" grep -q "^X-Patchreview-Summary: The built-in checks made 1 comment" "$T/out"
run_pr < "$MAILS/modes.eml"
check "exec-bit: a C file made executable" grep -q "^This makes src/frob.c executable, but it is not a program" "$T/out"
check "exec-bit: a new script without #!" grep -q "^This makes tools/gen.py executable, but it is a script with no #! line" "$T/out"
check "exec-bit: a Rust attribute #![ is no #! line" grep -q "^This makes src/lib.rs executable" "$T/out"
check "exec-bit: silent on a script with #!, a mode-only script, a file with no extension" \
	sh -c "grep -q '^X-Patchreview-Summary: The built-in checks made 3 comments' '$T/out' && ! grep -q -e 'makes scripts/build.sh' -e 'makes tools/run.py' -e 'makes tools/README' '$T/out'"
said "exec-bit: under the new mode line" "> new mode 100755" "^This makes src/frob.c executable"
sed -e 's|drivers/misc/|src/|g' -e 's|linux-kernel@vger.kernel.org|dev@lists.example.org|' \
	"$MAILS/kernel-message.eml" > "$T/generic-message.eml"
run_pr < "$T/generic-message.eml"
check "subject-period: kernel only: other projects (Open vSwitch, DPDK) end subjects with one" \
	sh -c "! grep -q 'The subject ends with a full stop' '$T/out'"
said "commit-line-length: any project" "> The frob limit of 1 was too low" "^nit: This line of the commit message is over 75 columns"
said "signoff-form: any project" "> Signed-off-by: Ada Lovelace ada@example.org" "^This Signed-off-by: has no <> around the address"
check "duplicate-trailer: any project" grep -q "^nit: This Signed-off-by: line repeats one above it" "$T/out"
check "generic project: only those three; the kernel's conventions stay silent" \
	grep -q "^X-Patchreview-Summary: The built-in checks made 3 comments" "$T/out"
lacks clean.eml "new universal rules: silent on a clean patch" \
	"full stop|over 75 columns|Name <address>|repeats one above|below the --- line|executable|no description"
run_pr < "$ROOT/tests/parse/trailers-only.eml"
unsaid "empty-message: a subject-only commit is fine outside the kernel" "no description"
if have_corpus; then
	run_pr < "$CORPUS/lore-man-x-utf8j-charset.eml"
	check "corpus: commit-line-length once, with a count" \
		grep -q "^nit: This line of the commit message is over 75 columns, and 14" "$T/out"
	run_pr < "$CORPUS/pw-git-mode-change.mbox"
	unsaid "corpus: a shell script made executable is fine (exec-bit)" "^This makes"
fi
