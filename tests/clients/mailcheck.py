#!/usr/bin/env python3
"""tests/clients/mailcheck.py: compares the mail a client sent with the
draft patchreview wrote and the original patch mail.

    mailcheck.py to|cc|subject|threading|comments ORIG DRAFT SENT
    mailcheck.py only-review REVIEW SENT   SENT's text is the quote, the
                                     comments of REVIEW (patchreview --format
                                     json), the attribution and the signature,
                                     the disclosure with a model comment, and
                                     SENT has no X-Patchreview- field
    mailcheck.py has-note FILE       FILE holds the model-failure note
    mailcheck.py lacks-header NAME FILE
    mailcheck.py body FILE           prints the decoded body
    mailcheck.py header NAME FILE    prints the decoded, unfolded header

Exit 0 when the check holds; otherwise one line on stderr and exit 1.
Headers are compared decoded (RFC 2047), so a client may re-encode them.
"""
import email
import email.header
import email.policy
import email.utils
import re
import sys


class Mail:
    """Headers parsed raw (compat32), decoded with email.header, which joins
    adjacent encoded-words as RFC 2047 says (policy.default puts a space
    between some); the body through policy.default."""

    def __init__(self, path):
        with open(path, "rb") as f:
            raw = f.read()
        if raw.startswith(b"From "):
            raw = raw.split(b"\n", 1)[1]
        self.raw = email.message_from_bytes(raw, policy=email.policy.compat32)
        self.msg = email.message_from_bytes(raw, policy=email.policy.default)

    def get_all(self, name):
        out = []
        for v in self.raw.get_all(name) or []:
            v = re.sub(r"\r?\n[ \t]", " ", str(v))
            out.append(str(email.header.make_header(email.header.decode_header(v))))
        return out

    def get(self, name):
        v = self.get_all(name)
        return v[0] if v else None

    def __getitem__(self, name):
        return self.get(name)

    def get_body(self, prefs):
        return self.msg.get_body(prefs)


def load(path):
    return Mail(path)


def header(msg, name):
    values = msg.get_all(name) or []
    return re.sub(r"\s+", " ", ", ".join(values)).strip()


def addresses(msg, name):
    raw = msg.get_all(name) or []
    return [(n, a.lower()) for n, a in email.utils.getaddresses(raw) if a]


def ids(value):
    return re.findall(r"<[^<>\s]+>", value)


def body(msg):
    part = msg.get_body(("plain",))
    return part.get_content() if part is not None else ""


def comments(text):
    """The draft's own lines: neither quoted, blank, elided, nor attribution."""
    out = []
    for line in text.splitlines():
        line = line.rstrip()
        if not line or line.startswith(">") or line == "[ ... ]":
            continue
        if line.startswith("On ") and line.endswith(" wrote:"):
            continue
        out.append(line)
    return out


def normal(text):
    return " ".join(text.split())


def only_review(review, sent):
    """Every paragraph of SENT's own text (not quoted, before the signature)
    is the attribution, the "[ ... ]" of a cut, part of one comment of the
    review, or the disclosure line when a model comment is among them."""
    findings = [f for p in review["patches"] for f in p["findings"]]
    texts = [normal(f["text"]) for f in findings]
    texts += ["nit: " + t for t in texts]
    model = any(f["source"] == "model" for f in findings)
    names = [k for k in sent.raw.keys() if k.lower().startswith("x-patchreview-")]
    if names:
        fail("sent with %s" % ", ".join(names))
    paragraphs, para = [], []
    for line in body(sent).splitlines() + [""]:
        line = line.rstrip()
        if line == "--":
            break
        if not line or line.startswith(">"):
            if para:
                paragraphs.append(normal(" ".join(para)))
            para = []
            continue
        para.append(line)
    if para:
        paragraphs.append(normal(" ".join(para)))
    for p in paragraphs:
        if p == "[ ... ]" or re.fullmatch(r"(On .*, )?.* wrote:", p):
            continue
        if model and p.startswith("Assisted-by: patchreview ("):
            continue
        if not any(p in t for t in texts):
            fail("sent text that is no comment of the review: %r" % p[:200])


def fail(why):
    sys.stderr.write(why + "\n")
    sys.exit(1)


def check(aspect, orig, draft, sent):
    if aspect == "to":
        want, got = addresses(draft, "To"), addresses(sent, "To")
        if [a for _, a in want] != [a for _, a in got]:
            fail("To: sent %r, draft %r" % (got, want))
        author = email.utils.getaddresses([str(orig["From"])])[0][0]
        if author and author not in [n for n, _ in got]:
            fail("To: the author's name %r became %r" % (author, got))
    elif aspect == "cc":
        want = sorted(a for _, a in addresses(draft, "Cc"))
        got = sorted(a for _, a in addresses(sent, "Cc"))
        if want != got:
            fail("Cc: sent %r, draft %r" % (got, want))
        names = {a: n for n, a in addresses(draft, "Cc") if n}
        for n, a in addresses(sent, "Cc"):
            if a in names and n != names[a]:
                fail("Cc: name of %s: sent %r, draft %r" % (a, n, names[a]))
    elif aspect == "subject":
        want, got = header(draft, "Subject"), header(sent, "Subject")
        if not got.startswith("Re: ") or got != want:
            fail("Subject: sent %r, draft %r" % (got, want))
    elif aspect == "threading":
        msgid = ids(header(orig, "Message-ID"))
        irt = ids(header(sent, "In-Reply-To"))
        refs = ids(header(sent, "References"))
        if not msgid or irt != msgid:
            fail("In-Reply-To: sent %r, original %r" % (irt, msgid))
        if not refs or refs[-1] != msgid[0]:
            fail("References: sent %r, original %r" % (refs, msgid))
        if refs != ids(header(draft, "References")):
            fail("References: sent %r, draft %r"
                 % (refs, ids(header(draft, "References"))))
    elif aspect == "comments":
        want = comments(body(draft))
        text = body(sent)
        missing = [line for line in want if line not in text]
        if not want or missing:
            fail("comments: %d in the draft, missing in the sent mail: %r"
                 % (len(want), missing[:3]))
    else:
        fail("unknown check " + aspect)


def main(argv):
    if len(argv) == 5:
        check(argv[1], load(argv[2]), load(argv[3]), load(argv[4]))
    elif len(argv) == 4 and argv[1] == "only-review":
        import json
        with open(argv[2]) as f:
            only_review(json.load(f), load(argv[3]))
    elif len(argv) == 3 and argv[1] == "has-note":
        # The file the editor got: a whole draft (mutt) or its body (aerc).
        with open(argv[2], "rb") as f:
            text = f.read().decode("utf-8", "replace")
        if ("X-Patchreview-Note: model review failed" not in text and
                "[patchreview: model review failed" not in text):
            fail("no model-failure note in " + argv[2])
    elif len(argv) == 4 and argv[1] == "lacks-header":
        if load(argv[3]).get(argv[2]) is not None:
            fail("%s has %s:" % (argv[3], argv[2]))
    elif len(argv) == 3 and argv[1] == "body":
        sys.stdout.write(body(load(argv[2])))
    elif len(argv) == 4 and argv[1] == "header":
        print(header(load(argv[3]), argv[2]))
    else:
        fail(__doc__.strip())


if __name__ == "__main__":
    main(sys.argv)
