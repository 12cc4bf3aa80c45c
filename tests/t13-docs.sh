#!/bin/sh
# The documentation keeps up with the code. doc/*.md are the one source:
# their reference tables are the program's own (doc/tables.py), the man
# pages are made from them (doc/md2man.py) and render without warnings;
# every option, key and check is documented and every documented one
# exists; the runnable examples run and print what they show.
. "$(dirname "$0")/lib.sh"
DOC=$ROOT/doc
command -v python3 >/dev/null || { skip "docs" "python3 missing"; exit 0; }

# What `make doc` would write, against what is committed (README.md too).
mkdir -p "$T/doc" "$T/man"
cp "$DOC"/*.md "$T/doc/"
cp "$ROOT/README.md" "$T/README.md"
python3 "$DOC/tables.py" "$PR" "$T/README.md" "$T"/doc/*.md >"$T/tables.log" 2>&1
{ diff -u "$DOC" "$T/doc"; diff -u "$ROOT/README.md" "$T/README.md"; } | grep -v '^Only in' >"$T/tables.diff"
check "docs: the reference tables are the program's (run make doc)" \
	sh -c "[ ! -s '$T/tables.diff' ] && [ ! -s '$T/tables.log' ] || { cat '$T/tables.log' '$T/tables.diff'; false; }"
version=$(sed -n 's/^VERSION = //p' "$ROOT/Makefile")
date=$(sed -n 's/^MAN_DATE = //p' "$ROOT/Makefile")
python3 "$DOC/md2man.py" "$version" "$date" "$T/man" "$DOC"/*.md >"$T/man.log" 2>&1
diff -ru "$DOC/man" "$T/man" >"$T/man.diff"
check "docs: the man pages are made from doc/*.md (run make doc)" \
	sh -c "[ ! -s '$T/man.diff' ] && [ ! -s '$T/man.log' ] || { cat '$T/man.log'; head -40 '$T/man.diff'; false; }"
check "docs: every topic page has its man page" sh -c "[ \$(ls '$DOC/man' | wc -l) -ge 12 ]"

for page in "$DOC"/man/*; do
	mp=$(basename "$page")
	if command -v mandoc >/dev/null; then
		mandoc -T lint -W warning "$page" >"$T/lint" 2>&1
		check "man $mp: mandoc -T lint is clean" sh -c "[ ! -s '$T/lint' ] || { cat '$T/lint'; false; }"
	fi
	# Lines too long for a table column are no error: -Wbreak.
	if command -v groff >/dev/null; then
		groff -t -man -Tutf8 -ww -Wbreak -z "$page" >"$T/groff" 2>&1
		check "man $mp: groff -ww is clean" sh -c "[ ! -s '$T/groff' ] || { cat '$T/groff'; false; }"
	fi
done
command -v mandoc >/dev/null || skip "man page lint" "mandoc missing"

# Options: each of --help in patchreview(1), each of eval --help in
# patchreview-eval(1), and each `--option` the pages name is one that
# some --help lists (other programs' options are written with their
# program: `git config --add`).
missing=
run_pr --help
for o in $(grep -e '^ *-' "$T/out" | grep -o -e '--[a-z][a-z-]*' | sort -u); do
	grep -q -e "\`$o[\` ]" "$DOC/patchreview.md" || missing="$missing patchreview.md:$o"
done
cp "$T/out" "$T/helps"
run_pr eval --help
for o in $(grep -e '^ *-' "$T/out" | grep -o -e '--[a-z][a-z-]*' | sort -u); do
	grep -q -e "\`$o[\` ]" "$DOC/evaluation.md" || missing="$missing evaluation.md:$o"
done
cat "$T/out" >>"$T/helps"
for c in dismiss learn stats; do
	run_pr $c --help
	cat "$T/out" >>"$T/helps"
done
check "docs: every option of --help is documented${missing:+ (missing:$missing)}" test -z "$missing"
unknown=
for o in $(cat "$ROOT/README.md" "$DOC"/*.md | grep -o -e '`--[a-z][a-z0-9-]*' | tr -d '`' | sort -u); do
	grep -q -e "$o\\b" "$T/helps" || unknown="$unknown $o"
done
check "docs: every option they name exists${unknown:+ (not:$unknown)}" test -z "$unknown"

# Keys and checks the pages name: in config examples (a block opening
# with "# ~/.config/patchreview/config"), in `key = value` and in
# PATCHREVIEW_KEY; rule ids in settings, in dismissed-list entries and in
# the tagged notes of checks.md. Each must exist, and a default the prose
# gives ("`jobs` (4)") must be the key's.
run_pr --list-keys
cp "$T/out" "$T/keys"
run_pr --list-checks
cut -d' ' -f1 "$T/out" >"$T/ids"
python3 - "$T/keys" "$T/ids" "$ROOT/README.md" "$DOC"/*.md >"$T/names" 2>&1 <<'PY'
import re, sys
defaults = dict(re.match(r'(\S+) +("[^"]*"|\S+)', l).groups() for l in open(sys.argv[1]))
keys = set(defaults)
ids = set(open(sys.argv[2]).read().split())
env = set()
for page in sys.argv[3:]:
    text = open(page, encoding="utf-8").read()
    if page.endswith("/patchreview.md"):
        section = text.split("## Environment", 1)[1].split("\n## ", 1)[0]
        env = set(re.findall(r"^- ((?:`[A-Z_]+`(?:, )?)+):", section, re.M))
        env = set(re.findall(r"[A-Z_]+", " ".join(env)))
bad = []
for page in sys.argv[3:]:
    text = open(page, encoding="utf-8").read()
    name = page.split("/")[-1]
    for block in re.findall(r"^    # ~/\.config/patchreview/config\n((?:    .*\n)*)", text, re.M):
        for line in block.splitlines():
            line = line.strip()
            m = re.match(r"^([a-z_]+) = ", line)
            if not line.startswith("#") and (not m or m.group(1) not in keys):
                bad.append("%s: config example '%s'" % (name, line))
    for key in re.findall(r"`([a-z_]+) = [^`]*`", text):
        if key not in keys | {"key"}:
            bad.append("%s: `%s = ...` names no key" % (name, key))
    for key, number in re.findall(r"`([a-z_]+)`(?: \(|, )(\d[\d,]*)\b", text):
        if key in keys and number.replace(",", "") != defaults[key]:
            bad.append("%s: `%s` %s, but its default is %s" % (name, key, number, defaults[key]))
    for var in re.findall(r"PATCHREVIEW_([A-Z_]*[A-Z])(?![A-Z_*])", text):
        if var.lower() not in keys and "PATCHREVIEW_" + var not in env:
            bad.append("%s: PATCHREVIEW_%s is no key nor in patchreview.md's Environment" % (name, var))
    for value in re.findall(r"`(?:skip|add)_checks = ([^`]*)`", text):
        bad += ["%s: '%s' in a setting is no check" % (name, i) for i in value.split() if i not in ids]
    for rule in re.findall(r"^ *(\S+)(?: (?:file|line|msgid|fp|list)=\S+)+(?: +#.*)?$", text, re.M):
        if rule not in ids | {"model", "*"}:
            bad.append("%s: dismissed entry for '%s', no check" % (name, rule))
    if name == "checks.md":
        for tags in re.findall(r"^- ((?:`[^`]+`(?:, )?)+): ", text, re.M):
            bad += ["%s: note on '%s', no check" % (name, i)
                    for i in re.findall(r"`([^`]+)`", tags) if i not in ids]
    if name == "configuration.md":
        homes = text.split("## Where each key is explained", 1)[1]
        bad += ["configuration.md: '%s' is explained nowhere" % k for k in sorted(keys)
                if "`%s`" % k not in homes]
for b in bad:
    print(b)
PY
check "docs: every key has a home, and every key and check the pages name exists" \
	sh -c "[ ! -s '$T/names' ] || { cat '$T/names'; false; }"

# The config examples are accepted as they stand.
python3 - "$T/conf" "$ROOT/README.md" "$DOC"/*.md <<'PY'
import os, re, sys
os.makedirs(sys.argv[1])
n = 0
for page in sys.argv[2:]:
    text = open(page, encoding="utf-8").read()
    for block in re.findall(r"^    # ~/\.config/patchreview/config\n((?:    .*\n)*)", text, re.M):
        n += 1
        with open(os.path.join(sys.argv[1], "%02d.conf" % n), "w") as f:
            f.write("".join(line[4:] + "\n" for line in block.splitlines()))
PY
bad=
for conf in "$T"/conf/*.conf; do
	PATCHREVIEW_CONFIG=$conf "$PR" --explain-prompt <"$MAILS/demo.eml" >/dev/null 2>"$T/err"
	[ $? -eq 2 ] && bad="$bad $(cat "$T/err")"
done
n=$(ls "$T/conf" | wc -l)
check "docs: the $n config examples are accepted${bad:+ (not:$bad)}" sh -c "[ $n -ge 3 ] && [ -z \"\$1\" ]" - "$bad"

# The runnable examples: fenced "sh" blocks of "$ command" lines, each
# block run in a directory of its own that holds the checkout's tests/,
# with patchreview the binary under test; the block's other lines must
# each be a line of what its commands printed. Setup blocks (a first line
# "# setup") are t41's, run after a real make install.
mkdir -p "$T/bin"
ln -s "$PR" "$T/bin/patchreview"
python3 - "$T/run" "$ROOT/README.md" "$DOC"/*.md <<'PY'
import os, re, sys
out = sys.argv[1]
n = 0
for page in sys.argv[2:]:
    text = open(page, encoding="utf-8").read()
    for block in re.findall(r"^```sh\n(.*?)^```$", text, re.M | re.S):
        if block.startswith("# setup"):
            continue
        n += 1
        d = os.path.join(out, "%02d" % n)
        os.makedirs(d)
        lines = block.splitlines()
        with open(os.path.join(d, "page"), "w") as f:
            f.write(os.path.basename(page) + "\n")
        with open(os.path.join(d, "commands"), "w") as f:
            f.write("".join(l[2:] + "\n" for l in lines if l.startswith("$ ")))
        with open(os.path.join(d, "shown"), "w") as f:
            f.write("".join(l + "\n" for l in lines if not l.startswith("$ ")))
PY
failed=
for d in "$T"/run/*/; do
	ln -s "$ROOT/tests" "$d/tests"
	(cd "$d" && PATH=$T/bin:$PATH sh -e ./commands >out 2>&1)
	status=$?
	missing=$(grep -v -e '^$' "$d/shown" | grep -v -x -F -f "$d/out")
	if [ $status -ne 0 ] || [ -n "$missing" ] || grep -q Sanitizer "$d/out"; then
		failed="$failed $(cat "$d/page"):$(head -1 "$d/commands")"
		cat "$d/out" >&2
	fi
