#!/usr/bin/python3
"""Layers point down (reference/layers.txt, docs/architecture.md): no file of reference/ includes
a header of a higher layer, and no object file of the library uses a symbol a higher layer
defines. Two checks, both against the one layer order of reference/layers.txt:

  - the #include "folder/file.h" lines of every .c and .h of reference/<folder>/ (comments and
    strings blanked first, so prose cannot trip it);
  - the undefined symbols of every object file BUILD/reference/<folder>/*.o (nm), resolved to the
    folder whose object files define them.

Usage: check_layers.py BUILD_DIR   (the objects of `make`, e.g. build/gcc)
Exit status 0 when every use points down or stays within a layer, 1 otherwise (each refused use
is printed), 2 when the layer file or the build cannot be read."""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
REF = ROOT / "reference"
OUTSIDE = {"include", "tests"}  # the public API and the unit tests stand outside the layers
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def die(msg):
    print(f"layers: {msg}", file=sys.stderr)
    sys.exit(2)


def read_layers():
    """folder -> (line number, group number): folders of one group share both."""
    where, group = {}, 0
    for rank, line in enumerate((REF / "layers.txt").read_text().splitlines()):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        for part in line.split("|"):
            group += 1
            for folder in part.split():
                if folder in where or folder in OUTSIDE:
                    die(f"reference/layers.txt: {folder} placed twice or outside the layers")
                where[folder] = (rank, group)
    return where


def allowed(where, user, used):
    """Whether reference/<user>/ may use reference/<used>/."""
    if user == used:
        return True
    (ur, ug), (dr, dg) = where[user], where[used]
    return ug == dg or dr < ur


def blank(src):
    """Comments and string literals as spaces (an include's "path" is kept)."""
    src = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), src, flags=re.S)
    return re.sub(r"//[^\n]*", "", src)


def folders(where):
    """Every folder of reference/ holding C, each placed in the layer file."""
    found = sorted({p.relative_to(REF).parts[0] for p in REF.rglob("*.[ch]")} - OUTSIDE)
    for f in found:
        if f not in where:
            die(f"reference/{f}/ is in no layer: give it its place in reference/layers.txt")
    return found


def check_includes(where):
    bad = []
    for path in sorted(REF.rglob("*.[ch]")):
        user = path.relative_to(REF).parts[0]
        if user in OUTSIDE:
            continue
        for m in INCLUDE.finditer(blank(path.read_text())):
            parts = m.group(1).split("/")
            used = parts[0] if len(parts) > 1 else user
            if used == "nicref":  # reference/include/nicref/: the public declarations
                continue
            if used not in where:
                bad.append(f"{path.relative_to(ROOT)}: includes \"{m.group(1)}\", in no layer")
            elif not allowed(where, user, used):
                bad.append(f"{path.relative_to(ROOT)}: includes \"{m.group(1)}\" "
                           f"({user}/ may not use {used}/)")
    return bad


def nm(obj, *flags):
    out = subprocess.run(["nm", "-P", *flags, str(obj)], capture_output=True, text=True)
    if out.returncode != 0:
        die(f"nm {obj}: {out.stderr.strip()}")
    return [line.split() for line in out.stdout.splitlines() if line.strip()]


def check_symbols(where, build):
    # The objects of today's sources only: a stale object of a removed file proves nothing.
    objs = []
    for src in sorted(REF.glob("*/*.c")):
        if src.parent.name in OUTSIDE:
            continue
        obj = build / "reference" / src.parent.name / (src.stem + ".o")
        if not obj.is_file() or obj.stat().st_mtime < src.stat().st_mtime:
            die(f"{obj} is missing or older than {src.relative_to(ROOT)}: build the library "
                f"first (make)")
        objs.append(obj)
    definer = {}
    for o in objs:
        for row in nm(o, "-g", "--defined-only"):
            definer.setdefault(row[0], o.parent.name)
    bad = []
    for o in objs:
        user = o.parent.name
        if user not in where:
            die(f"{o}: reference/{user}/ is in no layer")
        for row in nm(o, "-u"):
            used = definer.get(row[0])
            if used and not allowed(where, user, used):
                bad.append(f"{o.relative_to(build)}: uses {row[0]}, defined in {used}/ "
                           f"({user}/ may not use {used}/)")
    return bad


def main():
    if len(sys.argv) != 2:
        die("usage: check_layers.py BUILD_DIR")
    where = read_layers()
    present = folders(where)
    bad = check_includes(where) + check_symbols(where, pathlib.Path(sys.argv[1]))
    for line in bad:
        print(f"layers: {line}")
    if bad:
        print(f"layers: {len(bad)} uses point up (reference/layers.txt gives the order)")
        return 1
    print(f"layers: {' '.join(present)}: every include and every symbol points down")
    return 0


if __name__ == "__main__":
    sys.exit(main())
