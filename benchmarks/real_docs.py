#!/usr/bin/env python3
"""Real documentation repositories, built as a new user would (issue 26, "Real documentation").

For each repository in ``REPOSITORIES`` (one per site generator, each at a named commit) it runs
``contextpull build DOCS --out OUT --json`` with ``--dialect auto`` and with ``--dialect plain``,
alternating the two, ``--repeats`` times, and prints one row per repository:

- documentation files under DOCS by extension (hidden names left out, as the build does);
- documents read, named skips (counted by reason), files the generator renders no page for
  (``dialect.not_pages``: partials, headless sections), documentation files neither read nor
  named (target: none), sections;
- the share of sections that still show markup a reader of the rendered page never sees
  (``docs_markup.MARKUP``; HTML tags are a column of their own);
- includes resolved and missing, from the build report's construct counts when it has them, and
  independently the include directives still in the stored text, and how many of those name a
  target that exists on disk ("left, target exists": the ones a build should have resolved);
- documents whose title is their file stem;
- the median build time of each dialect, wall and CPU (user + system of the build and its
  workers, from wait4: steadier than wall time on a shared machine), and their ratios (target:
  auto at most 1.5x plain); and, before each round, how long two CPU-bound processes take beside
  one (``two_core_factor``): a build that reads a dialect parses on a second core, which a shared
  host gives this machine only some of the time. This checkout's bytecode is compiled first, as pip compiles an
  installed package: without it, under ``PYTHONDONTWRITEBYTECODE``, every build compiled the
  modules it imports, and an ``auto`` build imports more of them than a ``plain`` one.

A build without a dialect setting (before issue 26) is measured as plain only; the auto cells
say "-". A build with the setting and not yet the ``--dialect`` flag gets ``CONTEXTPULL_DIALECT``.

The markup patterns and the rule for where they count (outside fenced code and inline code
spans; mdBook and pymdown includes everywhere, since they are expanded inside fences too) are in
``docs_markup.py`` beside this script.

The build finds a repository's root by its ``.git``; a checkout without one (an exported tree)
is copied into the work folder and ``git init`` is run in the copy, and stderr says so.

Getting the repositories (the commits the README's figures were measured at):

    git clone https://github.com/fastapi/fastapi corpora/fastapi
    git -C corpora/fastapi checkout c3f316b7e814667e8ee81e03a7330d00ee61e45c
    (likewise for each row of REPOSITORIES: git clone URL corpora/NAME && git -C corpora/NAME checkout COMMIT)

    .venv/bin/python benchmarks/real_docs.py --corpora corpora --repeats 5 --json real-docs.json
    .venv/bin/python benchmarks/real_docs.py --corpora corpora --only book --repeats 1 --keep /tmp/rd
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from docs_markup import TITLES_AS_TEXT, analyse_store, documentation_files, documentation_paths, stored_paths  # noqa: E402
from precompile import compile_package  # noqa: E402

# name (the folder under --corpora), generator, repository, commit, DOCS inside the checkout
REPOSITORIES = [
    ("fastapi", "mkdocs", "https://github.com/fastapi/fastapi", "c3f316b7e814667e8ee81e03a7330d00ee61e45c", "docs/en/docs"),
    ("book", "mdbook", "https://github.com/rust-lang/book", "917544888a55e4da7109bdba8c88c893c0da70f4", "src"),
    ("hugoDocs", "hugo", "https://github.com/gohugoio/hugoDocs", "1c613349f4220ae84070df25979d720c43e5cfa6", "content"),
    ("jekyll", "jekyll", "https://github.com/jekyll/jekyll", "202df571314ba1d18e9fccd81d12aaad4a703c38", "docs"),
    ("flask", "sphinx", "https://github.com/pallets/flask", "2ac89889f4cc330eabd50f295dcef02828522c69", "docs"),
    ("redux", "docusaurus", "https://github.com/reduxjs/redux", "3084fc33bb23ab4cab4796172eafe342da4e73d9", "docs"),
    ("axon-reference-guide", "gitbook", "https://github.com/AxonIQ/reference-guide", "7146c9fb795b5ac59267c8ab269e464f06b9985f", "."),
    ("beefree-sdk-docs", "gitbook", "https://github.com/BeefreeSDK/beefree-sdk-docs", "873fbe1012ee046beed32fb6ddd69dd9f34c2893", "."),
    ("nextra", "nextra", "https://github.com/shuding/nextra", "a54da393f4b7cb413bf7f874c1b3847e23bc874d", "docs/app"),
    ("nextra-swr", "nextra", "https://github.com/shuding/nextra", "a54da393f4b7cb413bf7f874c1b3847e23bc874d", "examples/swr-site/content"),
    ("swr-site", "nextra", "https://github.com/vercel/swr-site", "c18a9d0925e745b60cefe82e66e744aa6923c613", "pages"),
    ("react.dev", "mdx guessed", "https://github.com/reactjs/react.dev", "12d692da47e77cdc558b928fcfbaf4e71c6d0cec", "src/content"),
    ("vitepress", "vitepress", "https://github.com/vuejs/vitepress", "ed2bfb266ef788e86d1a73fe3cd7708a4cd5e260", "docs"),
    ("vitest", "vitepress", "https://github.com/vitest-dev/vitest", "c3ba16b35847d27fb9f01f38cdcb047c77e121f8", "docs"),
    ("vite", "vitepress", "https://github.com/vitejs/vite", "a98c8d95d552c6fa98ab66fb810f5b39ad5abf49", "docs"),
    ("starlight", "starlight", "https://github.com/withastro/starlight", "3999be7cc18b41095d61e3b63d68ff3e6c6c050b", "docs/src/content/docs"),
    ("biome-website", "starlight", "https://github.com/biomejs/website", "830c2a8d641c6c34ca551ff703dab758694c75e1", "src/content/docs"),
    ("tmgrammar-toolkit", "starlight", "https://github.com/svallory/tmgrammar-toolkit", "53cc136feb8907a628b9717678e40a6da6f974f5", "apps/site/src/content/docs"),
    ("mintlify-docs", "mintlify", "https://github.com/mintlify/docs", "3bbce7aa1abf66b19671bc398b9752d608fd0826", "."),
    ("mem0", "mintlify", "https://github.com/mem0ai/mem0", "8d5b7865bd0521e75fe9ab1b260eeccc83f8a378", "docs"),
]

def find_key(value, key: str):
    """The first value under ``key`` anywhere in a JSON value (the report's shape may move)."""
    if isinstance(value, dict):
        if key in value:
            return value[key]
        value = list(value.values())
    if isinstance(value, list):
        for item in value:
            found = find_key(item, key)
            if found is not None:
                return found
    return None


_INCLUDE_CONSTRUCT = re.compile(r"include|snippet|readfile|partial|\{\*", re.IGNORECASE)


def construct_counts(report: dict) -> dict | None:
    """Resolved / converted / unresolved per construct from the build report's ``constructs``, or
    None when the report has none. Accepts a mapping construct -> {outcome: count or list} and a
    list of rows with construct, outcome and an optional count."""
    raw = find_key(report, "constructs")
    if raw is None:
        return None
    counts: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    if isinstance(raw, dict):
        for construct, outcomes in raw.items():
            for outcome, n in (outcomes or {}).items() if isinstance(outcomes, dict) else []:
                counts[construct][outcome] += len(n) if isinstance(n, list) else int(n or 0)
    elif isinstance(raw, list):
        for row in raw:
            if isinstance(row, dict) and "construct" in row:
                for outcome in ("resolved", "converted", "unresolved"):
                    if isinstance(row.get(outcome), (int, list)):
                        n = row[outcome]
                        counts[row["construct"]][outcome] += len(n) if isinstance(n, list) else n
                if "outcome" in row:
                    counts[row["construct"]][row["outcome"]] += int(row.get("count", 1))
    includes = [c for c in counts if _INCLUDE_CONSTRUCT.search(c)]
    return {
        "by_construct": {c: dict(counts[c]) for c in sorted(counts)},
        "includes_resolved": sum(counts[c]["resolved"] for c in includes),
        "includes_missing": sum(counts[c]["unresolved"] for c in includes),
        "unresolved": sum(n["unresolved"] for n in counts.values()),
    }


def run_child(cmd: list[str], timeout: float, *, memory_mb: int = 0, cwd: str | None = None,
              env: dict | None = None) -> dict:
    """One command as a child: exit code, wall seconds, peak RSS (MB, from wait4, reaped
    descendants included), stdout, stderr; killed with its process group at ``timeout``, its
    address space capped at ``memory_mb`` when given."""
    def limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        child = subprocess.Popen(cmd, stdout=out, stderr=err, stdin=subprocess.DEVNULL, cwd=cwd, env=env,
                                 start_new_session=True, preexec_fn=limit if memory_mb else None)
        timed_out = False
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - t0 > timeout:
                timed_out = True
                os.killpg(child.pid, 9)
                pid, status, usage = os.wait4(child.pid, 0)
                break
            time.sleep(0.01)
        wall = time.perf_counter() - t0
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return {"rc": child.returncode, "wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime,
                "rss_mb": usage.ru_maxrss / 1024,
                "timed_out": timed_out, "stdout": out.read().decode(errors="replace"),
                "stderr": err.read().decode(errors="replace")}


ENV_NAME = "CONTEXTPULL_DIALECT"


def dialect_setting(cli: list[str]) -> str | None:
    """How this build takes a dialect: "flag" (``--dialect``), "env" (only ``CONTEXTPULL_DIALECT``:
    a build that has the setting and not yet its flag), or None (a build before issue 26)."""
    done = subprocess.run([*cli, "build", "--help"], capture_output=True, text=True, timeout=120)
    if "--dialect" in done.stdout:
        return "flag"
    with tempfile.TemporaryDirectory(prefix="probe-") as tmp:
        probe = subprocess.run([*cli, "build", tmp, "--out", f"{tmp}/out"], capture_output=True, text=True,
                               timeout=120, env={**os.environ, ENV_NAME: "no-such-value"})
    return "env" if "no-such-value" in probe.stderr else None


def dialect_args(how: str | None, dialect: str | None) -> tuple[list[str], dict]:
    """The arguments and environment that ask for ``dialect`` (None: the build's own default)."""
    env = {k: v for k, v in os.environ.items() if k != ENV_NAME}
    if how == "flag" and dialect:
        return ["--dialect", dialect], env
    if how == "env" and dialect:
        return [], {**env, ENV_NAME: dialect}
    return [], env


def as_checkout(tree: Path, into: Path) -> Path:
    """A copy of an exported tree (no ``.git``) with ``git init`` run in it: the build finds a
    repository's root by its ``.git``, as it does in the clone a user or the Action has."""
    shutil.copytree(tree, into, symlinks=True)
    if subprocess.run(["git", "init", "-q", str(into)], capture_output=True).returncode != 0:
        (into / ".git").mkdir()
    return into


def chosen(report: dict) -> str | None:
    """The dialect the build reports it chose, with the file that decided it."""
    value = find_key(report, "dialect")
    if isinstance(value, dict):
        name, config = value.get("name"), value.get("config_file")
        return f"{name} ({config})" if config else name
    return value if isinstance(value, str) else None


def build_once(cli: list[str], docs: Path, out: Path, dialect: str | None, how: str | None, timeout: float) -> dict:
    shutil.rmtree(out, ignore_errors=True)
    args, env = dialect_args(how, dialect)
    run = run_child([*cli, "build", str(docs), "--out", str(out), "--json", *args], timeout, env=env)
    try:
        run["report"] = json.loads(run["stdout"])
    except ValueError:
        run["report"] = {}
    return run


def _spin(n: int) -> None:
    x = 0
    for i in range(n):
        x += i


def two_core_factor(n: int = 3_000_000) -> float:
    """How long two CPU-bound processes take beside one alone: 1.0 when two cores are free, 2.0
    when the host gives this machine one. Taken before each round of builds, since a build that
    reads a dialect parses on a second core (``ingest/workers.py``) and the machine is shared."""
    import multiprocessing

    def timed(count: int) -> float:
        procs = [multiprocessing.Process(target=_spin, args=(n,)) for _ in range(count)]
        t0 = time.perf_counter()
        for proc in procs:
            proc.start()
        for proc in procs:
            proc.join()
        return time.perf_counter() - t0

    one = timed(1)
    return timed(2) / one if one else 1.0


def measure(name: str, generator: str, url: str, commit: str, docs_rel: str, *, corpora: Path,
            cli: list[str], how: str | None, dialects: list[str | None], repeats: int, work: Path,
            timeout: float) -> dict:
    """Both dialects on one repository, alternating, and what the last store of each shows."""
    repo = (corpora / name).resolve()
    row = {"name": name, "generator": generator, "url": url, "commit": commit, "docs": docs_rel,
           "files": documentation_files(repo / docs_rel)}
    head = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True)
    row["checkout"] = head.stdout.strip() if head.returncode == 0 else None
    row["copied"] = not (repo / ".git").exists()
    if row["copied"]:
        repo = as_checkout(repo, work / f"{name}-checkout")
    docs = repo / docs_rel
    runs: dict[str, list[dict]] = {str(d): [] for d in dialects}
    row["two_cores"] = []
    for i in range(repeats):
        row["two_cores"].append(round(two_core_factor(), 2))
        for dialect in dialects if i % 2 == 0 else dialects[::-1]:
            runs[str(dialect)].append(build_once(cli, docs, work / name / str(dialect), dialect, how, timeout))
    for dialect in dialects:
        key = str(dialect)
        last = runs[key][-1]
        manifest = last["report"].get("manifest") or {}
        skipped = manifest.get("skipped") or []
        result = {
            "exit_code": last["rc"],
            "error": last["report"].get("error") or (last["stderr"].strip().splitlines() or [""])[-1] if last["rc"] else None,
            "dialect_chosen": chosen(last["report"]),
            "documents": (manifest.get("counts") or {}).get("documents", 0),
            "skipped": len(skipped),
            "skip_reasons": dict(collections.Counter(s.get("reason", "?") for s in skipped).most_common()),
            "build_s": statistics.median(r["wall_s"] for r in runs[key]),
            "build_s_runs": [round(r["wall_s"], 3) for r in runs[key]],
            "cpu_s": statistics.median(r["cpu_s"] for r in runs[key]),
            "rss_mb": max(r["rss_mb"] for r in runs[key]),
            "constructs": construct_counts(last["report"]),
        }
        store = work / name / key / "store.sqlite"
        result.update(analyse_store(store, docs, repo, generator in TITLES_AS_TEXT) if last["rc"] in (0, 1) and store.exists() else
                      {"sections": 0, "sections_with_markup": 0, "markup_share": 0.0, "markup_by_pattern": {},
                       "sections_with_html_tags": 0, "includes_left": 0, "includes_left_target_exists": 0,
                       "includes_left_by_construct": {}, "stem_titles": 0, "stem_title_examples": []})
        # Files the generator renders no page for are named too, in the construct report.
        not_pages = (last["report"].get("dialect") or {}).get("not_pages") or []
        result["not_pages"] = len(not_pages)
        result["not_page_reasons"] = dict(collections.Counter(e.get("reason", "?") for e in not_pages).most_common())
        named = {s.get("path") for s in skipped} | {e.get("path") for e in not_pages}
        silent = sorted(set(documentation_paths(docs)) - stored_paths(store) - named)
        result.update(unaccounted=len(silent), unaccounted_examples=silent[:5])
        row["plain" if dialect in (None, "plain") else dialect] = result
    if "auto" in row and "plain" in row and row["plain"]["build_s"]:
        row["time_ratio"] = row["auto"]["build_s"] / row["plain"]["build_s"]
        row["cpu_ratio"] = row["auto"]["cpu_s"] / row["plain"]["cpu_s"] if row["plain"]["cpu_s"] else None
    return row


