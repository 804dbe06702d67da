#!/usr/bin/env python3
"""An independent patcher for graphwire's JSON delta, standard library only.

It applies the JSON form of a delta (package delta's documentation) to a
response in canonical JSON, verifying the base fingerprint before and the
result fingerprint after, as the documentation specifies, without any of the
Go code. Input on stdin: one JSON object per line, {"base": RESPONSE, "delta":
DELTA}. Output on stdout, one line per input line: {"result": RESPONSE} or
{"error": "..."}.
"""
import hashlib
import json
import struct
import sys


class PatchError(Exception):
    pass


# --- fingerprint: graphwire-fingerprint-v1 -------------------------------

def u64(n):
    return struct.pack(">Q", n & 0xFFFFFFFFFFFFFFFF)


def text(s):
    b = s.encode("utf-8")
    return u64(len(b)) + b


def flag(present):
    return b"\x01" if present else b"\x00"


def opt_int(o, key):
    return flag(key in o) + (u64(o[key]) if key in o else b"")


def opt_str(o, key):
    return flag(key in o) + (text(o[key]) if key in o else b"")


def value(v):
    if v is None:
        return b"\x00"
    if isinstance(v, bool):
        return b"\x01" + flag(v)
    if isinstance(v, int):
        return b"\x02" + u64(v)
    if isinstance(v, float):
        return b"\x03" + struct.pack(">d", v)
    if isinstance(v, str):
        return b"\x04" + text(v)
    if isinstance(v, list):
        return b"\x05" + u64(len(v)) + b"".join(value(x) for x in v)
    raise PatchError("not a value: %r" % (v,))


def props_bytes(props):
    return u64(len(props)) + b"".join(text(k) + value(v) for k, v in props)


def node_props(n):
    return [(k, v) for k, v in n.items() if k not in ("type", "id")]


def node_bytes(n, props):
    return text(n["type"]) + u64(int(n["id"])) + props_bytes(props)


def edge_bytes(e):
    return (text(e["from"]) + u64(int(e["from_id"])) + text(e["to"]) + u64(int(e["to_id"]))
            + text(e["type"]) + opt_int(e, "depth") + opt_int(e, "path_id") + opt_int(e, "step"))


def row_bytes(row):
    out = u64(len(row))
    for name, cell in row.items():
        out += text(name)
        if isinstance(cell, dict):
            out += b"\x01" + node_bytes(cell, list(cell["properties"].items()))
        else:
            out += b"\x00" + value(cell)
    return out


def fingerprint(r):
    b = b"graphwire-fingerprint-v1\n" + text(r["format_version"]) + text(r["query_type"])
    b += u64(len(r["nodes"])) + b"".join(node_bytes(n, node_props(n)) for n in r["nodes"])
    b += u64(len(r["edges"])) + b"".join(edge_bytes(e) for e in r["edges"])
    b += flag("columns" in r)
    if "columns" in r:
        b += u64(len(r["columns"])) + b"".join(
            text(c["name"]) + text(c["function"]) + opt_str(c, "target") + opt_str(c, "property")
            for c in r["columns"])
    b += flag("group_columns" in r)
    if "group_columns" in r:
        b += u64(len(r["group_columns"])) + b"".join(
            text(g["name"]) + text(g["kind"]) + text(g["node"]) + opt_str(g, "property") + opt_str(g, "entity")
            for g in r["group_columns"])
    b += flag("rows" in r)
    if "rows" in r:
        b += u64(len(r["rows"])) + b"".join(row_bytes(row) for row in r["rows"])
    b += flag("pagination" in r)
    if "pagination" in r:
        p = r["pagination"]
        b += flag(p["has_more"]) + opt_int(p, "total_rows") + flag("truncated" in p)
        if "truncated" in p:
            b += flag(p["truncated"])
        b += opt_str(p, "next_cursor")
    return "sha256:" + hashlib.sha256(b).hexdigest()


# --- patch ---------------------------------------------------------------

def node_key(n, occurrence):
    return (n["type"], int(n["id"]), occurrence)


def edge_key(e, occurrence):
    return (e["from"], int(e["from_id"]), e["to"], int(e["to_id"]), e["type"],
            e.get("depth"), e.get("path_id"), e.get("step"), occurrence)


