"""Counts, per-construct tables, failure kinds, and standalone reproduction files."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .classify import KINDS, Outcome
from .constructs import constructs
from .program import Program

FAILURES = ("wrong", "crash")
# Tags too common to tell one failure from another.
NOISE = {
    "binop:+", "binop:-", "binop:*", "binop:/", "compare", "unary:-", "np.sum", "np.mean",
    "np.sin", "np.cos", "np.tanh", "np.exp", "np.square", "np.array", "np.zeros", "np.ones",
    "np.zeros_like", "np.copy", "method:copy", "list", "sum", "dict", "range", "helper-call",
    "param:int", "param:matrix",
}  # fmt: skip


def family(signature: str, source: str) -> str:
    """A shrunk failure's signature with the telling constructs of its program."""
    tags = sorted(
        t for t in constructs(source)
        if t not in NOISE and not t.startswith(("literal:", "subscript:"))
    )  # fmt: skip
    return f"{signature} | {', '.join(tags)}"


@dataclass
class Failure:
    """One failing program, and its shrunk form when it was shrunk."""

    program: Program
    outcome: Outcome
    shrunk: Program | None = None
    shrunk_outcome: Outcome | None = None
    path: Path | None = None


@dataclass
class Summary:
    counts: Counter = field(default_factory=Counter)
    by_construct: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    by_signature: dict[str, list[Failure]] = field(default_factory=lambda: defaultdict(list))
    families: dict[str, list[Failure]] = field(default_factory=lambda: defaultdict(list))
    refusals: Counter = field(default_factory=Counter)
    skips: Counter = field(default_factory=Counter)

    def add_failure(self, failure: Failure) -> None:
        self.by_signature[failure.outcome.signature].append(failure)
        if failure.shrunk is not None:
            self.families[family(failure.outcome.signature, failure.shrunk.source)].append(failure)

    def add(self, program: Program, outcome: Outcome) -> None:
        self.counts["programs"] += 1
        self.counts[outcome.kind] += 1
        for tag in program.tags:
            self.by_construct[tag][outcome.kind] += 1
        if outcome.kind == "refused":
            self.refusals[outcome.signature] += 1
        if outcome.kind == "skipped":
            self.skips[outcome.reason] += 1

    def line(self) -> str:
        return ", ".join(f"{k} {self.counts[k]}" for k in ("programs", *KINDS))

    def construct_table(self, limit: int | None = None) -> str:
        rows = sorted(
            self.by_construct.items(),
            key=lambda item: -(item[1]["wrong"] + item[1]["crash"]) / sum(item[1].values()),
        )
        head = f"{'construct':32} {'programs':>8} " + " ".join(f"{k:>8}" for k in KINDS)
        lines = [head]
        for tag, c in rows[:limit]:
            total = sum(c.values())
            lines.append(f"{tag:32} {total:8d} " + " ".join(f"{c[k]:8d}" for k in KINDS))
        return "\n".join(lines)

    def failure_kinds(self) -> str:
        lines = []
        ordered = sorted(self.by_signature.items(), key=lambda item: -len(item[1]))
        for signature, failures in ordered:
            first = failures[0]
            where = f"  e.g. {first.path}" if first.path else ""
            lines.append(f"{len(failures):5d}  {signature}{where}")
        return "\n".join(lines)

    def family_list(self) -> str:
        lines = []
        for name, failures in sorted(self.families.items(), key=lambda item: -len(item[1])):
            where = f"\n         e.g. {failures[0].path}" if failures[0].path else ""
            lines.append(f"{len(failures):5d}  {name}{where}")
        return "\n".join(lines)

    def as_json(self) -> dict:
        return {
            "counts": dict(self.counts),
            "by_construct": {k: dict(v) for k, v in sorted(self.by_construct.items())},
            "failure_kinds": {
                sig: [str(f.path) if f.path else f.program.name for f in fails]
                for sig, fails in self.by_signature.items()
            },
            "shrunk_families": {
                name: [str(f.path) if f.path else f.program.name for f in fails]
                for name, fails in self.families.items()
            },
            "refusals": dict(self.refusals.most_common()),
            "skips": dict(self.skips.most_common()),
        }

    def write(self, out: Path) -> None:
        (out / "summary.json").write_text(json.dumps(self.as_json(), indent=1) + "\n")
        text = [
            self.line(),
            "",
            self.construct_table(),
            "",
            "failure kinds:",
            self.failure_kinds(),
            "",
            "shrunk failures by signature and constructs:",
            self.family_list(),
        ]
        (out / "summary.txt").write_text("\n".join(text) + "\n")


def _literal(value: object) -> str:
    if isinstance(value, np.ndarray):
        return f"np.array({value.tolist()!r})"
    return repr(value)


def reproduction(program: Program, outcome: Outcome, original: Program | None = None) -> str:
    """A standalone script: the program, its inputs, what was expected and what happened.
    Running it prints f's value and tangentlike's value and gradient (or its error)."""
    header = [
        f"tangentlike fuzz reproduction: {outcome.kind}: {outcome.reason}",
        f"{program.name}; signature: {outcome.signature}",
    ]
    if original is not None and original.source != program.source:
        header.append(f"shrunk from {original.source.count(chr(10))} lines")
    if outcome.detail:
        header += ["", *outcome.detail.replace('"""', "'''").rstrip().splitlines()]
    args = outcome.args or []
    wrt = tuple(p.name for p in program.params if p.differentiable)
    doc = '"""' + "\n".join(header) + '\n"""\n'
    body = program.source
    runner = f"""

def inputs():
    return [{", ".join(_literal(a) for a in args)}]


if __name__ == "__main__":
    import tangentlike as tl

    print("f:", f(*inputs()))
    print("tangentlike:", tl.value_and_grad(f, wrt={wrt!r}, cache=False)(*inputs()))
"""
    return doc + body + runner


def write_failure(out: Path, failure: Failure) -> Path:
    program = failure.shrunk or failure.program
    outcome = failure.shrunk_outcome or failure.outcome
    if outcome.args is None:
        outcome = failure.outcome
    name = f"{failure.outcome.kind}-s{program.seed}-p{program.index}.py"
    path = out / name
    path.write_text(reproduction(program, outcome, failure.program))
    return path
