"""The trigram table's indexing in a child process, beside the writer and the word index thread.

Why (issue 8, "use both cores where it pays"): the trigram table's rows are each document's
distinct words (``trigram.py``), and finding them is Python work, 1-2 s of CPU per build on the
benchmark corpora. On a thread that work holds the GIL the writer needs, and the writer is what
a build waits for; a process has its own. Only part boundaries cross the pipe (the child reads
the rows from the build file, as the thread does), so the process costs its start-up and no
copying. It runs ``index_thread.serve``, the same statements as the thread and its fallback, so
all three write the same rows.

Protocol, one line each way per message: the parent writes ``begin P``, ``part P FIRST LAST``,
``end P`` and finally ``done``; the child answers ``ready`` once its scratch file is open, then
``ok`` with the totals as JSON, or ``error`` and a message. A child that is not ready when the
writer ends (a small build outran its start-up), that fails, or that dies, is stopped and its
work redone in the caller's thread (``IndexThread._redo``), as for a failed thread.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

from . import segments
from .index_thread import _DONE, _NOT_STARTED, INDEXES, IndexThread, serve

_BY_TARGET = {index.target: index for index in INDEXES}
# The writer is what a build waits for; on two cores the child would take a third of both from
# it. Lower priority lets the writer and the word index thread run first and the child fill the
# gaps, then catch up once the writer is done (benchmarks/README.md).
_NICE = 10
_CHILD = (
    "import json, sys; sys.path[:0] = json.loads(sys.argv[1]); "
    "from contextpull.indexing.index_process import child_main; child_main(sys.argv[2:])"
)


class IndexProcess(IndexThread):
    """``IndexThread``'s interface, with the work in a child process."""

    how = "process"

    def _start(self) -> None:
        self._ready = threading.Event()
        self._reply: str | None = None
        # -S: no site start-up (0.1 s with some system site-packages); the parent's own sys.path
        # makes the child import exactly the modules the parent runs.
        command = [sys.executable, "-S", "-c", _CHILD, json.dumps(sys.path), str(self.scratch), str(self.source)]
        self._reader = threading.Thread(target=self._read, name="index-replies", daemon=True)
        try:
            self._proc: subprocess.Popen | None = subprocess.Popen(
                command + [index.target for index in self.indexes],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1,
            )
        except (OSError, ValueError) as exc:  # no interpreter to start: the caller's thread does it
            self._proc, self._error, self._failed = None, exc, True
            return
        self._reader.start()

    def _read(self) -> None:
        for line in self._proc.stdout:  # type: ignore[union-attr]
            if line == "ready\n":
                self._ready.set()
            else:
                self._reply = line
        self._proc.wait()

    def _alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def _send(self, item, timeout: float) -> None:
        kind, position, rows = item
        line = f"{kind} {position}" + (f" {rows[0]} {rows[1]}" if rows else "")
        try:
            self._proc.stdin.write(line + "\n")  # type: ignore[union-attr]
        except OSError:  # the child is gone: finish_into redoes its work
            self._failed = True

    def _join(self) -> None:
        if self._proc is None:
            return
        if not self._ready.is_set():
            self._stop()
            self._error = _NOT_STARTED
            return
        try:
            self._proc.stdin.write("done\n")  # type: ignore[union-attr]
            self._proc.stdin.close()  # type: ignore[union-attr]
        except OSError:
            pass
        self._reader.join()
        reply = self._reply or f"error the index process ended without a result (exit code {self._proc.returncode})"
        kind, _, body = reply.rstrip("\n").partition(" ")
        if kind != "ok":
            self._error = RuntimeError(body)
            return
        for target, (rows, columns) in json.loads(body).items():
            self.totals[target] = segments.Totals()
            self.totals[target].add(rows, columns)

    def _stop(self) -> None:
        if self._proc is None:
            return
        if self._proc.poll() is None:
            self._proc.kill()
        self._proc.wait()
        for stream in (self._proc.stdin, self._proc.stdout):
            try:
                stream.close()  # type: ignore[union-attr]
            except OSError:
                pass
        self._reader.join()

    def discard(self) -> None:
        """Stop the child (a build that failed does not wait for it) and remove the scratch file."""
        self._stop()
        super().discard()


def child_main(args: list[str]) -> None:
    """The child's side of the protocol above: ``args`` is the scratch file, the build file and
    the tables to fill."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides; it stops us on Ctrl-C
    if hasattr(os, "nice"):
        os.nice(_NICE)
    scratch, source, *targets = args
    indexes = tuple(_BY_TARGET[target] for target in targets)
    totals = {target: segments.Totals() for target in targets}

    def get():
        line = sys.stdin.readline()
        if not line or line == "done\n":  # EOF: the parent is gone
            return _DONE
        kind, position, *rows = line.split()
        return kind, int(position), (int(rows[0]), int(rows[1])) if rows else None

    def ready() -> None:
        print("ready", flush=True)

    try:
        serve(Path(scratch), Path(source), indexes, get, totals, ready)
    except BaseException as exc:
        message = f"{type(exc).__name__}: {exc}".replace("\n", " ")
        print(f"error {message}", flush=True)
        return
    print("ok " + json.dumps({t: [total.rows, total.columns] for t, total in totals.items()}), flush=True)
