"""``.. mdinclude:: path``: include a Markdown file of the repository in a page.

The repository's Markdown notes (autograd_core/ARCHITECTURE.md, benchmarks/README.md)
are read beside the code they describe; the site shows the same files rather than a
second copy. Sphinx reads reStructuredText only (and the project takes no Markdown
extension), so this directive converts the subset of Markdown those files use:
``#`` headings, paragraphs, ``-``/``1.`` lists, fenced code blocks (also inside list
items), pipe tables, ``inline code``, ``**bold**``/``*emphasis*``, links and images.
Anything else is kept as text, with reST's markup characters escaped.
"""

import os
import re

from docutils.parsers.rst import Directive, directives

_HEADINGS = {1: "=", 2: "-", 3: "~", 4: "^"}
_CODE = re.compile(r"`([^`]+)`")
_LINK = re.compile(r"!?\[([^\]]*)\]\(([^)\s]+)\)")
_STRONG = re.compile(r"\*\*(\S(?:.*?\S)?)\*\*")
_EMPH = re.compile(r"(?<![\w*])\*(\S(?:[^*]*?\S)?)\*(?![\w*])")
_TRAILING_UNDERSCORE = re.compile(r"(?<=\w)_(?=\W|$)")


def _literal(text, before, after):
    out = "``" + text + "``"
    # reST inline markup must be set off from the words around it
    if before and (before[-1].isalnum() or before[-1] in "(\"'"):
        out = "\\ " + out if before[-1].isalnum() else out
    if after and (after[0].isalnum() or after[0] == "`"):
        out += "\\ "
    return out


def _inline(text):
    """Convert one line of Markdown prose to reST."""
    pieces = []  # (kind, text): kind "raw" is finished reST, "prose" still to escape
    pos = 0
    for m in _CODE.finditer(text):
        pieces.append(("prose", text[pos:m.start()]))
        pieces.append(("code", m.group(1)))
        pos = m.end()
    pieces.append(("prose", text[pos:]))
    out = []
    for i, (kind, chunk) in enumerate(pieces):
        if kind == "code":
            before = pieces[i - 1][1] if i else ""
            after = pieces[i + 1][1] if i + 1 < len(pieces) else ""
            out.append(_literal(chunk, before, after))
        else:
            out.append(_prose(chunk))
    return "".join(out)


def _prose(text):
    keep = []

    def hold(s):
        keep.append(s)
        return f"\x00{len(keep) - 1}\x00"

    text = _LINK.sub(lambda m: hold(f"`{_escape(m.group(1))} <{m.group(2)}>`__"), text)
    text = _STRONG.sub(lambda m: hold(f"**{_escape(m.group(1))}**"), text)
    text = _EMPH.sub(lambda m: hold(f"*{_escape(m.group(1))}*"), text)
    text = _escape(text)
    return re.sub("\x00(\\d+)\x00", lambda m: keep[int(m.group(1))], text)


def _escape(text):
    text = text.replace("\\", "\\\\").replace("*", "\\*").replace("|", "\\|")
    return _TRAILING_UNDERSCORE.sub("\\\\_", text)


def _table(rows):
    cells = [[c.strip() for c in r.strip().strip("|").split("|")] for r in rows]
    header, body = cells[0], [r for r in cells[2:]]
    out = [".. list-table::", "   :header-rows: 1", ""]
    for row in [header] + body:
        for j, cell in enumerate(row):
            out.append(("   * - " if j == 0 else "     - ") + (_inline(cell) or "\\ "))
    out.append("")
    return out


def _join_split_code_spans(lines):
    """Markdown lets an inline code span run over a line break; reST does not. Join a
    prose line with an odd number of backticks to the next one (fences excepted)."""
    out, fenced = [], False
    for line in lines:
        if line.lstrip().startswith("```"):
            fenced = not fenced
            out.append(line)
            continue
        if not fenced and out and out[-1].count("`") % 2 and not out[-1].lstrip().startswith("```"):
            out[-1] = out[-1] + " " + line.strip()
        else:
            out.append(line)
    return out


def convert(markdown):
    """Markdown text -> list of reST lines."""
    lines = _join_split_code_spans(markdown.splitlines())
    out = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        indent = line[:len(line) - len(stripped)]
        if stripped.startswith("```"):
            lang = stripped[3:].strip() or "text"
            block = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith("```"):
                body = lines[i]
                block.append(body[len(indent):] if body.startswith(indent) else body.lstrip())
                i += 1
            i += 1  # the closing fence
            out += [indent + f".. code-block:: {lang}", ""]
            out += [(indent + "   " + b) if b.strip() else "" for b in block]
            out.append("")
            continue
        heading = re.match(r"(#{1,4}) (.*)", line)
        if heading:
            title = _inline(heading.group(2).strip())
            out += [title, _HEADINGS[len(heading.group(1))] * max(len(title), 3), ""]
            i += 1
            continue
        if stripped.startswith("|") and i + 1 < len(lines) and re.match(
                r"\s*\|[\s:|-]+\|\s*$", lines[i + 1]):
            rows = []
            while i < len(lines) and lines[i].lstrip().startswith("|"):
                rows.append(lines[i])
                i += 1
            if out and out[-1].strip():
                out.append("")
            out += _table(rows)
            continue
        image = re.match(r"\s*!\[([^\]]*)\]\(([^)\s]+)\)\s*$", line)
        if image:
            out += [f".. image:: {image.group(2)}", f"   :alt: {image.group(1)}", ""]
            i += 1
            continue
        out.append(indent + _inline(stripped) if stripped else "")
        i += 1
    return out


class MdInclude(Directive):
    """Insert a Markdown file (path relative to the including page) converted to reST."""

    required_arguments = 1
    has_content = False

    def run(self):
        env = self.state.document.settings.env
        rel, path = env.relfn2path(directives.path(self.arguments[0]))
        env.note_dependency(path)
        with open(path, encoding="utf-8") as f:
            rst = convert(f.read())
        # relative image paths in the Markdown are relative to the Markdown file
        base = os.path.dirname(rel)
        rst = [re.sub(r"^(\s*\.\. image:: )(?!/|https?:)(.*)$",
                      lambda m: m.group(1) + "/" + os.path.normpath(os.path.join(base, m.group(2))),
                      line) for line in rst]
        self.state_machine.insert_input(rst, path)
        return []


def setup(app):
    app.add_directive("mdinclude", MdInclude)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
