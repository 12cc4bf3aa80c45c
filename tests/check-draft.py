#!/usr/bin/env python3
"""check-draft.py MAIL DRAFT [--diff]: checks a draft against its input mail.
check-draft.py --series MBOX DRAFTS: checks each draft of the mbox DRAFTS
against the message of the mbox MBOX it answers (its In-Reply-To).

- the draft's headers parse, hold only the headers patchreview writes, each
  once, and are ASCII (non-ASCII text RFC 2047-encoded);
- To/Subject/In-Reply-To/References follow the reply conventions;
- the body has no control characters but tab, no bidirectional overrides,
  no U+2028 or U+2029, and no line starting with "From ";
- with --diff (a patch mail, draft made with --full): the diff lines quoted in
  the draft are, in order, the diff lines of the input. The input is decoded
  here with Python's email package, independently of GMime; lines are
  compared by their ASCII characters only, since bogus charsets may be
  guessed differently.
Prints one line saying what is wrong and exits 1, or exits 0.
"""
import email
import email.policy
import re
import sys

ALLOWED = {"from", "to", "cc", "subject", "in-reply-to", "references", "date",
           "x-mutt-references", "mime-version", "content-type",
           "content-transfer-encoding", "x-patchreview-fingerprints"}
# For the maintainer alone, one field a note or summary line.
REPEATED = {"x-patchreview-note", "x-patchreview-summary"}
DIFF_LINE = re.compile(r"^(diff --git |@@ -\d|[+-](?!--( |$))|\+\+\+ |--- [ab/])")


def fail(why):
    print(why)
    sys.exit(1)


def first_message(raw, mbox=False):
    """The message, or the first of an mbox file (up to the next From_ line after a
    blank line); a .eml file is one message, whatever "From " lines it holds."""
    raw = raw.replace(b"\r\n", b"\n") if b"\r\n" in raw.split(b"\n", 1)[0] + b"\n" else raw
    raw = raw.lstrip(b"\n \t")
    if raw.startswith(b"From "):
        raw = raw.split(b"\n", 1)[1] if b"\n" in raw else b""
        if mbox:
            raw = re.split(rb"\n\nFrom \S+ +\S+ +\S+ +\d+ [\d:]+ \d{4}\n", raw)[0] + b"\n"
    return email.message_from_bytes(raw, policy=email.policy.compat32)


def part_text(part):
    payload = part.get_payload(decode=True) or b""
    if payload.count(b"\n") and payload.count(b"\n") == payload.count(b"\r\n"):
        payload = payload.replace(b"\r\n", b"\n")  # MIME canonical line ends
    charset = part.get_content_charset() or "utf-8"
    try:
        return payload.decode(charset, errors="replace")
    except (LookupError, ValueError):
        return payload.decode("utf-8", errors="replace")


def has_diff(text):
    return re.search(r"^(diff --git |diff -|--- .*\n\+\+\+ |Index: .*\n====)", text, re.M)


def input_texts(msg):
    """The first inline text/plain part, then every other textual part holding a diff."""
    texts, body = [], None
    for part in walk(msg):
        ctype = part.get_content_type()
        if ctype == "text/html" or ctype.endswith("signature"):
            continue
        text = part_text(part)
        inline = (part.get("Content-Disposition") or "").lower().startswith("attachment") is False
        if body is None and ctype == "text/plain" and inline:
            body = text
        elif has_diff(text) and b"\0" not in (part.get_payload(decode=True) or b"")[:8192]:
            texts.append(text)
    # A part holding a diff is the patch: a diff the body pastes is not quoted.
    start = has_diff(body) if body and texts else None
    if start:
        body = body[:start.start()]
    return ([body] if body else []) + texts


def walk(part):
    if part.is_multipart():
        ctype = part.get_content_type()
        subs = part.get_payload()
        if ctype == "multipart/signed":
            subs = subs[:1]
        elif ctype == "multipart/alternative":
            plain = [s for s in subs if s.get_content_type() == "text/plain"]
            subs = plain[:1] or subs[:1]
        for s in subs:
            yield from walk(s)
    elif part.get_content_type() == "message/rfc822":
        for s in part.get_payload():
            yield from walk(s)
    else:
        yield part


def ascii_only(line):
    return "".join(c for c in line if 32 <= ord(c) < 127).rstrip()


def check(raw, mail, check_diff):
    head, sep, body = raw.partition(b"\n\n")
    if not sep:
        fail("draft has no blank line after its headers")
    try:
        head.decode("ascii")
    except UnicodeDecodeError:
        fail("draft headers are not ASCII")
    draft = email.message_from_bytes(raw, policy=email.policy.default)
    names = [k.lower() for k in draft.keys()]
    for n in names:
        if n in REPEATED:
            continue
        if n not in ALLOWED:
            fail(f"unexpected header in draft: {n}")
        if names.count(n) > 1:
            fail(f"header appears twice: {n}")
    for n in ("subject", "date", "mime-version", "content-type"):
        if n not in names:
            fail(f"draft lacks {n}")
    if not re.match(r"Re:( |$)", str(draft["subject"])) or re.match(r"(?i)re: *re:", str(draft["subject"])):
        fail(f"bad subject: {draft['subject']!r}")
    text = body.decode("utf-8")
    if re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", text):
        fail("draft body holds control characters")
    if re.search("[\u202a-\u202e\u2066-\u2069]", text):
        fail("draft body holds bidirectional overrides")
    if re.search("[\u2028\u2029]", text):
        fail("draft body holds a line or paragraph separator")
    if re.search(r"(?m)^From ", text):
        fail("a draft body line starts with 'From '")

    msgid = (mail.get("Message-ID") or "").strip()
    if msgid and msgid not in draft.get("In-Reply-To", ""):
        fail(f"In-Reply-To {draft.get('In-Reply-To')!r} does not name {msgid!r}")
    if msgid and not str(draft.get("References", "")).rstrip().endswith(msgid.split()[-1]):
        fail("References does not end with the original Message-ID")
    if not check_diff:
        return
    want = [ascii_only(l) for t in input_texts(mail) for l in t.split("\n") if DIFF_LINE.match(l)]
    got = [ascii_only(l[2:]) for l in text.split("\n")
           if l.startswith("> ") and DIFF_LINE.match(l[2:])]
    if want != got:
        for i, (w, g) in enumerate(zip(want, got)):
            if w != g:
                fail(f"diff line {i} differs: input {w!r}, draft {g!r}")
        fail(f"{len(want)} diff lines in the input, {len(got)} quoted in the draft")


def check_series(mbox_path, drafts_path):
    """Every draft of the drafts mbox answers a message of the input mbox."""
    import mailbox
    by_id = {}
    for m in mailbox.mbox(mbox_path):
        by_id.setdefault((m.get("Message-ID") or "").strip(), m)
    box = mailbox.mbox(drafts_path)
    if not len(box):
        fail("no drafts in " + drafts_path)
    for key in box.keys():
        raw = box.get_bytes(key)
        irt = (email.message_from_bytes(raw).get("In-Reply-To") or "").strip()
        if irt not in by_id:
            fail(f"draft {key} answers {irt!r}, which is not in the input")
        check(raw, by_id[irt], False)


def main():
    if sys.argv[1] == "--series":
        check_series(sys.argv[2], sys.argv[3])
        return
    mail = first_message(open(sys.argv[1], "rb").read(), sys.argv[1].endswith(".mbox"))
    check(open(sys.argv[2], "rb").read(), mail, "--diff" in sys.argv[3:])


if __name__ == "__main__":
    main()
