#!/usr/bin/env python3
"""The repository stands alone: no tracked file refers to a path outside it
(a sibling checkout such as ../shared, or an absolute path of the machine the
project was developed on), and every page docs/spec/README.md lists exists."""
import pathlib
import re
import subprocess
import sys

root = pathlib.Path(sys.argv[1])
files = subprocess.run(["git", "-C", str(root), "ls-files"], capture_output=True, text=True, check=True).stdout.split()
outside = re.compile(r"(\.\./shared\b|\.\./\.library\b|/work/(main|shared|wt)\b|shared/specs/)")
bad = []
for name in files:
    path = root / name
    if name.startswith("tests/docs/check_self_contained") or not path.is_file():
        continue
    try:
        text = path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        continue  # binary files
    for number, line in enumerate(text.splitlines(), 1):
        if outside.search(line):
            bad.append(f"{name}:{number}: refers outside the repository: {line.strip()[:100]}")
index = (root / "docs/spec/README.md").read_text(encoding="utf-8")
for page in re.findall(r"\]\(([a-z-]+\.md)\)", index):
    if not (root / "docs/spec" / page).is_file():
        bad.append(f"docs/spec/README.md lists {page}, which does not exist")
print("\n".join(bad) if bad else f"{len(files)} files checked: self-contained")
sys.exit(1 if bad else 0)
