#!/bin/sh
# Finding the messages and the patch in the input, seen in the draft and on
# stderr (tests/parse pins what the parsers make of the same mails): one
# message is never split, an mbox is split and unescaped, the part that
# carries the patch wins over a diff the body pastes, and a pull request
# says what happened to its diff.
. "$(dirname "$0")/lib.sh"
P=$ROOT/tests/parse
DUMP=${DUMP:-$ROOT/build/asan/dump}

run_pr --full < "$P/single-embedded-from.eml"
check "one message: a From line in the body does not split it" \
	sh -c "[ $status -eq 0 ] && [ ! -s '$T/err' ] && grep -q '^> +	return 0;' '$T/out'"

run_pr --full < "$P/mbox-split.eml"
check "mbox: stderr says how many messages there are, and what is reviewed" \
	grep -q "^patchreview: the input holds 2 messages; reviewing 2 patches$" "$T/err"
awk '/^From patchreview /{ n++ } n == 1' "$T/out" > "$T/first"
check "mbox: mboxrd '>From ' lines are unescaped" \
	grep -q "^> From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17" "$T/first"
check "mbox: the second message is not in the first's draft" sh -c "! grep -q 'x: second' '$T/first'"

run_pr < "$P/mbox-nul.eml"
check "mbox: a NUL byte does not hide the next message" \
	sh -c "[ $status -eq 0 ] && grep -q 'holds 2 messages' '$T/err'"
run_pr < "$P/mbox-truncated.eml"
check "mbox: a From block cut short ends the input" \
	sh -c "[ $status -eq 0 ] && [ ! -s '$T/err' ] && grep -q '^X-Patchreview-Summary: The built-in checks found nothing' '$T/out'"

run_pr < "$P/attached-over-pasted.eml"
check "attachment: a diff the body pastes is neither reviewed nor quoted" \
	sh -c "[ $status -eq 0 ] && grep -q '^X-Patchreview-Summary: The built-in checks found nothing' '$T/out' && ! grep -q '^> main(void)' '$T/out'"
check "attachment: the flowed body is not the patch's damage" sh -c "! grep -q 'sent with format=flowed' '$T/out'"
run_pr --full < "$P/utf16-attachment.eml"
check "attachment: UTF-16 is decoded before the diff is looked for" \
	sh -c "[ $status -eq 0 ] && grep -q '^> +	return 0; /\* succès \*/$' '$T/out'"
run_pr < "$P/flowed-cover.eml"
check "format=flowed: only the part with the diff counts" \
	sh -c "[ $status -eq 0 ] && ! grep -q 'sent with format=flowed' '$T/out'"

run_pr < "$MAILS/pull-diff.eml"
check "pull request with a diff: says the diff was not reviewed, exit 1" \
	sh -c "[ $status -eq 1 ] && grep -q '^patchreview: a pull request; its diff was not reviewed$' '$T/err' &&
		[ \"\$(python3 '$ROOT/tests/tools/fields.py' X-Patchreview-Note '$T/out')\" = 'this is a pull request; its diff was not reviewed' ]"

if have_corpus; then
	run_pr < "$CORPUS/lore-cifs-x-patch-application.eml"
	check "corpus: the clean attachment is reviewed, not the wrapped copy in the body" \
		sh -c "grep -q '^X-Patchreview-Summary: The built-in checks found nothing' '$T/out' && grep -q '^> Cc: stable@vger.kernel.org$' '$T/out' &&
			! grep -q 'cifs_dump_channel(struct seq_file \*m, int i,$' '$T/out'"
	run_pr < "$CORPUS/pw-cvs-diff-latin1-attachment.mbox"
	check "corpus: a flowed cover text with the patch attached is not format=flowed" \
		sh -c "[ $status -eq 0 ] && ! grep -q 'sent with format=flowed' '$T/out'"
	run_pr < "$CORPUS/pw-git-pull-request-with-diff.mbox"
	check "corpus: a [git pull] with its diff says so" \
		sh -c "[ $status -eq 1 ] && grep -q 'a pull request; its diff was not reviewed' '$T/err'"
	run_pr < "$CORPUS/git-t5100-sample.mbox"
	check "corpus: git's mailsplit sample holds 18 messages" grep -q "holds 18 messages" "$T/err"
	run_pr < "$CORPUS/notmuch-x-diff-inline-mbox.eml"
	check "corpus: a From line inside an attachment does not split the mbox" \
		sh -c "[ $status -eq 0 ] && ! grep -q 'messages' '$T/err'"
	if [ -x "$DUMP" ]; then
		"$DUMP" < "$CORPUS/pw-git-add-binary-file.mbox" > "$T/dump" 2>&1
		check "corpus: git --no-prefix names a binary file" \
			grep -q "^file 0: new,binary pixel.bmp -> pixel.bmp " "$T/dump"
	fi
fi
