#!/usr/bin/env python3
"""Every relative link in the Markdown files resolves (the file, and the
heading when the link names one), and every docs/ path that a source file,
script or build file names exists. `--negative` runs the checks on a small
tree with one broken link of each kind and fails unless all are reported."""
import pathlib
import re
import subprocess
import sys
import tempfile

LINK = re.compile(r"\]\(([^)\s]+)\)")
DOCS_PATH = re.compile(r"\bdocs/[A-Za-z0-9_./-]+\.(?:md|html)\b")
CODE = (".cpp", ".h", ".c", ".py", ".sh", ".cmake", ".txt", ".yaml", ".S", ".v", ".sv", ".in")


def slug(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    return {slug(m.group(1)) for m in re.finditer(r"^#+\s+(.*)$", path.read_text(encoding="utf-8"), re.M)}


def check(root, files):
    bad = []
    for name in files:
        path = root / name
        if not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        if name.endswith(".md"):
            # Fenced code blocks are examples, not links.
            prose = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
            for target in LINK.findall(prose):
                if re.match(r"^[a-z]+:", target) or target.startswith("mailto:"):
                    continue
                file_part, _, anchor = target.partition("#")
                dest = path if not file_part else (path.parent / file_part)
                if not dest.exists():
                    bad.append(f"{name}: link to {target}: no such file")
                elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                    bad.append(f"{name}: link to {target}: no such heading")
        elif name.endswith(CODE) or name.endswith("Makefile") or name.endswith("CMakeLists.txt"):
            for number, line in enumerate(text.splitlines(), 1):
                for ref in DOCS_PATH.findall(line):
                    if not (root / ref).exists():
                        bad.append(f"{name}:{number}: names {ref}, which does not exist")
    return bad


def negative():
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        # Paths built from parts, so that this file does not name them itself.
        page, missing = "docs" + "/a.md", "docs" + "/missing.md"
        (root / "docs").mkdir()
        (root / page).write_text("# Title\n## Real heading\n[ok](#real-heading) [f](b.md) [h](#gone)\n")
        (root / "src.cpp").write_text(f"// see {missing}\n// see {page}\n")
        bad = check(root, [page, "src.cpp"])
        expected = ["no such file", "no such heading", missing]
        missed = [e for e in expected if not any(e in b for b in bad)]
        if missed or len(bad) != 3:
            print("negative control failed:", bad)
            return 1
        print("negative control: every broken link reported")
        return 0


if __name__ == "__main__":
    if sys.argv[1] == "--negative":
        sys.exit(negative())
    root = pathlib.Path(sys.argv[1])
    files = subprocess.run(["git", "-C", str(root), "ls-files"], capture_output=True, text=True,
                           check=True).stdout.split()
    bad = check(root, files)
    print("\n".join(bad) if bad else f"{len(files)} files checked: every link and docs/ path resolves")
    sys.exit(1 if bad else 0)
