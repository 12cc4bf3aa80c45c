#!/usr/bin/env python3
"""seeds.py DIR: writes the generated seeds of the fuzz targets into DIR.

The mail, config and guide targets read their seeds in place (tests/mails,
tests/parse, ../shared/corpus, prompts/); this writes what has no file of
its own: model answers and server streams, made by tests/llm_server.py
(the stand-in the model tests use) for the fixed patch, tests/mails/
llm-net.eml, and configuration files in the forms the README shows.

  DIR/answer/SCENARIO      the model's answer text (fuzz_answer)
  DIR/stream/WIRE-SCENARIO one control byte, two for fake_http.c, then the
                           body a server would stream (fuzz_stream)
  DIR/config/NAME          configuration files (fuzz_config)
  DIR/apply/NAME           a file of this tree, a NUL, and a patch of it (fuzz_apply)
  DIR/learn/NAME           one byte for the command, then a draft or a sent
                           reply to <fuzz@example.org> (fuzz_learn)
"""
import difflib
import email
import email.policy
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import llm_server  # noqa: E402

SCENARIOS = ["ok", "ok-empty", "anchors", "forge", "caps", "garbage", "invalid-json", "eval"]
WIRES = ["openai", "anthropic", "ollama"]     # fuzz_stream's first byte % 3


def fixed_patch_body():
    """A request body as patchreview sends it for llm-net.eml."""
    with open(os.path.join(ROOT, "tests/mails/llm-net.eml"), "rb") as f:
        msg = email.message_from_binary_file(f, policy=email.policy.default)
    text = msg.get_content()
    user = ("Review the patch below.\n\n<<<PATCH\nSubject: %s\n\n%sPATCH>>>\n"
            % (msg["Subject"], text))
    return {"model": "fuzz", "messages": [{"role": "user", "content": user}]}


def stream(wire, body, text):
    usage = {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}
    if wire == "openai":
        return "".join(llm_server.openai_stream(dict(body, stream_options={"include_usage": True}),
                                                text, "stop", usage))
    if wire == "anthropic":
        usage = {"input_tokens": 100, "output_tokens": 20}
        return "".join(llm_server.anthropic_stream(body, text, "end_turn", usage))
    lines = [llm_server.dumps({"message": {"role": "assistant", "content": p}, "done": False})
             for p in llm_server.pieces(text)]
    final = llm_server.ollama_final(body, "stop", 100, 20)
    return "\n".join(lines + [llm_server.dumps(final)]) + "\n"


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else llm_server.wire_bytes(data))


def main():
    out = sys.argv[1]
    body = fixed_patch_body()
    for scenario in SCENARIOS:
        text = llm_server.review_answer(scenario, body)
        write(os.path.join(out, "answer", scenario), text)
        for i, wire in enumerate(WIRES):
            # 200, streamed in 64-byte pieces; and the same answer whole.
            write(os.path.join(out, "stream", "%s-%s" % (wire, scenario)),
                  bytes([i, 0, 127]) + llm_server.wire_bytes(stream(wire, body, text)))
    for i, wire in enumerate(WIRES):
        whole = {"openai": llm_server.openai_whole(body, "{}", "stop", {}),
                 "anthropic": llm_server.anthropic_whole(body, "{}", "end_turn", {}),
                 "ollama": llm_server.ollama_final(body, "stop", 1, 1)}[wire]
        write(os.path.join(out, "stream", "%s-whole" % wire),
              bytes([i, 0, 0]) + json.dumps(whole).encode())
        write(os.path.join(out, "stream", "%s-400" % wire),
              bytes([i, 5, 0]) + json.dumps(llm_server.openai_error(400, "response_format "
                                                                    "is not supported")).encode())
    write(os.path.join(out, "stream", "anthropic-overloaded"),
          bytes([1, 0, 1]) + "".join(llm_server.anthropic_overloaded(body)).encode())
    configs = {
        "readme": "# ~/.config/patchreview/config\nfrom = \"Jane Maintainer <jane@example.org>\"\n"
                  "full = no\n",
        "local": "backend = openai\nurl = http://localhost:11434/v1\nmodel = qwen2.5-coder:14b\n",
        "numbers": "timeout = 300\nmax_tokens = 4096\ntemperature = 0.2\nretries = 3\n"
                   "min_confidence = 0.6\nmax_prompt_bytes = 400000\n",
        "keys": "api_key_env = OPENROUTER_API_KEY\napi_key_command = pass show llm/openai\n"
                "skip_checks = signoff signoff-author\nverify = yes\ncache = no\n",
    }
    for name, text in configs.items():
        write(os.path.join(out, "config", name), text)
    apply_seeds(out)
    learn_seeds(out)


