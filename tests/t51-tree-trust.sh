#!/bin/sh
# --tree: the tree is someone else's code. Every input is built here: a
# small repository, patch mails made with git format-patch, and the attacks
# of issue 21 (a secret in an untracked file, symbolic links out of the
# tree and into its git directory, a checkpatch.pl and a git that write
# out their environment). What reaches the model is read from the request
# --requests-out writes.
. "$(dirname "$0")/lib.sh"
command -v git >/dev/null || { skip "tree trust" "git missing"; exit 0; }
command -v python3 >/dev/null || { skip "tree trust" "python3 missing"; exit 0; }
REPO=$T/repo
REAL_GIT=$(command -v git)
export TMPDIR=$T/tmp
mkdir -p "$TMPDIR" "$REPO/src"
gitc() { git -C "$REPO" -c user.name=T -c user.email=t@example.org "$@"; }
gitc init -q
printf 'int add(int a, int b)\n{\n\treturn a + b;\n}\n' > "$REPO/src/a.c"
gitc add src/a.c
gitc commit -q -m "a: add"

# mail FILE: the change the working copy of the repository has, as a mail; then undone.
mail() {
	gitc commit -q -a -m "change" && gitc format-patch -q --stdout -1 > "$1" &&
		gitc reset -q --hard HEAD~1
}
sed -i 's/return a + b;/return a + b + 0;/' "$REPO/src/a.c"
mail "$T/a.eml"

# request NAME ARGS < mail: the request the model would get, into $T/req.txt.
request() {
	rm -rf "$T/req"
	run_pr -b openai -m fake --requests-out "$T/req" --tree "$REPO" "$@"
	python3 - "$T/req" > "$T/req.txt" <<'PY'
import glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    print(json.dumps(json.load(open(f))))
PY
}
req_has() { grep -q -F -- "$1" "$T/req.txt"; }

# The environment every program we run sees: a git earlier on PATH and the
# tree's checkpatch.pl write theirs out.
mkdir -p "$T/bin" "$REPO/scripts"
cat > "$T/bin/git" <<EOF
#!/bin/sh
env >> "$T/git.env"
exec "$REAL_GIT" "\$@"
EOF
cat > "$REPO/scripts/checkpatch.pl" <<EOF
#!/bin/sh
env >> "$T/checkpatch.env"
cat > /dev/null
exit 0
EOF
chmod +x "$T/bin/git" "$REPO/scripts/checkpatch.pl"
: > "$T/git.env"
export OPENAI_API_KEY=sk-openai-secret ANTHROPIC_API_KEY=sk-ant-secret MY_MODEL_KEY=sk-own-secret
export GIT_DIR=/nonexistent GIT_WORK_TREE=/nonexistent
OLD_PATH=$PATH
export PATH="$T/bin:$PATH"
request < "$T/a.eml"
check "env: git was run (through the wrapper on PATH)" test -s "$T/git.env"
check "env: the tree's checkpatch.pl is not run by default" test ! -e "$T/checkpatch.env"
export PATCHREVIEW_API_KEY_ENV=MY_MODEL_KEY PATCHREVIEW_CHECKPATCH=yes
request < "$T/a.eml"
export PATH="$OLD_PATH"
unset PATCHREVIEW_API_KEY_ENV PATCHREVIEW_CHECKPATCH
check "env: with checkpatch = yes it runs" test -s "$T/checkpatch.env"
check "env: no API key reaches git or checkpatch.pl" \
	sh -c "! grep -q -e sk-openai-secret -e sk-ant-secret -e sk-own-secret -e _API_KEY= -e MY_MODEL_KEY= '$T/git.env' '$T/checkpatch.env'"
check "env: nor our GIT_DIR or GIT_WORK_TREE, nor anything past the documented few" sh -c "
	! grep -q /nonexistent '$T/git.env' '$T/checkpatch.env' &&
	! cut -d= -f1 '$T/git.env' '$T/checkpatch.env' | grep -v -x -E 'PATH|HOME|TMPDIR|TZ|LANG|LANGUAGE|LC_[A-Z_]*|XDG_CONFIG_HOME|GIT_OPTIONAL_LOCKS|GIT_TERMINAL_PROMPT|GIT_INDEX_FILE|GIT_DIR|PWD|SHLVL|_' | grep -q ."
check "env: PATH and HOME are passed on" sh -c "grep -q '^PATH=$T/bin:' '$T/git.env' && grep -q '^HOME=' '$T/checkpatch.env'"
unset GIT_DIR GIT_WORK_TREE
rm -f "$REPO/scripts/checkpatch.pl"
