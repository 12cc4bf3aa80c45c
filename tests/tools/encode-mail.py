#!/usr/bin/env python3
"""encode-mail.py: writes one plain-text test mail again the ways mailers
send patches, for the tests that findings do not depend on the encoding.
  encode-mail.py MAIL OUTDIR  ->  OUTDIR/{qp,base64,attached,signed,flowed}.eml
Each holds the same commit message and diff, byte for byte once decoded
(a CR inside the text stays): quoted-printable, base64, a cover note with
the format-patch attached in base64, multipart/signed around a
quoted-printable part, and format=flowed with RFC 3676 space-stuffing.
MAIL is one text part (its own encoding is undone first) whose headers
are one line each."""
import base64
import email
import os
import sys


def split(raw):
    """The headers to keep, as they are, and the body decoded to bytes."""
    head = raw.partition(b"\n\n")[0]
    keep = []
    for line in head.split(b"\n"):
        name = line.split(b":", 1)[0].lower()
        if name in (b"from", b"to", b"cc", b"subject", b"message-id", b"date"):
            keep.append(line)
    body = email.message_from_bytes(raw).get_payload(decode=True)
    return b"\n".join(keep) + b"\n", body


def header(head, name):
    for line in head.split(b"\n"):
        if line.lower().startswith(name.lower() + b":"):
            return line.split(b":", 1)[1].strip()
    return b""


def qp(body):
    """Quoted-printable by RFC 2045: a CR in the text becomes =0D, long lines get soft breaks."""
    out = []
    for line in body.split(b"\n"):
        enc = b""
        for i, c in enumerate(line):
            last = i == len(line) - 1
            if (33 <= c <= 126 and c != 61) or (c in (9, 32) and not last):
                piece = bytes([c])
            else:
                piece = b"=%02X" % c
            if len(enc) + len(piece) > 75:
                out.append(enc + b"=")
                enc = b""
            enc += piece
        out.append(enc)
    return b"\n".join(out)


def part(body, cte, ctype=b"text/plain; charset=utf-8"):
    enc = qp(body) if cte == b"quoted-printable" else base64.encodebytes(body)
    return b"Content-Type: " + ctype + b"\nContent-Transfer-Encoding: " + cte + b"\n\n" + enc


def stuff(body):
    """RFC 3676 space-stuffing; no line ends in a space, so nothing flows."""
    return b"".join(b" " + l if l.startswith((b" ", b">", b"From ")) else l
                    for l in body.splitlines(True))


def main():
    head, body = split(open(sys.argv[1], "rb").read())
    out = sys.argv[2]
    mime = b"MIME-Version: 1.0\n"

    def write(name, data):
        open(os.path.join(out, name + ".eml"), "wb").write(data)

    write("qp", head + mime + part(body, b"quoted-printable"))
    write("base64", head + mime + part(body, b"base64"))
    patch = (b"From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\n"
             b"From: " + header(head, b"From") + b"\nDate: " + header(head, b"Date") +
             b"\nSubject: " + header(head, b"Subject") + b"\n\n" + body)
    write("attached", head + mime + b'Content-Type: multipart/mixed; boundary="b1"\n\n'
          b"--b1\nContent-Type: text/plain; charset=utf-8\n\n"
          b"Hi,\n\nthe patch is attached, my mailer mangles inline ones.\n\n"
          b"--b1\n" + part(patch, b"base64", b'text/x-patch; name="0001-the.patch"')
          .replace(b"\n\n", b'\nContent-Disposition: attachment; filename="0001-the.patch"\n\n', 1) +
          b"\n--b1--\n")
    write("signed", head + mime + b'Content-Type: multipart/signed; boundary="b2"; '
          b'protocol="application/pgp-signature"; micalg=pgp-sha256\n\n'
          b"--b2\n" + part(body, b"quoted-printable") + b"\n--b2\n"
          b"Content-Type: application/pgp-signature; name=\"signature.asc\"\n\n"
          b"-----BEGIN PGP SIGNATURE-----\n\niQEzBAEBCAAdFiEE\n=abcd\n-----END PGP SIGNATURE-----\n"
          b"\n--b2--\n")
    write("flowed", head + mime + b"Content-Type: text/plain; charset=utf-8; format=flowed\n"
          b"Content-Transfer-Encoding: 8bit\n\n" + stuff(body))


main()
