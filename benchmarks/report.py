"""Tables from a suite result (the dict `suite.run` returns and `--json` writes).

    python -m benchmarks.report results.json     (print the tables of a saved run)

Every table is built from the result dict alone, so a saved run prints the same
tables as it did live.
"""

from __future__ import annotations

import json
import sys

from .memory import TRACED

KIND_TITLES = {
    "grad": "Gradient",
    "jvp": "Forward mode (J t)",
    "hvp": "Hessian-vector product (H v)",
    "hessian": "Hessian",
}


def fmt_seconds(s: float | None) -> str:
    if s is None:
        return "-"
    if s >= 1.0:
        return f"{s:.2f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.3g} ms"
    return f"{s * 1e6:.3g} us"


def fmt_ratio(r: float) -> str:
    return f"{r:.0f}x" if r >= 100 else f"{r:.3g}x"


def fmt_bytes(n: float | None) -> str:
    if n is None:
        return "-"
    return f"{n / 2**20:.3g} MB" if n >= 2**20 / 10 else f"{n / 2**10:.3g} kB"


def cell(entry: dict) -> str:
    """A ratio, or what stands in its place: n/a, WRONG (disagrees), ERROR (crashed)."""
    if "ratio" in entry:
        return fmt_ratio(entry["ratio"]["median"])
    return {"n/a": "n/a", "wrong": "WRONG"}.get(entry["status"], entry["status"].upper())


def _table(rows: list[list[str]]) -> str:
    widths = [max(len(row[k]) for row in rows) for k in range(len(rows[0]))]
    lines = []
    for n, row in enumerate(rows):
        cells = [row[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)
        ]
        lines.append("  ".join(cells))
        if n == 0:
            lines.append("-" * len(lines[0]))
    return "\n".join(lines)


def kind_table(kind: str, result: dict) -> str:
    """Ratios to the baseline per workload and contender, geometric means, and notes."""
    section = result["kinds"][kind]
    names = section["contenders"]
    baseline = names[0]
    rows = [["workload", f"{baseline} (time)", *names[1:]]]
    notes: dict[str, list[str]] = {}
    for wname, entry in section["workloads"].items():
        per = entry["contenders"]
        row = [wname, fmt_seconds(per[baseline].get("seconds"))]
        for name in names[1:]:
            e = per[name]
            row.append(cell(e))
            if e["status"] in ("n/a", "wrong", "error"):
                notes.setdefault(f"{name}: {e['reason']}", []).append(wname)
        rows.append(row)
    gm = section["geomean"]
    rows.append(["geometric mean", ""] + [_gm_cell(gm.get(name)) for name in names[1:]])
    rows.append(["  over workloads", ""] + [_gm_count(gm.get(name)) for name in names[1:]])
    title = (
        f"{KIND_TITLES[kind]}: time / {section['baseline_means']}, median of per-round "
        f"ratios ({section['rounds_note']})"
    )
    text = [title, _table(rows)]
    workloads = list(section["workloads"])
    for note, where in notes.items():
        scope = "all workloads" if where == workloads else ", ".join(where)
        text.append(f"  {note} [{scope}]")
    return "\n".join(text)


def _gm_cell(gm: dict | None) -> str:
    return fmt_ratio(gm["value"]) if gm and gm["count"] else "-"


def _gm_count(gm: dict | None) -> str:
    return f"{gm['count']}/{gm['of']}" if gm else "-"


def transform_table(result: dict) -> str:
    heading = ["tl cold", "tl disk", "tl warm", "tl jit 1st call", "tl jit cached"]
    heading.append("tangent-ad cold")
    rows = [["workload", *heading, "jax.jit 1st call"]]
    for wname, t in result["transform"].items():
        rows.append(
            [wname]
            + [
                fmt_seconds(t.get(k))
                for k in ("cold", "disk", "warm", "jit_first_call", "jit_cached_first_call")
            ]
            + [fmt_seconds(t.get("tangent_ad_cold")), fmt_seconds(t.get("jax_jit_first_call"))]
        )
    return "\n".join(
        [
            "Building the gradient (median): tl cold = caches emptied; tl disk = first tl.grad "
            "in a fresh process, entry on disk; tl warm = in-memory lookup; tl jit cached = jit "
            "first call in a fresh process, numba cache on disk",
            _table(rows),
        ]
    )


def memory_table(result: dict) -> str:
    memory = result["memory"]
    names = [n for n in result["kinds"]["grad"]["contenders"]]
    rows = [["workload", *names]]
    for wname, per in memory.items():
        row = [wname]
        for name in names:
            m = per.get(name)
            if not m or m.get("status") != "ok":
                row.append("n/a" if m and m.get("status") == "n/a" else "-")
            elif name in TRACED:
                row.append(fmt_bytes(m["traced"]))
            else:
                row.append(fmt_bytes(m["rss"]) + " (rss)")
        rows.append(row)
    return "\n".join(
        [
            "Peak memory of one gradient call, fresh process each: tracemalloc peak for "
            "NumPy-based contenders; (rss) = rise of the peak resident set, for the others",
            _table(rows),
        ]
    )


def render(result: dict) -> str:
    meta = result["meta"]
    parts = [
        "tangentlike benchmark suite: "
        + ", ".join(f"{k} {v}" for k, v in meta["versions"].items())
        + f"; {meta['cpus']} cpus, {meta['threads']}; {meta['mode']} run"
        + (f" of {meta['commit']}" if meta.get("commit") else "")
        + (f", load {meta['load_average'][0]:.1f} at start" if meta.get("load_average") else "")
        + f"; {meta.get('date', '')}"
    ]
    parts += [kind_table(kind, result) for kind in result["kinds"]]
    if result.get("transform"):
        parts.append(transform_table(result))
    if result.get("memory"):
        parts.append(memory_table(result))
    return "\n\n".join(parts)


if __name__ == "__main__":
    with open(sys.argv[1]) as fh:
        print(render(json.load(fh)))
