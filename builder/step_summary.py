"""The job summary a reviewer reads: what the build made and what it did to the golden files.

Rendered from the ``contextpull build --json`` report (``contextpull/artifact/report.py``'s ``to_dict``, printed by
``contextpull/cli/build.py``): counts, index mode and size, fingerprints, skipped files, and on
golden drift the section ids added, removed and changed plus the index text diff; with a model
summarizer, what the model did and cost and which documents kept their offline summary (the
report's ``summaries`` object; an offline build has none, and its summary is unchanged); with a
dialect, its construct report and the files the generator renders no page for (issue 26). The key
never reaches the report, so it cannot reach this page. Annotations are
capped at ten of a kind (``file_annotations.py``); this page lists everything, so nothing is lost.
Pure functions of the report: the tests render it without a runner.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

# A job summary is limited to 1 MiB; long lists and diffs are cut well below that.
MAX_LISTED = 500
MAX_DIFF_CHARS = 60_000


def cell(value: object) -> str:
    """A markdown table cell: pipes and newlines would break the row."""
    return str(value).replace("\\", "\\\\").replace("|", "\\|").replace("\r", " ").replace("\n", " ")


def code(value: object) -> str:
    """A code span in a table cell: a backslash shows as it is there, so only pipes and newlines
    are escaped (a table's pipe must be, even inside a code span)."""
    text = str(value).replace("|", "\\|").replace("\r", " ").replace("\n", " ")
    return f"`{text}`" if "`" not in text else f"`` {text} ``"


def id_key(section_id: str) -> tuple[str, int, str]:
    """Sort key for ``path#ordinal`` ids in natural order: ``#2`` before ``#10``."""
    path, _, ordinal = section_id.rpartition("#")
    return (path, int(ordinal), "") if ordinal.isdigit() else (section_id, -1, section_id)


def natural(ids: Sequence[str]) -> list[str]:
    return sorted(ids, key=id_key)


def installed_section(packages: Sequence[tuple[str, str]]) -> list[str]:
    """What the action installed from its lock (name, version), so a run records its tools."""
    if not packages:
        return []
    lines = [f"<details><summary>Installed packages ({len(packages)})</summary>", "",
             "| Package | Version |", "| --- | --- |"]
    lines += [f"| {cell(name)} | {cell(version)} |" for name, version in packages]
    return lines + ["", "</details>", ""]


def _listing(title: str, ids: Sequence[str]) -> list[str]:
    if not ids:
        return []
    ids = natural(ids)
    lines = [f"<details><summary>{title} ({len(ids)})</summary>", ""]
    lines += [f"- {code(i)}" for i in ids[:MAX_LISTED]]
    if len(ids) > MAX_LISTED:
        lines.append(f"- ... and {len(ids) - MAX_LISTED} more")
    lines += ["", "</details>", ""]
    return lines


def golden_section(golden: Mapping[str, object]) -> list[str]:
    status = str(golden.get("status") or "none")
    where = golden.get("dir") or "golden"
    if status == "match":
        return [f"Golden files in {code(where)}: **match**.", ""]
    if status == "updated":
        return [f"Golden files in {code(where)} were **updated**: review and commit them.", ""]
    if status != "drift":
        return []
    added = list(golden.get("ids_added") or [])
    removed = list(golden.get("ids_removed") or [])
    changed = list(golden.get("ids_changed") or [])
    lines = [
        "### Golden drift",
        "",
        f"The built store differs from the golden files in {code(where)}: "
        f"{len(added)} section ids added, {len(removed)} removed, {len(changed)} with changed text. "
        "Removed and changed ids are citations that now point at nothing or at other text. "
        "If the change is intended, rebuild with `update-golden: true` and commit the golden files.",
        "",
    ]
    lines += _listing("Ids removed", removed)
    lines += _listing("Ids whose text changed", changed)
    lines += _listing("Ids added", added)
    diff = str(golden.get("index_diff") or "")
    if diff:
        if len(diff) > MAX_DIFF_CHARS:
            diff = diff[:MAX_DIFF_CHARS] + "\n... (diff cut here)"
        fence = "````" if "```" in diff else "```"
        lines += ["<details><summary>Index text diff</summary>", "", fence + "diff", diff.rstrip("\n"), fence,
                  "", "</details>", ""]
    return lines


def file_table(items: Sequence[Mapping[str, str]], docs: str) -> list[str]:
    """``| File | Reason |`` rows for report items with a corpus-relative ``path``, capped."""
    lines = ["| File | Reason |", "| --- | --- |"]
    for item in items[:MAX_LISTED]:
        lines.append(f"| {code(join_docs(docs, item.get('path', '?')))} | {cell(item.get('reason', ''))} |")
    if len(items) > MAX_LISTED:
        lines.append(f"| ... | and {len(items) - MAX_LISTED} more |")
    return lines + [""]


def skipped_section(skipped: Sequence[Mapping[str, str]], docs: str) -> list[str]:
    if not skipped:
        return []
    return [f"### Skipped files ({len(skipped)})", ""] + file_table(skipped, docs)


def dialect_text(dialect: Mapping[str, object]) -> str:
    """One table cell: the dialect chosen, from which file, and its constructs by outcome."""
    source = f"from {dialect.get('config_file')}" if dialect.get("config_file") else "no generator configuration file"
    totals = dialect.get("totals") or {}
    pages = len(dialect.get("not_pages") or [])
    return (f"{dialect.get('name', '?')} ({source}): {totals.get('resolved', 0)} resolved, "
            f"{totals.get('converted', 0)} converted, {totals.get('unresolved', 0)} unresolved"
            + (f"; {pages} file{'' if pages == 1 else 's'} not pages" if pages else ""))


def shows_dialect(dialect: object) -> bool:
    """A plain build that met no construct reports as it always did."""
    return isinstance(dialect, Mapping) and (dialect.get("name") != "plain" or bool(dialect.get("constructs")))


def constructs_section(dialect: Mapping[str, object], docs: str) -> list[str]:
    """Per construct, what became of it, and every unresolved one by file and line (capped)."""
    constructs = dialect.get("constructs") or {}
    lines: list[str] = []
    if constructs:
        lines += [f"### Markup constructs ({cell(dialect.get('name', '?'))})", "",
                  "| Construct | Resolved | Converted | Unresolved |", "| --- | --- | --- | --- |"]
        for name, counts in constructs.items():
            lines.append(f"| {cell(name)} | {cell(counts.get('resolved', 0))} | {cell(counts.get('converted', 0))} |"
                         f" {cell(counts.get('unresolved', 0))} |")
        lines.append("")
    unresolved = list(dialect.get("unresolved") or [])
    if unresolved:
        lines += [f"### Unresolved constructs ({len(unresolved)})", "",
                  "What an agent reading the store will not get as the page shows it.", "",
                  "| File | Construct | Reason |", "| --- | --- | --- |"]
        for item in unresolved[:MAX_LISTED]:
            where = join_docs(docs, str(item.get("path", "?")))
            if item.get("line"):
                where += f":{item['line']}"
            lines.append(f"| {code(where)} | {cell(item.get('construct', ''))} | {cell(item.get('detail', ''))} |")
        if len(unresolved) > MAX_LISTED:
            lines.append(f"| ... | | and {len(unresolved) - MAX_LISTED} more |")
        lines.append("")
    return lines


def not_pages_section(dialect: Mapping[str, object], docs: str) -> list[str]:
    """The files the generator renders no page for (partials, excluded drafts, a headless
    section), folded: they are no fault, and a site may have hundreds, but an author must be able
    to see that a file an agent will not find was left out on purpose, and why."""
    entries = list(dialect.get("not_pages") or [])
    if not entries:
        return []
    return [f"### Files that are not pages ({len(entries)})", "",
            "The generator renders no page of their own for these files, so they are not documents in "
            "the store; a partial's text is in the pages that include it.", "",
            f"<details><summary>Files and reasons ({len(entries)})</summary>", ""] + file_table(
        entries, docs) + ["</details>", ""]


def join_docs(docs: str, path: str) -> str:
    """A corpus-relative path as the repository sees it: ``docs`` + ``guide/a.md``."""
    docs = docs.strip().rstrip("/")
    if docs in ("", "."):
        return path
    return f"{docs}/{path}"


def summaries_text(summaries: Mapping[str, object]) -> str:
    """One table cell: the model, its documents by outcome, and what it cost."""
    retries = summaries.get("retries", 0)
    requests = summaries.get("requests", 0)
    return (f"{summaries.get('summarizer', '?')}: {summaries.get('generated', 0)} generated, "
            f"{summaries.get('cached', 0)} cached, {summaries.get('offline', 0)} offline; "
            f"{requests} request{'' if requests == 1 else 's'}, {retries} retr{'y' if retries == 1 else 'ies'}, "
            f"tokens {summaries.get('tokens_in', 0)} in, {summaries.get('tokens_out', 0)} out")


def summary_failures_section(failed: Sequence[Mapping[str, str]], docs: str) -> list[str]:
    """The documents whose model summary failed: they kept the offline one (a fallback, not a
    skip: they are in the store)."""
    if not failed:
        return []
    return [f"### Offline summary fallbacks ({len(failed)})", "",
            "These documents are in the store with their offline summary: the model's answer failed.",
            ""] + file_table(failed, docs)


def cache_text(cache: object) -> str:
    """What the incremental build reused, from the report's optional ``cache`` object."""
    if not isinstance(cache, Mapping) or not cache.get("reuse"):
        return ""
    reuse = cache["reuse"]
    if reuse == "none":
        return "not used"
    if reuse == "whole":
        return "reused the whole previous store (no document changed)"
    text = f"reused {cache.get('reused_documents', '?')} unchanged documents, parsed {cache.get('parsed_documents', '?')}"
    copied, indexed = cache.get("copied_chunks"), cache.get("indexed_chunks")
    if isinstance(copied, int) and isinstance(indexed, int):
        text += f"; kept {copied} of {copied + indexed} index chunks"
    return text


def source_rows(source: object) -> list[tuple[str, str]]:
    """Where the docs came from (issue 27: the store's provenance meta, repeated in the manifest's
    ``source``); no rows for a build outside git, whose manifest has a commit at most."""
    if not isinstance(source, Mapping) or not any(k in source for k in ("repository", "ref", "version", "built_at")):
        return []
    where = str(source.get("repository") or "").split("://", 1)[-1]
    commit = str(source.get("commit") or "")
    text = " at ".join(part for part in (where, commit[:7]) if part) or "-"
    if source.get("ref"):
        text += f", {source['ref']}"
    if source.get("dirty"):
        text += ", uncommitted changes"
    rows = [("Source", cell(text))]
    if source.get("version"):
        rows.append(("Docs version", cell(source["version"])))
    if source.get("built_at"):
        rows.append(("Built at", cell(source["built_at"])))
    return rows


def render(report: Mapping[str, object], docs: str, installed: Sequence[tuple[str, str]] = ()) -> str:
    """The whole summary for one build report."""
    manifest = report.get("manifest") or {}
    counts = manifest.get("counts") or {}
    index = manifest.get("index") or {}
    prints = manifest.get("fingerprints") or {}
    store = manifest.get("store") or {}
    builder = manifest.get("builder") or {}
    paths = report.get("paths") or {}
    golden = report.get("golden") or {}
    skipped = manifest.get("skipped") or []
    status = str(golden.get("status") or "none")
    verdict = {"drift": "golden drift", "match": "golden match", "updated": "golden updated"}.get(status, "built")
    budget = index.get("budget")
    size = f"{index.get('tokens', '?')} tokens" + (f" of {budget}" if budget else "")
    # Every value is rendered as a table cell here: plain text through cell(), paths and hashes
    # through code().
    rows = [
        ("Documents", cell(counts.get("documents", "?"))),
        ("Sections", cell(counts.get("sections", "?"))),
        ("Skipped files", cell(counts.get("skipped", len(skipped)))),
        ("Index", cell(f"{index.get('mode', '?')}, {size}")),
        ("Store", f"{code(paths.get('store', store.get('file', '?')))}, {cell(store.get('bytes', '?'))} bytes"),
        ("sha256", code(store.get("sha256", "?"))),
        ("Corpus fingerprint", code(prints.get("corpus", "?"))),
        ("Content fingerprint", code(prints.get("content", "?"))),
        *source_rows(manifest.get("source")),
        ("Builder", cell(f"{builder.get('name', 'contextpull')} {builder.get('version', '?')}, "
                         f"Python {builder.get('python', '?')}, SQLite {builder.get('sqlite', '?')}")),
        ("Golden", cell(status)),
    ]
    reuse = cache_text(report.get("cache"))
    if reuse:
        rows.append(("Cache", cell(reuse)))
    summaries = report.get("summaries")
    if isinstance(summaries, Mapping):
        rows.append(("Summaries", cell(summaries_text(summaries))))
    vectors = report.get("embeddings")
    if isinstance(vectors, Mapping):  # issue 38: whether the cache spared the model its work
        rows.append(("Embeddings", cell(f"{vectors.get('model', '?')}: {vectors.get('embedded', 0)} sections embedded, "
                                        f"{vectors.get('kept', 0)} kept")))
    dialect = report.get("dialect")
    if shows_dialect(dialect):
        rows.append(("Dialect", cell(dialect_text(dialect))))
    total = (report.get("timings") or {}).get("total_s")
    if total is not None:
        rows.append(("Build time", cell(f"{total} s")))
    # A build's own guard (CONTEXTPULL_MAX_REMOVED with a restored cache): issue 29.
    guard = report.get("guard")
    if isinstance(guard, Mapping):
        rows.append(("Content-loss guard", f"{cell(guard.get('status', '?'))} against {code(guard.get('base', '?'))}"))
    lines = [f"## ContextPull store: {verdict}", "", "| | |", "| --- | --- |"]
    lines += [f"| {name} | {value} |" for name, value in rows]
    lines.append("")
    if isinstance(guard, Mapping) and guard.get("failure"):
        lines += [f"**Content-loss guard failed:** {cell(guard['failure'])}.", ""]
    lines += golden_section(golden)
    lines += skipped_section(skipped, docs)
    if isinstance(summaries, Mapping):
        lines += summary_failures_section(list(summaries.get("failed") or []), docs)
    if shows_dialect(dialect):
        lines += constructs_section(dialect, docs)
        lines += not_pages_section(dialect, docs)
    lines += installed_section(installed)
    return "\n".join(lines).rstrip("\n") + "\n"


def failure(message: str) -> str:
    """The summary when the build produced no report at all."""
    return f"## ContextPull store: build failed\n\n{cell(message)}\n"
