"""``contextpull eval QUESTIONS.jsonl``: recall and cost of a retriever over a question file.

Thin over ``contextpull.eval`` (ADR 008): it builds the retriever ``--retriever`` names (the model
setting, its key and the store are checked before the first question), runs the questions with a
progress bar on stderr and prints recall@1, @5, @10 and MRR overall and per question shape, with
time per question, and tokens, tool calls and requests per question for the agent loops.
``--json`` prints the same figures as one JSON object for CI and the benchmark tables.
"""

from __future__ import annotations

import json
import sys
import time

import click

from ..eval import runner
from ..eval.cache import DEFAULT_CACHE
from ..eval.questions import load_questions
from . import cli
from .options import store_option


@cli.command("eval")
@click.argument("questions", type=click.Path(dir_okay=False))
@store_option
@click.option("--retriever", "retriever_name", default="lexical", show_default=True, metavar="NAME",
              help="lexical, hybrid, api-loop:<provider:model> (e.g. api-loop:openai:gpt-5.4-mini) or claude-code[:<model>].")
@click.option("--max-turns", type=click.IntRange(1, 100), default=None,
              help="Agent loops: requests per question before giving up (default 8 for api-loop, 12 for claude-code).")
@click.option("--cache", "cache_path", default=DEFAULT_CACHE, show_default=True,
              type=click.Path(dir_okay=False), help="Agent loops: finished runs are kept here and not paid for twice.")
@click.option("--no-cache", is_flag=True, help="Agent loops: run every question again, keep nothing.")
@click.option("--workers", type=click.IntRange(1, 32), default=1, show_default=True, help="Questions asked at once.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON (keys recall@1, recall@5, recall@10, mrr).")
def eval_cmd(questions, store, retriever_name, max_turns, cache_path, no_cache, workers, as_json):
    """Score a retriever on QUESTIONS.jsonl (lines with q, gold_chunk_ids, optional id and shape)."""
    asked = load_questions(questions)
    retriever = runner.make_retriever(retriever_name, store, max_turns=max_turns,
                                      cache_path=None if no_cache else cache_path)
    try:
        started = time.perf_counter()
        with click.progressbar(length=len(asked), label=f"eval {retriever_name}", file=sys.stderr) as bar:
            answered = runner.run(asked, retriever, workers=workers, on_done=lambda _a: bar.update(1))
        wall = time.perf_counter() - started
        stats = retriever.stats() if hasattr(retriever, "stats") else None
    finally:
        retriever.close()
    report = runner.report(asked, answered, retriever_name=retriever_name, questions_path=questions,
                           store=store, wall_s=wall, stats=stats)
    if as_json:
        click.echo(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        click.echo(runner.render(report))
