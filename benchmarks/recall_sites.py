"""Does search find the right page? Document-level recall@5 and MRR@10 on real documentation
sites, lexical and hybrid with each embedding model (issue 38).

For each site of ``real_docs.REPOSITORIES`` (six generators at named commits) and the uv docs it
builds the docs with ``contextpull build DOCS --dialect auto`` once without a model and once per
``--models`` entry (``--embed-model M``), then asks every question of
``benchmarks/questions/NAME.jsonl`` (uv: the bench's ``uv-questions.jsonl``) with
``Ops.search(q, limit=10)`` in lexical and in hybrid mode.

- A question has one gold page (``source``); a hit counts when its document is that page.
  recall@5: the share of questions whose page is the document of one of the first five hits;
  MRR@10: the mean of 1/rank of the first hit on the page (0 past ten).
- uv's questions also name gold sections (``gold_chunk_ids``); their section-level recall@5 is
  printed beside, the figure the bench's ``recall.py`` reports.
- Lexical figures come from the build without a model (they are the same on every store).
- Each model's build reuses the vectors of that model's previous build in ``--work`` (``--cache``),
  as a CI does between runs; ``--fresh`` embeds everything again. The build's embed seconds and
  sections embedded are printed, so a run that reused vectors says so.

The question sets were written from the pages before any retrieval was measured and are kept
fixed: a question whose gold page is not in a build is counted as a miss and named on stderr.

    .venv/bin/python benchmarks/recall_sites.py --corpora /work/corpora/sites \\
        --models local:minilm,local:potion --work /tmp/recall --json recall.json
    .venv/bin/python benchmarks/recall_sites.py --corpora /work/corpora/sites --only flask,uv --misses

Getting the sites: see ``real_docs.py`` (each row of REPOSITORIES: clone, check out the commit;
``--corpora`` holds them by name, the docs folder inside each).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT))
from real_docs import REPOSITORIES  # noqa: E402

from contextpull.ops import Ops  # noqa: E402
from contextpull.store import Store  # noqa: E402

QUESTIONS = Path(__file__).resolve().parent / "questions"
UV_DOCS = ROOT.parent / "shared" / "corpora" / "uv-docs"
UV_QUESTIONS = ROOT.parent / "shared" / "bench" / "uv-questions.jsonl"
CLI = [sys.executable, "-m", "contextpull"]
LIMIT = 10


def sites(corpora: Path, only: set[str] | None) -> list[tuple[str, Path, Path]]:
    """(name, docs folder, questions file) of every site asked for that is on disk."""
    found = []
    for name, _generator, _url, _commit, docs_rel in REPOSITORIES:
        if only and name not in only:
            continue
        docs = corpora / name / docs_rel
        if not docs.is_dir():
            print(f"{name}: {docs} not found, skipped", file=sys.stderr)
            continue
        found.append((name, docs, QUESTIONS / f"{name}.jsonl"))
    if (not only or "uv" in only) and UV_DOCS.is_dir():
        found.append(("uv", UV_DOCS, UV_QUESTIONS))
    return found


def load_questions(path: Path) -> list[dict]:
    """A question set: one JSON object a line."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def build(docs: Path, out: Path, model: str | None, fresh: bool) -> dict:
    """One ``contextpull build``; the previous store of the same model is its ``--cache``."""
    cmd = CLI + ["build", str(docs), "--out", str(out), "--dialect", "auto", "--json"]
    cache = out.with_name(out.name + ".cache.sqlite")
    if (out / "store.sqlite").exists() and not fresh:
        shutil.copyfile(out / "store.sqlite", cache)
        cmd += ["--cache", str(cache)]
    if model:
        cmd += ["--embed-model", model]
    started = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, cwd="/")
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"build of {docs} with {model or 'no model'} failed ({done.returncode}): {done.stderr.strip()[-800:]}")
    report = json.loads(done.stdout)
    cache.unlink(missing_ok=True)
    vectors = _find(report, "embeddings") or {}
    return {"wall_s": round(wall, 1), "embed_s": (report.get("timings") or {}).get("embed_s"),
            "embedded": vectors.get("embedded") if isinstance(vectors, dict) else None,
            "kept": vectors.get("kept") if isinstance(vectors, dict) else None}


def _find(value, key: str):
    if isinstance(value, dict):
        if key in value:
            return value[key]
        for item in value.values():
            found = _find(item, key)
            if found is not None:
                return found
    return None


def ask(store: Path, questions: list[dict], mode: str) -> list[dict]:
    """Each question's ranked hits as (section id, document path)."""
    answers = []
    with Store.open(store) as opened:
        ops = Ops(opened)
        for question in questions:
            result = ops.search(question["q"], limit=LIMIT, mode=mode)
            if mode == "hybrid" and result.mode != "hybrid":
                raise SystemExit(f"{store}: hybrid search ran {result.mode}: {result.hint}")
            answers.append({"ids": [h.id for h in result.hits], "docs": [h.doc for h in result.hits]})
    return answers


