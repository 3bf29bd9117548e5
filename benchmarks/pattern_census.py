"""Every regular expression the write side compiles, against long runs of its own openers
(issue 35, "Linear time"): prints how many there are, how many are bounded, and the rest with
``file:line``.

    .venv/bin/python benchmarks/pattern_census.py [--checkout /work/main] [--cap 20] [--only dialects/]

Found by reading the source (AST), not by running it: ``re.compile`` with a literal pattern
(a string, a concatenation of strings, or a module constant holding one) and inline
``re.search/match/fullmatch/sub/subn/finditer/findall/split`` with one. Patterns built at run
time (f-strings holding a value, ``re.escape``) are counted apart: they cannot be measured here.
The reader core (what ``contextpull.store/ops/tools/results`` load, plus ``grep/`` and
``search/``) is left out: it serves stores, it does not read documents.

A hostile input is built from the pattern's own parse tree: a string the pattern needs (one
literal per position, a member of each class, each repeat taken at its minimum), then long runs
of its first one, two, three characters, of each character it needs, of the whole witness and
of blanks. A screening run at 4,000 and 8,000 characters picks the worst of them; that one is
timed on a 64,000- and a 128,000-character line, each in a subprocess killed at ``--cap``
seconds. Doubling the line doubles a linear pattern's time and quadruples a quadratic one's; a
pattern is *bounded* when the long line takes under 0.1 s (every quadratic one found takes over
2 s there; below that the ratio is noise on a busy machine) or the ratio is under 3x and it
takes under ``--fast`` seconds. Each time is the least of up to three runs; a ratio of 3x or
more on a line that takes under a second is measured again at 256,000 and 512,000 characters,
and that ratio decides. A private pattern (``_NAME``) only ever used in its module with
``.match``/``.fullmatch`` is timed that way (anchored at 0); all others, public names included
(another module may search with them), with ``finditer`` (the cost of ``search``, ``sub`` and
``split`` alike).
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
READER_CORE = {"store.py", "ops.py", "tools.py", "errors.py", "results.py", "schema.py", "tool_schema.py",
               "text.py", "lazy.py", "bounded_read.py", "__init__.py", "grep", "search", "system"}
INLINE = {"search", "match", "fullmatch", "sub", "subn", "finditer", "findall", "split"}
FLAG_ARG = {"compile": 1, "search": 2, "match": 2, "fullmatch": 2, "finditer": 2, "findall": 2, "split": 3,
            "sub": 4, "subn": 4}
# The folders benchmarks/reading_pipeline.py counts as the write side, for a figure beside its.
WRITE_SIDE = ("dialects", "parsing", "writing", "ingest", "artifact", "checks", "settings", "apiref")
SIZES = (64_000, 128_000)
SCREEN = (4_000, 8_000)
CONFIRM = (256_000, 512_000)


# -- finding the patterns -------------------------------------------------------------------

def _is_core(rel: Path) -> bool:
    return len(rel.parts) >= 1 and (rel.parts[0] in READER_CORE if len(rel.parts) > 1 else rel.name in READER_CORE)


def _literal(node: ast.AST, consts: dict[str, str]) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name) and node.id in consts:
        return consts[node.id]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _literal(node.left, consts), _literal(node.right, consts)
        return None if left is None or right is None else left + right
    if isinstance(node, ast.JoinedStr) and all(isinstance(v, ast.Constant) for v in node.values):
        return "".join(v.value for v in node.values)  # type: ignore[attr-defined]
    return None


def _flags(node: ast.AST | None) -> int | None:
    if node is None:
        return 0
    try:
        return int(eval(compile(ast.Expression(node), "<flags>", "eval"), {"re": re, **vars(re)}))
    except Exception:
        return None


def _target_name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def find_patterns(package: Path) -> tuple[list[dict], list[str]]:
    """Every literal pattern: ``{file, line, kind, pattern, flags, use}``; and the dynamic ones' places."""
    found, dynamic = [], []
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package)
        if _is_core(rel):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        consts: dict[str, str] = {}
        for node in tree.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                value = _literal(node.value, consts)
                if value is not None:
                    consts[node.targets[0].id] = value
        names: dict[str, set[str]] = {}  # compiled name -> methods called on it in this module
        bound: dict[int, str] = {}  # id(compile call) -> name it is assigned to
        for node in ast.walk(tree):
            if isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if len(targets) == 1 and isinstance(node.value, ast.Call):
                    name = _target_name(targets[0])
                    if name:
                        bound[id(node.value)] = name
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                owner = _target_name(node.func.value)
                if owner:
                    names.setdefault(owner, set()).add(node.func.attr)
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                names.setdefault(node.id, set()).add("<used>")
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"):
                continue
            kind = node.func.attr
            if kind != "compile" and kind not in INLINE:
                continue
            where = f"{rel}:{node.lineno}"
            pattern = _literal(node.args[0], consts) if node.args else None
            if pattern is None:
                dynamic.append(where)
                continue
            index = FLAG_ARG[kind]
            flag_node = node.args[index] if len(node.args) > index else None
            for kw in node.keywords:
                if kw.arg == "flags":
                    flag_node = kw.value
            flags = _flags(flag_node)
            if flags is None:
                dynamic.append(where)
                continue
            use = "finditer"
            if kind in ("match", "fullmatch"):
                use = "match"
            elif kind == "compile":
                methods = names.get(bound.get(id(node), ""), set()) - {"<used>"}
                plain_uses = names.get(bound.get(id(node), ""), set()) & {"<used>"}
                name = bound.get(id(node), "")
                # A public name may be imported and searched elsewhere: timed as searched.
                if (name.startswith("_") and methods and methods <= {"match", "fullmatch"}
                        and not (plain_uses and _passed_on(tree, name))):
                    use = "match"
            found.append({"file": str(rel), "line": node.lineno, "kind": kind, "pattern": pattern,
                          "flags": flags, "use": use})
    return found, dynamic


