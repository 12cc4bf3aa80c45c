#!/bin/sh
# Every real mail in ../shared/corpus through the ASan+UBSan build: a
# documented exit status, no sanitizer report, a draft whose headers parse,
# and for patch mails the diff lines quoted (--full) equal the input's.
. "$(dirname "$0")/lib.sh"
have_corpus || exit 0
command -v python3 >/dev/null || { skip "corpus" "python3 missing"; exit 0; }

for mail in "$CORPUS"/*.eml "$CORPUS"/*.mbox; do
	name=$(basename "$mail")
	run_pr --full < "$mail"
	case $status in
	0 | 1) ;;
	*) fail "corpus: $name" "exit status $status: $(head -c 200 "$T/err")"; continue ;;
	esac
	# An mbox of a series also says what it set aside (tests/t17-series.sh).
	if [ "$(grep -c -v -e 'the input holds [0-9]* messages; reviewing' -e 'no patch found' \
		-e 'no mail headers' -e 'a pull request; its diff' -e ': ignoring [0-9]* ' \
		-e 'not in the input' -e 'none of its [0-9]* patches' -e ': reviewing v[0-9]* of ' \
		"$T/err")" -ne 0 ]; then
		fail "corpus: $name" "unexpected stderr: $(head -c 200 "$T/err")"
		continue
	fi
	diff=
	# Only for single patch mails: the reading of fuzzed Content-Type
	# values is a guess either way. Several drafts come as an mbox, each
	# checked against the message it answers.
	if head -1 "$T/out" | grep -q '^From patchreview '; then
		diff=--series
	elif [ "$status" -eq 0 ] && ! grep -q "^$name	.*fuzzed" "$CORPUS/MANIFEST.tsv"; then
		diff=--diff
	fi
	if [ "$diff" = --series ]; then
		why=$(python3 "$ROOT/tests/check-draft.py" --series "$mail" "$T/out") &&
			pass "corpus: $name (exit $status, a draft for each of $(grep -c '^From patchreview ' "$T/out") messages)" ||
			fail "corpus: $name" "$why"
	elif why=$(python3 "$ROOT/tests/check-draft.py" "$mail" "$T/out" $diff); then
		pass "corpus: $name (exit $status${diff:+, diff lines match})"
	else
		fail "corpus: $name" "$why"
	fi
done
