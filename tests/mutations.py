#!/usr/bin/env python3
"""mutations.py: breaks one parser or draft rule at a time and checks that
the test suite notices. For each mutation: patch the source, rebuild the
ASan binaries, run the named tests, expect a failure, restore the source.
Not part of `make check` (it rebuilds once per mutation); run it by hand
after changing a rule or its tests:  python3 tests/mutations.py [NAME...]"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# name: (file, text, replacement, tests that must fail)
MUTATIONS = {
    "trailers: git's 25% rule": (
        "filter/patch/message.c", "trailers * 3 >= others", "trailers * 2 >= others",
        "t15-parse"),
    "trailers: continuation lines": (
        "filter/patch/message.c", "\t\t\tcontinuations++;", "\t\t\tothers++;", "t15-parse"),
    "trailers: recognised keys": (
        "filter/patch/message.c", '"Signed-off-by", "Reviewed-by",', '"Reviewed-by",',
        "t15-parse t10-checks"),
    "diff start: 'diff -' needs '--- ' next": (
        "filter/patch/start.c", 'return n > 1 && view_starts(&v[1], "--- ");', "return true;",
        "t15-parse t10-checks"),
    "diff start: bare ---/+++ needs @@": (
        "filter/patch/start.c", 'view_starts(&v[1], "+++ ") &&\n\t\tview_starts(&v[2], "@@ ")',
        'view_starts(&v[1], "+++ ")', "t15-parse"),
    "DMARC ' via ' names": (
        "filter/checks/message.c", 'const char *via = strstr(name, " via ");',
        "const char *via = NULL;", "t15-parse"),
    "fixes-commit: the subject is compared": (
        "filter/checks/tree.c", "else if (!same_subject(quoted, subject.data))",
        "else if (!same_subject(quoted, quoted))",
        "t50-tree"),
    "fixes-commit: an unknown id is reported": (
        "filter/checks/tree.c", "else if (!found)\n", "else if (0)\n", "t50-tree"),
    "in-body From: after git's scissors line": (
        "filter/patch/message.c", "\tsize_t scissors = patch_scissors_end(p);",
        "\tsize_t scissors = 0;", "t15-parse"),
    "message checks start after git's scissors line": (
        "filter/checks/body.c", "begin = patch_scissors_end(p);", "begin = 0;", "t10-checks"),
    "in-body From: of an attached format-patch mail": (
        "filter/patch/message.c", "\tif (part)\n\t\tread_inbody_from(", "\tif (0)\n\t\tread_inbody_from(",
        "t10-checks"),
    "in-body From: RFC 2047-decoded": (
        "filter/checks/message.c", "\tif (strstr(from, \"=?\"))", "\tif (0)", "t10-checks"),
    "fence imitation": (
        "filter/prompt/prompt.c", "if (is_fence(s, len))", "if (is_fence(s, len) && 0)",
        "t30-llm"),
    "series: a patch joins the cover letter it answers, whatever its version": (
        "filter/series/group.c", "(x->role == SERIES_COVER || t->version == s->version)",
        "t->version == s->version", "t17-series"),
    "consume: a series is keyed on its sender": (
        "filter/state/state.c", "hash_sha256_strings(key, parts, 4);",
        "hash_sha256_strings(key, parts, 3);", "t45-consume"),
    "consume: the series' sender is lowercased": (
        "filter/state/state.c", "buf_addch(out, (char)tolower((unsigned char)*c));",
        "buf_addch(out, *c);", "t45-consume"),
    "consume: a reply to a patch is kept for its thread": (
        "filter/consume/replies.c", "bool ok = sp.is_reply && sp.is_patch",
        "bool ok = 0 && sp.is_reply && sp.is_patch", "t45-consume"),
    "consume: a series is reviewed with its thread's replies": (
        "filter/consume/worker.c", "if (replies_link(w->state, dir.data, &list)) {",
        "if (0 && replies_link(w->state, dir.data, &list)) {", "t45-consume"),
    "consume: a reply in view never stands for a missing patch": (
        "filter/consume/ready.c", "if (sp.is_reply) {", "if (0 && sp.is_reply) {", "t45-consume"),
    "series: the newest version is reviewed": (
        "filter/series/group.c", "g[j].version > g[i].version)", "g[j].version < g[i].version)",
        "t17-series"),
    "series: unthreaded messages join by version, total and tags": (
        "filter/series/group.c", "if (is_member(&set->msgs[j]) && same_key(", "if (0 && same_key(",
        "t17-series"),
    "series: replies are set aside": (
        "filter/series/group.c", "\tif (s->is_reply)\n\t\treturn SERIES_REPLY;", "",
        "t17-series"),
    "series: mutt's $pipe_sep line separates messages": (
        "filter/mail/input.c", "if (!memcmp(p, sep, n)) {", "if (0) {", "t17-series"),
    "draft: a mail quoted whole stops at its signature": (
        "filter/patch/patch.c", 'bool sig = l->len == 3 && !memcmp(l->text, "-- ", 3);',
        "bool sig = false;", "t17-series"),
    "output-dir: an existing file is not replaced": (
        "filter/base/slurp.c", "(replace ? rename(tmp.data, path) : link(tmp.data, path))",
        "rename(tmp.data, path)", "t17-series"),
    "series context: the other diffs nearest first, the one before first": (
        "filter/series/context.c", "size_t j = side ? k + d : k - d;", "size_t j = side ? k - d : k + d;",
        "t37-llm-series"),
    "tree: a series' patch is checked on top of the patches before it": (
        "filter/tree/tree.c", "tr->applies = base_applies(t, earlier, nearlier, p, tr->base, &why);",
        "tr->applies = base_applies(t, earlier, 0, p, tr->base, &why);", "t50-tree"),
    "tree: a series' patch takes the series' base when it names none": (
        "filter/repo/base.c", "series && series->base_commit ? series : NULL;",
        "series && series->base_commit && 0 ? series : NULL;",
        "t50-tree"),
    "tree: the prerequisites of the message whose base is read": (
        "filter/repo/base.c", "honour_prerequisites(t, named, b);", "honour_prerequisites(t, p, b);",
        "t50-tree"),
    "facts: a patch-id is 40 hex digits": (
        "filter/patch/facts.c", "hex_id(&v, 40, 40)", "hex_id(&v, 7, 64)", "t15-parse"),
    "facts: the first base counts": (
        "filter/patch/facts.c", "if (!p->base_commit && value_of(", "if (value_of(", "t15-parse"),
    "facts: a message id is one token": (
        "filter/patch/facts.c", "return text_is_token(id.s, id.len, TEXT_MAX_MESSAGE_ID) ?",
        "return id.len ?", "t15-parse"),
    "facts: [PULL 3/15] is one patch of a pull series": (
        "filter/patch/facts.c", "p->subject.is_pull && !p->subject.index;", "p->subject.is_pull;",
        "t15-parse"),
    "quoted paths: git's escapes": (
        "filter/patch/quoted.c", "c = escaped(s[++i]);", "c = s[++i];", "t15-parse"),
    "quoted paths: three octal digits a byte": (
        "filter/patch/quoted.c", "c = octal(s[i + 1]) << 6 | octal(s[i + 2]) << 3 | octal(s[i + 3]);",
        "c = octal(s[i + 3]);", "t15-parse"),
    "quoted paths: both names of diff --git": (
        "filter/patch/diff.c", "if (s[0] == '\"' && parse_quoted_names(",
        "if (s[0] == '!' && parse_quoted_names(",
        "t15-parse"),
    "quoted paths: git's a/ of a quoted name": (
        "filter/patch/diff.c", "git ? STRIP_A : STRIP_FIRST", "git ? STRIP_NONE : STRIP_FIRST", "t15-parse"),
    "facts: at most 1000 prerequisites kept": (
        "filter/patch/facts.h", "#define PATCH_MAX_PREREQUISITES 1000",
        "#define PATCH_MAX_PREREQUISITES 1001", "t18-limits"),
    "one driver: a lone message is reviewed whatever its subject says": (
        "filter/series/group.c", "\tif (alone)\n", "\tif (alone && 0)\n", "t17-series"),
    "one driver: nothing of a lone message's series is missing": (
        "filter/series/group.c", "set->nmsgs > 1 && want <= s->total", "want <= s->total",
        "t17-series"),
    "one driver: b4's skip for the patches of a b4-check run": (
        "filter/run/run.c", "v->skipped[k] = b4_marked_skip(", "v->skipped[k] = 0 && b4_marked_skip(",
        "t16-formats"),
    "one driver: the learning record of each reviewed draft": (
        "filter/run/run.c", "\t\t\tif (reviewed)\n\t\t\t\trecord_write(", "\t\t\tif (0)\n\t\t\t\trecord_write(",
        "t44-learn"),
    "rule ids: each check reports its own rule": (
        "filter/checks/form.c", "SEVERITY_NIT, rule_id(RULE_SUBJECT_LENGTH),",
        "SEVERITY_NIT, rule_id(RULE_SUBJECT_PREFIX),", "t15-parse"),
    "dismissed list: '#' in a value is escaped": (
        "filter/review/suppress.c", "ch == '%' || ch == '#' || ch == 0x7f", "ch == '%' || ch == 0x7f",
        "t44-learn"),
    "config: backend is a choice": (
        "filter/config/config.c", 'CHOICE(backend, "none openai anthropic ollama",',
        'CHOICE(backend, "none openai anthropic ollama foo",', "t12-cli"),
    "config: profile is a choice": (
        "filter/config/config.c", 'CHOICE(profile, "auto kernel generic",',
        'CHOICE(profile, "auto kernel generic linux",', "t12-cli t16-rules"),
    "tree: a series' files are read as the earlier patches leave them": (
        "filter/repo/files.c", "\t\t\tbring_forward(fs, pf->old_path, &f->base, &f->base_len);\n",
        "", "t50-tree"),
    "series guide: only when the patch comes with its series": (
        "filter/prompt/prompt.c", "ti.in_series = in->series != NULL;", "ti.in_series = true;",
        "t37-llm-series"),
    "parts: a patch over part_bytes is reviewed in groups of files": (
        "filter/prompt/parts.c", "if (budget && total > budget) {", "if (0) {", "t37-llm-series"),
    "jobs: up to jobs requests run at once": (
        "filter/transport/http.c", "i < n && (long)running < jobs; i++)", "i < n && (long)running < jobs / jobs; i++)",
        "t37-llm-series"),
    "jobs: a failed request is retried on its own": (
        "filter/transport/http.c", "\tt->phase = PHASE_WAITING;\n\trs->retries++;",
        "\tt->phase = PHASE_DONE;\n\trs->retries++;", "t37-llm-series t31-llm-failures"),
    "series-diffstat: a path no patch touches": (
        "filter/series/checks.c", "shown_whole(d.paths.v[i]) && !touched(s, d.paths.v[i]))\n\t\t\tunknown++;",
        "0)\n\t\t\tunknown++;", "t17-series"),
    "one message: a From line in the body never splits it": (
        "filter/mail/input.c", 'if (arr->len > 5 && !memcmp(arr->data, "From ", 5))',
        "if (arr->len > 5)", "t15-parse t16-input"),
    "mbox: a From line inside an attachment does not end the message": (
        "filter/mail/mbox.c", "return hit || !later;", "return hit || !later || true;", "t15-parse"),
    "mbox: a From line with no header after it does not end the message": (
        "filter/mail/mbox.c", "g_mime_header_list_get_count(headers) > 0",
        "g_mime_header_list_get_count(headers) >= 0", "t15-parse"),
    "mbox: parsing goes on after a From line GMime gives up on": (
        "filter/mail/mbox.c", "if (next >= p.len)\n\t\t\t\tbreak;", "break;", "t15-parse"),
    "mbox: mboxrd >From lines unescaped": (
        "filter/mail/mbox.c", "*from = p + is_escaped_from(p, end);", "*from = p;", "t16-input"),
    "attachment: a part with a diff is the patch": (
        "filter/mail/mime.c", "m->patch_offset = c.body.len;", "m->patch_offset = 0;",
        "t15-parse t16-input"),
    "format=flowed: only from the part with the diff": (
        "filter/mail/mime.c", "m->flowed = c.extra_flowed;", "m->flowed = c.extra_flowed || c.body_flowed;",
        "t15-parse t16-input"),
    "charset: a UTF-16 byte order mark": (
        "filter/mail/mime.c", 'd[1] == 0xfe)\n\t\treturn "UTF-16LE";', 'd[1] == 0xfe)\n\t\treturn NULL;',
        "t15-parse t16-input"),
    "diff -r: Binary files ... differ starts a file": (
        "filter/patch/start.c", 'if (view_starts(&v[0], "Binary files "))', "if (0)", "t15-parse"),
    "diff: a nameless, hunkless file is prose": (
        "filter/patch/diff.c", "\tf->end_line = end;\n\tif (", "\tf->end_line = end;\n\tif (1 || ", "t15-parse"),
    "diff --git: --no-prefix names": (
        "filter/patch/diff.c", "if (!memcmp(a, b, n)) {", "if (0) {", "t15-parse t16-input"),
    "signoff: outside a trailer block of Link: tags": (
        "filter/checks/message.c", "bool in_block = n > 0;", "bool in_block = p->ntrailers > 0;", "t15-parse"),
    "pull request: its diff is said to be not reviewed": (
        "filter/run/run.c", "} else if (m->patch.pull_request && patch_has_diff(&m->patch)) {",
        "} else if (0) {", "t16-input"),
    "recipients: a list's Reply-To goes in Cc": (
        "filter/draft/headers.c", "bool list = m->reply_to.n && reply_to_is_list(m);",
        "bool list = m->reply_to.n && reply_to_is_list(m) && 0;", "t11-draft"),
    "recipients: the me list": (
        "filter/draft/headers.c", "\tif (c->me)\n\t\tmail_parse_addresses(me, c->me);", "", "t11-draft"),
    "recipients: Mail-Followup-To": (
        "filter/draft/headers.c", "if (m->followup_to.n) {", "if (0) {", "t11-draft"),
    "subject: list tags dropped": (
        "filter/patch/subject.c", "} else if (close && !is_patch_group(p + 1, close) &&",
        "} else if (close && !is_patch_group(p + 1, close) && 0 &&", "t11-draft"),
    "subject: Aw: and Sv:": (
        "filter/patch/subject.c", '"re", "aw", "sv",', '"re",', "t11-draft"),
    "attribution: runs of blanks in the Date": (
        "filter/draft/attribution.c", "if (*p != ' ' || (p[1] != ' ' && p[1]))", "if (1)", "t11-draft"),
    "attribution: an undated mail": (
        "filter/draft/attribution.c", 'if (!m->date && strstr(f, "%d"))', "if (0)", "t11-draft"),
    "trim auto: an uncommented patch whole": (
        "filter/draft/select.c", "(diff <= UNCOMMENTED_DIFF_LINES && !comments_on_diff(p, r))",
        "(diff <= UNCOMMENTED_DIFF_LINES && !comments_on_diff(p, r) && 0)", "t11-draft"),
    "trim auto: a short patch whole": (
        "filter/draft/select.c", "return diff <= SHORT_DIFF_LINES ||", "return 0 ||", "t11-draft"),
    "signature": (
        "filter/draft/draft.c", "if (c->signature && !draft_signature(&s, c->signature) && s.len) {",
        "if (0 && c->signature && !draft_signature(&s, c->signature) && s.len) {", "t11-draft"),
    "--tag needs from": (
        "filter/draft/closing.c", "\tif (!n)\n", "\tif (!n && 0)\n", "t11-draft"),
    "options: a missing argument is not an unknown option": (
        "filter/main.c", 'short_options[] = ":f:', 'short_options[] = "f:', "t12-cli"),
    "config: nan and inf are no numbers": (
        "filter/config/config.c", "!isfinite(v) || v < 0", "v < 0", "t12-cli"),
    "main ignores SIGPIPE itself": (
        "filter/main.c", "\tsignal(SIGPIPE, SIG_IGN);", "\t(void)0;", "t12-cli"),
    "install: the man page names the PREFIX's paths": (
        "Makefile", "sed 's|/usr/local/share/patchreview|$(DATADIR)|g'", "sed 's|x|x|g'", "t41-install"),
    "tests: a signal runs the EXIT trap": (
        "tests/lib.sh", "trap 'exit 130' INT", ":", "t40-clients"),
    "reviewer removed from Cc": (
        "filter/draft/headers.c", "add_unique(cc, &lists[k]->v[i], me, to);",
        "add_unique(cc, &lists[k]->v[i], to, to);", "t11-draft"),
    "subject: 75 allowed": (
        "filter/checks/form.c", "#define SUBJECT_MAX 75", "#define SUBJECT_MAX 74", "t15-parse"),
    "subject: 76 too long": (
        "filter/checks/form.c", "#define SUBJECT_MAX 75", "#define SUBJECT_MAX 76", "t15-parse"),
    "anchor: added beats context": (
        "filter/answer/anchor.c", "l->kind == LINE_CONTEXT ? 2 : 3", "l->kind == LINE_CONTEXT ? 3 : 2",
        "t15-parse"),
    "anchor: context beats removed": (
        "filter/answer/anchor.c", "return l->kind == LINE_REMOVED ? 1 :", "return l->kind == LINE_REMOVED ? 2.5 :",
        "t15-parse"),
    "offline: answers from files are not cached": (
        "filter/backend/backend.c", "if (b->offline || !b->config->cache)\n\t\treturn;",
        "if (!b->config->cache)\n\t\treturn;", "t35-offline"),
    "offline: a repair request has its own name": (
        "filter/backend/offline.c", 'buf_addstr(name, ".repair");', 'buf_addstr(name, "");',
        "t35-offline"),
    "text: bidi overrides neutralised": (
        "filter/base/text.c", "(cp >= 0x202a && cp <= 0x202e) ||", "(cp >= 0x202a && cp <= 0x202d) ||",
        "t11-draft t30-llm"),
    "draft: a text line starting '>' gets a space": (
        "filter/draft/draft.c", "(len && s[0] == '>') ||", "", "t30-llm"),
    "draft: a text line starting 'From ' gets a space": (
        "filter/draft/draft.c", "|| (len >= 5 && !memcmp(s, \"From \", 5))", "", "t11-draft t30-llm"),
    "ids: non-ASCII message ids dropped": (
        "filter/base/text.c", "(unsigned char)s[i] >= 0x7f ||", "", "t11-draft"),
    "lines: 'ERROR:' defused in a line that is not an error": (
        "filter/output/lines.c", 'if (strcmp(level, "ERROR"))', "if (0)", "t16-formats"),
    "lines: a nit is CHECK": (
        "filter/output/lines.c", '[SEVERITY_NIT] = "CHECK",', '[SEVERITY_NIT] = "WARNING",',
        "t16-formats"),
    "--fail-on: at or above": (
        "filter/main.c", "res->worst >= o->fail_on", "res->worst > o->fail_on",
        "t16-formats"),
    "json: a context line has its new-side number": (
        "filter/output/place.c", "if (l->kind == LINE_ADDED || l->kind == LINE_CONTEXT)\n",
        "if (l->kind == LINE_ADDED)\n", "t36-llm-formats"),
    "json: a context line has its old-side number": (
        "filter/output/place.c", "if (l->kind == LINE_REMOVED || l->kind == LINE_CONTEXT)\n",
        "if (l->kind == LINE_REMOVED)\n", "t36-llm-formats"),
    "json: whole-patch findings first": (
        "filter/output/place.c", "return lx == FINDING_WHOLE ? -1 : ly == FINDING_WHOLE ? 1 :",
        "return lx == FINDING_WHOLE ? 1 : ly == FINDING_WHOLE ? -1 :", "t36-llm-formats"),
    "b4-check: an error fails": (
        "filter/output/b4check.c", 'col->worst == SEVERITY_ERROR ? "fail"',
        'col->worst == SEVERITY_WARNING ? "fail"', "t16-formats"),
    "b4-check: B4_TRACKING_FILE skip": (
        "filter/run/b4skip.c", '!strcmp(state->valuestring, "skip")',
        'strcmp(state->valuestring, "skip")', "t16-formats"),
    "b4-check: one column per tool": (
        "filter/output/b4check.c", "add_finding(place_is_model(&v[i]) ? &model : &checks, &v[i]);",
        "add_finding(&checks, &v[i]);", "t36-llm-formats"),
    "mime: what cannot be base64 or QP is not decoded": (
        "filter/mail/mime.c", "if (can_be_encoded(raw, enc)) {",
        "if (can_be_encoded(raw, enc) || 1) {", "t16-formats"),
    "mime: QP is 7-bit": (
        "filter/mail/mime.c", "} else if (d[i] >= 0x80) {", "} else if (0) {", "t16-formats"),
    "mime: a QP '=' opens a hex pair or a soft break": (
        "filter/mail/mime.c", "if (!soft && !hex)", "if (!soft && !hex && 0)", "t16-formats"),
    "mime: a multipart with no boundary is its text": (
        "filter/mail/mime.c", "if (prologue && !c->have_body) {", "if (0) {", "t16-formats"),
    "eval: a finding on a fixed line found the bug": (
        "filter/eval/score.c", "if (is_truth_line(p, t, line))\n\t\treturn MATCH_LINE;",
        "if (0)\n\t\treturn MATCH_LINE;", "t37-eval"),
    "eval: the hunk rule wants the same function": (
        "filter/eval/score.c", "bool same = fa == fb && !strcmp(x.data, y.data);",
        "bool same = fa == fb || !strcmp(x.data, y.data);", "t37-eval"),
    "eval: beside an insertion, past a blank line": (
        "filter/evalset/truth.c", "if (r->insertion && is_blank(b, r->from))",
        "if (0)", "t37-eval"),
    "b4 agent: a skipped patch gets no file": (
        "contrib/b4/patchreview-agent", 'r.get("patch-state") == "skip"',
        'r.get("patch-state") == "skipped"', "t43-b4-agent"),
    "b4 agent: a removed line is matched by its old-side number": (
        "contrib/b4/patchreview-agent", 'at, old = ("removed", "old_line", old), old + 1',
        'at, old = ("removed", "line", old), old + 1', "t43-b4-agent"),
    "b4 agent: no comment line starts with '>'": (
        "contrib/b4/patchreview-agent", '" " + l if l.startswith(">") else l', "l",
        "t43-b4-agent"),
    "tree: a cut priority cuts every lower one": (
        "filter/prompt/context.c", "if (cut_below >= 0 && p->priority > cut_below) {",
        "if (cut_below >= 0 && p->priority > cut_below + 1) {", "t50-tree"),
    "tree: a long function that does not fit goes in short": (
        "filter/prompt/context.c", "} else if (brief != SIZE_MAX && s->used + brief <= s->budget) {",
        "} else if (0) {", "t50-tree"),
    "tree: checkpatch leaves out what a built-in rule says": (
        "filter/checks/tree.c", "if (!rules_stand_for(v[i].type) && changed_line(p, line))",
        "if (changed_line(p, line))", "t50-tree"),
    "tree: checkpatch runs while the model reviews": (
        "filter/run/reviewers.c", "\tmodel_review(ins, rs, n);\n\tsize_t *model_end",
        "\tchecks_checkpatch_finish(cp, ins, rs, n);\n\tcp = NULL;\n\tmodel_review(ins, rs, n);"
        "\n\tsize_t *model_end", "t50-tree"),
    "tree: checkpatch on every patch of the series at once": (
        "filter/checks/tree.c", "\tfor (size_t k = 0; k < n; k++)\n\t\tif (checkpatch_wanted(",
        "\tfor (size_t k = 0; k < 1; k++)\n\t\tif (checkpatch_wanted(", "t50-tree"),
    "tree: checkpatch only on changed lines": (
        "filter/checks/tree.c", "return k == LINE_ADDED || k == LINE_MESSAGE || k == LINE_TRAILER;",
        "return k != LINE_HUNK_HEADER;", "t50-tree"),
    "tree: a caller passing the old number of arguments": (
        "filter/code/callers.c", "if (v[i].args == (int)old->params)",
        "if (v[i].args == (int)now->params)", "t50-tree"),
    "tree: AGENTS.md's review section ends at the next heading": (
        "filter/tree/agents.c", "if (level && in && level <= in)", "if (0)", "t50-tree"),
    "tree: the mail's prerequisites move the base": (
        "filter/repo/base.c", "if (want && found == want) {", "if (0) {", "t50-tree"),
    "tree: a struct's type from the variable's declaration": (
        "filter/code/context.c", "want_add(w, f, t[1].s, t[1].len, TAG_KINDS);", ";", "t50-tree"),
    "tree: a header the changed file reaches is nearer than its directory": (
        "filter/code/context.c", "\tif (depth)\n\t\treturn score + NEAR_INCLUDED", "\tif (0)\n\t\treturn score + NEAR_INCLUDED",
        "t52-tree-defs"),
    "tree: the includes of an included header are followed": (
        "filter/code/reach.c", "while (next < r->n && reads < REACH_MAX_READ", "while (0 && reads < REACH_MAX_READ",
        "t52-tree-defs"),
    "tree: a patch's other file is ranked like any other": (
        "filter/code/context.c", "i < n && (!d || score[i] > best_score); i++)", "i < n && !d; i++)",
        "t52-tree-defs"),
    "tree: an enumerator is indexed": (
        "filter/csource/cscan.c", "use(ctx, CUSE_ENUMERATOR, t.s, t.len, t.line);", ";", "t52-tree-defs"),
    "tree: an enumerator's definition is its enum": (
        "filter/code/context.c", "best = context_def_at(f, c->first);", "break;", "t52-tree-defs"),
    "tree: a name with a directory found by its ending": (
        "filter/code/reach.c", "if (found || !ix || !strchr(name, '/')", "if (1", "t52-tree-defs"),
    'profile: a kernel path makes a kernel patch': (
        'filter/checks/rules.c', '"arch/", "drivers/", "fs/",',
        '"arch/", "fs/",', 't17-kernel'),
    "profile: git's list on vger is not a kernel list": (
        'filter/checks/rules.c', 'strncasecmp(addr, "git@", 4)',
        '1', 't17-kernel'),
    'fingerprint: no line numbers in it': (
        'filter/review/fingerprint.c', 'place = hash_collapsed(place, l->text + (marked && l->len),',
        'place = hash_bytes(place, (const char *)&l->new_no, sizeof(l->new_no));\n\t\tplace = hash_collapsed(place, l->text + (marked && l->len),',
        't44-learn'),
    'fingerprint: a model finding is dismissed by its place': (
        'filter/review/fingerprint.c', 'return !strncmp(dismissed, fp, FINGERPRINT_PLACE);',
        'return !strcmp(dismissed, fp);', 't44-learn'),
    'dismissed: list= must match': (
        'filter/review/suppress.c', 'if (e->list && !sent_to(in->mail, e->list))',
        'if (e->list && !sent_to(in->mail, e->list) && 0)', 't44-learn'),
    'learn: kept needs most of the words': (
        'filter/learn/learn.c', 'found >= KEPT_SHARE * (double)words', 'found + words >= KEPT_SHARE * (double)words', 't44-learn'),
    'learn: learn_after deletions dismiss': (
        'filter/learn/learn.c', 'store_deletions(f->fp) < c->learn_after', 'store_deletions(f->fp) < 1',
        't44-learn'),
    'suppressions: line= must match': (
        'filter/review/suppress.c', 'return !e->line || (line && e->line == line);',
        'return true;', 't16-rules'),
    'suppressions: msgid= must match': (
        'filter/review/suppress.c', 'strcmp(e->msgid, in->mail->message_id)',
        '0', 't16-rules'),
    'code-indent: an old indentation is not new': (
        'filter/checks/kstyle.c', 'if (bad_indent(l) && !same_indent(ctx->patch, l))',
        'if (bad_indent(l))', 't17-kernel'),
    'long-line: a string may run past the edge': (
        'filter/checks/kstyle.c', 'return !(*edge == \'X\' || *edge == \'"\' || (i && edge[-1] == \'X\'));',
        'return true;', 't17-kernel'),
    'assign-in-if: == is no assignment': (
        'filter/checks/kstyle.c', 'if (!strchr("<>!=", before))',
        'if (1)', 't17-kernel'),
    'c99-comment: only where the file shows no //': (
        'filter/checks/kstyle.c', 'if (ctx.context_slash || !ctx.context_block)',
        'if (!ctx.context_block)', 't17-kernel'),
    'volatile: asm volatile is fine': (
        'filter/checks/kstyle.c', 'if (!after_asm)',
        'if (1)', 't17-kernel'),
    'export-symbol: right after the function is fine': (
        'filter/checks/kcode.c', 'bool stray = !len ||',
        'bool stray = 1 ||', 't17-kernel'),
    'spelling: identifiers are not prose': (
        'filter/checks/spelling.c', "return isalnum((unsigned char)c) || c == '_' ||",
        'return isalnum((unsigned char)c) ||', 't17-kernel'),
    'exec-bit: a #! line makes a script': (
        'filter/checks/form.c', 'bool shebang = top && starts_with(top, "#!") && top[2] != \'[\';',
        'bool shebang = false;', 't10-checks'),
    'commit-ref: twelve hex digits at least': (
        'filter/checks/log.c', 'if (n >= 12 && n <= 40 && starts_with(after, "(\\""))',
        'if (n >= 5 && n <= 40)', 't17-kernel'),
    "duplicate-trailer: a sign-off after someone else's is fine": (
        'filter/checks/message.c', 'else if (sob && is_key(&p->trailers[i], "Signed-off-by"))\n\t\t\t\tbreak;',
        '', 't17-kernel'),
    'reported-link: only bots publish every report': (
        'filter/checks/log.c', 'return strstr(who, "syzbot") ||',
        'return 1 ||', 't17-kernel'),
    'stable-cc: a backport is mailed to stable': (
        'filter/checks/log.c', 'if (!tagged && mailed_to_stable(in->mail) && !backport(p))',
        'if (!tagged && mailed_to_stable(in->mail))', 't17-kernel'),
    "body: an attached format-patch's subject is the commit's": (
        'filter/checks/body.c', 'subject_parse(s, subject.data);\n\t\tbuf_release(&subject);\n\t\treturn;',
        'buf_release(&subject);\n\t\tbreak;', 't17-kernel'),
    "stream: [DONE] ends the request": (
        "filter/backend/wire_openai.c", "a->complete = a->ended = true;", "a->complete = true;",
        "t31-llm-failures"),
    "stream: an in-stream overloaded_error is retried": (
        "filter/backend/wire_anthropic.c", '!strcmp(kind, "overloaded_error")', '!strcmp(kind, "none")',
        "t31-llm-failures"),
    "400: only a named rejection is adjusted": (
        "filter/backend/wire.c", 'else if (mentions(param, "format") ||', "else if (1 ||",
        "t31-llm-failures"),
    "keys: the usual variable goes only to its own service": (
        "filter/backend/apikey.c", "const char *value = own ? getenv(w->default_key_env) : NULL;",
        "const char *value = getenv(w->default_key_env);", "t30-llm"),
    "anchor: lines per quote": (
        "filter/answer/anchor.h", "#define ANCHOR_MAX_LINES 20", "#define ANCHOR_MAX_LINES 21",
        "t38-llm-limits"),
    "anchor: quote size": (
        "filter/answer/anchor.h", "#define ANCHOR_MAX_QUOTE 4096", "#define ANCHOR_MAX_QUOTE 4200",
        "t38-llm-limits"),
    "answer: findings read": (
        "filter/answer/answer.h", "#define ANSWER_MAX_FINDINGS 100", "#define ANSWER_MAX_FINDINGS 101",
        "t38-llm-limits"),
    "verify: its fence guard covers the patch lines": (
        "filter/model/verify.c", "prompt_add_lines(&b, data.data, is_fence);",
        "buf_add(&b, data.data, data.len);", "t30-llm"),
    "limits: MIME parts": (
        "filter/mail/mail.h", "#define MAIL_MAX_PARTS 1000", "#define MAIL_MAX_PARTS 1001", "t18-limits"),
    "limits: header fields": (
        "filter/mail/mail.h", "#define MAIL_MAX_HEADERS 1000", "#define MAIL_MAX_HEADERS 1001",
        "t18-limits"),
    "limits: one header field": (
        "filter/mail/limits.c", "if (sc->w - sc->field_at > MAIL_MAX_HEADER_BYTES) {",
        "if (0) {", "t18-limits"),
    "limits: MIME nesting": (
        "filter/mail/mail.h", "#define MAIL_MAX_DEPTH 32", "#define MAIL_MAX_DEPTH 64", "t18-limits"),
    "limits: addresses": (
        "filter/mail/mail.h", "#define MAIL_MAX_ADDRESSES 500", "#define MAIL_MAX_ADDRESSES 501",
        "t18-limits"),
    "limits: References": (
        "filter/mail/mail.h", "#define MAIL_MAX_REFERENCES 30", "#define MAIL_MAX_REFERENCES 40",
        "t18-limits"),
    "limits: lines": (
        "filter/patch/patch.h", "#define PATCH_MAX_LINES 2000000", "#define PATCH_MAX_LINES 2000001",
        "t18-limits"),
    "limits: files": (
        "filter/patch/patch.h", "#define PATCH_MAX_FILES 10000", "#define PATCH_MAX_FILES 10001",
        "t18-limits"),
    "limits: hunks": (
        "filter/patch/patch.h", "#define PATCH_MAX_HUNKS 100000", "#define PATCH_MAX_HUNKS 100001",
        "t18-limits"),
    "limits: a draft line": (
        "filter/draft/draft.h", "#define DRAFT_MAX_LINE 998", "#define DRAFT_MAX_LINE 999",
        "t18-limits"),
    "text: a run of bad bytes is one U+FFFD": (
        "filter/base/text.c", "if (subst == replacement ? !run :", "if (subst == replacement ? 1 :",
        "t18-limits"),
    "guide: a header line's colon is on that line": (
        "filter/prompt/guide.c", "const char *colon = memchr(s, ':', len);",
        "const char *colon = strchr(s, ':');", "t32-llm-prompts"),
    "anchor: a multi-line quote is a block": (
        "filter/answer/anchor.c", "size_t line = n > 1 ? find_block(&q, ql, n) : FINDING_WHOLE;",
        "size_t line = n > 99 ? find_block(&q, ql, n) : FINDING_WHOLE;", "t15-parse"),
    "anchor: the function the model names": (
        "filter/answer/anchor.c", "(in_function ? 200 : 0)", "(in_function ? 0 : 0)", "t15-parse"),
    "anchor: identifiers the comment names": (
        "filter/answer/anchor.c", "10 * (hits < 9 ? hits : 9)", "0 * hits", "t15-parse"),
    "anchor: a removed line that comes back as added": (
        "filter/answer/anchor.c", "line = prefer_added(&q, line, &ql[0]);", "(void)prefer_added;", "t15-parse"),
    "summary: the points below min_confidence are said to be left out": (
        "filter/model/model.c", "\ttell_left_out(m);\n", "\t(void)tell_left_out;\n", "t30-llm"),
    "summary: a part's summary said before is not repeated": (
        "filter/model/model.c", "!q->answer.summary || said_before(m, k))", "!q->answer.summary || (said_before(m, k) && 0))",
        "t37-llm-series"),
    "low_confidence = section lists the unsure findings": (
        "filter/model/model.c", "\t\t\tlist_less_sure(m, f);\n", "", "t30-llm"),
    "thread: a finding on a line the thread commented on is left out": (
        "filter/thread/apply.c", "if (about(&t->v[k], p, true) && !strcmp(t->v[k].quote, scratch->data))",
        "if (0)", "t17-thread"),
    "thread: only a comment on the same version drops a finding": (
        "filter/thread/apply.c", "return same ? c->version == s->version : c->version < s->version;",
        "return same ? c->version <= s->version : c->version < s->version;", "t37-llm-thread"),
    "thread: a line quoted deeper is no comment's line": (
        "filter/thread/replies.c", "if (s[i] == '>' && ++level == 1)", "if (s[i] == '>' && (level = 1))",
        "t17-thread"),
    "thread: a short last line signs off": (
        "filter/thread/replies.c", "\tif (sign_off)\n\t\tdrop_last(t);", "\tif (sign_off && 0)\n\t\tdrop_last(t);",
        "t17-thread"),
    "thread: bots are named by their address": (
        "filter/thread/replies.c", '{ "lkp@intel.com", "kernel test robot" },', "", "t17-thread"),
    "thread: a reply belongs to the patch its References name": (
        "filter/thread/replies.c", "if (hit)\n\t\t\treturn hit->msg;", "if (hit && 0)\n\t\t\treturn hit->msg;",
        "t17-thread"),
    "thread: an earlier comment's line still there is unchanged": (
        "filter/thread/apply.c", "buf_addstr(&note, still_there(p, c->quote, &scratch)",
        "buf_addstr(&note, !still_there(p, c->quote, &scratch)", "t17-thread"),
    "thread: at most THREAD_MAX_ADDRESSED notes": (
        "filter/thread/apply.c", "if (n++ >= THREAD_MAX_ADDRESSED)", "if (n++ >= 1000 * THREAD_MAX_ADDRESSED)", "t17-thread"),
    "thread: the model request carries the comments": (
        "filter/prompt/prompt.c", "\tprompt_add_lines(b, earlier, is_fence);\n", "", "t37-llm-thread"),
    "thread: the comments are bounded in the request": (
        "filter/thread/apply.c", "if (b.len + entry.len > budget)", "if (b.len + entry.len > 1000 * budget)", "t37-llm-thread"),
    "thread: a comment imitating a fence is replaced": (
        "filter/prompt/fence.c", "PROMPT_THREAD_OPEN, PROMPT_THREAD_CLOSE,\n", "\n", "t37-llm-thread"),
    "thread guide: only when the thread holds comments": (
        "filter/prompt/prompt.c", "ti.in_thread = earlier != NULL;", "ti.in_thread = true;", "t37-llm-thread"),
    "preexisting = section: listed at the end": (
        "filter/model/model.c", "\t\t\tlist_preexisting(m, f);\n", "\t\t\t(void)list_preexisting;\n", "t37-llm-thread"),
    "lines: the cover letter's series findings are printed": (
        "filter/output/lines.c", "\t\tsize_t nf;\n", "\t\tif (!v[i].reviewed)\n\t\t\tcontinue;\n\t\tsize_t nf;\n",
        "t16-formats"),
    "lines: with several mails each line says which": (
        "filter/output/lines.c", "\t\t\tif (n > 1)\n\t\t\t\tput_which(&line, &v[i], i);\n\t\t\tsize_t start",
        "\t\t\tsize_t start", "t16-formats"),
    "lines: one mail has no n/m in front": (
        "filter/output/lines.c", "\t\t\tif (n > 1)\n\t\t\t\tput_which(&line, &v[i], i);\n\t\t\tsize_t start",
        "\t\t\tput_which(&line, &v[i], i);\n\t\t\tsize_t start", "t16-formats"),
    "b4-check: the cover letter's series findings are a result": (
        "filter/output/b4check.c", "if (v[i].reviewed || v[i].review->nfindings)",
        "if (v[i].reviewed)", "t16-formats"),
    "input: a second mail's headers glued into a message are reported": (
        "filter/mail/input.c", "if (at)\n\t\t\twarn(", "if (!at)\n\t\t\twarn(", "t17-series"),
    "input: the glued headers are one block": (
        "filter/mail/input.c", "\t\t\tblock = 0;\n\t\t\tblank = true;", "\t\t\tblank = true;",
        "t17-series"),
    "verify = low: only the findings below min_confidence are asked about": (
        "filter/model/model.c", "if (v[i].low || verify_is(m, \"yes\")) {", "if (true) {", "t30-llm"),
    "verify = low: a failed pass drops the unsure findings": (
        "filter/model/model.c", "drop[at[k]] = refuted[k] || (ret < 0 && f->low);",
        "drop[at[k]] = refuted[k];", "t35-offline"),
    "incomplete fix: never hidden as pre-existing": (
        "filter/model/model.c", "if (!f->incomplete_fix && (f->preexisting || untouched)) {",
        "if (f->preexisting || untouched) {", "t35-offline"),
    "eval --tree: the work tree is at the case's parent": (
        "filter/eval/worktree.c", 'buf_addf(&parent, "%s^", sha);', 'buf_addf(&parent, "%s", sha);',
        "t37-eval"),
    "eval --tree: the repository's hooks never run": (
        "filter/evalset/git.c", '"-c", "core.hooksPath=/dev/null", NULL,', "NULL,", "t37-eval"),
    "eval: what the filters removed is in the result": (
        "filter/eval/result.c", "\tadd_filtered(root, s, k, p, r, t, previous);\n", "\t(void)add_filtered;\n", "t37-eval"),
    "eval: a filtered finding that is the known bug is counted": (
        "filter/eval/report.c", "ft->known += *str(f, \"match\") != '\\0';", "", "t37-eval"),
    "contracts: ahead of the other definitions": (
        "filter/code/contract.c", "context_add(tr, CONTEXT_CONTRACT,", "context_add(tr, CONTEXT_CALLER,",
        "t50-tree"),
    "contracts: a tested result": (
        "filter/code/contract.c", "\t\twhy |= WHY_TESTED;\n\telse if", "\t\twhy |= 0;\n\telse if", "t50-tree"),
    "contracts: at most CONTRACT_MAX": (
        "filter/code/contract.c", "#define CONTRACT_MAX 12", "#define CONTRACT_MAX 40", "t50-tree"),
    "contracts: a long callee around its returns": (
        "filter/code/contract.c", "if (d->last - d->doc + 1 <= CONTRACT_WHOLE_LINES)", "if (1)", "t50-tree"),
}


def run(cmd, **kw):
    return subprocess.run(cmd, cwd=ROOT, shell=True, capture_output=True, text=True, **kw)


def main():
    names = sys.argv[1:] or list(MUTATIONS)
    survived = []
    for name in names:
        path, old, new, tests = MUTATIONS[name]
        full = os.path.join(ROOT, path)
        original = open(full).read()
        if original.count(old) != 1:
            print("STALE  %s: the text to mutate is not in %s once" % (name, path))
            survived.append(name)
            continue
        open(full, "w").write(original.replace(old, new))
        try:
            built = run("make -s build/asan/patchreview build/asan/dump")
            result = run("TESTS='%s' sh tests/run.sh" % tests)
        finally:
            open(full, "w").write(original)
        if built.returncode:
            print("BUILD  %s: the mutant does not build" % name)
            survived.append(name)
        elif result.returncode:
            failed = [l for l in result.stdout.splitlines() if l.startswith("FAILED")]
            print("KILLED %s (%d failures, e.g. %s)" % (name, len(failed), failed[0][8:70] if failed else "?"))
        else:
            print("LIVED  %s: %s still pass" % (name, tests))
            survived.append(name)
    run("make -s build/asan/patchreview build/asan/dump")
    sys.exit(1 if survived else 0)


main()