def _passed_on(tree: ast.AST, name: str | None) -> bool:
    """True when the compiled name is used other than as ``NAME.method(...)`` (handed to a caller)."""
    if name is None:
        return True
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for arg in [*node.args, *(k.value for k in node.keywords)]:
                if _target_name(arg) == name:
                    return True
    return False


# -- hostile inputs -------------------------------------------------------------------------

def _member(items, negate: bool) -> str:
    from re import _constants as c  # type: ignore[attr-defined]

    chars: list[str] = []
    for op, av in items:
        if op is c.LITERAL:
            chars.append(chr(av))
        elif op is c.RANGE:
            chars.append(chr(av[0]))
        elif op is c.CATEGORY:
            chars.append({c.CATEGORY_DIGIT: "0", c.CATEGORY_SPACE: " ", c.CATEGORY_WORD: "a",
                          c.CATEGORY_NOT_DIGIT: "a", c.CATEGORY_NOT_SPACE: "a",
                          c.CATEGORY_NOT_WORD: " "}.get(av, "a"))
    if not negate:
        return chars[0] if chars else "a"
    for guess in "a x0-.#\"'=":
        if not any(_class_has(items, guess)):
            return guess
    return "\u00e9"


def _class_has(items, ch: str):
    for op, av in items:
        yield bool(re.fullmatch("[" + _class_text(op, av) + "]", ch)) if _class_text(op, av) else False


def _class_text(op, av) -> str:
    from re import _constants as c  # type: ignore[attr-defined]

    if op is c.LITERAL:
        return re.escape(chr(av))
    if op is c.RANGE:
        return re.escape(chr(av[0])) + "-" + re.escape(chr(av[1]))
    if op is c.CATEGORY:
        return {c.CATEGORY_DIGIT: r"\d", c.CATEGORY_SPACE: r"\s", c.CATEGORY_WORD: r"\w",
                c.CATEGORY_NOT_DIGIT: r"\D", c.CATEGORY_NOT_SPACE: r"\S", c.CATEGORY_NOT_WORD: r"\W"}.get(av, "")
    return ""


