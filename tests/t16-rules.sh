#!/bin/sh
# The rules as a set: every finding names a rule of --list-checks, the
# profile decides which rules apply, skip_checks and add_checks turn rules
# off and on by id (misspelled ids stop the run), and the suppression list
# drops known findings by rule, file, line and Message-ID.
. "$(dirname "$0")/lib.sh"
DUMP=${DUMP:-$ROOT/build/asan/dump}

run_pr --list-checks
cp "$T/out" "$T/rules"
check "--list-checks: exit 0, one rule a line" \
	sh -c "[ $status -eq 0 ] && grep -q '^trailing-whitespace  *any  *an added line ends in blanks \[TRAILING_WHITESPACE\]$' '$T/rules'"
cut -d' ' -f1 "$T/rules" | sort > "$T/ids"
check "--list-checks: ids are unique" sh -c "[ \$(uniq -d '$T/ids' | wc -l) -eq 0 ]"
missing=
for id in $(cat "$T/ids"); do
	grep -q "^| \`$id\` |" "$ROOT/doc/checks.md" || missing="$missing doc/checks.md:$id"
	grep -q -e "^\\\\fB$(echo "$id" | sed 's/-/\\\\-/g')\\\\fR" "$ROOT/doc/man/patchreview-checks.7" ||
		missing="$missing man:$id"
done
check "docs: every rule id is in doc/checks.md and its man page${missing:+ (missing:$missing)}" test -z "$missing"

# Every finding of every test mail comes from a rule in the table.
if [ -x "$DUMP" ]; then
	unknown=
	for m in "$MAILS"/*.eml "$ROOT"/tests/parse/*.eml $( [ -d "$CORPUS" ] && ls "$CORPUS"/*.eml "$CORPUS"/*.mbox); do
		for id in $("$DUMP" < "$m" 2>/dev/null | sed -n 's/^finding [^:]*: [a-z]* //p' | sort -u); do
			grep -q -x -e "$id" "$T/ids" || unknown="$unknown $(basename "$m"):$id"
		done
	done
	check "every finding's source is a rule id${unknown:+ (not:$unknown)}" test -z "$unknown"
fi

mkdir -p "$XDG_CONFIG_HOME/patchreview"
conf=$XDG_CONFIG_HOME/patchreview/config
printf 'from = a@example.org\nskip_checks = signoff fixes-tags\n' > "$conf"
run_pr < "$MAILS/demo.eml"
check "skip_checks: a misspelled id stops the run with file and line" \
	sh -c "[ $status -eq 2 ] && [ ! -s '$T/out' ] && grep -q \"config:2: 'skip_checks' names no check: 'fixes-tags'\" '$T/err'"
printf 'add_checks = nonsense\n' > "$conf"
run_pr < "$MAILS/demo.eml"
check "add_checks: a misspelled id stops the run" \
	sh -c "[ $status -eq 2 ] && grep -q \"config:1: 'add_checks' names no check: 'nonsense'\" '$T/err'"
rm -f "$conf"
PATCHREVIEW_PROFILE=linux run_pr < "$MAILS/demo.eml"
check "profile: a bad value stops the run, naming the variable" \
	sh -c "[ $status -eq 2 ] && grep -q \"PATCHREVIEW_PROFILE: 'profile' wants auto, kernel or generic, not 'linux'\" '$T/err'"

# The dismissed list, hand-written entries, at its default place.
known=$XDG_DATA_HOME/patchreview/dismissed
mkdir -p "$(dirname "$known")"
run_pr < "$MAILS/demo.eml"
check "suppressions: none yet, both comments" grep -q "^X-Patchreview-Summary: The built-in checks made 2 comments" "$T/out"
cat > "$known" <<'EOF'
# seen on the list already
trailing-whitespace file=drivers/net/ethernet/foo/* line=219   # the irq line
EOF
run_pr < "$MAILS/demo.eml"
check "suppressions: rule, file glob and line drop one finding" \
	sh -c "grep -q '^X-Patchreview-Summary: The built-in checks made 1 comment' '$T/out' && ! grep -q 'trailing whitespace' '$T/out' && grep -q '1 known finding left out' '$T/err'"
printf 'trailing-whitespace file=drivers/net/ethernet/foo/* line=220\n' > "$known"
run_pr < "$MAILS/demo.eml"
check "suppressions: another line number drops nothing" grep -q "^X-Patchreview-Summary: The built-in checks made 2 comments" "$T/out"
printf 'fixes-tag msgid=<20261201081402.4711-1-jose.garcia@example.org>\n* msgid=other@example.org\n' > "$known"
run_pr < "$MAILS/demo.eml"
check "suppressions: by Message-ID, and only that message" \
	sh -c "grep -q '^X-Patchreview-Summary: The built-in checks made 1 comment' '$T/out' && ! grep -q 'Fixes: tag is malformed' '$T/out'"
printf '* msgid=20261201081402.4711-1-jose.garcia@example.org\n' > "$known"
run_pr < "$MAILS/demo.eml"
check "suppressions: '*' is any rule; the id without <> matches too" \
	grep -q "^X-Patchreview-Summary: The built-in checks found nothing" "$T/out"
printf 'fixes-tag\nfixes-tag mgsid=x\nfixes-tag line=ten\nfixes-tag fp=0123abcd\n' > "$known"
run_pr < "$MAILS/demo.eml"
check "suppressions: entries without a field or with an unknown one are ignored, with a warning" \
	sh -c "grep -q '^X-Patchreview-Summary: The built-in checks made 2 comments' '$T/out' && grep -q 'dismissed:1: an entry needs file=' '$T/err' && grep -q \"dismissed:2: unknown field 'mgsid'\" '$T/err' && grep -q \"dismissed:3: 'line=ten' is not a line number\" '$T/err' && grep -q 'dismissed:4: fp= takes twelve hex digits' '$T/err' && [ \$(wc -l < '$T/err') -eq 4 ]"
printf 'fixes-tag file=drivers/*\n' > "$T/mine"
PATCHREVIEW_DISMISSED="$T/mine" run_pr < "$MAILS/demo.eml"
check "suppressions: the setting names another file; file= never matches a message finding" \
	sh -c "grep -q '^X-Patchreview-Summary: The built-in checks made 2 comments' '$T/out' && [ ! -s '$T/err' ]"
printf '* msgid=20261201081402.4711-1-jose.garcia@example.org\n' > "$known"
PATCHREVIEW_DISMISSED=none run_pr < "$MAILS/demo.eml"
check "suppressions: none turns the list off" grep -q "^X-Patchreview-Summary: The built-in checks made 2 comments" "$T/out"
rm -f "$known"

# The spelling list is looked up with bsearch: it must stay sorted, one entry a word.
if command -v python3 >/dev/null; then
	check "spelling list: sorted, no duplicates, no word its own fix" python3 - "$ROOT/filter/checks/words.c" <<'PY'
import re, sys
pairs = re.findall(r'\{ "([^"]+)", "([^"]+)" \}', open(sys.argv[1]).read())
words = [w for w, _ in pairs]
sys.exit(not (len(pairs) > 200 and words == sorted(set(words)) and all(w != r for w, r in pairs)))
PY
fi