def _cell(row: dict, dialect: str, fmt) -> str:
    return fmt(row[dialect]) if dialect in row else "-"


COLUMNS = [
    ("doc files", None),
    ("read", lambda r: f"{r['documents']:,}" + (f" (exit {r['exit_code']})" if r["exit_code"] else "")),
    ("named skips", lambda r: f"{r['skipped']}" + "".join(f"; {n} {why}" for why, n in r["skip_reasons"].items())),
    ("not pages", lambda r: f"{r.get('not_pages', 0):,}"),
    ("neither read nor named", lambda r: f"{r['unaccounted']:,}"),
    ("sections", lambda r: f"{r['sections']:,}"),
    ("markup", lambda r: f"{r['markup_share']:.1%} ({r['sections_with_markup']:,})"),
    ("HTML tags", lambda r: f"{r['sections_with_html_tags']:,}"),
    ("includes resolved (missing)", lambda r: f"{r['constructs']['includes_resolved']:,} ({r['constructs']['includes_missing']:,})" if r["constructs"] else "n/a"),
    ("includes left (target exists)", lambda r: f"{r['includes_left']:,} ({r['includes_left_target_exists']:,})"),
    ("stem titles", lambda r: f"{r['stem_titles']:,}"),
    ("build s", lambda r: f"{r['build_s']:.2f}"),
    ("CPU s", lambda r: f"{r['cpu_s']:.2f}"),
]


