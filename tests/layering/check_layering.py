#!/usr/bin/env python3
"""The build's layering, checked: a unit (a library of models/, rtl/ or
platform/base) includes only its own headers, the shared layouts of
platform/interfaces and the headers of the units it declares as link
dependencies in its CMakeLists.txt (directly or through them), so that no
header reaches a unit the build does not know it depends on.

usage: check_layering.py ROOT       check the tree; list every violation
       check_layering.py --negative build a small tree with one undeclared
                                    include and fail unless it is the one reported
"""
import pathlib
import re
import sys
import tempfile

LIBRARY = re.compile(r"add_library\((avp_\w+)\s")
LINKS = re.compile(r"target_link_libraries\((avp_\w+)([^)]*)\)")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
SOURCES = (".h", ".cpp")


def units(root):
    """{library: directory} and {library: declared avp_* dependencies} of every unit."""
    dirs, deps = {}, {}
    lists = sorted(root.glob("models/*/CMakeLists.txt")) + [root / "rtl/CMakeLists.txt", root / "platform/base/CMakeLists.txt"]
    for cmake in lists:
        if not cmake.exists():
            continue
        text = re.sub(r"#.*", "", cmake.read_text())
        names = LIBRARY.findall(text)
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


def owner(root, dirs, including_dir, name):
    """The library whose header `name` is (None: platform/interfaces, a system header or not found)."""
    if (including_dir / name).exists():
        path = (including_dir / name).resolve()
    elif (root / "platform/interfaces/include" / name).exists():
        return None
    elif (root / "platform/base/include" / name).exists():
        return "avp_base"
    elif (root / "models" / name).exists():
        path = (root / "models" / name).resolve()
    elif (root / "platform" / name).exists():
        return "avp_platform"  # the assembly: never a unit's dependency
    else:
        return None
    for lib, d in dirs.items():
        if d.resolve() in path.parents:
            return lib
    return None


def violations(root):
    dirs, deps = units(root)
    found = []
    for lib, d in sorted(dirs.items()):
        allowed = closure(lib, deps) | {lib}
        for src in sorted(p for p in d.iterdir() if p.suffix in SOURCES):
            for name in INCLUDE.findall(src.read_text(errors="replace")):
                other = owner(root, dirs, src.parent, name)
                if other and other not in allowed:
                    found.append(f'{src.relative_to(root)}: includes "{name}" of {other}, '
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