def diff_mail(path, old, new):
    """A patch mail's text: the diff of path from old to new, as git writes it."""
    hunks = difflib.unified_diff(old.splitlines(True), new.splitlines(True), n=3)
    body = "".join(l if l.endswith("\n") else l + "\n\\ No newline at end of file\n"
                   for l in list(hunks)[2:])
    return ("Fix it.\n\nSigned-off-by: A <a@example.org>\n---\n"
            "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n%s" % (path, path, path, path, body))


def apply_seeds(out):
    """Files of this tree with a few lines changed, added and removed, some shifted."""
    names = ["filter/base/buf.c", "filter/base/text.c", "filter/patch/diff.c", "filter/mail/mbox.c"]
    for name in names:
        with open(os.path.join(ROOT, name)) as f:
            old = f.read()
        lines = old.splitlines(True)
        new = lines[:]
        new[len(new) // 3] = "/* changed */\n"
        del new[len(new) // 2]
        new.insert(2 * len(new) // 3, "\tint added = 1;\n")
        new = "".join(new)
        base = os.path.basename(name)
        write(os.path.join(out, "apply", base), (old + "\0" + diff_mail(name, old, new)).encode())
        shifted = "/* a\n * b\n */\n" * 5 + old
        write(os.path.join(out, "apply", "shifted-" + base),
              (shifted + "\0" + diff_mail(name, old, new)).encode())
    write(os.path.join(out, "apply", "new-file"),
          ("\0" + diff_mail("x.c", "", "int x;\nint y;\n").replace("--- a/x.c", "--- /dev/null")
           ).encode())
    write(os.path.join(out, "apply", "no-newline"),
          ("a\nb" + "\0" + diff_mail("n.c", "a\nb", "a\nc")).encode())


def learn_seeds(out):
    """Drafts with a fingerprints line, and sent replies to the recorded mail."""
    draft = ("From: Jane <jane@example.org>\nTo: Ada <ada@example.org>\n"
             "Subject: Re: [PATCH] net: fix it\nIn-Reply-To: <fuzz@example.org>\n"
             "References: <fuzz@example.org>\n\nAda <ada@example.org> wrote:\n"
             "> +\tbuf = kmalloc(len, GFP_KERNEL);\n\nIs this allocation ever freed?\n\n"
             "[patchreview-fingerprints: 0ac5a26cb931 edf111de498f 178bf958c4f6]\n")
    write(os.path.join(out, "learn", "list"), b"\0" + draft.encode())
    write(os.path.join(out, "learn", "all"), b"\1" + draft.encode())
    write(os.path.join(out, "learn", "kept"), b"\2" + draft.encode())
    write(os.path.join(out, "learn", "deleted"),
          b"\2" + draft.replace("Is this allocation ever freed?", "Thanks!").encode())
    mbox = "".join("From x Mon Sep 17 00:00:00 2001\n" + draft.replace("fuzz@", "f%d@" % i) + "\n"
                   for i in range(3))
    write(os.path.join(out, "learn", "mbox"), b"\2" + mbox.encode())


main()
