#!/bin/sh
# The contrib recipes in the real mail clients (issue 4): mutt, neomutt and
# aerc run in tmux against a Maildir holding a real patch mail; the key
# press must open the editor on patchreview's draft, and the mail the client
# sends must keep the draft's To, Cc, Subject, threading and comments.
# With `patchreview consume` as procmail's hook, mutt's key on a delivered
# mail opens the model's draft and the stand-in gets no new request.
# The screen is polled for patterns with a deadline, never slept on.
#
# Helpers in tests/clients/: editor (records what it is given), sendmail
# (saves the outgoing mail), patchreview (a wrapper on the clients' PATH that
# records input and exit status, then runs $PR_BIN), mailcheck.py (compares
# headers decoded), muttrc.in, aerc.conf.in, accounts.conf.in.
# The clients get the release binary ./patchreview when it is built (the
# ASan build is slower and would turn a leak into "Press any key"); set
# PR_CLIENT_BIN to test another one.
. "$(dirname "$0")/lib.sh"

C=$ROOT/tests/clients
H=$HOME
OUT=$T/out
PR_BIN=${PR_CLIENT_BIN:-$ROOT/patchreview}
[ -x "$PR_BIN" ] || PR_BIN=$PR
export PR_BIN

if ! command -v tmux >/dev/null 2>&1; then
	skip "clients" "tmux is not installed"
	exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
	skip "clients" "python3 is not installed"
	exit 0
fi
if [ ! -x "$PR_BIN" ]; then
	skip "clients" "no patchreview binary (make patchreview)"
	exit 0
fi

# A real mail from the corpus: RFC 2047 CJK author name in From and Cc,
# patch in base64 multipart/alternative, and three built-in findings.
MAIL=$CORPUS/patchew-html-base64-rfc2047-from.mbox
if [ ! -f "$MAIL" ]; then
	MAIL=$MAILS/demo.eml
	echo "  # $CORPUS/patchew-html-base64-rfc2047-from.mbox is absent: using tests/mails/demo.eml"
fi

# A real series for the series keys: b4's cover letter and four patches.
SERIES=$CORPUS/b4-series-0-4.mbox

cleanup() {
	for s in "$T"/tmux-*; do
		[ -S "$s" ] && tmux -S "$s" kill-server 2>/dev/null
	done
	for p in $SERVER_PIDS; do
		kill "$p" 2>/dev/null
	done
	if [ -n "$T40_KEEP" ]; then
		echo "  # kept $T"
	else
		rm -rf "$T"
	fi
}
# lib.sh turns INT, TERM and HUP into an exit, so this runs on them too:
# tmux servers detach from the terminal and would outlive an interrupt.
trap cleanup EXIT

mkdir -p "$OUT" "$T/run" "$XDG_CONFIG_HOME/patchreview" "$H"
chmod 700 "$T/run"
sed '1{/^From /d;}' "$MAIL" >"$T/orig.eml"
"$PR_BIN" --quiet --no-cache <"$T/orig.eml" >"$T/draft.eml" 2>"$T/draft.err"
# The same review as JSON: what may reach the recipient are its comments.
"$PR_BIN" --quiet --no-cache --format json <"$T/orig.eml" >"$T/review.json" 2>/dev/null
if [ ! -s "$T/draft.eml" ]; then
	fail "clients" "no draft from $PR_BIN for $MAIL"
	exit 0
fi
printf 'set -g status off\nset -g default-terminal xterm-256color\nset -g remain-on-exit on\n' >"$T/tmux.conf"
MC="python3 $C/mailcheck.py"

# The stand-in LLM servers, when tests/llm_server.py exists: one answers
# after 20 s (the slow review), one after 3 s (closing aerc's tab early).
SERVER_PIDS=
start_server() { # NAME DELAY: sets $port (empty when it did not start)
	python3 "$ROOT/tests/llm_server.py" --port-file "$T/port.$1" --log "$T/llm.$1.log" \
		--scenario ok --delay "$2" --idle 300 >"$T/llm.$1.out" 2>&1 &
	SERVER_PIDS="$SERVER_PIDS $!"
	n=0
	while [ ! -s "$T/port.$1" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
	port=$(cat "$T/port.$1" 2>/dev/null)
}
PORT=
PORT3=
if [ -f "$ROOT/tests/llm_server.py" ]; then
	start_server slow 20
	PORT=$port
	start_server quick 3
	PORT3=$port
	# The model's review as JSON, from the quick server (both answer alike).
	PATCHREVIEW_RETRIES=0 "$PR_BIN" --quiet --no-cache --format json -b openai \
		-u "http://127.0.0.1:$PORT3/v1" -m test <"$T/orig.eml" >"$T/review-model.json" 2>/dev/null
fi

# model none|unreachable|slow|quick [FROM]: the config the next run reads.
model() {
	cfg=$XDG_CONFIG_HOME/patchreview/config
	case $1 in
	none) : >"$cfg" ;;
	unreachable)
		printf 'backend = openai\nurl = http://127.0.0.1:1/v1\nmodel = test\nretries = 0\ncache = no\n' >"$cfg" ;;
	slow | quick)
		port=$PORT
		[ "$1" = quick ] && port=$PORT3
		printf 'backend = openai\nurl = http://127.0.0.1:%s/v1\nmodel = test\ntimeout = 60\nretries = 0\ncache = no\nverify = no\n' "$port" >"$cfg" ;;
	esac
	[ -z "$2" ] || printf 'from = %s\n' "$2" >>"$cfg"
}

# A fresh Maildir tree holding only the original, and nothing recorded.
reset_mail() {
	rm -rf "$H/Mail" "$H/.cache/patchreview" "$H/.local/share/patchreview" "$OUT"
	mkdir -p "$H/Mail/INBOX/cur" "$H/Mail/INBOX/new" "$H/Mail/INBOX/tmp" \
		"$H/Mail/Drafts/cur" "$H/Mail/Drafts/new" "$H/Mail/Drafts/tmp" "$OUT"
	cp "$T/orig.eml" "$H/Mail/INBOX/cur/1700000000.1.t40:2,S"
}

SOCK=
tm() { tmux -S "$SOCK" "$@"; }
screen() { tm capture-pane -p 2>/dev/null; }