def score(questions: list[dict], answers: list[dict]) -> dict:
    found5 = sections5 = 0
    reciprocal = 0.0
    misses = []
    for question, answer in zip(questions, answers):
        gold = question["source"]
        docs = answer["docs"]
        rank = docs.index(gold) + 1 if gold in docs else None
        found5 += bool(rank and rank <= 5)
        reciprocal += 1.0 / rank if rank else 0.0
        golds = set(question.get("gold_chunk_ids") or ())
        sections5 += bool(golds & set(answer["ids"][:5]))
        if not rank or rank > 5:
            misses.append({"id": question["id"], "q": question["q"], "gold": gold, "rank": rank, "top5": docs[:5]})
    n = len(questions)
    row = {"questions": n, "recall5": round(found5 / n, 3), "mrr10": round(reciprocal / n, 3), "misses": misses}
    if any(q.get("gold_chunk_ids") for q in questions):
        row["section_recall5"] = round(sections5 / n, 3)
    return row


def known_pages(store: Path) -> set[str]:
    with Store.open(store) as opened:
        return {row[0] for row in opened.conn.execute("SELECT path FROM documents")}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpora", type=Path, required=True, help="folder holding the sites by name")
    parser.add_argument("--only", default="", help="comma-separated site names (uv: the uv docs)")
    parser.add_argument("--models", default="local:minilm", help="comma-separated embed_model settings")
    parser.add_argument("--work", type=Path, default=Path("/tmp/recall-sites"))
    parser.add_argument("--fresh", action="store_true", help="embed everything, reusing no earlier build")
    parser.add_argument("--misses", action="store_true", help="print each hybrid miss")
    parser.add_argument("--json", type=Path, help="write every figure and miss here")
    args = parser.parse_args(argv)
    only = {name for name in args.only.split(",") if name} or None
    models = [m for m in args.models.split(",") if m]
    rows = []
    for name, docs, questions_file in sites(args.corpora, only):
        questions = load_questions(questions_file)
        row = {"site": name, "builds": {}, "lexical": None, "hybrid": {}}
        lexical_out = args.work / name / "lexical"
        row["builds"]["lexical"] = build(docs, lexical_out, None, args.fresh)
        pages = known_pages(lexical_out / "store.sqlite")
        for question in questions:
            if question["source"] not in pages:
                print(f"{name} {question['id']}: gold page {question['source']} is not in the build", file=sys.stderr)
        row["lexical"] = score(questions, ask(lexical_out / "store.sqlite", questions, "lexical"))
        for model in models:
            out = args.work / name / model.replace(":", "-")
            row["builds"][model] = build(docs, out, model, args.fresh)
            row["hybrid"][model] = score(questions, ask(out / "store.sqlite", questions, "hybrid"))
        rows.append(row)
        print(line(row, models), flush=True)
        if args.misses:
            for model in models:
                for miss in row["hybrid"][model]["misses"]:
                    print(f"   {model} miss {miss['id']} rank {miss['rank']}: {miss['q']}\n      gold {miss['gold']}; top5 {miss['top5']}")
    print(summary(rows, models))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


def _cell(figures: dict) -> str:
    extra = f" (sections {figures['section_recall5']:.3f})" if "section_recall5" in figures else ""
    return f"{figures['recall5']:.3f} / {figures['mrr10']:.3f}{extra}"


def line(row: dict, models: list[str]) -> str:
    cells = [f"{row['site']:<9} n={row['lexical']['questions']:<3} lexical {_cell(row['lexical'])}"]
    for model in models:
        build_row = row["builds"][model]
        cells.append(f"{model} {_cell(row['hybrid'][model])} [embedded {build_row['embedded']}, kept {build_row['kept']}, "
                     f"embed {build_row['embed_s']} s]")
    return " | ".join(cells)


def summary(rows: list[dict], models: list[str]) -> str:
    """Mean recall@5 over the sites (uv apart) and the targets: hybrid >= 0.95, never below lexical."""
    sites_only = [r for r in rows if r["site"] != "uv"]
    if not sites_only:
        return ""
    mean = lambda values: sum(values) / len(values)  # noqa: E731
    out = [f"mean recall@5 over {len(sites_only)} sites: lexical {mean([r['lexical']['recall5'] for r in sites_only]):.3f}"]
    for model in models:
        figures = [r["hybrid"][model]["recall5"] for r in rows]
        below = [r["site"] for r in rows if r["hybrid"][model]["recall5"] < r["lexical"]["recall5"]]
        short = [r["site"] for r in rows if r["hybrid"][model]["recall5"] < 0.95]
        out.append(f"{model}: mean {mean([r['hybrid'][model]['recall5'] for r in sites_only]):.3f}, min {min(figures):.3f};"
                   f" below 0.95: {', '.join(short) or 'none'}; below lexical: {', '.join(below) or 'none'}")
    return "\n".join(out)


if __name__ == "__main__":
    raise SystemExit(main())
