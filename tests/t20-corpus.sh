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
	if [ "$(grep -c -v -e 'messages; reviewing the first' -e 'no patch found' -e 'no mail headers' \
		-e 'a pull request; its diff' "$T/err")" -ne 0 ]; then
		fail "corpus: $name" "unexpected stderr: $(head -c 200 "$T/err")"
		continue
	fi
	diff=
	# Only for single patch mails: the first-message split of an mbox and
	# the reading of fuzzed Content-Type values are guesses either way.
	if [ "$status" -eq 0 ] && ! grep -q 'messages; reviewing the first' "$T/err" &&
		! grep -q "^$name	.*fuzzed" "$CORPUS/MANIFEST.tsv"; then
		diff=--diff
	fi
	if why=$(python3 "$ROOT/tests/check-draft.py" "$mail" "$T/out" $diff); then
		pass "corpus: $name (exit $status${diff:+, diff lines match})"
	else
		fail "corpus: $name" "$why"
	fi
done