# start NAME COMMAND: runs COMMAND in a new 200x50 tmux server of its own,
# with a clean environment that points everything into $T.
start() {
	SOCK=$T/tmux-$1
	shift
	env -i PATH="$C:$ROOT/contrib/aerc:/usr/local/bin:/usr/bin:/bin" \
		HOME="$H" XDG_CONFIG_HOME="$XDG_CONFIG_HOME" XDG_CACHE_HOME="$XDG_CACHE_HOME" \
		XDG_RUNTIME_DIR="$T/run" TMPDIR="$T/run" LANG=C.UTF-8 TERM=xterm-256color \
		T40_OUT="$OUT" PR_BIN="$PR_BIN" ASAN_OPTIONS="$ASAN_OPTIONS" \
		UBSAN_OPTIONS="$UBSAN_OPTIONS" LSAN_OPTIONS="$LSAN_OPTIONS" \
		tmux -S "$SOCK" -f "$T/tmux.conf" new-session -d -x 200 -y 50 "$*"
}

# The waits poll for their condition every 0.1 s and return as soon as it
# holds; SECONDS is the cap on an idle machine, multiplied by T40_SCALE
# (3) so that a loaded one (make check on two cores) does not fail them.
SCALE=${T40_SCALE:-3}

# poll SECONDS COMMAND...: runs COMMAND until it succeeds, at most SECONDS (scaled).
poll() {
	n=0 cap=$(($1 * 10 * SCALE))
	shift
	until "$@"; do
		[ $n -lt $cap ] || return 1
		sleep 0.1
		n=$((n + 1))
	done
}

# wait_screen ERE SECONDS: polls the screen; on timeout prints it and fails.
wait_screen() {
	n=0
	while [ $n -lt $(($2 * 10 * SCALE)) ]; do
		screen | grep -E -q -- "$1" && return 0
		sleep 0.1
		n=$((n + 1))
	done
	echo "  # no /$1/ on the screen after $2 s:" >&2
	screen | grep -v '^ *$' | sed 's/^/  | /' >&2
	return 1
}

# wait_gone ERE SECONDS: polls until the pattern has left the screen.
wait_gone() {
	n=0
	while screen | grep -E -q -- "$1" && [ $n -lt $(($2 * 10 * SCALE)) ]; do
		sleep 0.1
		n=$((n + 1))
	done
	[ $n -lt $(($2 * 10 * SCALE)) ]
}

# drafts: the files in the Drafts Maildir, one a line (patchreview-drafts
# delivers into cur/; aerc postpones into it too).
drafts() { find "$H/Mail/Drafts/new" "$H/Mail/Drafts/cur" -type f 2>/dev/null; }

# wait_file FILE SECONDS
wait_file() {
	n=0
	while [ ! -e "$1" ] && [ $n -lt $(($2 * 10 * SCALE)) ]; do sleep 0.1; n=$((n + 1)); done
	[ -e "$1" ]
}

# wait_exit SECONDS: until the client in the pane has exited.
wait_exit() {
	n=0
	while [ "$(tm display -p '#{pane_dead}' 2>/dev/null)" != 1 ] && [ $n -lt $(($1 * 10 * SCALE)) ]; do
		sleep 0.1
		n=$((n + 1))
	done
	tm kill-server 2>/dev/null
	[ $n -lt $(($1 * 10 * SCALE)) ]
}

# show NAME ERE: prints the screen lines that prove what was on it.
show() {
	screen | grep -E -- "$2" | head -3 | sed "s/ *\$//; s/^/  # $1 screen: /"
}

# esc_r NAME COMMAND MSGS WHAT: starts COMMAND (mutt or neomutt), waits
# for its index of MSGS messages, presses Esc R and waits for the editor on
# the draft; passes or fails "NAME: WHAT" and shows the screen. Returns 1
# when the index or the editor did not come up.
esc_r() {
	start "$1" "$2"
	wait_screen "Msgs:$3" 10 || { fail "$1" "the index did not come up"; return 1; }
	tm send-keys M-R
	if ! wait_screen 'Compose' 10 || ! wait_file "$OUT/edit.0" 5; then
		fail "$1: $4" "no compose screen"
		return 1
	fi
	pass "$1: $4"
	show "$1" '^ *(To|Subject): |Compose'
}

# sent_checks NAME N: the N-th sent mail against the draft and the original:
# the draft's headers and comments, and nothing for the maintainer alone.
sent_checks() {
	for aspect in to cc subject threading comments; do
		check "$1: sent mail keeps the draft's $aspect" \
			$MC "$aspect" "$T/orig.eml" "$T/draft.eml" "$OUT/sent.$2"
	done
	only_review "$1" "$T/review.json" "$2"
}

# only_review NAME REVIEW N: the recipient of the N-th sent mail gets the
# quote, REVIEW's comments, the attribution and the signature, and no
# X-Patchreview- field (the send hook removed them).
only_review() {
	check "$1: the recipient gets the quote, the comments, the attribution, nothing else" \
		$MC only-review "$2" "$OUT/sent.$3"
}

