"""``contextpull eval``: question files, metrics, the one-shot retrievers and the command (issue 18)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from chat_scripts import USAGE_IN, answer, calls, openai
from contextpull import Ops, Store
from contextpull.cli import cli
from contextpull.errors import InputError
from contextpull.eval import HybridRetriever, LexicalRetriever, metrics
from contextpull.eval.questions import Question, load_questions
from loopback_api import LoopbackAPI
from read_store import make_store

QUESTIONS = [
    {"id": "q1", "q": "refund window", "shape": "conceptual", "gold_chunk_ids": ["policies/a.md#0"]},
    {"id": "q2", "q": "UV_CACHE_DIR", "shape": "exact_lookup", "gold_chunk_ids": ["guides/setup.md#1"]},
    {"id": "q3", "q": "gateway timeout", "shape": "exact_lookup", "gold_chunk_ids": ["errors.md#2", "errors.md#0"]},
    {"q": "contact support by email", "gold_chunk_ids": ["nowhere.md#0"]},
]


@pytest.fixture
def store(tmp_path):
    return make_store(tmp_path / "store.sqlite")


@pytest.fixture
def questions(tmp_path):
    path = tmp_path / "questions.jsonl"
    path.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS) + "\n")
    return path


def test_recall_and_mrr_follow_the_bench_definitions():
    q = Question("q", "x", "s", ("a", "b"))
    assert metrics.score(q, ["x", "b", "y", "z", "w", "a"]) == {"recall@1": 0.0, "recall@5": 0.5, "recall@10": 1.0, "mrr": 0.5}
    late = metrics.score(Question("q", "x", "s", ("g",)), [str(i) for i in range(10)] + ["g"])
    assert late == {"recall@1": 0.0, "recall@5": 0.0, "recall@10": 0.0, "mrr": 0.0}
    assert metrics.aggregate([{"recall@1": 1.0, "recall@5": 1.0, "recall@10": 1.0, "mrr": 1.0},
                              {"recall@1": 0.0, "recall@5": 0.0, "recall@10": 1.0, "mrr": 0.2}])["mrr"] == 0.6


def test_question_files_load_ragbisect_defaults_and_name_the_bad_line(tmp_path, questions):
    loaded = load_questions(questions)
    assert [q.id for q in loaded] == ["q1", "q2", "q3", "q0004"]
    assert loaded[3].shape == "conceptual" and loaded[2].gold == ("errors.md#2", "errors.md#0")
    bad = tmp_path / "bad.jsonl"
    for text, message in [
        ('{"q": "x", "gold_chunk_ids": ["a#0"]}\n{"q": "y"}\n', "bad.jsonl:2: 'gold_chunk_ids' must be"),
        ('{"q": "", "gold_chunk_ids": ["a#0"]}\n', "bad.jsonl:1: 'q' must be a non-empty string"),
        ("[1]\n", "bad.jsonl:1: not a JSON object"),
        ("{oops\n", "bad.jsonl:1: not a JSON object"),
        ('{"id": 1, "q": "x", "gold_chunk_ids": ["a#0"]}\n{"id": 1, "q": "y", "gold_chunk_ids": ["a#0"]}\n', "appears twice"),
        ("\n", "no questions"),
    ]:
        bad.write_text(text)
        with pytest.raises(InputError, match=message):
            load_questions(bad)
    with pytest.raises(InputError, match="no such question file"):
        load_questions(tmp_path / "missing.jsonl")


def test_one_shot_retrievers_return_what_search_ranks(store):
    with Store.open(store) as opened:
        expected = [h.id for h in Ops(opened).search("refund window", limit=10).hits]
    with LexicalRetriever(str(store)) as lexical, HybridRetriever(str(store)) as hybrid:
        assert lexical.retrieve("refund window", 10) == expected
        assert lexical.retrieve("refund window", 2) == expected[:2]
        assert lexical.retrieve("refund window", 500) == expected  # search's limit is 50
        # no embeddings in this store: hybrid answers lexically and says so
        assert hybrid.retrieve("refund window", 10) == expected
        assert hybrid.stats() == {"mode": "hybrid", "hints": {"no embeddings in store; ran lexical": 1}}


def test_one_shot_retrievers_open_a_store_per_thread(store):
    from concurrent.futures import ThreadPoolExecutor

    with LexicalRetriever(str(store)) as lexical:
        with ThreadPoolExecutor(4) as pool:
            results = list(pool.map(lambda q: lexical.retrieve(q, 3), ["refund", "cache", "gateway", "fees"] * 4))
    assert results[0] == results[4] and all(results)


def test_hybrid_hints_are_counted_exactly_across_threads(store):
    """Every question on a store without embeddings gets the hint, however many workers ask."""
    import time
    from concurrent.futures import ThreadPoolExecutor

    class SlowHints(dict):  # widens the window between reading a count and writing it back
        def get(self, key, default=None):
            value = super().get(key, default)
            time.sleep(0.002)
            return value

    with HybridRetriever(str(store)) as hybrid:
        hybrid.hints = SlowHints()
        with ThreadPoolExecutor(4) as pool:
            list(pool.map(lambda q: hybrid.retrieve(q, 3), ["refund", "cache", "gateway", "fees"] * 10))
        assert hybrid.stats()["hints"] == {"no embeddings in store; ran lexical": 40}


def test_eval_json_has_the_named_keys_overall_and_per_shape(runner, store, questions, data_regression):
    result = runner.invoke(cli, ["eval", str(questions), "--store", str(store), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert {"recall@1", "recall@5", "recall@10", "mrr", "per_shape", "ms_per_question"} <= set(report)
    stable = {k: report[k] for k in ("n", "recall@1", "recall@5", "recall@10", "mrr", "per_shape")}
    stable["ids"] = {r["id"]: r["ids"] for r in report["results"]}
    data_regression.check(stable)


def test_eval_text_prints_a_table(runner, store, questions):
    result = runner.invoke(cli, ["eval", str(questions), "--store", str(store), "--retriever", "hybrid"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[2].split() == ["slice", "n", "recall@1", "recall@5", "recall@10", "mrr"]
    assert lines[3].split()[:2] == ["all", "4"] and lines[4].split()[:2] == ["conceptual", "2"]
    assert any(line.startswith("time per question: ") for line in lines)
    assert "search hints: no embeddings in store; ran lexical (4)" in result.stdout


def test_eval_api_loop_reports_tokens_tool_calls_and_requests(runner, store, questions, tmp_path, monkeypatch):
    one = [calls(("search", {"query": "x"})), calls(("read", {"id": "policies/a.md#0"})), answer("[policies/a.md#0]")]
    with LoopbackAPI(openai(one * 4)) as api:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        monkeypatch.setenv("OPENAI_BASE_URL", api.url + "/v1")
        args = ["eval", str(questions), "--store", str(store), "--retriever", "api-loop:openai:scripted",
                "--cache", str(tmp_path / "c.sqlite"), "--json"]
        report = json.loads(runner.invoke(cli, args).stdout)
        again = json.loads(runner.invoke(cli, args).stdout)
    assert report["per_question"]["tokens_in"] == 3 * USAGE_IN
    assert report["per_question"]["tool_calls"] == 2 and report["per_question"]["requests"] == 3
    assert report["per_question"]["by_tool"] == {"read": 1, "search": 1}
    assert report["errors"] == 0 and report["cached"] == 0 and report["stats"]["requests"] == 12
    assert report["recall@1"] == 0.25  # q1's gold is the one section read
    assert again["cached"] == 4 and again["stats"]["requests"] == 0 and len(api.requests) == 12
    # per question is what an answer takes, cached or not; the stats count the requests made now
    assert again["per_question"]["requests"] == 3 and again["per_question"]["by_tool"] == {"read": 1, "search": 1}


def test_run_answers_in_question_order_with_and_without_workers(store, questions):
    from contextpull.eval import runner

    asked = load_questions(questions)
    with LexicalRetriever(str(store)) as lexical:
        runs = {}
        for workers in (1, 3):
            done = []
            answered = runner.run(asked, lexical, workers=workers, on_done=lambda a: done.append(a.question.id))
            assert [a.question.id for a in answered] == done == [q.id for q in asked]
            runs[workers] = [(a.ids, a.scores) for a in answered]
    assert runs[1] == runs[3]


def test_eval_errors_are_one_line(runner, store, questions, tmp_path, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    cases = [
        (["--retriever", "bm25"], 2, "--retriever: unknown retriever 'bm25'"),
        (["--retriever", "api-loop:openai:m"], 3, "needs the environment variable OPENAI_API_KEY, which is not set (set OPENAI_API_KEY)"),
        (["--store", str(tmp_path / "none.sqlite")], 3, "no store at"),
    ]
    for extra, code, message in cases:
        args = ["eval", str(questions), "--store", str(store), *extra]
        result = runner.invoke(cli, args)
        assert result.exit_code == code and message in result.stderr, result.output
        assert len(result.stderr.strip().splitlines()) == 1
    result = runner.invoke(cli, ["eval", str(tmp_path / "none.jsonl"), "--store", str(store)])
    assert result.exit_code == 3 and "none.jsonl: no such question file" in result.stderr


def test_the_eval_package_loads_no_write_side_and_no_ragbisect():
    code = (
        "import json, sys\n"
        "import contextpull.eval.api_loop, contextpull.eval.claude_code, contextpull.eval.one_shot, contextpull.eval.runner\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    loaded = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    forbidden = ("click", "mcp", "ragbisect", "contextpull.cli", "contextpull.parsing", "contextpull.writing",
                 "contextpull.ingest", "contextpull.artifact", "contextpull.checks")
    assert [m for m in loaded if any(m == f or m.startswith(f + ".") for f in forbidden)] == []
