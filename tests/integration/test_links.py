"""Every link between the pages resolves (issue 26): in README.md, docs/*.md and
loadfiles/README.md, each relative link — [text](path), [text](path#anchor),
[text](#anchor), and images — names a file or directory that exists and, when it has an
anchor into a Markdown file, a heading of that file by GitHub's rules (lower case;
punctuation dropped but '-' and '_'; each space a '-'; a repeated heading gets -1, -2, …).
http(s) and mailto links are not followed. Every page of docs/ is listed in
docs/README.md, and README.md stays within 400 lines. The checker is first shown to catch
a planted broken link and a planted bad anchor."""
import os
import re
import shutil
import urllib.parse

from lgtest import SOURCE, check, doc_pages, tmpdir, write

README_MAX_LINES = 400
FENCE = re.compile(r"^ {0,3}(```+|~~~+)")
HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
# [text](target) or ![alt](target), the text may hold one level of brackets and wrap
LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(\s*<?([^()\s<>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)
EXTERNAL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")  # https:, http:, mailto:, ...


def prose(text):
    """text with fenced code blocks blanked out (their lines kept, so line numbers hold)."""
    out, fence = [], None
    for line in text.split("\n"):
        m = FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            out.append("")
        elif m:
            fence = m.group(1)
            out.append("")
        else:
            out.append(line)
    return "\n".join(out)


def slug(heading):
    """The anchor GitHub gives a heading's text (before duplicates are numbered)."""
    s = re.sub(r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\([^)]*\)", r"\1", heading)  # link: text
    s = re.sub(r"<[^>]*>", "", s)  # inline HTML
    s = s.strip().lower()
    s = "".join(c for c in s if c.isalnum() or c in "-_ ")
    return s.replace(" ", "-")


def anchors(path):
    """Every anchor of a Markdown file's headings, duplicates numbered as GitHub does."""
    seen, out = {}, set()
    for line in prose(open(path, encoding="utf-8").read()).split("\n"):
        m = HEADING.match(line)
        if not m:
            continue
        base = slug(m.group(2))
        a = base
        while a in out:
            seen[base] = seen.get(base, 0) + 1
            a = "%s-%d" % (base, seen[base])
        out.add(a)
    return out


def links(path):
    """(line, target) of each link of a Markdown file, outside code blocks and spans."""
    text = prose(open(path, encoding="utf-8").read())
    text = CODE_SPAN.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    for m in LINK.finditer(text):
        yield text.count("\n", 0, m.start()) + 1, m.group(2)


def problems(paths, root):
    """One line per link that does not resolve: 'file:line: target: why'."""
    bad, cache = [], {}
    for path in paths:
        rel = os.path.relpath(path, root)
        for line, target in links(path):
            if not target or EXTERNAL.match(target):
                continue
            file, _, anchor = target.partition("#")
            file = urllib.parse.unquote(file)
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file \
                else path
            if not os.path.exists(dest):
                bad.append("%s:%d: %s: no such file" % (rel, line, target))
                continue
            if not anchor or not dest.endswith(".md"):
                continue
            if dest not in cache:
                cache[dest] = anchors(dest)
            if urllib.parse.unquote(anchor) not in cache[dest]:
                bad.append("%s:%d: %s: no heading of %s has the anchor #%s" % (
                    rel, line, target, os.path.relpath(dest, root), anchor))
    return bad


# The slugs of headings these pages have, as GitHub makes them.
for heading, want in (("System monitor, kernel messages and --log",
                       "system-monitor-kernel-messages-and---log"),
                      ("Seeing a workload: `loadgen show`", "seeing-a-workload-loadgen-show"),
                      ("`compare` or `ab`?", "compare-or-ab"),
                      ("dbench's load, call for call", "dbenchs-load-call-for-call"),
                      ("Loading dbench's client.txt", "loading-dbenchs-clienttxt"),
                      ("Files: `open` and `as`", "files-open-and-as"),
                      ("Values: sizes, counts, durations", "values-sizes-counts-durations")):
    check(slug(heading) == want, "slug of %r is %r (%r)" % (heading, want, slug(heading)))

# The checker catches what it is for: a planted broken link and a planted bad anchor,
# beside links that resolve (an anchor of a repeated heading, a link to the page
# itself, a directory, an image, an external link, a link shown as code).
d = tmpdir()
os.mkdir(os.path.join(d, "sub"))
write(os.path.join(d, "pic.png"), "")
write(os.path.join(d, "sub", "b.md"), "# Real heading\n\n## Twice\n\n## Twice\n\n"
      "```sh\n# not a heading\n```\n")
a = write(os.path.join(d, "a.md"),
          "# A title\n\nSee [b](sub/b.md#real-heading), [the second](sub/b.md#twice-1),\n"
          "[this page](#a-title), [a folder](sub/), ![a picture](pic.png),\n"
          "[the web](https://example.org/x.md#nowhere), `[code](nowhere.md)`.\n\n"
          "A [broken\nlink](sub/gone.md) and [a bad anchor](sub/b.md#not-a-heading).\n\n"
          "```\n[in a code block](nowhere.md)\n```\n")
found = problems([a], d)
check(len(found) == 2 and found[0].startswith("a.md:7: sub/gone.md: no such file") and
      found[1].startswith("a.md:8: sub/b.md#not-a-heading: no heading of sub/b.md"),
      "the checker reports the planted broken link and bad anchor, and nothing else",
      "\n".join(found))
check(anchors(os.path.join(d, "sub", "b.md")) == {"real-heading", "twice", "twice-1"},
      "a repeated heading's anchor is numbered, a comment in a code block is no heading")
shutil.rmtree(d)

# The pages themselves.
pages = doc_pages()
check(len(pages) >= 4, "pages found: %s" % [os.path.relpath(p, SOURCE) for p in pages])
n = sum(1 for p in pages for _ in links(p))
found = problems(pages, SOURCE)
check(not found, "every one of the %d links of %d pages resolves" % (n, len(pages)),
      "\n".join(found))

index = os.path.join(SOURCE, "docs", "README.md")
listed = {os.path.normpath(os.path.join(os.path.dirname(index), t.partition("#")[0]))
          for _, t in links(index)}
unlisted = [os.path.relpath(p, SOURCE) for p in pages
            if os.path.dirname(p) == os.path.dirname(index) and p != index and
            p not in listed]
check(not unlisted, "docs/README.md lists every page of docs/ (%s)" % unlisted)

lines = len(open(pages[0], encoding="utf-8").read().splitlines())
check(lines <= README_MAX_LINES, "README.md has %d lines, at most %d" % (
    lines, README_MAX_LINES))
