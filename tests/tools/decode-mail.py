#!/usr/bin/env python3
"""decode-mail.py MAIL OUT: writes MAIL as the plain mail its decoded
content is: its headers, then the text patchreview reviews (the first
inline text part, then each other part with a diff), decoded here with
Python's email package, independently of GMime, as 8bit UTF-8: one text
part, or when parts other than the body hold a diff, the body and those
parts in a multipart/mixed (the body's own text is then commit message,
not patch). The tests compare the findings on both: the encoding of a
mail must not change them."""
import importlib.util
import os
import sys

spec = importlib.util.spec_from_file_location(
    "check_draft", os.path.join(os.path.dirname(__file__), "..", "check-draft.py"))
check_draft = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check_draft)

raw = open(sys.argv[1], "rb").read()
mail = check_draft.first_message(raw)
texts = check_draft.input_texts(mail)
TEXT = "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n"
if len(texts) > 1:
    body = 'Content-Type: multipart/mixed; boundary="decoded"\n\n'
    for i, text in enumerate(texts):
        body += "--decoded\n" + TEXT
        if i:
            body += 'Content-Disposition: attachment; filename="%d.patch"\n' % i
        body += "\n" + text + ("" if text.endswith("\n") else "\n")
    body += "--decoded--\n"
else:
    body = TEXT + "\n" + "".join(texts)
head = raw.replace(b"\r\n", b"\n").partition(b"\n\n")[0].decode("ascii", "replace").split("\n")
keep, take = [], False
for line in head:
    if line[:1] in (" ", "\t"):
        if take:
            keep.append(line)
        continue
    take = line.split(":", 1)[0].lower() in ("from", "to", "cc", "subject", "message-id", "date")
    if take:
        keep.append(line)
out = "\n".join(keep) + "\nMIME-Version: 1.0\n" + body
open(sys.argv[2], "wb").write(out.encode("utf-8", "surrogateescape"))