done
check "docs: the $(ls "$T/run" | wc -l) runnable examples run${failed:+ (failed:$failed)}" \
	sh -c "[ \$(ls '$T/run' | wc -l) -ge 8 ] && [ -z '$failed' ]"

# The HTTP statuses retried: what the code retries, in --help and in the
# model page's words.
statuses() { grep -o '[0-9][0-9][0-9]' | sort -u | tr '\n' ' '; }
run_pr --help
code=$(sed -n '/retry\[\] = {/p' "$ROOT/filter/transport/http.c" | statuses)
help=$(sed -n 's/^  retries  *[0-9]*  *//p' "$T/out" | statuses)
page=$(sed -n '/^## Transport/,/are retried/p' "$DOC/model.md" | sed -n '/^[^#]/,$p' | statuses)
check "docs: the retried statuses are the code's ($code) in --help and doc/model.md" \
	sh -c "[ -n '$code' ] && [ '$help' = '$code' ] && [ '$page' = '$code' ]"

# Links: every relative link of README.md and doc/*.md names a file of the
# checkout, and its #anchor a heading of that page (GitHub's slugs).
python3 - "$ROOT" "$ROOT/README.md" "$DOC"/*.md >"$T/links" 2>&1 <<'PY'
import os, re, sys
root = sys.argv[1]

def slugs(path):
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"^```.*?^```$", "", text, flags=re.M | re.S)
    out = set()
    for title in re.findall(r"^#+ +(.*?) *$", text, re.M):
        s = re.sub(r"[^\w\- ]", "", title.lower().replace("`", "")).replace(" ", "-")
        out.add(s)
    return out

n = 0
for page in sys.argv[2:]:
    text = open(page, encoding="utf-8").read()
    text = re.sub(r"^```.*?^```$", "", text, flags=re.M | re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        n += 1
        path, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
        where = os.path.relpath(page, root)
        if not os.path.isfile(dest):
            print("%s: link to %s: no such file" % (where, target))
        elif anchor and dest.endswith(".md") and anchor not in slugs(dest):
            print("%s: link to %s: no such heading" % (where, target))
print("links %d" % n, file=sys.stderr)
PY
grep -v '^links ' "$T/links" >"$T/badlinks"
check "docs: the $(sed -n 's/^links //p' "$T/links") links of README.md and doc/ resolve, anchors too" \
	sh -c "[ ! -s '$T/badlinks' ] && grep -q '^links [1-9][0-9]' '$T/links' || { cat '$T/badlinks'; false; }"