def witness(seq) -> str:
    """A string the parsed sequence needs: its literals, one member per class, repeats at minimum (>= 1)."""
    from re import _constants as c  # type: ignore[attr-defined]

    out: list[str] = []
    for op, av in seq:
        if op is c.LITERAL:
            out.append(chr(av))
        elif op is c.NOT_LITERAL:
            out.append("a" if chr(av) != "a" else "b")
        elif op is c.IN:
            negate = bool(av) and av[0][0] is c.NEGATE
            out.append(_member(av[1:] if negate else av, negate))
        elif op is c.ANY:
            out.append("a")
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, getattr(c, "POSSESSIVE_REPEAT", None)):
            lo, _hi, sub = av
            out.append(witness(sub) * min(max(lo, 1), 3))
        elif op is c.SUBPATTERN:
            out.append(witness(av[-1]))
        elif op is c.BRANCH:
            out.append(witness(av[1][0]))
        elif op in (c.ATOMIC_GROUP,) if hasattr(c, "ATOMIC_GROUP") else ():
            out.append(witness(av))
    return "".join(out)


def candidates(pattern: str, flags: int) -> dict[str, str]:
    """Named seeds; each is repeated to the measured length."""
    from re import _parser  # type: ignore[attr-defined]

    tree = _parser.parse(pattern, flags)
    seeds: list[str] = [witness(tree)]
    from re import _constants as c  # type: ignore[attr-defined]

    if len(tree.data) == 1 and tree.data[0][0] is c.BRANCH:  # one witness per top-level alternative
        seeds = [witness(alt) for alt in tree.data[0][1][1]]
    if len(tree.data) == 1 and tree.data[0][0] is c.SUBPATTERN and tree.data[0][1][-1].data[:1] \
            and tree.data[0][1][-1].data[0][0] is c.BRANCH:
        seeds += [witness(alt) for alt in tree.data[0][1][-1].data[0][1][1]]
    out: dict[str, str] = {"blanks": " ", "blank-x": " x"}
    for seed in seeds:
        if not seed:
            continue
        for k in (1, 2, 3):
            if len(seed) >= k:
                out[f"run {seed[:k]!r}"] = seed[:k]
        out[f"witness {seed[:12]!r}"] = seed
        if len(seed) > 1:
            out[f"witness-1 {seed[:12]!r}"] = seed[:-1]
            out[f"witness+blank {seed[:12]!r}"] = seed + " "
        for ch in dict.fromkeys(seed):
            out[f"run {ch!r}"] = ch
    return out


# -- timing (in a subprocess, capped) ------------------------------------------------------

_CHILD = """
import json, re, sys, time
spec = json.loads(sys.stdin.read())
rx = re.compile(spec["pattern"], spec["flags"])
out = {}
for name, seed in spec["seeds"].items():
    best = None
    for n in spec["sizes"]:
        text = (seed * (n // len(seed) + 1))[:n]
        took = []
        while len(took) < 3 and sum(took) < 0.5:  # the least of three: a busy machine only adds
            start = time.perf_counter()
            if spec["use"] == "match":
                rx.match(text)
            else:
                for _ in rx.finditer(text):
                    pass
            took.append(time.perf_counter() - start)
        out.setdefault(name, []).append(min(took))
print(json.dumps(out))
"""


def timed(entry: dict, seeds: dict[str, str], sizes: tuple[int, ...], cap: float) -> dict[str, list[float]] | None:
    spec = json.dumps({"pattern": entry["pattern"], "flags": entry["flags"], "use": entry["use"],
                       "seeds": seeds, "sizes": list(sizes)})
    try:
        proc = subprocess.run([sys.executable, "-c", _CHILD], input=spec, capture_output=True, text=True,
                              timeout=cap)
    except subprocess.TimeoutExpired:
        return None
    if proc.returncode:
        raise RuntimeError(proc.stderr)
    return json.loads(proc.stdout)


