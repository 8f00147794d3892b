#!/usr/bin/env python3
"""The build's layering, checked: a unit (a library or executable of
models/, rtl/, platform/ or app/) includes only its own headers, the
shared layouts of platform/interfaces and the headers of the units it
declares as link dependencies in its CMakeLists.txt (directly or through
them), so that no header reaches a unit the build does not know it depends
on, and no arrow runs back up (a model into the platform, the platform into
its workloads or the command).

usage: check_layering.py ROOT       check the tree; list every violation
       check_layering.py --negative build a small tree with one undeclared
                                    include and fail unless it is the one reported
"""
import pathlib
import re
import sys
import tempfile

TARGET = re.compile(r"add_(?:library|executable)\((avp_\w+|accel-vp)\s")
LINKS = re.compile(r"target_link_libraries\((avp_\w+|accel-vp)([^)]*)\)")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
SOURCES = (".h", ".cpp")
# The folders whose CMakeLists.txt declares a unit; models/* are found by glob.
UNIT_DIRS = ("rtl", "platform/base", "platform/report", "platform", "platform/workloads", "app", "app/bridge", "platform/host_software")
# Where a unit's include names are looked up besides the including file's folder:
# (folder, owner: None for the shared layouts, every unit's to use).
def include_roots(root, dirs):
    roots = [(root / "platform/interfaces/include", None), (root / "platform/base/include", "avp_base"),
             (root / "models", None), (root / "sw/host/include", "avp_host")]
    return roots + [(d, lib) for lib, d in dirs.items()]


def units(root):
    """{unit: directory} and {unit: declared avp_* dependencies} of every unit."""
    dirs, deps = {}, {}
    lists = sorted(root.glob("models/*/CMakeLists.txt")) + [root / d / "CMakeLists.txt" for d in UNIT_DIRS]
    for cmake in lists:
        if not cmake.exists():
            continue
        text = re.sub(r"#.*", "", cmake.read_text())
        names = TARGET.findall(text)
        if not names:
            continue
        dirs[names[0]] = cmake.parent
        for lib, args in LINKS.findall(text):
            if lib == names[0]:
                deps.setdefault(lib, set()).update(re.findall(r"\bavp_\w+", args))
    return dirs, deps


def closure(lib, deps):
    seen, todo = set(), [lib]
    while todo:
        for d in deps.get(todo.pop(), ()):
            if d not in seen:
                seen.add(d)
                todo.append(d)
    return seen


def owner_of(path, dirs):
    """The unit whose folder is the deepest one holding `path` (None: none)."""
    best = None
    for lib, d in dirs.items():
        d = d.resolve()
        if d in path.parents and (best is None or len(d.parts) > len(dirs[best].resolve().parts)):
            best = lib
    return best


def owners(root, dirs, including_dir, name):
    """Every unit a header `name` included from `including_dir` can be (None: a
    shared layout, the unit's own folder or a header of no unit)."""
    found = []
    if (including_dir / name).exists():
        return [None]
    for folder, lib in include_roots(root, dirs):
        path = folder / name
        if path.exists():
            found.append(owner_of(path.resolve(), dirs) if lib is None and folder.name == "models" else lib)
    return found


def violations(root):
    dirs, deps = units(root)
    found = []
    for lib, d in sorted(dirs.items()):
        allowed = closure(lib, deps) | {lib}
        for src in sorted(p for p in d.iterdir() if p.suffix in SOURCES):
            for name in INCLUDE.findall(src.read_text(errors="replace")):
                candidates = owners(root, dirs, src.parent, name)
                if candidates and not any(o is None or o in allowed for o in candidates):
                    found.append(f'{src.relative_to(root)}: includes "{name}" of {candidates[0]}, '
                                 f"which {lib} does not declare as a dependency")
    return found


def negative():
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        for unit, links, source in [
            ("low", "avp_base", '#include "low/low.h"\n'),
            ("mid", "avp_base avp_low", '#include "low/low.h"\n#include "mid.h"\n'),
            ("top", "avp_mid", '#include "low/low.h"\n#include "mid/mid.h"\n'),  # low through mid: declared
            ("side", "avp_base", '#include "mid/mid.h"\n'),  # the one violation
        ]:
            (root / "models" / unit).mkdir(parents=True)
            (root / "models" / unit / "CMakeLists.txt").write_text(
                f"add_library(avp_{unit} STATIC {unit}.cpp)\ntarget_link_libraries(avp_{unit} PUBLIC {links})\n")
            (root / "models" / unit / f"{unit}.h").write_text("#pragma once\n")
            (root / "models" / unit / f"{unit}.cpp").write_text(source)
        found = violations(root)
        expected = ['models/side/side.cpp: includes "mid/mid.h" of avp_mid, which avp_side does not declare as a dependency']
        if found != expected:
            print("negative control: expected exactly", expected, "got", found)
            return 1
        print("negative control: the undeclared include is reported, the declared ones are not")
        return 0


def main():
    if sys.argv[1:] == ["--negative"]:
        return negative()
    root = pathlib.Path(sys.argv[1])
    found = violations(root)
    for v in found:
        print(v)
    dirs, _ = units(root)
    print(f"{len(dirs)} units checked, {len(found)} undeclared includes")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
