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

# What git does not track is never read, whatever the mail names: an
# untracked, ignored header with a token, patched blind.
printf 'src/secret_cfg.h\n' > "$REPO/.gitignore"
gitc add .gitignore && gitc commit -q -m ignore
printf '#ifndef SECRET_CFG_H\n#define SECRET_CFG_H\n#define API_TOKEN "tok-untracked-123"\n#define API_URL "https://example.org"\n#endif\n' \
	> "$REPO/src/secret_cfg.h"
# hand_mail NAME SUBJECT < diff: a mail from a stranger carrying the diff.
hand_mail() {
	{ printf 'From: Mallory <m@example.org>\nTo: list@example.org\nSubject: [PATCH] %s\n' "$2"
	  printf 'Message-ID: <%s@example.org>\n\nA change.\n\nSigned-off-by: Mallory <m@example.org>\n---\n' "$1"
	  cat; } > "$T/$1.eml"
}
hand_mail secret "cfg: a timeout" <<'EOF2'
diff --git a/src/secret_cfg.h b/src/secret_cfg.h
--- a/src/secret_cfg.h
+++ b/src/secret_cfg.h
@@ -3,2 +3,3 @@
 #define API_TOKEN "x"
+#define API_TIMEOUT 10
 #define API_URL "y"
EOF2
request < "$T/secret.eml"
check "tracked: a request is written" test -s "$T/req.txt"
check "tracked: an untracked, ignored file is not read" sh -c "! grep -q tok-untracked-123 '$T/req.txt'"
rm -f "$REPO/src/secret_cfg.h"

# A committed link into the git directory, and hunks that make its target
# one C function: the link is read as git stores it, its target's path.
gitc config remote.origin.url https://user:TOKEN-gitcfg@example.org/x
ln -s ../.git/config "$REPO/src/leak.c"
gitc add src/leak.c && gitc commit -q -m link
lines=$(wc -l < "$REPO/.git/config")
hand_mail leak "leak: wrap it" <<EOF2
diff --git a/src/leak.c b/src/leak.c
--- a/src/leak.c
+++ b/src/leak.c
@@ -0,0 +1,2 @@
+int leak(void)
+{
@@ -$((lines + 1)),0 +$((lines + 3)),1 @@
+}
EOF2
request < "$T/leak.eml"
check "tracked: a request is written for the link" test -s "$T/req.txt"
check "tracked: a link into the git directory is not followed" sh -c "! grep -q TOKEN-gitcfg '$T/req.txt'"

# AGENTS.md and .patchreview/ the same way: a link out of the tree, an
# untracked guide; a tracked guide still counts.
mkdir -p "$T/outside" "$REPO/.patchreview"
printf '## Code review\n\nSECRET-AGENTS-TEXT\n' > "$T/outside/AGENTS.md"
printf 'always: yes\n\nSECRET-LINKED-GUIDE\n' > "$T/outside/guide"
ln -s "$T/outside/AGENTS.md" "$REPO/AGENTS.md"
ln -s "$T/outside/guide" "$REPO/.patchreview/zz-linked"
printf 'always: yes\n\nTRACKED-GUIDE-TEXT\n' > "$REPO/.patchreview/zz-tracked"
gitc add AGENTS.md .patchreview && gitc commit -q -m guides
printf 'always: yes\n\nUNTRACKED-GUIDE-TEXT\n' > "$REPO/.patchreview/zz-untracked"
request < "$T/a.eml"
check "guides: a tracked .patchreview/ guide is sent" req_has TRACKED-GUIDE-TEXT
check "guides: an untracked one is not" sh -c "! grep -q UNTRACKED-GUIDE-TEXT '$T/req.txt'"
check "guides: links out of the tree (AGENTS.md, a guide) are not followed" \
	sh -c "! grep -q -e SECRET-AGENTS-TEXT -e SECRET-LINKED-GUIDE '$T/req.txt'"