# learned NAME: the sent reply went through contrib/learn/patchreview-sendmail:
# patchreview learn found the draft's record (then removed it) and counted
# its comments, all kept since the editor changed nothing.
learned() {
	log=$H/.local/share/patchreview/learned
	check "$1: the send hook learned from the reply: every comment kept" \
		sh -c "[ \$(grep -c '^kept	' '$log') -ge 1 ] && ! grep -q '^deleted' '$log' &&
			[ -z \"\$(ls '$H/.local/share/patchreview/drafts')\" ]"
}

# in_text DRAFT FILE: every line the draft adds to the quote (comments,
# attribution, notes) is a line of FILE, the file the editor was given.
in_text() {
	$MC body "$1" | sed 's/[[:space:]]*$//' |
		grep -v -e '^>' -e '^$' -e '^\[ \.\.\. \]$' >"$T/want"
	sed 's/[[:space:]]*$//' "$2" >"$T/got"
	[ -s "$T/want" ] && ! grep -F -x -v -f "$T/got" "$T/want" >/dev/null
}

# --- mutt and neomutt: one macro, pipe -> private Maildir -> recall --------
mutt_like() {
	cl=$1
	if ! command -v "$cl" >/dev/null 2>&1; then
		skip "$cl" "$cl is not installed"
		return
	fi
	reset_mail
	model none
	sed -e "s|@HOME@|$H|g" -e "s|@CLIENTS@|$C|g" -e "s|@ROOT@|$ROOT|g" \
		"$C/muttrc.in" >"$T/muttrc"
	# The key: Esc R.
	esc_r "$cl" "$cl -n -F $T/muttrc" 1 "Esc R opens the editor on the draft" || return
	check "$cl: the editor has the draft's comments" in_text "$T/draft.eml" "$OUT/edit.0"
	check "$cl: the editor shows the fields for the maintainer alone (edit_headers)" \
		grep -q '^X-Patchreview-Fingerprints: [0-9a-f]' "$OUT/edit.0"
	check "$cl: the raw message was piped, byte for byte" cmp -s "$OUT/input.0" "$T/orig.eml"
	check "$cl: patchreview ran with --mutt --maildir --fresh-maildir and exit 0" \
		grep -q -x "0 0 --mutt --maildir $H/.cache/patchreview/drafts --fresh-maildir" "$OUT/calls"
	tm send-keys y
	if wait_file "$OUT/sent.0" 10 && wait_screen 'Mail sent' 5; then
		sent_checks "$cl" 0
		check "$cl: X-Mutt-References is not sent" \
			$MC lacks-header X-Mutt-References "$OUT/sent.0"
		learned "$cl"
	else
		fail "$cl: sends the reply" "no mail reached sendmail"
	fi

	# Settings restored after the macro.
	tm send-keys ':set ?postponed' Enter
	check "$cl: \$postponed is restored" wait_screen "postponed=\"($H/Mail/|=)Drafts\"" 5
	tm send-keys ':set ?wait_key' Enter
	check "$cl: \$wait_key is restored" wait_screen '^wait_key( is set|="yes")' 5

	# An unreachable model: the draft still comes, with the note.
	model unreachable
	tm send-keys M-R
	if wait_screen 'Compose' 15 && wait_file "$OUT/edit.1" 5; then
		check "$cl: unreachable model: the draft comes with the note" \
			$MC has-note "$OUT/edit.1"
		tm send-keys y
		wait_file "$OUT/sent.1" 10
		wait_screen 'Mail sent' 5 >/dev/null 2>&1
		only_review "$cl: unreachable model" "$T/review.json" 1
	else
		fail "$cl: unreachable model: the draft comes with the note" "no compose screen"
	fi

	# A 20 s review: mutt waits in the pipe, patchreview's progress line shows.
	if [ "$cl" = mutt ]; then
		if [ -z "$PORT" ]; then
			skip "mutt: 20 s review" "tests/llm_server.py is missing or did not start"
		else
			model slow
			tm send-keys M-R
			check "mutt: 20 s review: the progress line shows while mutt waits" \
				wait_screen 'patchreview: .*[0-9]+ s' 10
			show mutt 'patchreview: .*[0-9]+ s'
			if wait_screen 'Compose' 45 && wait_file "$OUT/edit.2" 5; then
				check "mutt: 20 s review: the editor opens on the model's draft" \
					sh -c "grep -q '^Assisted-by: ' '$OUT/edit.2' && ! grep -q 'model review failed' '$OUT/edit.2'"
				tm send-keys y
				wait_file "$OUT/sent.2" 10
				wait_screen 'Mail sent' 5 >/dev/null 2>&1
				only_review "mutt: 20 s review" "$T/review-model.json" 2
			else
				fail "mutt: 20 s review: the editor opens on the draft" "no compose screen"
			fi
		fi
	fi

	tm send-keys q
	wait_exit 10
	if [ "$cl" = mutt ]; then
		check "mutt: the original is marked replied" \
			sh -c "ls '$H/Mail/INBOX/cur' | grep -q '^1700000000\.1\.t40:2,[A-Z]*R'"
	else
		check "neomutt: not marking the original replied is documented" \
			grep -q 'neomutt does not' "$ROOT/contrib/mutt/patchreview.muttrc"
	fi
	mutt_fresh "$cl"
	mutt_series "$cl"
}

# mutt_fresh CLIENT: a muttrc with no $from (use_from at its default), a
# $realname and a $signature file: the sent reply has the From mutt gives a
# reply, and ends with "-- " and the signature, once (mutt appends none to a
# recalled draft; patchreview --mutt writes it from the macro's
# PATCHREVIEW_MUTT_SIGNATURE). Then Esc R,
# quit without sending, Esc R again: the editor opens at once on the new
# draft (no recall menu), and the old draft is kept in drafts-old.
mutt_fresh() {
	cl=$1
	reset_mail
	model none
	printf 'Rita Reviewer\nhttps://rita.example.org/  (signature)\n' >"$T/mutt.sig"
	sed -e '/^set from=/d' -e '/^set use_from=/d' -e 's/^set charset=/set realname="Rita Reviewer"\nset charset=/' \
		-e "\$a set signature=$T/mutt.sig" \
		"$T/muttrc" >"$T/muttrc.nofrom"
	{ printf -- '-- \n'; cat "$T/mutt.sig"; } >"$T/sig.expect"
	start "$cl-fresh" "$cl -n -F $T/muttrc.nofrom"
	wait_screen 'Msgs:1' 10 || { fail "$cl: no \$from" "the index did not come up"; return; }
	tm send-keys M-R
	if wait_screen 'Compose' 10 && wait_file "$OUT/edit.0" 5; then
		tm send-keys y
		if wait_file "$OUT/sent.0" 10 && wait_screen 'Mail sent' 5; then
			user=$(id -un)
			check "$cl: no \$from: the sent reply has a From naming the user" \
				sh -c "grep -E -q '^From: \"?Rita Reviewer\"? <$user@[^>]+>\$' '$OUT/sent.0'"
			grep '^From:' "$OUT/sent.0" | sed "s/^/  # $cl sent: /"
			$MC body "$OUT/sent.0" >"$T/sent.body"
			check "$cl: \$signature: the sent reply ends with '-- ' and the file's text, once" \
				sh -c "[ \$(grep -c -x -e '-- ' '$T/sent.body') -eq 1 ] &&
					[ \$(grep -c -x -F 'Rita Reviewer' '$T/sent.body') -eq 1 ] &&
					tail -3 '$T/sent.body' | cmp -s - '$T/sig.expect'"
			tail -3 "$T/sent.body" | sed "s/^/  # $cl sent: /"
		else
			fail "$cl: no \$from: sends the reply" "no mail reached sendmail"
		fi
	else
		fail "$cl: no \$from: Esc R opens the editor" "no compose screen"
	fi
	# Esc R, then quit the compose menu and postpone the draft.
	tm send-keys M-R
	if ! wait_screen 'Compose' 10 || ! wait_file "$OUT/edit.1" 5; then
		fail "$cl: Esc R after a sent reply" "no compose screen"
		return
	fi
	tm send-keys q
	wait_screen 'Postpone this message|Save \(postpone\)' 5 >/dev/null && tm send-keys y
	wait_screen 'Msgs:1' 5 >/dev/null
	tm send-keys M-R
	if wait_screen 'Compose|Postponed Messages' 10 && ! screen | grep -q 'Postponed Messages' &&
		wait_file "$OUT/edit.2" 5; then
		pass "$cl: Esc R after a draft left unsent opens the editor on the new draft"
	else
		fail "$cl: Esc R after a draft left unsent opens the editor on the new draft" "a recall menu or nothing"
	fi
	check "$cl: the draft left unsent is kept (your \$postponed or drafts-old)" \
		sh -c "[ \$(find '$H/Mail/Drafts' '$H/.cache/patchreview/drafts-old' -type f 2>/dev/null | wc -l) -ge 1 ]"
	find "$H/Mail/Drafts" "$H/.cache/patchreview/drafts-old" -type f 2>/dev/null | sed "s|^$H/|  # $cl kept: ~/|"
	tm send-keys q
	wait_screen 'Postpone this message|Save \(postpone\)' 5 >/dev/null && tm send-keys n
	tm send-keys q
	wait_exit 10
}

# series_maildir: INBOX holds a real series (cover letter and four patches)
# and one unrelated patch mail, as separate Maildir files.
series_maildir() {
	reset_mail
	python3 - "$SERIES" "$H/Mail/INBOX/cur" <<'PY'
import re, sys
raw = open(sys.argv[1], 'rb').read()
parts = re.split(rb'(?m)^From [^\n]*\n', raw)[1:]
for i, p in enumerate(parts):
    p = re.sub(rb'(?m)^>(>*From )', rb'\1', p).rstrip(b'\n') + b'\n'
    p = re.sub(rb'(?m)^(Status|Content-Length|Lines): .*\n', b'', p)
    open('%s/17000001%02d.%d.series:2,S' % (sys.argv[2], i, i), 'wb').write(p)
PY
}

# series_run: patchreview ran once, got the five messages with the
# separator after each, and delivered a draft for each into the private Maildir.
series_run() {
	[ "$(wc -l < "$OUT/calls")" -eq 1 ] && grep -q ' 0 --mutt --maildir ' "$OUT/calls" &&
		[ "$(grep -c -a "$(printf '^\001\001\001\001$')" "$OUT/input.0")" -eq 5 ] &&
		[ "$(grep -c -a '^Subject: \[PATCH [0-4]/4\]' "$OUT/input.0")" -eq 5 ] &&
		[ "$(ls "$H/.cache/patchreview/drafts/new" | wc -l)" -eq 5 ]
}

sent_series_reply() {
	wait_file "$OUT/sent.0" 10 && grep -q '^In-Reply-To: <20221025-test1-v1-[0-4]-' "$OUT/sent.0"
}

# Esc T on the tagged messages of a series, Esc S on the thread of one of
# them: one patchreview run, a draft per patch and one for the cover letter.
mutt_series() {
	cl=$1
	if [ ! -f "$SERIES" ]; then
		skip "$cl: series" "$SERIES is absent"
		return
	fi
	model none
	series_maildir
	rm -rf "$H/.cache/patchreview" "$OUT"
	mkdir -p "$OUT"
	start "$cl-series" "$cl -n -F $T/muttrc"
	wait_screen 'Msgs:6' 10 || { fail "$cl: Esc T" "the index did not come up"; return; }
	tm send-keys T '~i linuxfoundation' Enter
	wait_screen 'Tag:5' 5 >/dev/null
	tm send-keys M-T
	if wait_screen 'Postponed Messages' 15; then
		pass "$cl: Esc T reviews the tagged series in one run and offers the drafts"
		show "$cl" '^ +[1-5] .*Re: '
	else
		fail "$cl: Esc T reviews the tagged series in one run and offers the drafts" "no recall menu"
		return
	fi
	check "$cl: Esc T: one run, five messages apart, five drafts" series_run
	# mutt opens $postponed unsorted (MUTT_NOSORT): the menu follows the
	# Maildir's inode order, which the file system chooses, not the Dates.
	check "$cl: Esc T: the recall menu lists each draft of the series once" poll 5 series_listed
	tm send-keys Enter
	if wait_screen 'Compose' 10 && wait_file "$OUT/edit.0" 5; then
		tm send-keys y
		check "$cl: Esc T: a series draft is sent, answering its message" sent_series_reply
		wait_screen 'Mail sent' 5 >/dev/null
		check "$cl: Esc T: the reviewed messages are untagged" \
			sh -c "! tmux -S '$SOCK' capture-pane -p | grep -q 'Tag:'"
	else
		fail "$cl: Esc T: a series draft is sent" "no compose screen"
	fi
	tm send-keys ':set ?pipe_split' Enter
	check "$cl: Esc T: \$pipe_split is restored" wait_screen '^pipe_split( is unset|="?no"?)' 5
	tm send-keys ':set ?pipe_sep' Enter
	check "$cl: Esc T: \$pipe_sep is back to its default" wait_screen '^pipe_sep="\\n"' 5

	# Esc S from 2/4, with sort=date: the thread, and nothing else, in one
	# run. The four drafts Esc T left unsent go to drafts-old first.
	rm -rf "$OUT"
	mkdir -p "$OUT"
	tm send-keys ':push <untag-pattern>~A<enter>' Enter
	tm send-keys / '2/4' Enter
	sleep 0.3
	tm send-keys M-S
	if wait_screen 'Postponed Messages' 15; then
		pass "$cl: Esc S reviews the thread of the message under the cursor"
	else
		fail "$cl: Esc S reviews the thread of the message under the cursor" "no recall menu"
		return
	fi
	check "$cl: Esc S: one run, the five messages of the thread, five drafts" series_run
	check "$cl: Esc S: the four drafts Esc T left unsent are kept in drafts-old" \
		sh -c "[ \$(find '$H/.cache/patchreview/drafts-old' -type f | wc -l) -eq 4 ]"
	tm send-keys q
	wait_screen 'Msgs:6' 5 >/dev/null
	tm send-keys ':set ?sort' Enter
	check "$cl: Esc S: \$sort is restored" wait_screen '^sort="?date"?' 5
	check "$cl: Esc S: nothing is left tagged" sh -c "! tmux -S '$SOCK' capture-pane -p | grep -q 'Tag:'"
	tm send-keys q
	wait_exit 10
}

# --- aerc: rp (pipe -b + reply template), rP (review in a tab, then recall) --
aerc_binds() {
	awk -v snippet="$ROOT/contrib/aerc/binds.conf" '
	BEGIN {
		while ((getline line < snippet) > 0) {
			if (line ~ /^#/ || line ~ /^[ \t]*$/) continue
			if (line ~ /^\[/) { sec = line; order[++n] = sec; continue }
			add[sec] = add[sec] line "\n"
		}
	}
	/^\[/ { if (cur in add) { printf "%s", add[cur]; done[cur] = 1 } cur = $0 }
	{ print }
	END {
		if (cur in add && !(cur in done)) { printf "%s", add[cur]; done[cur] = 1 }
		for (i = 1; i <= n; i++)
			if (!(order[i] in done)) printf "%s\n%s", order[i], add[order[i]]
	}' /usr/share/aerc/binds.conf
}

# press_rP: rP in aerc, pressed once more when aerc, busy under load, lost
# the keys (no patchreview run began within 5 s).
press_rP() {
	n=0
	while [ -e "$OUT/input.$n" ]; do n=$((n + 1)); done
	tm send-keys r P
	if ! wait_file "$OUT/input.$n" 5; then
		echo "  # aerc took no rP within 5 s; pressing it again"
		tm send-keys Escape r P
	fi
}

aerc_test() {
	if ! command -v aerc >/dev/null 2>&1; then
		skip "aerc" "aerc is not installed"
		return
	fi
	if [ ! -f /usr/share/aerc/binds.conf ]; then
		skip "aerc" "no /usr/share/aerc/binds.conf to add the bindings to"
		return
	fi
	reset_mail
	model none
	A=$XDG_CONFIG_HOME/aerc
	mkdir -p "$A"
	for f in accounts.conf aerc.conf; do
		sed -e "s|@HOME@|$H|g" -e "s|@CLIENTS@|$C|g" -e "s|@ROOT@|$ROOT|g" \
			"$C/$f.in" >"$A/$f"
	done
	chmod 600 "$A/accounts.conf"
	aerc_binds >"$A/binds.conf"
	start aerc aerc
	wait_screen 'INBOX +1' 15 || { fail "aerc" "the message list did not come up"; return; }

	# Fast path: rp.
	tm send-keys r p
	if wait_screen 'Send this email' 15 && wait_file "$OUT/edit.0" 5; then
		pass "aerc: rp opens the editor on the draft"
	else
		fail "aerc: rp opens the editor on the draft" "no review screen"
		return
	fi
	show aerc '^(To|Subject): |Send this email'
	check "aerc: the editor has the draft's comments" in_text "$T/draft.eml" "$OUT/edit.0"
	check "aerc: the raw message was piped, byte for byte" cmp -s "$OUT/input.0" "$T/orig.eml"
	tm send-keys y
	if wait_file "$OUT/sent.0" 10 && wait_gone 'Send this email' 10; then
		sent_checks aerc 0
		check "aerc: X-Mutt-References is not sent" \
			$MC lacks-header X-Mutt-References "$OUT/sent.0"
		learned aerc
		n=0
		while ! ls "$H/Mail/INBOX/cur" | grep -q ':2,[A-Z]*R' && [ $n -lt 50 ]; do
			sleep 0.1
			n=$((n + 1))
		done
		check "aerc: the original is marked answered" \
			sh -c "ls '$H/Mail/INBOX/cur' | grep -q ':2,[A-Z]*R'"
	else
		fail "aerc: sends the reply" "no mail reached sendmail"
	fi

	# An unreachable model, fast path.
	model unreachable
	wait_screen 'INBOX' 5 >/dev/null
	tm send-keys r p
	if wait_screen 'Send this email' 15 && wait_file "$OUT/edit.1" 5; then
		tm send-keys y
		wait_file "$OUT/sent.1" 10
		wait_gone 'Send this email' 10
		only_review "aerc: unreachable model" "$T/review.json" 1
	else
		fail "aerc: unreachable model: the reply opens" "no review screen"
	fi

	# Slow path: rP runs a 20 s review in a tab; aerc stays usable; the
	# draft lands in Drafts and is recalled from there.
	if [ -z "$PORT" ]; then
		skip "aerc: 20 s review (rP)" "tests/llm_server.py is missing or did not start"
	else
		model slow "Reviewer <reviewer@example.org>"
		wait_screen 'INBOX' 5 >/dev/null
		press_rP
		check "aerc: rP: the review runs in a tab with the progress line" \
			wait_screen 'patchreview: .*[0-9]+ s' 10
		show aerc 'patchreview: .*[0-9]+ s'
		tm send-keys C-p
		wait_screen 'INBOX' 5 >/dev/null
		tm send-keys ':cf Drafts' Enter
		if wait_screen 'Drafts +\(no messages\)' 5 && [ -z "$(drafts)" ]; then
			pass "aerc: rP: aerc answers keys while the review runs"
		else
			fail "aerc: rP: aerc answers keys while the review runs" "Drafts did not open at once"
		fi
		tm send-keys C-n
		if wait_screen '\[patchreview\] The draft is in' 45; then
			pass "aerc: rP: the tab says when the draft is ready"
			show aerc '\[patchreview\] The draft is in'
			wait_screen 'press any key to close' 10 >/dev/null
			tm send-keys Enter
			wait_screen 'Re: ' 10 >/dev/null
			tm send-keys Enter
			if wait_screen 'Send this email' 10 && wait_file "$OUT/edit.2" 5; then
				pass "aerc: rP: recall from Drafts opens the editor on the draft"
				tm send-keys y
				if wait_file "$OUT/sent.2" 10; then
					for aspect in to cc subject threading comments; do
						check "aerc: rP: sent mail keeps the draft's $aspect" \
							$MC "$aspect" "$T/orig.eml" "$T/draft.eml" "$OUT/sent.2"
					done
					check "aerc: rP: the model's review is in the sent mail" \
						sh -c "$MC body '$OUT/sent.2' | grep -q '^Assisted-by: '"
					only_review "aerc: rP" "$T/review-model.json" 2
				else
					fail "aerc: rP: sends the recalled draft" "no mail reached sendmail"
				fi
			else
				fail "aerc: rP: recall from Drafts opens the editor on the draft" "no review screen"
			fi
		else
			fail "aerc: rP: the tab says when the draft is ready" "no ready line"
		fi
	fi

	# Closing the review's tab early does not lose the draft.
	if [ -n "$PORT3" ]; then
		model quick "Reviewer <reviewer@example.org>"
		tm send-keys ':cf INBOX' Enter
		wait_gone '\(no messages\)' 5
		drafts | xargs rm -f
		press_rP
		if wait_screen 'patchreview: .*[0-9]+ s' 10; then
			tm send-keys C-x
			wait_screen '^:' 5 >/dev/null
			tm send-keys 'close' Enter
			n=0
			while [ -z "$(drafts)" ] && [ $n -lt 150 ]; do
				sleep 0.1
				n=$((n + 1))
			done
			check "aerc: rP: the draft still lands in Drafts when the tab is closed early" \
				sh -c "find '$H/Mail/Drafts' -type f | grep -q patchreview"
		else
			fail "aerc: rP: closing the tab early" "no progress line"
		fi
		wait_screen 'press any key to close' 5 >/dev/null && tm send-keys Enter
	fi

	tm send-keys ':quit' Enter
	wait_exit 10
	aerc_series
}

# aerc_drafts N: N drafts in Drafts, each answering a message of the series.
aerc_drafts() {
	n=0
	while [ "$(drafts | wc -l)" -lt "$1" ] && [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	[ "$(drafts | wc -l)" -eq "$1" ] &&
		[ "$(drafts | xargs cat | grep -c '^In-Reply-To: <20221025-test1-v1-[0-4]-')" -eq "$1" ]
}

# series_listed: the screen lists each draft of the series 0/4 to 4/4 once.
series_listed() {
	[ "$(screen | grep -o 'Re: \[PATCH [0-4]/4\]' | tr -d -c '0-4\n' | sort | tr -d '\n')" = 0414243444 ]
}

# series_order: the screen lists the drafts of the series 0/4 to 4/4, top down.
series_order() {
	[ "$(screen | grep -o 'Re: \[PATCH [0-4]/4\]' | tr -d -c '0-4\n' | tr -d '\n')" = 0414243444 ]
}

# rS on a message of a series (threading on): the thread, marked, as one
# series: one draft per patch and the cover letter's, in Drafts.
aerc_series() {
	if [ ! -f "$SERIES" ]; then
		skip "aerc: series" "$SERIES is absent"
		return
	fi
	series_maildir
	model none "Reviewer <reviewer@example.org>"
	sed -i 's/^\[ui\]$/[ui]\nthreading-enabled=true/' "$A/aerc.conf"
	start aerc-series aerc
	wait_screen 'INBOX +6' 15 || { fail "aerc: series" "the message list did not come up"; return; }
	tm send-keys ':search 2/4' Enter
	sleep 0.5
	tm send-keys r S
	if wait_screen '\[patchreview\] The 5 drafts are in' 20; then
		pass "aerc: rS reviews the thread as one series, in a tab"
		show aerc '\[patchreview\] The 5 drafts are in'
	else
		fail "aerc: rS reviews the thread as one series, in a tab" "no line saying the drafts are in"
		return
	fi
	check "aerc: rS: one run got the five messages as an mbox" \
		sh -c "[ \$(wc -l < '$OUT/calls') -eq 1 ] && [ \$(grep -c '^From ' '$OUT/input.0') -eq 5 ]"
	check "aerc: rS: five drafts in Drafts, each answering its message" aerc_drafts 5
	wait_screen 'press any key to close' 5 >/dev/null && tm send-keys Enter
	wait_screen 'INBOX' 5 >/dev/null
	tm send-keys ':cf Drafts' Enter
	wait_screen 'Re: \[PATCH 4/4\]' 5 >/dev/null
	check "aerc: rS: Drafts lists the series in order, cover letter first" poll 5 series_order
	show aerc 'Re: \[PATCH [0-4]/4\]'
	# Again: the new set replaces the first, which is kept in Drafts-old.
	# The sidebar names INBOX all along: wait for its list, where the
	# subjects carry no "Re:", before searching in it.
	tm send-keys ':cf INBOX' Enter
	wait_screen '[^:] \[PATCH 2/4\]' 10 >/dev/null
	tm send-keys ':search 2/4' Enter
	sleep 0.5
	rm -f "$OUT/calls"
	tm send-keys r S
	if wait_screen '\[patchreview\] 5 earlier drafts of these mails are now in' 20; then
		pass "aerc: rS again: the tab says the earlier drafts moved"
	else
		fail "aerc: rS again: the tab says the earlier drafts moved" "no such line"
	fi
	check "aerc: rS again: five drafts in Drafts, the earlier five in Drafts-old" \
		sh -c "[ \$(find '$H/Mail/Drafts' -type f | wc -l) -eq 5 ] &&
			[ \$(find '$H/Mail/Drafts-old' -type f | grep -c patchreview) -eq 5 ]"
	wait_screen 'press any key to close' 5 >/dev/null && tm send-keys Enter
	wait_screen 'INBOX' 5 >/dev/null
	tm send-keys ':quit' Enter
	wait_exit 10
}

# --- git: contrib/git and contrib/ci, for contributors --------------------
git_test() {
	if ! command -v git >/dev/null 2>&1; then
		skip "git" "git is not installed"
		return
	fi
	R=$T/repo
	mkdir -p "$T/gitbin" "$R"
	# patchreview, keeping what each run read
	printf '#!/bin/sh\ncat >"%s/pr.in"; echo run >>"%s/pr.calls"\nexec "%s" "$@" <"%s/pr.in"\n' \
		"$T" "$T" "$PR_BIN" "$T" >"$T/gitbin/patchreview"
	chmod +x "$T/gitbin/patchreview"
	cp "$ROOT/contrib/git/git-patchreview" "$T/gitbin/"
	export GIT_CONFIG_NOSYSTEM=1
	(
		cd "$R" && git init -q && git config user.name 'Ada Lovelace' &&
		git config user.email ada@example.org &&
		printf 'int main(void)\n{\n\treturn 0;\n}\n' >a.c && git add a.c &&
		git commit -q -m 'a: start' && git branch base &&
		printf 'int main(void)\n{\n\tint x = 1; \n\treturn 0;\n}\n' >a.c &&
		git commit -q -a -s -m 'a: add x' &&
		printf 'int main(void)\n{\n\tint x = 1; \n\treturn x;\n}\n' >a.c &&
		git commit -q -a -s -m 'a: return x'
	) >/dev/null 2>&1 || { fail "git" "cannot make a test repository"; return; }
	GP="env PATH=$T/gitbin:$PATH PATCHREVIEW_BACKEND=none"

	(cd "$R" && $GP git patchreview base..) >"$T/gp.out" 2>&1
	status=$?
	check "git patchreview: exit 1, one line per comment with file and line" \
		sh -c "[ $status -eq 1 ] && grep -qxF '    a.c:3: CHECK: This line adds trailing whitespace.' '$T/gp.out'"
	check "git patchreview: one run reviews the range as one series, lines under [n/m]" \
		sh -c "[ \$(wc -l < '$T/pr.calls') -eq 1 ] && [ \$(grep -c '^From ' '$T/pr.in') -eq 2 ] &&
			grep -q '^Subject: \\[PATCH 2/2\\] a: return x' '$T/pr.in' &&
			grep -q '^\\[1/2\\] [0-9a-f]* a: add x$' '$T/gp.out' &&
			sed -n '/^\\[2\\/2\\]/,\$p' '$T/gp.out' | grep -qxF '    no comments'"
	(cd "$R" && $GP git patchreview -s warning base..) >"$T/gp.out" 2>&1
	check "git patchreview -s warning: a nit is shown but exits 0" \
		sh -c "[ $? -eq 0 ] && grep -q 'trailing whitespace' '$T/gp.out'"
	git -C "$R" config patchreview.failOn error
	(cd "$R" && $GP git patchreview base..) >"$T/gp.out" 2>&1
	check "git patchreview: git config patchreview.failOn sets the severity" test $? -eq 0
	git -C "$R" config --unset patchreview.failOn
	(cd "$R" && $GP git patchreview) >"$T/gp.out" 2>&1
	check "git patchreview: a clean last commit gives exit 0" \
		sh -c "[ $? -eq 0 ] && grep -q 'no comments' '$T/gp.out'"

	(cd "$R" && PATCHREVIEW_DRAFTS=$T/ci-drafts $GP sh "$ROOT/contrib/ci/review-series.sh" base) \
		>"$T/ci.out" 2>&1
	status=$?
	check "ci: review-series.sh: exit 1 on comments, one draft per commit" \
		sh -c "[ $status -eq 1 ] && [ \$(ls '$T/ci-drafts' | wc -l) -eq 2 ] && grep -q '^> +	int x = 1; $' '$T/ci-drafts/0001.draft'"
	(cd "$R" && PATCHREVIEW_DRAFTS=$T/ci-drafts $GP sh "$ROOT/contrib/ci/review-series.sh" -s warning base) \
		>"$T/ci.out" 2>&1
	check "ci: review-series.sh -s warning: a nit does not fail the job" test $? -eq 0
	(cd "$R" && PATCHREVIEW_ADVISORY=yes PATCHREVIEW_DRAFTS=$T/ci-drafts $GP \
		sh "$ROOT/contrib/ci/review-series.sh" base) >"$T/ci.out" 2>&1
	check "ci: review-series.sh: advisory mode exits 0" test $? -eq 0

	cp "$ROOT/contrib/git/sendemail-validate" "$R/.git/hooks/"
	chmod +x "$R/.git/hooks/sendemail-validate"
	if (cd "$R" && $GP git send-email --dry-run --confirm=never --suppress-cc=all \
		--to=maint@example.org base.. >"$T/se.out" 2>&1); then
		check "git send-email --dry-run: the hook shows the comments" \
			grep -q 'trailing whitespace' "$T/se.out"
		git -C "$R" config patchreview.blockSend true
		(cd "$R" && $GP git send-email --dry-run --confirm=never --suppress-cc=all \
			--to=maint@example.org base.. >"$T/se.out" 2>&1)
		check "git send-email: patchreview.blockSend stops a patch with comments" \
			sh -c "[ $? -ne 0 ] && grep -q 'rejected by sendemail-validate hook' '$T/se.out'"
	else
		echo "  # git send-email is not usable here; running the hook as git would"
		(cd "$R" && git format-patch -q -o "$T/patches" base..) >/dev/null 2>&1
		(cd "$R" && $GP .git/hooks/sendemail-validate "$T/patches/0001-a-add-x.patch") \
			>"$T/se.out" 2>&1
		check "sendemail-validate: shows the comments, does not block" \
			sh -c "[ $? -eq 0 ] && grep -q 'trailing whitespace' '$T/se.out'"
		git -C "$R" config patchreview.blockSend true
		(cd "$R" && $GP .git/hooks/sendemail-validate "$T/patches/0001-a-add-x.patch") \
			>"$T/se.out" 2>&1
		check "sendemail-validate: patchreview.blockSend stops a patch with comments" \
			test $? -ne 0
	fi
}

# Ctrl-C on make check: the test run that gets it (in a process group of
# its own, as a foreground job is) must stop its tmux server, mutt inside
# it and its model servers, and remove its directory.
interrupt_test() {
	if ! command -v mutt >/dev/null 2>&1; then
		skip "cleanup on an interrupt" "mutt is not installed"
		return
	fi
	mkdir -p "$T/child"
	python3 - "$ROOT/tests/t40-clients.sh" "$T/child" >"$T/child.log" 2>&1 <<'PY'
import glob, os, signal, subprocess, sys, time
test, tmp = sys.argv[1], sys.argv[2]
env = dict(os.environ, TMPDIR=tmp, T40_ONLY="mutt", RESULTS=os.path.join(tmp, "results"))
child = subprocess.Popen(["sh", test], env=env, start_new_session=True,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
deadline = time.time() + 30
while time.time() < deadline and not glob.glob(os.path.join(tmp, "*", "tmux-mutt")):
    time.sleep(0.1)
time.sleep(1)
print("socket:", " ".join(glob.glob(os.path.join(tmp, "*", "tmux-mutt"))))
os.killpg(child.pid, signal.SIGINT)
print("status:", child.wait(timeout=30))
PY
	sock=$(sed -n 's/^socket: //p' "$T/child.log")
	check "cleanup: the interrupted run had its tmux server up" test -n "$sock"
	n=0
	while ps -eo args | grep -F "$T/child/" | grep -v grep >/dev/null && [ $n -lt $((100 * SCALE)) ]; do
		sleep 0.1
		n=$((n + 1))
	done
	check "cleanup: an interrupted run leaves no tmux, mutt or model server behind" \
		sh -c "! ps -eo args | grep -F '$T/child/' | grep -v grep"
	check "cleanup: an interrupted run removes its directory" \
		sh -c "[ -z \"\$(ls '$T/child' | grep -v results)\" ]"
	# When the check failed: what the child left, stopped by its ids.
	for pid in $(ps -eo pid,args | grep -F "$T/child/" | grep -v grep | awk '{ print $1 }'); do
		kill "$pid" 2>/dev/null
	done
}

# --- consume: procmail delivers, the background review fills the cache, ----
# and mutt's Esc R on a delivered mail opens the model's draft with no
# new request to the stand-in (issue 26).
consume_test() {
	if ! command -v procmail >/dev/null 2>&1 || ! command -v flock >/dev/null 2>&1 ||
		! command -v mutt >/dev/null 2>&1; then
		skip "consume" "procmail, flock or mutt is not installed"
		return
	fi
	if [ -z "$PORT3" ]; then
		skip "consume" "tests/llm_server.py is missing or did not start"
		return
	fi
	reset_mail
	rm -f "$H/Mail/INBOX/cur/"*
	rm -rf "$H/.local/state/patchreview"
	# The quick model (3 s), with the cache on: what consume fills.
	printf 'backend = openai\nurl = http://127.0.0.1:%s/v1\nmodel = test\ntimeout = 60\nretries = 0\nverify = no\n' \
		"$PORT3" >"$XDG_CONFIG_HOME/patchreview/config"
	[ -f "$T/muttrc" ] || sed -e "s|@HOME@|$H|g" -e "s|@CLIENTS@|$C|g" -e "s|@ROOT@|$ROOT|g" \
		"$C/muttrc.in" >"$T/muttrc"
	# procmail's own environment (no -p): what the rc sets, as a user's would.
	cat >"$T/procmailrc" <<P
HOME=$H
PATH=/usr/local/bin:/usr/bin:/bin
XDG_CONFIG_HOME=$XDG_CONFIG_HOME
XDG_CACHE_HOME=$XDG_CACHE_HOME
MAILDIR=$H/Mail
DEFAULT=$H/Mail/INBOX/
LOGFILE=$T/procmail.log
:0 wc
| $PR_BIN consume
P
	sed '1{/^From /d;}' "$MAILS/llm-net.eml" >"$T/second.eml"
	log=$T/llm.quick.log
	before=$(wc -l <"$log")
	for m in "$T/orig.eml" "$T/second.eml"; do
		env -i PATH=/usr/bin:/bin procmail -m "$T/procmailrc" <"$m"
	done
	# The worker the deliveries started is done once its lock is free.
	flock -w $((60 * SCALE)) "$H/.local/state/patchreview/worker.lock" true
	delivered=$(wc -l <"$log")
	check "consume: procmail delivered both into the Maildir, reviewed at delivery" \
		test "$(ls "$H/Mail/INBOX/new" | wc -l)" -eq 2 -a "$delivered" -eq $((before + 2))
	esc_r consume "mutt -n -F $T/muttrc" 2 "Esc R on a delivered mail opens the editor on the draft" || return
	check "consume: the key press sent the stand-in no request" test "$(wc -l <"$log")" -eq "$delivered"
	check "consume: the draft is the model's review" \
		sh -c "grep -q '^Assisted-by: ' '$OUT/edit.0' && ! grep -q 'model review failed' '$OUT/edit.0'"
	# The same mail reviewed now, without the cache: the same comments.
	"$PR_BIN" --quiet --no-cache <"$OUT/input.0" >"$T/consume-draft.eml" 2>/dev/null
	check "consume: the draft a review now makes, comment for comment" \
		in_text "$T/consume-draft.eml" "$OUT/edit.0"
	tm send-keys q
	wait_screen 'Postpone this message|Save \(postpone\)' 5 >/dev/null && tm send-keys n
	tm send-keys q
	wait_exit 10
	rm -f "$XDG_CONFIG_HOME/patchreview/config"
}

# T40_ONLY="aerc" (say) runs one client, when debugging.
for c in ${T40_ONLY:-mutt neomutt aerc git consume interrupt}; do
	case $c in
	aerc) aerc_test ;;
	consume) consume_test ;;
	git) git_test ;;
	interrupt) interrupt_test ;;
	*) mutt_like "$c" ;;
	esac
done