def table(rows: list[dict]) -> str:
    """A markdown table, one row per repository: each cell ``auto / plain``, or plain alone when
    no build was auto."""
    both = any("auto" in row for row in rows)
    lines = ["| repository | " + " | ".join(h for h, _ in COLUMNS) + (" | wall (CPU) auto / plain |" if both else " |"),
             "|---" * (len(COLUMNS) + 1 + both) + "|"]
    for row in rows:
        cells = [f"{row['name']} ({row['generator']})"]
        for header, fmt in COLUMNS:
            if fmt is None:
                files = row["files"]
                cells.append(f"{sum(files.values()):,}: " + ", ".join(f"{n} {e}" for e, n in files.items()))
            elif both:
                cells.append(f"{_cell(row, 'auto', fmt)} / {_cell(row, 'plain', fmt)}")
            else:
                cells.append(_cell(row, "plain", fmt))
        if both:
            cpu = f" ({row['cpu_ratio']:.2f}x)" if row.get("cpu_ratio") else ""
            cells.append(f"{row['time_ratio']:.2f}x{cpu}" if "time_ratio" in row else "-")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpora", type=Path, required=True, help="folder holding one checkout per REPOSITORIES name")
    parser.add_argument("--only", action="append", default=[], metavar="NAME", help="measure only these repositories")
    parser.add_argument("--repeats", type=int, default=3, help="builds per dialect, alternating (default 3)")
    parser.add_argument("--json", type=Path, default=None, metavar="FILE", help="write every figure here")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per build before it is killed")
    parser.add_argument("--keep", type=Path, default=None, metavar="DIR",
                        help="build into DIR/NAME/DIALECT and keep the stores to inspect (default: a temporary folder)")
    parser.add_argument("--plain-only", action="store_true", help="measure plain only (the baseline)")
    parser.add_argument("--cli", default=f"{sys.executable} -m contextpull", help="the contextpull command")
    args = parser.parse_args(argv)
    cli = args.cli.split()
    unknown = sorted(set(args.only) - {r[0] for r in REPOSITORIES})
    if unknown:
        parser.error(f"--only: no repository named {', '.join(unknown)} (known: {', '.join(r[0] for r in REPOSITORIES)})")
    chosen = [r for r in REPOSITORIES if not args.only or r[0] in args.only]
    missing = [r[0] for r in chosen if not (args.corpora / r[0] / r[4]).is_dir()]
    if missing:
        parser.error(f"--corpora {args.corpora}: no checkout for {', '.join(missing)} (see --help for git clone)")
    if args.keep and args.keep.exists() and any(args.keep.iterdir()):
        parser.error(f"--keep {args.keep}: the folder is not empty")
    compile_package()  # as pip does on install (precompile.py): auto loads more modules than plain
    how = dialect_setting(cli)
    dialects: list[str | None] = (["plain"] if args.plain_only else ["auto", "plain"]) if how else [None]
    if how is None:
        print("this build has no dialect setting: plain only", file=sys.stderr)
    elif how == "env":
        print(f"this build has no --dialect flag: the dialect is set through {ENV_NAME}", file=sys.stderr)
    rows = []
    with tempfile.TemporaryDirectory(prefix="real-docs-") as tmp:
        work = Path(tmp)
        if args.keep:
            work = args.keep
            work.mkdir(parents=True, exist_ok=True)
        for spec in chosen:
            row = measure(*spec, corpora=args.corpora, cli=cli, how=how, dialects=dialects, repeats=args.repeats,
                          work=work, timeout=args.timeout)
            if row["copied"]:
                print(f"{row['name']}: not a git checkout; built from a copy with git init run in it", file=sys.stderr)
            if row["checkout"] and row["checkout"] != row["commit"]:
                print(f"{row['name']}: checkout is at {row['checkout'][:12]}, the table names {row['commit'][:12]}", file=sys.stderr)
            rows.append(row)
            print(f"measured {row['name']}", file=sys.stderr)
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    print(f"{time.strftime('%Y-%m-%d', time.gmtime())}, commit {commit or '?'}, medians of {args.repeats}")
    print(table(rows))
    factors = [f for row in rows for f in row.get("two_cores", [])]
    if factors:
        print(f"\nTwo CPU-bound processes took {min(factors):.2f}-{max(factors):.2f}x (median "
              f"{statistics.median(factors):.2f}x) the time of one, measured before each round "
              "(1.0x: two cores free; 2.0x: one).")
    if args.json:
        args.json.write_text(json.dumps({"commit": commit, "repeats": args.repeats, "dialect_setting": how,
                                         "repositories": rows}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
