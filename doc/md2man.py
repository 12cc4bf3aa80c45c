#!/usr/bin/env python3
"""md2man.py: the man pages, written from the Markdown pages of doc/.

A page whose first line is
    <!-- man: patchreview-tree(7) -->
becomes that man page: its "# Title" the NAME line, "##" headings
sections, "###" subsections, paragraphs, "- " lists (an item that
opens with `tags`: a tagged paragraph, as for options), code blocks
(indented or fenced), tables (two columns a tagged list, more a tbl
table) and the inline marks `code`, **bold**, *italic* and [links]; a
link to another page names its man page. Nothing else of Markdown is
read, so the pages keep to that. Usage:
    python3 doc/md2man.py VERSION DATE OUTDIR PAGE.md...
"""
import os
import re
import sys

MAN = re.compile(r"^<!-- man: ([a-z0-9-]+)\(([1-8])\) -->$")
TABLE_SEP = re.compile(r"^\|( *:?-+:? *\|)+$")
TAGGED = re.compile(r"^((?:`[^`]+`(?:, )?)+): (.*)$")


ROFF = {"\\": "\\e", "-": "\\-", "'": "\\(aq", "`": "\\(ga", "~": "\\(ti", "^": "\\(ha"}


def escape(text):
    """Plain text for roff: its backslashes, dashes, quotes and non-ASCII."""
    return "".join(ROFF.get(ch) or (ch if ord(ch) < 127 else "\\[u%04X]" % ord(ch))
                   for ch in text)


class Pages:
    """The man page of each Markdown page, for links between them."""

    def __init__(self, paths):
        self.man = {}
        for path in paths:
            first = open(path, encoding="utf-8").readline().rstrip("\n")
            m = MAN.match(first)
            if m:
                self.man[os.path.basename(path)] = (m.group(1), m.group(2))

    def link(self, text, target, in_parens):
        """A link's text, naming the man page of a page it points to."""
        page = target.split("#")[0]
        if page in self.man:
            name, section = self.man[page]
            ref = "\\fB%s\\fR(%s)" % (escape(name), section)
            if escape(name) in text:
                return ref
            return text + (", %s" if in_parens else " (%s)") % ref
        if re.match(r"https?://", target) and target.rstrip("/") not in text:
            return text + " <" + escape(target) + ">"
        return text


def inline(text, pages):
    """Markdown inline marks to roff, text escaped."""
    out, i = [], 0
    pattern = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|(?<![\w*])\*([^*\s][^*]*?)\*(?![\w*])"
                         r"|\[([^\]]+)\]\(([^)]+)\)|\\([\\`*_<>|\[\]#])|&lt;|&gt;|&amp;")
    for m in pattern.finditer(text):
        out.append(escape(text[i:m.start()]))
        i = m.end()
        if m.group(1) is not None:
            code = "\\fB" + escape(m.group(1)) + "\\fR"
            # Quoted where its blanks matter ("> "), which bold alone would hide.
            out.append("\\(lq" + code + "\\(rq" if m.group(1) != m.group(1).strip() else code)
        elif m.group(2) is not None:
            out.append("\\fB" + inline(m.group(2), pages) + "\\fR")
        elif m.group(3) is not None:
            out.append("\\fI" + inline(m.group(3), pages) + "\\fR")
        elif m.group(4) is not None:
            in_parens = text[m.start() - 1:m.start()] == "(" and text[m.end():m.end() + 1] == ")"
            out.append(pages.link(inline(m.group(4), pages), m.group(5), in_parens))
        elif m.group(6) is not None:
            out.append(escape(m.group(6)))
        else:
            out.append({"&lt;": "<", "&gt;": ">", "&amp;": "&"}[m.group(0)])
    out.append(escape(text[i:]))
    return "".join(out)


def plain(text):
    """A heading's text without its marks, for .SH and .SS."""
    text = re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", text)
    return escape(re.sub(r"[`*]", "", text)).replace('"', "\\(dq")


def line_out(text):
    """A text line that roff will not take for a request."""
    return "\\&" + text if text[:1] in (".", "'") else text


def split_row(row):
    """The cells of a table row; a \\| inside a cell is no border."""
    cells = re.split(r"(?<!\\)\|", row.strip())
    return [c.strip() for c in cells[1:-1]]