def measure(entry: dict, cap: float) -> dict:
    seeds = candidates(entry["pattern"], entry["flags"])
    screen = timed(entry, seeds, SCREEN, cap)
    if screen is None:
        worst = max(seeds, key=lambda k: len(seeds[k]))  # cannot tell: every seed is suspect
        return {**entry, "seed": worst, "t64": None, "t128": None, "ratio": None}
    worst = max(screen, key=lambda k: (screen[k][1], screen[k][1] / max(screen[k][0], 1e-7)))
    one = {worst: seeds[worst]}
    small = timed(entry, one, SIZES[:1], cap)
    big = timed(entry, one, SIZES[1:], cap) if small is not None else None
    t64 = small[worst][0] if small else None
    t128 = big[worst][0] if big else None
    ratio = t128 / max(t64, 1e-6) if t64 is not None and t128 is not None else None
    row = {**entry, "seed": worst, "t64": t64, "t128": t128, "ratio": ratio, "confirm": None}
    if ratio is not None and ratio >= 3.0 and t128 < 1.0:
        # A steep ratio on a short time can be the engine's stack growing, not the pattern:
        # doubling again (256,000 to 512,000) tells which. Quadratic stays near 4x.
        again = timed(entry, one, CONFIRM, cap)
        if again is not None:
            row["confirm"] = again[worst][1] / max(again[worst][0], 1e-6)
    return row


def is_bounded(row: dict, fast: float) -> bool:
    if row["t128"] is None or row["ratio"] is None:
        return False
    # Under 0.1 s the ratio is noise: every quadratic pattern found took over 2 s at 128,000.
    ratio = row["ratio"] if row.get("confirm") is None else row["confirm"]
    return row["t128"] < 0.1 or (ratio < 3.0 and row["t128"] < fast)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--checkout", type=Path, default=ROOT, help="the checkout whose package is read")
    ap.add_argument("--cap", type=float, default=20.0, help="seconds before one measurement is killed")
    ap.add_argument("--fast", type=float, default=0.5, help="seconds a bounded pattern may take at 128,000")
    ap.add_argument("--only", default="", help="a path prefix inside the package, e.g. dialects/")
    ap.add_argument("--json", type=Path, default=None, help="write every row here too")
    args = ap.parse_args(argv)
    found, dynamic = find_patterns(args.checkout / "contextpull")
    found = [f for f in found if f["file"].startswith(args.only)]
    rows = []
    for entry in found:
        rows.append(measure(entry, args.cap))
        row = rows[-1]
        if not is_bounded(row, args.fast):
            t64 = f"{row['t64']:.2f}" if row["t64"] is not None else f">{args.cap:.0f}"
            t128 = f"{row['t128']:.2f}" if row["t128"] is not None else f">{args.cap:.0f}"
            ratio = f"{row['ratio']:.1f}x" if row["ratio"] is not None else "-"
            if row.get("confirm") is not None:
                ratio += f", {row['confirm']:.1f}x at 512,000"
            print(f"  {row['file']}:{row['line']}  {t64}s -> {t128}s ({ratio})  on {row['seed']}"
                  f"  {row['pattern'][:60]!r}", flush=True)
    bounded = sum(is_bounded(r, args.fast) for r in rows)
    in_dialects = sum(r["file"].startswith("dialects/") for r in rows)
    print(f"\ncheckout {args.checkout}  patterns {len(rows)} (dialects/ {in_dialects}); "
          f"bounded {bounded}; not bounded {len(rows) - bounded}; built at run time (not measured) {len(dynamic)}")
    side = [r for r in rows if r["file"].split("/")[0] in WRITE_SIDE]
    print(f"of them in the folders reading_pipeline.py counts as the write side ({', '.join(WRITE_SIDE)}): "
          f"{len(side)}, bounded {sum(is_bounded(r, args.fast) for r in side)}")
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "dynamic": dynamic}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
