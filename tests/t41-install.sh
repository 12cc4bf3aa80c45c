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

# A real install into a scratch PREFIX, and every setup block of the README
# (and of doc/*.md) run as a user would, with PREFIX/bin on PATH (issue 23):
# a fenced block whose first line starts "# setup". sh blocks run in a
# scratch git repository with HOME in $T; muttrc blocks are read by mutt
# (and neomutt), the program they name must be on PATH; aerc blocks name
# programs that must be on PATH, and their bindings are those of
# contrib/aerc/binds.conf, which t40 drives in aerc.
P=$T/prefix
make -C "$S" -j2 --no-print-directory install PREFIX="$P" >"$T/prefix.log" 2>&1
status=$?
check "make install PREFIX=scratch: exit 0" sh -c "[ $status -eq 0 ] || { cat '$T/prefix.log'; false; }"
missing=
for f in patchreview patchreview-sendmail patchreview-stash patchreview-await \
	patchreview-drafts git-patchreview patchreview-agent; do
	[ -x "$P/bin/$f" ] || missing="$missing $f"
done
check "install: every program the recipes run is in PREFIX/bin${missing:+ (missing:$missing)}" \
	test -z "$missing"

if ! command -v python3 >/dev/null 2>&1; then
	skip "README setup lines" "python3 is not installed"
	exit 0
fi
mkdir -p "$T/setup" "$T/home" "$T/repo"
python3 - "$T/setup" "$P" "$ROOT/README.md" "$ROOT"/doc/*.md <<'PY'
import os, re, sys
out, prefix, n = sys.argv[1], sys.argv[2], 0
for path in sys.argv[3:]:
    if not os.path.isfile(path):
        continue
    text = open(path, encoding="utf-8").read()
    for kind, body in re.findall(r"(?ms)^```(\w+)\n(# setup.*?)^```$", text):
        n += 1
        name = "%02d.%s" % (n, kind)
        with open(os.path.join(out, name), "w") as f:
            f.write(body.replace("/usr/local", prefix))
        with open(os.path.join(out, name + ".from"), "w") as f:
            f.write("%s: %s\n" % (os.path.basename(path), body.split("\n")[0]))
PY
check "README: the setup blocks are found (sh, muttrc, aerc)" \
	sh -c "ls '$T/setup' | grep -q '\.sh\$' && ls '$T/setup' | grep -q '\.muttrc\$' && ls '$T/setup' | grep -q '\.aerc\$'"
check "README: its own setup lines are setup blocks (mutt, aerc, your own patch)" \
	sh -c "[ \$(grep -l -x 'README.md: # setup.*' '$T'/setup/*.from | wc -l) -ge 3 ]"
grep -h '^README.md: ' "$T"/setup/*.from | sed 's/^/  # t41 runs /'
# The scratch repository has a commit, for the lines that review your own patch.
(cd "$T/repo" && git init -q && printf 'int x;\n' >a.c && git add a.c &&
	git -c user.name=Ada -c user.email=ada@example.org commit -q -m 'a: x' &&
	printf 'int x;\nint y;\n' >a.c &&
	git -c user.name=Ada -c user.email=ada@example.org commit -q -a -s -m 'a: add y') \
	>/dev/null 2>&1
UPATH=$P/bin:$PATH
on_path() { env PATH="$UPATH" sh -c 'command -v "$1"' sh "$1" >/dev/null; }
for block in "$T"/setup/*.sh "$T"/setup/*.muttrc "$T"/setup/*.aerc; do
	[ -f "$block" ] || continue
	what=$(cat "$block.from")
	case $block in
	*.sh)
		(cd "$T/repo" && env HOME="$T/home" PATH="$UPATH" GIT_CONFIG_NOSYSTEM=1 \
			sh -e "$block") >"$block.log" 2>&1
		check "setup: $what: runs" sh -c "[ $? -eq 0 ] || { cat '$block.log'; false; }"
		;;
	*.muttrc)
		for cl in mutt neomutt; do
			command -v "$cl" >/dev/null 2>&1 || continue
			env HOME="$T/home" PATH="$UPATH" "$cl" -n -F "$block" -Q wait_key \
				</dev/null >"$block.log" 2>&1
			check "setup: $what: $cl reads it" \
				sh -c "[ $? -eq 0 ] && ! grep -q -i -e error -e 'no such' '$block.log' || { cat '$block.log'; false; }"
		done
		cmd=$(sed -n 's/^set sendmail="\([^ "]*\).*/\1/p' "$block")
		[ -z "$cmd" ] || check "setup: $what: $cmd is on PATH" on_path "$cmd"
		# mutt -Q says nothing of a file it cannot source: look for it.
		file=$(sed -n 's/^source //p' "$block")
		[ -z "$file" ] || check "setup: $what: the file it sources is installed" test -f "$file"
		;;
	*.aerc)
		cmds=$(sed -n -e 's/^outgoing *= *\([^ ]*\).*/\1/p' \
			-e 's/.*:pipe \(-[bm] \)*\([^ <]*\).*/\2/p' "$block" | sort -u)
		for cmd in $cmds; do
			check "setup: $what: $cmd is on PATH" on_path "$cmd"
		done
		grep -v -e '^#' -e '^outgoing' "$block" | while read -r line; do
			grep -q -x -F -- "$line" "$ROOT/contrib/aerc/binds.conf" || echo "$line"
		done >"$block.extra"
		check "setup: $what: the bindings are those t40 drives" \
			sh -c "[ ! -s '$block.extra' ] || { cat '$block.extra'; false; }"
		;;
	esac
done
prompt=$(env HOME="$T/home" GIT_CONFIG_NOSYSTEM=1 git config --global b4.review-agent-prompt-path)
check "setup: b4's agent prompt path is the installed agent, not empty" \
	sh -c "[ '$prompt' = '$P/bin/patchreview-agent' ] && [ -x '$prompt' ]"
hook=$(git -C "$T/repo" rev-parse --git-path hooks)
check "setup: the send-email hook is in the repository" test -x "$T/repo/$hook/sendemail-validate"