def keyed(items, key):
    """Maps the identity of each item (key(item, n), n counting equal
    identities from 0) to its position."""
    seen, at = {}, {}
    for i, it in enumerate(items):
        base = key(it, 0)
        n = seen.get(base, 0)
        seen[base] = n + 1
        at[key(it, n)] = i
    return at


def build(what, base, removed, moved, added, get):
    taken = set()
    for bi in removed + [bi for bi, _ in moved]:
        if bi in taken:
            raise PatchError("%s: element %d named twice" % (what, bi))
        taken.add(bi)
    n = len(base) - len(removed) + len(added)
    out, filled = [None] * n, [False] * n
    for at, item in [(at, get(bi)) for bi, at in moved] + added:
        if not 0 <= at < n or filled[at]:
            raise PatchError("%s: bad position %d" % (what, at))
        out[at], filled[at] = item, True
    slot = 0
    for bi in range(len(base)):
        if bi in taken:
            continue
        while filled[slot]:
            slot += 1
        out[slot], filled[slot] = get(bi), True
    return out


def lookup(at, key, what):
    if key not in at:
        raise PatchError("%s: not in the base: %r" % (what, key))
    return at[key]


def patch(base, d):
    if d.get("graphwire_delta") != 1:
        raise PatchError("unknown delta version")
    if fingerprint(base) != d["base"]:
        raise PatchError("wrong base")
    if d.get("unchanged"):
        return base
    c = d["content"]
    out = {"format_version": c["format_version"], "query_type": c["query_type"]}

    ops = d.get("nodes", {})
    at = keyed(base["nodes"], node_key)
    key = lambda k: (k["type"], int(k["id"]), k.get("n", 0))
    removed = [lookup(at, key(k), "nodes.removed") for k in ops.get("removed", [])]
    moved = [(lookup(at, key(k), "nodes.moved"), k["at"]) for k in ops.get("moved", [])]
    changed_n = ops.get("changed", [])
    replace = {}
    for n, node in zip(changed_n, c["nodes"]):
        replace[lookup(at, node_key(node, n), "nodes.changed")] = node
    added = list(zip(ops.get("added_at", []), c["nodes"][len(changed_n):]))
    out["nodes"] = build("nodes", base["nodes"], removed, moved, added,
                         lambda bi: replace.get(bi, base["nodes"][bi]))

    ops = d.get("edges", {})
    at = keyed(base["edges"], edge_key)
    key = lambda k: edge_key(k, k.get("n", 0))
    removed = [lookup(at, key(k), "edges.removed") for k in ops.get("removed", [])]
    moved = [(lookup(at, key(k), "edges.moved"), k["at"]) for k in ops.get("moved", [])]
    added = list(zip(ops.get("added_at", []), c["edges"]))
    out["edges"] = build("edges", base["edges"], removed, moved, added, lambda bi: base["edges"][bi])

    for field in ("columns", "group_columns"):
        src = c if field in d.get("set", []) else base
        if field in src:
            out[field] = src[field]

    ops = d.get("rows", {})
    base_rows = base.get("rows", [])
    moved = [(m["from"], m["at"]) for m in ops.get("moved", [])]
    for bi in ops.get("removed", []) + [bi for bi, _ in moved]:
        if not 0 <= bi < len(base_rows):
            raise PatchError("rows: no row %d in the base" % bi)
    added = list(zip(ops.get("added_at", []), c.get("rows", [])))
    rows = build("rows", base_rows, ops.get("removed", []), moved, added, lambda bi: base_rows[bi])
    if "rows" in c:
        out["rows"] = rows
    elif rows:
        raise PatchError("rows: a result without rows keeps rows")

    src = c if "pagination" in d.get("set", []) else base
    if "pagination" in src:
        out["pagination"] = src["pagination"]

    if fingerprint(out) != d["result"]:
        raise PatchError("result fingerprint mismatch")
    return out


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        case = json.loads(line)
        try:
            result = {"result": patch(case["base"], case["delta"])}
        except (PatchError, KeyError, TypeError, ValueError) as e:
            result = {"error": "%s: %s" % (type(e).__name__, e)}
        sys.stdout.write(json.dumps(result, ensure_ascii=False, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
