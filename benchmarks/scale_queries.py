#!/usr/bin/env python3
"""Fixed query sets for ranked search at scale (issue 39), made from a corpus by this script.

  python benchmarks/scale_queries.py CORPUS --out benchmarks/queries/msdocs.json
  python benchmarks/scale_queries.py CORPUS --tenths 1 --link-subset /tmp/msdocs-10 --out benchmarks/queries/msdocs-10.json

``--tenths N`` keeps the ``.md`` files whose ``crc32(relative path) % 10 < N`` (a fixed 10N % of
the files), ``--link-subset DIR`` hard-links them into DIR to build from; queries then come from
the subset alone.

Three sets, deterministic for a corpus (seed 39, files in sorted order):

- ``nl``: natural-language questions of 6-10 words, from a page's title followed by the first
  sentence of its first prose paragraph (front matter ``title:`` or the first ``#`` heading);
- ``common2``: two of the ten content words found in the most files (stop words left out);
- ``identifiers``: identifier-like tokens (``CamelCase`` with an inner capital, ``UPPER_SNAKE``,
  error codes such as ``C2065``) found in at most 3 files.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import zlib
from collections import Counter
from pathlib import Path

SEED = 39
STOP = set(
    "a about above after again all also an and any are as at be because been before being below between both but by "
    "can could did do does doing down during each few for from further had has have having here how i if in into is "
    "it its itself just may more most must no nor not now of off on once only or other our out over own same see "
    "should so some such than that the their them then there these they this those through to too under until up "
    "use used using very was we were what when where which while who why will with would you your".split()
)
WORD = re.compile(r"[A-Za-z][A-Za-z0-9+#]*")
CONTENT = re.compile(r"(?<![\w.\-])[a-z]{4,}(?![\w\-]|\.\w)")
IDENT = re.compile(r"(?<![\w.-])(?:[A-Z]?[a-z]+(?:[A-Z][a-z0-9]+)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{1,3}[0-9]{4,5})(?![\w-])")
FRONT = re.compile(r"\A---\n(.*?)\n---\n", re.S)
TITLE = re.compile(r"^title:\s*['\"]?(.+?)['\"]?\s*$", re.M)
SENTENCE = re.compile(r"(.+?[.!?])(?:\s|$)")


def first_prose(body: str) -> str:
    for para in re.split(r"\n\s*\n", body):
        p = para.strip()
        if p and p[0] not in "#|`<>!*[-:" and not p.startswith("```"):
            m = SENTENCE.match(" ".join(p.split()))
            return m.group(1) if m else " ".join(p.split())
    return ""


def page_question(text: str, rng: random.Random) -> str | None:
    front = FRONT.match(text)
    title = ""
    if front:
        m = TITLE.search(front.group(1))
        title = m.group(1) if m else ""
        text = text[front.end():]
    if not title:
        m = re.search(r"^#\s+(.+)$", text, re.M)
        title = m.group(1) if m else ""
    words = WORD.findall(title + " " + re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", first_prose(text)))
    if len(words) < 6:
        return None
    return " ".join(words[: rng.randint(6, 10)])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--nl", type=int, default=200)
    ap.add_argument("--common2", type=int, default=100)
    ap.add_argument("--identifiers", type=int, default=100)
    ap.add_argument("--tenths", type=int, default=10)
    ap.add_argument("--link-subset", type=Path, default=None)
    args = ap.parse_args()
    rng = random.Random(SEED)
    files = sorted(p for p in args.corpus.rglob("*.md") if p.is_file()
                   and zlib.crc32(p.relative_to(args.corpus).as_posix().encode()) % 10 < args.tenths)
    if args.link_subset:
        for path in files:
            target = args.link_subset / path.relative_to(args.corpus)
            target.parent.mkdir(parents=True, exist_ok=True)
            if not target.exists():
                os.link(path, target)
    sample = sorted(rng.sample(files, min(len(files), 3000)))
    nl, word_files, id_files = [], Counter(), Counter()
    for path in sample:
        text = path.read_text(encoding="utf-8", errors="replace")
        question = page_question(text, rng)
        if question:
            nl.append(question)
        body = text[FRONT.match(text).end():] if FRONT.match(text) else text  # front matter is not searched
        word_files.update({w for w in CONTENT.findall(body.lower()) if w not in STOP})
    for path in files:
        id_files.update(set(IDENT.findall(path.read_text(encoding="utf-8", errors="replace"))))
    common = [w for w, _ in sorted(word_files.items(), key=lambda kv: (-kv[1], kv[0]))[:10]]
    rare = sorted(t for t, n in id_files.items() if n <= 3)
    queries = {
        "corpus": args.corpus.name,
        "tenths": args.tenths,
        "files": len(files),
        "seed": SEED,
        "common_words": common,
        "nl": rng.sample(sorted(set(nl)), min(args.nl, len(set(nl)))),
        "common2": [" ".join(rng.sample(common, 2)) for _ in range(args.common2)],
        "identifiers": rng.sample(rare, min(args.identifiers, len(rare))),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(queries, indent=1) + "\n")
    print(f"{len(queries['nl'])} nl, {len(queries['common2'])} common2, {len(queries['identifiers'])} identifiers -> {args.out}")
    print("common words:", ", ".join(common))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
