# tests/llm-lib.sh: sourced after lib.sh by the model reviewer tests.
#
#   start_server [ARGS]   starts llm_server.py on a free loopback port; sets
#                         PORT and LOG, and stops it when the test exits
#   use_backend NAME      points patchreview at the stand-in with that protocol,
#                         with the test key named by api_key_env
#   closed_port           a loopback port nothing listens on
#   requests              number of requests the stand-in has logged
#   logq EXPR             true when the Python EXPR holds; r is the list of
#                         logged requests, last is r[-1], h and b its headers
#                         and body, s and u its system prompt and last user
#                         message; sys_of(q) and user_of(q) for others
#   elapsed_since T0      seconds since T0 (from now_s)
#   under TEXT PATTERN    the comment right under quoted line TEXT matches
KEY=sk-test-4f9a2c7e-DO-NOT-PRINT
KEY_HASH=$(printf %s "$KEY" | sha256sum | cut -c1-16)

start_server() {
	python3 "$ROOT/tests/llm_server.py" --port-file "$T/port" --log "$T/llm.log" \
		--idle 60 "$@" 2>"$T/server.err" &
	SERVER=$!
	trap 'kill $SERVER 2>/dev/null; rm -rf "$T"' EXIT
	for _ in $(seq 100); do
		[ -s "$T/port" ] && break
		sleep 0.1
	done
	PORT=$(cat "$T/port" 2>/dev/null)
	LOG=$T/llm.log
	: >"$LOG"
	[ -n "$PORT" ] || { fail "stand-in server" "did not start: $(cat "$T/server.err")"; exit 0; }
}

use_backend() {
	unset PATCHREVIEW_API_KEY_ENV PATCHREVIEW_API_KEY_COMMAND OPENAI_API_KEY ANTHROPIC_API_KEY
	export PATCHREVIEW_BACKEND=$1 PATCHREVIEW_TIMEOUT=10 PATCHREVIEW_RETRIES=1
	# The usual variables go only to the real services: name them to send a key here.
	case $1 in
	openai) export PATCHREVIEW_URL=http://127.0.0.1:$PORT/v1 OPENAI_API_KEY=$KEY \
		PATCHREVIEW_API_KEY_ENV=OPENAI_API_KEY ;;
	anthropic) export PATCHREVIEW_URL=http://127.0.0.1:$PORT ANTHROPIC_API_KEY=$KEY \
		PATCHREVIEW_API_KEY_ENV=ANTHROPIC_API_KEY ;;
	ollama) export PATCHREVIEW_URL=http://127.0.0.1:$PORT ;;
	esac
}

requests() { wc -l <"$LOG" | tr -d ' '; }

closed_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

logq() {
	python3 - "$LOG" "$1" <<'PY'
import json, re, sys
r = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
last = r[-1] if r else {}
def text(c):
    return "".join(b.get("text", "") for b in c) if isinstance(c, list) else (c or "")
def sys_of(q):
    b = q["body"]
    if "system" in b:
        return text(b["system"])
    return "".join(text(m["content"]) for m in b["messages"] if m["role"] == "system")
def user_of(q):
    return [text(m["content"]) for m in q["body"]["messages"] if m["role"] == "user"][-1]
h, b = last.get("headers", {}), last.get("body", {})
s, u = (sys_of(last), user_of(last)) if r else ("", "")
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
}

now_s() { date +%s.%N; }
elapsed_since() { awk -v a="$1" -v b="$(now_s)" 'BEGIN { printf "%.2f", b - a }'; }
at_least() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }

under() {
	grep -A2 -F -- "$1" "$T/out" | sed -n 3p | grep -q -E -- "$2"
}
exit_is() { [ "$status" -eq "$1" ]; }
draft_has() { grep -q -E -- "$1" "$T/out"; }
draft_lacks() { ! grep -q -E -- "$1" "$T/out"; }
err_has() { grep -q -E -- "$1" "$T/err"; }
sent() { [ "$(requests)" -eq "$1" ]; }
# A note of the draft starts with TEXT.
note_is() { notes "$T/out" | NOTE="$1" awk 'index($0, ENVIRON["NOTE"]) == 1 { f = 1 } END { exit !f }'; }

# The first body line of a guide: text that is only in the prompt when the guide is.
guide_text() { sed '1,/^$/d' "$ROOT/prompts/$1" | head -1 | cut -c1-50; }
