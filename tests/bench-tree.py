#!/usr/bin/env python3
"""The --tree part of make bench: context from a large tree.

  bench-tree.py PR TREE [CORPUS]

TREE is a git work tree of 50,000+ files (the Linux tree). Three patches:
a change made here to drivers/net/loopback.c of TREE (it applies), and two
real mails from CORPUS when it is there (they need not apply). Reported:
  - the time of "PR --tree TREE --explain-prompt", which gathers all the
    context: the first run with an empty cache (it builds the symbol
    index) and warm runs (median), against the same run without --tree;
  - a whole review without a model (the checks and the tree's
    checkpatch.pl), warm;
  - per patch the prompt's size with and without the context, and how much
    of context_budget the changed functions take.
Not a pass/fail test: exits 1 only when patchreview crashes. Standard
library only; the tree is only read.
"""
import difflib
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

WARM_RUNS = 10
CORPUS_MAILS = ("lore-cifs-octet-stream-patch.eml", "lore-dm-base64-inline-patch.eml")


def loopback_mail(tree, out):
    """A patch to drivers/net/loopback.c: a check in loopback_xmit() and a
    new argument for dev_lstats_read(), whose callers it leaves alone."""
    path = "drivers/net/loopback.c"
    try:
        old = open(os.path.join(tree, path)).read()
    except OSError:
        return None
    new = old.replace(
        "\tlen = skb->len;\n",
        "\tlen = skb->len;\n\tif (unlikely(len > dev->mtu + ETH_HLEN)) {\n"
        "\t\tnetdev_err(dev, \"oversized frame of %d bytes\\n\", len);\n"
        "\t\tdev_kfree_skb(skb);\n\t\treturn NETDEV_TX_OK;\n\t}\n", 1)
    new = new.replace("u64 *packets, u64 *bytes)\n{", "u64 *packets, u64 *bytes, bool reset)\n{", 1)
    if new == old:
        return None
    diff = difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                "a/" + path, "b/" + path)
    with open(out, "w") as f:
        f.write("From: Bench <bench@example.org>\nTo: netdev@vger.kernel.org\n"
                "Subject: [PATCH net-next] net: loopback: drop oversized frames\n"
                "Message-ID: <bench-loopback@example.org>\n"
                "Date: Mon, 1 Dec 2025 10:00:00 +0000\n\n"
                "Drop frames larger than the MTU.\n\n"
                "Signed-off-by: Bench <bench@example.org>\n---\n"
                "diff --git a/%s b/%s\n" % (path, path))
        f.writelines(diff)
    return out


def run(pr, args, mail, env):
    with open(mail, "rb") as stdin:
        start = time.perf_counter()
        p = subprocess.run([pr] + args, stdin=stdin, capture_output=True, env=env)
        took = time.perf_counter() - start
    if p.returncode < 0 or p.returncode >= 3:
        sys.stderr.write("bench-tree: %s %s crashed (status %d)\n%s" % (
            pr, " ".join(args), p.returncode, p.stderr.decode(errors="replace")))
        sys.exit(1)
    return took, p.stdout.decode(errors="replace")


def median_ms(pr, args, mail, env, runs=WARM_RUNS):
    return statistics.median(run(pr, args, mail, env)[0] for _ in range(runs)) * 1000


def prompt_bytes(explain):
    m = re.search(r"^Prompt: (\d+) bytes", explain, re.M)
    return int(m.group(1)) if m else 0


def context_line(explain):
    m = re.search(r"^Context: (\d+) of (\d+) bytes .*?, (\d+) items? in, (\d+) cut; "
                  r"the changed code takes (\d+) \((\d+)% of the budget\)", explain, re.M)
    return tuple(int(x) for x in m.groups()) if m else None


def main():
    pr, tree = sys.argv[1], sys.argv[2]
    corpus = sys.argv[3] if len(sys.argv) > 3 else ""
    files = subprocess.run(["git", "-C", tree, "ls-files"], capture_output=True,
                           text=True).stdout.count("\n")
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"),
                   XDG_CONFIG_HOME=os.path.join(tmp, "config"), TMPDIR=tmp)
        for k in list(env):
            if k.startswith("PATCHREVIEW_"):
                del env[k]
        mails = []
        lo = loopback_mail(tree, os.path.join(tmp, "loopback.eml"))
        if lo:
            mails.append(("loopback (applies)", lo))
        for name in CORPUS_MAILS:
            if corpus and os.path.exists(os.path.join(corpus, name)):
                mails.append((name, os.path.join(corpus, name)))
        if not mails:
            print("bench-tree: no patch for %s; skipped" % tree)
            return
        label, typical = mails[0]
        with_tree = ["-q", "--tree", tree, "--explain-prompt"]
        first, _ = run(pr, with_tree, typical, env)
        size = sum(os.path.getsize(os.path.join(env["XDG_CACHE_HOME"], "patchreview/trees", f))
                   for f in os.listdir(os.path.join(env["XDG_CACHE_HOME"], "patchreview/trees")))
        warm = median_ms(pr, with_tree, typical, env)
        bare = median_ms(pr, ["-q", "--explain-prompt"], typical, env)
        review = median_ms(pr, ["-q", "--tree", tree], typical,
                           dict(env, PATCHREVIEW_CHECKPATCH="yes"), 5)
        review_bare = median_ms(pr, ["-q"], typical, env, 5)
        print("\ncontext from the tree (%d files in git), patch: %s" % (files, label))
        print("  %-44s %9s" % ("run", "wall"))
        print("  %-44s %7.2f s  (builds the symbol index, %.0f MB)" % (
            "first, empty cache: --explain-prompt", first, size / 1e6))
        print("  %-44s %6.0f ms  (median of %d)" % ("warm: --explain-prompt --tree", warm, WARM_RUNS))
        print("  %-44s %6.0f ms" % ("warm: --explain-prompt, no tree", bare))
        print("  %-44s %6.0f ms  (checks and the tree's checkpatch.pl)" % (
            "whole review, no model, --tree", review))
        print("  %-44s %6.0f ms" % ("whole review, no model, no tree", review_bare))
        print("  target: warm context under 1000 ms: %s" % ("met" if warm < 1000 else "MISSED"))
        print("\nprompt size, without and with the context (context_budget 12000)")
        print("  %-36s %8s %8s %9s %13s" % ("patch", "without", "with", "context", "changed code"))
        for label, mail in mails:
            _, without = run(pr, ["-q", "--explain-prompt"], mail, env)
            _, withc = run(pr, with_tree, mail, env)
            c = context_line(withc)
            used, changed, share = (c[0], c[4], c[5]) if c else (0, 0, 0)
            print("  %-36s %8d %8d %9d %7d (%2d%%)" % (label[:36], prompt_bytes(without),
                                                     prompt_bytes(withc), used, changed, share))


if __name__ == "__main__":
    main()
