#!/bin/sh
# make install and make uninstall into a DESTDIR (issue 4): the binary, the
# man pages, the prompts and the contrib files land under PREFIX, the
# installed binary runs and looks for its prompts where they were installed,
# and uninstall removes exactly what install put there.
# The build runs in a copy of the tree so that PREFIX=/usr is compiled in
# (a binary built earlier for /usr/local would look there) and the
# checkout's own build is left alone.
. "$(dirname "$0")/lib.sh"

if ! command -v make >/dev/null 2>&1; then
	skip "install" "make is not installed"
	exit 0
fi
if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists gmime-3.0 libcurl libcjson; then
	skip "install" "build dependencies missing (make deps)"
	exit 0
fi

S=$T/src
D=$T/dest
mkdir -p "$S"
for f in Makefile doc filter prompts contrib; do
	if [ ! -e "$ROOT/$f" ]; then
		fail "install" "$f is missing from the tree"
		exit 0
	fi
	cp -R "$ROOT/$f" "$S/"
done

make -C "$S" -j2 --no-print-directory install DESTDIR="$D" PREFIX=/usr >"$T/install.log" 2>&1
status=$?
check "make install DESTDIR PREFIX=/usr: exit 0" sh -c "[ $status -eq 0 ] || { cat '$T/install.log'; false; }"

BIN=$D/usr/bin/patchreview
MAN=$D/usr/share/man/man1/patchreview.1
DATA=$D/usr/share/patchreview
check "install: the binary is executable" test -x "$BIN"
# Each page of doc/man in its section, naming the PREFIX's paths.
wrong=
for page in "$ROOT"/doc/man/*; do
	f=$(basename "$page")
	sed 's|/usr/local/share/patchreview|/usr/share/patchreview|g' "$page" >"$T/man.want"
	cmp -s "$T/man.want" "$D/usr/share/man/man${f##*.}/$f" || wrong="$wrong $f"
done
check "install: the man pages, naming the PREFIX's paths${wrong:+ (not:$wrong)}" \
	sh -c "[ -z '$wrong' ] && [ -s '$D/usr/share/man/man5/patchreview-config.5' ] &&
		grep -q -F '/usr/share/patchreview/prompts/' '$MAN' &&
		! grep -rq /usr/local/share/patchreview '$D/usr/share/man'"
check "install: says the muttrc line for the PREFIX" \
	grep -q "source /usr/share/patchreview/contrib/mutt/patchreview.muttrc" "$T/install.log"

# same_tree SRC DST: every file of SRC is in DST with the same bytes and the
# same executable bit, and DST holds nothing else.
same_tree() {
	(cd "$1" && find . -type f | sort) >"$T/src.list"
	(cd "$2" && find . -type f | sort) >"$T/dst.list" 2>/dev/null
	cmp -s "$T/src.list" "$T/dst.list" || { diff "$T/src.list" "$T/dst.list"; return 1; }
	while read -r f; do
		cmp -s "$1/$f" "$2/$f" || { echo "differs: $f"; return 1; }
		if [ -x "$1/$f" ] && [ ! -x "$2/$f" ]; then
			echo "not executable: $f"
			return 1
		fi
	done <"$T/src.list"
}
check "install: the prompts" same_tree "$ROOT/prompts" "$DATA/prompts"
check "install: the contrib files, scripts executable" same_tree "$ROOT/contrib" "$DATA/contrib"

"$BIN" --version >"$T/version" 2>&1
status=$?
check "install: the installed binary runs (--version)" \
	sh -c "[ $status -eq 0 ] && grep -q '^patchreview [0-9]' '$T/version'"
# It reads the prompts from PREFIX/share/patchreview/prompts; here they are
# under DESTDIR, so point prompts_dir there and ask which it would use.
PATCHREVIEW_PROMPTS_DIR=$DATA/prompts "$BIN" --explain-prompt <"$MAILS/demo.eml" >"$T/explain" 2>&1
status=$?
check "install: the binary looks for prompts in /usr/share/patchreview/prompts" \
	sh -c "[ $status -eq 0 ] && grep -q 'installed *[/]usr/share/patchreview/prompts\$' '$T/explain'"
check "install: the installed prompts are complete (core found)" \
	grep -q "^  core .*from $DATA/prompts" "$T/explain"

# Something else in the same directories must survive uninstall.
: >"$D/usr/bin/other-tool"
: >"$D/usr/share/man/man1/other-tool.1"
make -C "$S" --no-print-directory uninstall DESTDIR="$D" PREFIX=/usr >"$T/uninstall.log" 2>&1
status=$?
check "make uninstall: exit 0" sh -c "[ $status -eq 0 ] || { cat '$T/uninstall.log'; false; }"
check "uninstall: binary, man pages, prompts and contrib are gone" \
	sh -c "[ ! -e '$BIN' ] && [ ! -e '$MAN' ] && [ ! -e '$DATA' ] &&
		[ -z \"\$(find '$D/usr/share/man' -name 'patchreview*')\" ]"
check "uninstall: other files are left alone" \
	sh -c "[ -e '$D/usr/bin/other-tool' ] && [ -e '$D/usr/share/man/man1/other-tool.1' ]"
