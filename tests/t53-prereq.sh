#!/bin/sh
# Prerequisites from the mail on hand: a patch made on top of a series not
# merged yet names it (prerequisite-patch-id:, prerequisite-message-id:),
# and the maintainer's tree lacks it. A real git repository built here: the
# prerequisite series is found in the input, the --thread folder or the
# list folder (list_folder, a Maildir or an mbox), by patch-id or by
# Message-ID, applied before the patch, and what is not found is named.
. "$(dirname "$0")/lib.sh"
command -v git >/dev/null || { skip "prereq" "git missing"; exit 0; }
command -v python3 >/dev/null || { skip "prereq" "python3 missing"; exit 0; }
R=$T/repo
export TMPDIR=$T/tmp
mkdir -p "$TMPDIR"
g() { git -C "$R" -c user.name=T -c user.email=t@example.org "$@"; }
git init -q "$R"
python3 - "$R/ring.c" <<'PY'
import sys
open(sys.argv[1], "w").write("".join(
    "int ring_%d(int x)\n{\n\treturn x + %d;\n}\n\n" % (i, i) for i in range(12)))
PY
g add ring.c
g commit -q -m "ring: first"
base=$(g rev-parse HEAD)
# The prerequisite series: two patches, each changing a function.
sed -i 's/return x + 3;/return x + 33;/' "$R/ring.c"
g commit -q -a -m "ring: three is thirty-three"
sed -i 's/return x + 7;/return x + 77;/' "$R/ring.c"
g commit -q -a -m "ring: seven is seventy-seven"
# The patch reviewed changes a line the second one made.
sed -i 's/return x + 77;/return x + 777;/' "$R/ring.c"
g commit -q -a -m "ring: seven is more"
g format-patch -q --stdout --base="$base" -1 HEAD > "$T/dep.eml"
g format-patch -q --cover-letter --thread -o "$T/pre" -2 HEAD~1
cat "$T/pre/"*.patch > "$T/pre.mbox"
g reset -q --hard "$base"
short=$(echo "$base" | cut -c1-12)
# The list folder: a Maildir (lei's kind) with the series and other mail.
mkdir -p "$T/list/cur" "$T/list/new" "$T/list/tmp"
i=0
for f in "$T/pre/"*.patch; do
	i=$((i + 1))
	sed 1d "$f" > "$T/list/cur/100$i.host:2,S"
done
printf 'From: a@example.org\nSubject: unrelated\nMessage-ID: <u1@example.org>\n\nhello\n' \
	> "$T/list/new/2000.host"
cover=$(sed -n 's/^Message-I[Dd]: *<\(.*\)>$/\1/p' "$T/pre/0000-cover-letter.patch")
first=$(sed -n 's/^Message-I[Dd]: *<\(.*\)>$/\1/p' "$T/pre/0001-"*.patch)
# The first note of the draft $T/out (or of the draft $2) is $1, or holds it.
first_note_is() { [ $status -eq 0 ] && notes "${2:-$T/out}" | head -1 | grep -q -x -F -- "$1"; }
first_note_has() { [ $status -eq 0 ] && notes "${2:-$T/out}" | head -1 | grep -q -F -- "$1"; }

check "the mail names two prerequisite patch-ids" sh -c "
	[ \$(grep -c '^prerequisite-patch-id: ' '$T/dep.eml') -eq 2 ] && [ -n '$cover' ] && [ -n '$first' ]"

# Not found anywhere: the patch does not apply to the base alone, and the note names both.
run_pr --tree "$R" < "$T/dep.eml"
ids=$(sed -n 's/^prerequisite-patch-id: \(.\{12\}\).*/prerequisite-patch-id \1/p' "$T/dep.eml" |
	paste -s -d, - | sed 's/,/, /')
check "missing: named in the first note, one line" first_note_has \
	"tree: the patch does not apply to base-commit $short (from the mail); not in the tree nor among the messages on hand: $ids: ring.c, hunk 1 of 1"

# By patch-id, in the list folder (a Maildir).
PATCHREVIEW_LIST_FOLDER=$T/list run_pr --tree "$R" < "$T/dep.eml"
check "patch-id: found in the list folder (Maildir), applied first" first_note_is \
	"tree: the patch applies to base-commit $short (from the mail) on top of its 2 prerequisite patches (found in the list folder)"
# ... in an mbox, through the config file.
mkdir -p "$T/config/patchreview"
printf 'list_folder = %s\n' "$T/pre.mbox" > "$T/config/patchreview/config"
run_pr --tree "$R" < "$T/dep.eml"
check "patch-id: found in the list folder (mbox, config file)" first_note_has \
	"applies to base-commit $short (from the mail) on top of its 2 prerequisite patches (found in the list folder)"
rm "$T/config/patchreview/config"
# ... in the input, after the series it needs.
cat "$T/pre.mbox" "$T/dep.eml" > "$T/both.mbox"
rm -rf "$T/both-out"
run_pr --tree "$R" --output-dir "$T/both-out" < "$T/both.mbox"
check "patch-id: found in the input" first_note_has \
	"on top of its 2 prerequisite patches (found in the input)" "$(ls "$T/both-out/"* | tail -1)"
# ... in the --thread folder.
run_pr --tree "$R" --thread "$T/pre.mbox" < "$T/dep.eml"
check "patch-id: found in the --thread folder" first_note_has \
	"on top of its 2 prerequisite patches (found in the --thread folder)"

# By Message-ID: the cover letter's (its patches, in order), or one patch's.
sed '/^prerequisite-patch-id: /d; s/^base-commit: .*/&\nprerequisite-message-id: <'"$cover"'>/' \
	"$T/dep.eml" > "$T/dep-cover.eml"
PATCHREVIEW_LIST_FOLDER=$T/list run_pr --tree "$R" < "$T/dep-cover.eml"
check "Message-ID: a cover letter's patches, from the list folder" first_note_is \
	"tree: the patch applies to base-commit $short (from the mail) on top of its 2 prerequisite patches (found in the list folder)"
sed '/^prerequisite-patch-id: /d; s/^base-commit: .*/&\nprerequisite-message-id: <'"$first"'>\nprerequisite-message-id: <gone@example.org>/' \
	"$T/dep.eml" > "$T/dep-gone.eml"
PATCHREVIEW_LIST_FOLDER=$T/list run_pr --tree "$R" < "$T/dep-gone.eml"
check "Message-ID: one patch found, one missing and named" first_note_has \
	"on top of its 1 prerequisite patch (found in the list folder); not in the tree nor among the messages on hand: prerequisite-message-id <gone@example.org>: ring.c, hunk 1 of 1"

# A list folder that cannot be read: one line on stderr, the review goes on.
PATCHREVIEW_LIST_FOLDER=$T/nowhere run_pr --tree "$R" < "$T/dep.eml"
unreadable() {
	[ $status -eq 0 ] && grep -q "list_folder '$T/nowhere' cannot be read" "$T/err" &&
		first_note_has "not in the tree nor among the messages on hand"
}
check "an unreadable list folder: said, reviewed all the same" unreadable
