#!/usr/bin/env python3
"""tests/tools/fields.py: every value of one header field of a draft,
unfolded and RFC 2047-decoded, one a line.

    fields.py NAME FILE...

Reads each FILE's first message (a leading mbox "From " line is skipped).
Drafts keep what is for the maintainer alone in X-Patchreview-Note,
X-Patchreview-Summary and X-Patchreview-Fingerprints fields."""
import email
import email.header
import email.policy
import re
import signal
import sys

# A reader that stops early (grep -q) is no error.
signal.signal(signal.SIGPIPE, signal.SIG_DFL)

for path in sys.argv[2:]:
    raw = open(path, "rb").read()
    if raw.startswith(b"From "):
        raw = raw.split(b"\n", 1)[1]
    msg = email.message_from_bytes(raw, policy=email.policy.compat32)
    for value in msg.get_all(sys.argv[1]) or []:
        value = re.sub(r"\r?\n[ \t]", " ", str(value))
        print(str(email.header.make_header(email.header.decode_header(value))))
