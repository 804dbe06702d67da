#!/usr/bin/env python3
"""An independent patcher for graphwire's JSON delta, standard library only.

It applies a delta document of the json codec (package delta's
documentation) to a response in canonical JSON, verifying the check that
binds the base and the result fingerprints, as the documentation specifies,
without any of the Go code. Input on stdin: one JSON object per line, {"base": RESPONSE, "delta":
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
    return hashlib.sha256(b).digest()


# --- patch: graphwire delta document, version 3 ---------------------------

def check(base_fp, result_fp):
    """The 128-bit check of a delta, as 39 decimal digits (zero-padded)."""
    h = hashlib.sha256(b"graphwire-delta-check-v2\n" + base_fp + result_fp).digest()[:16]
    return "%039d" % int.from_bytes(h, "big")


def build(what, base, removed, moved, added, get):
    """The result list: moved and added elements at their positions, the
    other base elements, minus the removed, in base order in the gaps."""
    taken = set()
    for bi in removed + [bi for bi, _ in moved]:
        if not 0 <= bi < len(base) or bi in taken:
            raise PatchError("%s: base position %d outside the base or named twice" % (what, bi))
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


def ops(d, name):
    moved, to = d.get(name + "_moved", []), d.get(name + "_moved_to", [])
    if len(moved) != len(to):
        raise PatchError("%s: moved and moved_to differ in length" % name)
    return d.get(name + "_removed", []), list(zip(moved, to)), d.get(name + "_added", [])


def patch(base, d):
    chk = d.get("graphwire_delta")
    if not isinstance(chk, str) or len(chk) != 39 or not chk.isdigit():
        raise PatchError("unknown delta version")
    fb = fingerprint(base)
    if "content" not in d:
        if check(fb, fb) != chk:
            raise PatchError("wrong base")
        return base
    # The content is a fragment: an absent field is empty.
    c = dict({"format_version": "", "query_type": "", "nodes": [], "edges": []}, **d["content"])
    out = {"format_version": c["format_version"], "query_type": c["query_type"]}

    changed = d.get("nodes_changed", [])
    if len(c["nodes"]) != len(changed) + len(d.get("nodes_added", [])):
        raise PatchError("nodes: content does not match the operations")
    removed, moved, added_at = ops(d, "nodes")
    waiting = {}  # (type, id) -> base positions of changed nodes, in order
    for bi in changed:
        if not 0 <= bi < len(base["nodes"]) or bi in removed or any(bi in q for q in waiting.values()):
            raise PatchError("nodes_changed: bad base position %d" % bi)
        n = base["nodes"][bi]
        waiting.setdefault((n["type"], n["id"]), []).append(bi)
    replace, new = {}, []
    for node in c["nodes"]:  # a changed node is told by its type and id
        q = waiting.get((node["type"], node["id"]))
        if q:
            replace[q.pop(0)] = node
        else:
            new.append(node)
    if len(replace) != len(changed):
        raise PatchError("nodes_changed: a changed node has no content node")
    added = list(zip(added_at, new))
    out["nodes"] = build("nodes", base["nodes"], removed, moved, added,
                         lambda bi: replace.get(bi, base["nodes"][bi]))

    removed, moved, added_at = ops(d, "edges")
    if len(c["edges"]) != len(added_at):
        raise PatchError("edges: content does not match the operations")
    out["edges"] = build("edges", base["edges"], removed, moved, list(zip(added_at, c["edges"])),
                         lambda bi: base["edges"][bi])

    for field in ("columns", "group_columns"):
        if field in c:
            out[field] = c[field]

    base_rows = base.get("rows", [])
    removed, moved, added_at = ops(d, "rows")
    if len(c.get("rows", [])) != len(added_at):
        raise PatchError("rows: content does not match the operations")
    rows = build("rows", base_rows, removed, moved, list(zip(added_at, c.get("rows", []))),
                 lambda bi: base_rows[bi])
    if "rows" in c:
        out["rows"] = rows
    elif rows:
        raise PatchError("rows: a result without rows keeps rows")
    if "pagination" in c:
        out["pagination"] = c["pagination"]

    if check(fb, fingerprint(out)) != chk:
        raise PatchError("check mismatch: another base, or an altered delta")
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