# A file read once a run, and a cap on what one patch takes in: 300 diffs
# of one 1.1 MB header in a 50 KB mail. Peak memory of the release build
# and the git it runs (ASan's shadow would swamp the figure) stays within
# four times the mail plus the 16 MiB one patch may read, plus 16 MiB.
python3 - "$REPO" "$T/big.eml" <<'PY'
import sys
repo, mail = sys.argv[1:]
lines = ["/* big.h: generated */", "#ifndef BIG_H", "#define BIG_H"]
while sum(len(l) + 1 for l in lines) < 1100000:
    i = len(lines)
    lines.append("#define REG_%06d 0x%08x /* register %d */" % (i, i * 4, i))
lines.append("#endif")
open(repo + "/big.h", "w").write("\n".join(lines) + "\n")
out = ["From: M <m@example.org>", "To: l@example.org", "Subject: [PATCH] big: 300 diffs",
       "Message-ID: <big@example.org>", "", "Many diffs.", "", "Signed-off-by: M <m@example.org>",
       "---"]
for k in range(300):
    n = 10 + k
    out += ["diff --git a/big.h b/big.h", "--- a/big.h", "+++ b/big.h",
            "@@ -%d,1 +%d,1 @@" % (n, n), "-" + lines[n - 1], "+" + lines[n - 1] + " /* k */"]
open(mail, "w").write("\n".join(out) + "\n")
PY
gitc add big.h && gitc commit -q -m big
printf 'base-commit: %s\n' "$(git -C "$REPO" rev-parse HEAD)" | cat "$T/big.eml" - > "$T/big-base.eml"
# peak_within NAME MAIL: the release build's peak (git's included) within the bound.
peak_within() {
	python3 - "$ROOT/patchreview" "$REPO" "$2" > "$T/peak" <<'PY'
import os, resource, subprocess, sys
pr, repo, mail = sys.argv[1:]
with open(mail, "rb") as f:
    subprocess.run([pr, "--tree", repo], stdin=f, stdout=open(mail + ".out", "wb"),
                   stderr=subprocess.DEVNULL)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
bound = 4 * (os.path.getsize(mail) + (16 << 20)) + (16 << 20)
print("peak %.1f MiB, bound %.1f MiB" % (peak / 2**20, bound / 2**20))
sys.exit(peak > bound)
PY
	if [ $? -eq 0 ]; then
		pass "read cap: $1 stays within 4x (the mail + 16 MiB) + 16 MiB"
	else
		fail "read cap: $1 stays within 4x (the mail + 16 MiB) + 16 MiB" "$(cat "$T/peak")"
	fi
	check "read cap: $1: the draft's tree note says what was left out, and from where" sh -c \
		"python3 '$ROOT/tests/tools/fields.py' X-Patchreview-Note '$2.out' | grep -q '$3.* was not checked; past 16 MiB of the tree.s files for this patch, the rest were not read'"
}
if [ -x "$ROOT/patchreview" ]; then
	peak_within "300 diffs of a 1.1 MB file, work tree" "$T/big.eml" "the work tree"
	peak_within "the same at its base-commit" "$T/big-base.eml" "base-commit"
else
	skip "read cap" "no release binary ./patchreview (make)"
fi

# A series read at its base: each file once a run, not once a patch.
base=$(git -C "$REPO" rev-parse HEAD)
for i in 1 2 3; do
	sed -i "s/return a + b.*;/return a + b + $i;/" "$REPO/src/a.c"
	gitc commit -q -a -m "a: plus $i"
done
gitc format-patch -q --stdout --base="$base" -3 > "$T/series.mbox"
gitc reset -q --hard "$base"
cat > "$T/bin/git" <<EOF2
#!/bin/sh
echo "\$*" >> "$T/git.args"
exec "$REAL_GIT" "\$@"
EOF2
: > "$T/git.args"
PATH="$T/bin:$OLD_PATH" run_pr --tree "$REPO" < "$T/series.mbox"
check "read once: the series is reviewed against its base" sh -c "grep -q 'applies to base-commit' '$T/out'"
check "read once: one git cat-file --batch for the three patches' file" \
	sh -c "[ \$(grep -c 'cat-file --batch\$' '$T/git.args') -eq 1 ]"
