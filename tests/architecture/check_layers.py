# SPDX-License-Identifier: Apache-2.0
"""Checks that every file under src/foresight/ includes only from its own layer or a lower one.

The layer order and the known exceptions are read from docs/architecture.md (its ```layers and
```layer-exceptions blocks), so the document and the test cannot disagree. Fails on an include
that points up and is not a listed exception, and on a listed exception that no longer occurs
(the list only shrinks).

Usage: check_layers.py REPO_ROOT          check the repository
       check_layers.py --self-test        check the checker on small trees it writes
"""
import os
import re
import sys
import tempfile

INCLUDE = re.compile(r'\s*#\s*include\s+"foresight/([^/"]+)/([^"]+)"')


def fenced_block(text, tag, path):
    """Lines of the ```TAG block of a Markdown text, blank lines and # comments dropped."""
    m = re.search(r"^```" + re.escape(tag) + r"\s*\n(.*?)^```", text, re.S | re.M)
    if not m:
        raise SystemExit(f"{path}: no ```{tag} block")
    lines = []
    for line in m.group(1).splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            lines.append(line)
    return lines


def read_rules(doc_path):
    """(rank of each layer, set of (file, layer) exceptions) from the architecture document."""
    with open(doc_path, encoding="utf-8") as f:
        text = f.read()
    rank = {}
    for level, line in enumerate(fenced_block(text, "layers", doc_path)):
        for layer in line.replace(",", " ").split():
            if layer in rank:
                raise SystemExit(f"{doc_path}: layer '{layer}' listed twice")
            rank[layer] = level
    exceptions = set()
    for line in fenced_block(text, "layer-exceptions", doc_path):
        m = re.fullmatch(r"(\S+)\s*->\s*(\S+)", line)
        if not m:
            raise SystemExit(f"{doc_path}: layer exception '{line}' is not 'FILE -> LAYER'")
        exceptions.add((m.group(1), m.group(2)))
    return rank, exceptions


def violations(src_root, rank):
    """Every include from a file of a layer to a layer not below it: (file, line, layer, target)."""
    found = []
    for dirpath, _, files in os.walk(src_root):
        for name in sorted(files):
            if not name.endswith((".h", ".cpp", ".cuh")):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, src_root).replace(os.sep, "/")
            layer = rel.split("/", 1)[0]
            if "/" not in rel:
                continue  # files at the top of src/foresight/ belong to no layer
            if layer not in rank:
                found.append((rel, 0, layer, f"directory '{layer}' is in no layer of docs/architecture.md"))
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                for number, text in enumerate(f, 1):
                    m = INCLUDE.match(text)
                    if not m:
                        continue
                    target = m.group(1)
                    if target == layer:
                        continue
                    if target not in rank:
                        found.append((rel, number, layer, f"includes '{target}', which is in no layer"))
                    elif rank[target] >= rank[layer]:
                        found.append((rel, number, layer, target))
    return found


def check(repo_root, out=sys.stderr):
    """0 when the tree keeps its layers, 1 otherwise (messages on `out`)."""
    doc = os.path.join(repo_root, "docs", "architecture.md")
    rank, exceptions = read_rules(doc)
    src = os.path.join(repo_root, "src", "foresight")
    failed = False
    seen = set()
    for rel, number, layer, target in violations(src, rank):
        if (rel, target) in exceptions:
            seen.add((rel, target))
            continue
        failed = True
        if number == 0 or target not in rank:
            print(f"src/foresight/{rel}:{number}: {target}", file=out)
        else:
            relation = "the same level as" if rank[target] == rank[layer] else "above"
            print(f"src/foresight/{rel}:{number}: layer '{layer}' includes from '{target}', "
                  f"{relation} it (order: docs/architecture.md)", file=out)
    for rel, target in sorted(exceptions - seen):
        failed = True
        print(f"docs/architecture.md: the exception 'src/foresight/{rel} -> {target}' no longer occurs; "
              "remove it from the list", file=out)
    return 1 if failed else 0


def self_test():
    """The checker accepts a tree that keeps its layers and rejects each kind of breach."""
    doc = ("# Layers\n```layers\nlow\nmid, side\nhigh\n```\n"
           "```layer-exceptions\n{exceptions}```\n")

    def tree(files, exceptions=""):
        root = tempfile.mkdtemp(prefix="layers-")
        os.makedirs(os.path.join(root, "docs"))
        with open(os.path.join(root, "docs", "architecture.md"), "w", encoding="utf-8") as f:
            f.write(doc.format(exceptions=exceptions))
        for rel, text in files.items():
            path = os.path.join(root, "src", "foresight", rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        return root

    class Sink:
        def __init__(self):
            self.text = ""

        def write(self, s):
            self.text += s

    good = {"low/a.h": "#pragma once\n", "mid/b.h": '#include "foresight/low/a.h"\n',
            "high/c.cpp": '#include "foresight/mid/b.h"\n#include "foresight/side/d.h"\n',
            "side/d.h": '#include "foresight/low/a.h"\n'}
    cases = [
        ("a tree that keeps its layers", good, "", 0, ""),
        ("an include that points up", {**good, "low/e.cpp": '#include "foresight/high/c.h"\n'}, "", 1,
         "src/foresight/low/e.cpp:1: layer 'low' includes from 'high', above it"),
        ("an include between peers", {**good, "side/f.cpp": '#include "foresight/mid/b.h"\n'}, "", 1,
         "layer 'side' includes from 'mid', the same level as it"),
        ("a directory in no layer", {**good, "new/g.h": "#pragma once\n"}, "", 1, "directory 'new' is in no layer"),
        ("a listed exception", {**good, "low/e.cpp": '#include "foresight/high/c.h"\n'}, "low/e.cpp -> high\n", 0, ""),
        ("a stale exception", good, "low/e.cpp -> high\n", 1, "no longer occurs"),
    ]
    ok = True
    for name, files, exceptions, want, message in cases:
        sink = Sink()
        got = check(tree(files, exceptions), sink)
        if got != want or message not in sink.text:
            ok = False
            print(f"self-test '{name}': status {got} (want {want}), output: {sink.text!r}", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "--self-test":
        sys.exit(self_test())
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(check(sys.argv[1]))
