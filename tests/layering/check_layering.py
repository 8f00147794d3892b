#!/usr/bin/env python3
"""The build's layering, checked: a unit (a library or executable of
models/, rtl/, platform/ or app/) includes only its own headers, the
shared layouts of platform/interfaces and the public headers of the units
it declares as link dependencies in its CMakeLists.txt (directly or through
them), so that no header reaches a unit the build does not know it depends
on, and no arrow runs back up (a model into the platform, the platform into
its workloads or the command).

A unit with an include/ folder publishes only that folder (its public
headers, "<unit>/<name>.h"); the rest of its folder is private to it (its
private headers, "<name>.h"). An include of another unit's private header,
and a public header that includes its own unit's private one, are
violations too.

usage: check_layering.py ROOT       check the tree; list every violation
       check_layering.py --negative build a small tree with one violation of
                                    each kind and fail unless exactly those are reported
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


def public_root(d):
    """The folder a unit in `d` publishes: its include/ folder, or without one all of `d`."""
    return d / "include" if (d / "include").is_dir() else d


def private_root(d):
    """The folder only the unit in `d` sees (None: it has no private headers)."""
    return d if (d / "include").is_dir() else None


# Where a unit's include names are looked up besides the including file's folder:
# (folder, owner: None for the shared layouts, every unit's to use).
def include_roots(root, dirs):
    roots = [(root / "platform/interfaces/include", None), (root / "sw/host/include", "avp_host")]
    return roots + [(public_root(d), lib) for lib, d in dirs.items()]


def private_header(folder, name):
    """The private header of the unit in `folder` that `name` names, spelled as
    the unit's own sources do ("<name>.h") or by the unit's folder ("<unit>/<name>.h")."""
    for path in (folder / name, folder.parent / name):
        if path.is_file() and path.parent == folder:
            return path
    return None


def sources(d):
    """A unit's sources: the files of its folder and of its include/ folder."""
    files = [p for p in d.iterdir() if p.suffix in SOURCES]
    if private_root(d):
        files += [p for p in (d / "include").rglob("*") if p.suffix in SOURCES]
    return sorted(files)


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


def owners(root, dirs, including_dir, name):
    """Every unit a header `name` included from `including_dir` can be (None: a
    shared layout, the unit's own folder or a header of no unit)."""
    found = []
    if (including_dir / name).exists():
        return [None]
    for folder, lib in include_roots(root, dirs):
        if (folder / name).exists():
            found.append(lib)
    return found


def violations(root):
    dirs, deps = units(root)
    found = []
    for lib, d in sorted(dirs.items()):
        allowed = closure(lib, deps) | {lib}
        for src in sources(d):
            public = private_root(d) is not None and public_root(d) in src.parents
            for name in INCLUDE.findall(src.read_text(errors="replace")):
                candidates = owners(root, dirs, src.parent, name)
                if candidates:
                    if not any(o is None or o in allowed for o in candidates):
                        found.append(f'{src.relative_to(root)}: includes "{name}" of {candidates[0]}, '
                                     f"which {lib} does not declare as a dependency")
                    continue
                for other, other_dir in sorted(dirs.items()):
                    folder = private_root(other_dir)
                    path = folder and private_header(folder, name)
                    if path and other != lib:
                        found.append(f'{src.relative_to(root)}: includes "{name}", a private header of {other} '
                                     f"({path.relative_to(root)}, not under its include/)")
                    elif path and public:
                        found.append(f'{src.relative_to(root)}: a public header of {lib} includes its private "{name}"')
    return found


def negative():
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        for unit, links, source in [
            ("low", "avp_base", '#include "low/low.h"\n#include "low_detail.h"\n'),  # its own private header
            ("mid", "avp_base avp_low", '#include "low/low.h"\n#include "mid/mid.h"\n'),
            ("top", "avp_mid", '#include "low/low.h"\n#include "mid/mid.h"\n'),  # low through mid: declared
            ("side", "avp_base", '#include "mid/mid.h"\n'),  # undeclared
            ("peek", "avp_low", '#include "low/low_detail.h"\n'),  # declared, but private
        ]:
            folder = root / "models" / unit
            (folder / "include" / unit).mkdir(parents=True)
            (folder / "CMakeLists.txt").write_text(
                f"add_library(avp_{unit} STATIC {unit}.cpp)\ntarget_link_libraries(avp_{unit} PUBLIC {links})\n")
            (folder / "include" / unit / f"{unit}.h").write_text("#pragma once\n")
            (folder / f"{unit}_detail.h").write_text("#pragma once\n")
            (folder / f"{unit}.cpp").write_text(source)
        (root / "models/low/include/low/leaky.h").write_text('#pragma once\n#include "low_detail.h"\n')  # public on private
        found = violations(root)
        expected = ['models/low/include/low/leaky.h: a public header of avp_low includes its private "low_detail.h"',
                    'models/peek/peek.cpp: includes "low/low_detail.h", a private header of avp_low '
                    '(models/low/low_detail.h, not under its include/)',
                    'models/side/side.cpp: includes "mid/mid.h" of avp_mid, which avp_side does not declare as a dependency']
        if found != expected:
            print("negative control: expected exactly", expected, "got", found)
            return 1
        print("negative control: the undeclared include and the private ones are reported, the declared ones are not")
        return 0


def main():
    if sys.argv[1:] == ["--negative"]:
        return negative()
    root = pathlib.Path(sys.argv[1])
    found = violations(root)
    for v in found:
        print(v)
    dirs, _ = units(root)
    print(f"{len(dirs)} units checked, {len(found)} violations")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