class Writer:
    def __init__(self, pages):
        self.pages = pages
        self.out = []
        self.need_pp = False	# a paragraph break is due before more text
        self.need_section = True	# text after NAME needs a section of its own

    def text(self, s):
        self.out.append(line_out(s))

    def start_block(self, pp=True):
        """Before a block: its section, or a paragraph break unless the block makes one."""
        if self.need_section:
            self.out.append(".SH DESCRIPTION")
        elif self.need_pp and pp:
            self.out.append(".PP")
        self.need_pp = True
        self.need_section = False

    def heading(self, level, text):
        if level == 3 and self.need_section:
            self.out.append(".SH DESCRIPTION")
        self.out.append((".SH " if level == 2 else ".SS ") + '"%s"' %
                        (plain(text).upper() if level == 2 else plain(text)))
        self.need_pp = False
        self.need_section = False

    def paragraph(self, lines):
        self.start_block()
        for s in lines:
            self.text(inline(s.strip(), self.pages))

    def bullets(self, items):
        """A list; an item that opens with `tags`: is a tagged paragraph (options, keys)."""
        self.start_block(pp=False)
        for item in items:
            m = TAGGED.match(item[0])
            if m:
                self.out.append(".TP")
                self.text(inline(m.group(1), self.pages))
                item = [m.group(2)] + item[1:]
            else:
                self.out.append(".IP \\(bu 2")
            for s in item:
                self.text(inline(s.strip(), self.pages))

    def code(self, lines):
        self.start_block()
        self.out += [".RS 4", ".EX"]
        self.out += [line_out(escape(s)) for s in lines]
        self.out += [".EE", ".RE"]

    def cell(self, text, wide):
        """A tbl cell: a text block when it is the wide column's or long."""
        text = inline(text, self.pages)
        return "T{\n%s\nT}" % line_out(text) if wide or len(text) > 24 else text

    def table(self, rows):
        head = split_row(rows[0])
        body = [split_row(r) for r in rows[2:]]
        if len(head) == 2:
            self.start_block(pp=False)
            for cells in body:
                self.out.append(".TP")
                self.text(inline(cells[0], self.pages))
                self.text(inline(cells[1], self.pages))
            return
        self.start_block()
        # The column with the most text takes the width left; the others
        # are as wide as their cells, wrapped only when a cell is long.
        widths = [sum(len(r[k]) for r in body) for k in range(len(head))]
        wide = widths.index(max(widths))
        self.out += [".TS", "tab(\t);", " ".join(["lb"] * len(head)),
                     " ".join("lx" if k == wide else "l" for k in range(len(head))) + "."]
        self.out.append("\t".join(self.cell(c, k == wide) for k, c in enumerate(head)))
        self.out.append("_")
        for cells in body:
            self.out.append("\t".join(self.cell(c, k == wide) for k, c in enumerate(cells)))
        self.out.append(".TE")


def convert(path, pages, version, date):
    lines = open(path, encoding="utf-8").read().split("\n")
    name, section = MAN.match(lines[0]).groups()
    w = Writer(pages)
    i = 1
    while i < len(lines) and not lines[i].startswith("# "):
        i += 1
    title = lines[i][2:].strip()
    w.out += ['.TH "%s" %s %s "patchreview %s" "patchreview manual"' %
              (escape(name.upper()), section, date, version),
              ".SH NAME", "%s \\- %s" % (escape(name), inline(title[0].lower() + title[1:], pages))]
    i += 1
    para, items = [], []

    def flush():
        if para:
            w.paragraph(para)
            para.clear()
        if items:
            w.bullets(items)
            items.clear()

    while i < len(lines):
        s = lines[i]
        if s.startswith("<!--"):
            i += 1
        elif not s.strip():
            flush()
            i += 1
        elif s.startswith("```"):
            flush()
            j = i + 1
            while not lines[j].startswith("```"):
                j += 1
            w.code(lines[i + 1:j])
            i = j + 1
        elif s.startswith("    ") and not para and not items:
            j = i
            while j < len(lines) and (lines[j].startswith("    ") or not lines[j].strip()):
                j += 1
            while not lines[j - 1].strip():
                j -= 1
            w.code([x[4:] for x in lines[i:j]])
            i = j
        elif re.match(r"^#{2,3} ", s):
            flush()
            level = len(s.split(" ")[0])
            w.heading(level, s[level + 1:])
            i += 1
        elif s.startswith("|") and i + 1 < len(lines) and TABLE_SEP.match(lines[i + 1]):
            flush()
            j = i
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            w.table(lines[i:j])
            i = j
        elif s.startswith("- "):
            if para:
                flush()
            items.append([s[2:]])
            i += 1
        elif items and s.startswith("  "):
            items[-1].append(s)
            i += 1
        else:
            para.append(s)
            i += 1
    flush()
    head = ["'\\\" t"] if any(x == ".TS" for x in w.out) else []
    head.append(".\\\" Generated by doc/md2man.py from doc/%s; edit that page." %
                os.path.basename(path))
    # Left-adjusted and unhyphenated (HY, which groff's man macros read at
    # each paragraph): table columns are too narrow for either.
    head.append(".nr HY 0")
    w.out.insert(1, ".ad l")
    return name, section, "\n".join(head + w.out) + "\n"


def main():
    version, date, outdir, paths = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    pages = Pages(paths)
    os.makedirs(outdir, exist_ok=True)
    for path in paths:
        if os.path.basename(path) not in pages.man:
            continue
        name, section, text = convert(path, pages, version, date)
        with open(os.path.join(outdir, "%s.%s" % (name, section)), "w", encoding="utf-8") as f:
            f.write(text)


main()
