"""What the independent vector generators share: the skeleton of a vector file (docs/vectors.md)
and writing their output, or comparing it with the tree (`--check`, the Makefile's *-gen-check
targets). Nothing here knows a feature; each generator keeps its own tests and expectations.

A generator in vectors/<area>/gen/ imports it with
    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "..", "gen"))
"""
import os
import sys


class VFileBase:
    """A vector file: its groups (comment, profile, caps, setup, tests, in that key order) and
    the document the schema describes. Subclasses add their own `test`."""

    def __init__(self, name, feature, header):
        self.name, self.feature, self.header = name, feature, header
        self.groups, self.notes, self.n = [], {}, 0

    def group(self, comment, setup, caps=None, profile=None):
        g = {"comment": comment}
        if profile:
            g["profile"] = profile
        if caps:
            g["caps"] = caps
        g["setup"] = setup
        g["tests"] = []
        self.groups.append(g)
        return g

    def doc(self):
        return {"schema": "nicref_vectors_v1", "feature": self.feature, "header": self.header,
                "notes": self.notes, "numberOfTests": self.n, "testGroups": self.groups}


def write_or_check(files, check, who):
    """files: {path: bytes}. Writes each (making its folder), or with `check` compares each with
    the file on disk and names every one that differs. Returns 1 when one differs, else 0."""
    bad = 0
    for path, data in sorted(files.items()):
        if check:
            try:
                with open(path, "rb") as fh:
                    same = fh.read() == data
            except OSError:
                same = False
            if not same:
                print(f"{who}: {path} differs from the generator's output", file=sys.stderr)
                bad = 1
        else:
            os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
            with open(path, "wb") as fh:
                fh.write(data)
    return bad
