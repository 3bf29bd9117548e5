"""Run the published ContextPull 0.2.1 conformance suites across the two implementations.

  python benchmarks/peer_conformance.py [--sdist DIR] [--peer-python PY]               # our reader
  python benchmarks/peer_conformance.py --our-writer [--sdist DIR] [--peer-python PY]  # our writer

Our reader (issue 3), the default:

1. copies the unpacked sdist (default /tmp/peer-sdist/contextpull-0.2.1) into a throwaway folder;
2. there, runs the published generator, ``conformance/run.py generate all``, with the published
   package's own Python (default /tmp/peer/bin/python), which builds conformance/store.sqlite and
   conformance/scenarios/store.sqlite from the published corpora;
3. runs our ``conformance/run.py check`` over those stores with the cases exactly as published in
   the sdist (not the regenerated ones), printing pass counts per suite.

Our writer (issue 19), ``--our-writer``: copies the sdist likewise, builds each suite's
``store.sqlite`` from the published corpus with our ``contextpull build CORPUS --out DIR``, puts it
where the published runner looks, and runs the published runner unchanged,
``conformance/run.py check all``, with the published package's Python, against the published
``cases.json``.

Exit 0 when every case of both suites passes.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "conformance"))

import run as conformance  # noqa: E402

SUITES = {"default": "conformance", "scenarios": "conformance/scenarios"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sdist", type=Path, default=Path("/tmp/peer-sdist/contextpull-0.2.1"))
    parser.add_argument("--peer-python", default="/tmp/peer/bin/python")
    parser.add_argument("--our-writer", action="store_true",
                        help="build the stores with our writer, check them with the published runner")
    args = parser.parse_args()
    if args.our_writer:
        return our_writer(args.sdist, args.peer_python)
    with tempfile.TemporaryDirectory(prefix="peer-conf-") as tmp:
        work = Path(tmp) / "sdist"
        shutil.copytree(args.sdist, work)
        proc = subprocess.run([args.peer_python, "conformance/run.py", "generate", "all"], cwd=work,
                              capture_output=True, text=True)
        print(proc.stdout.strip())
        if proc.returncode != 0:
            print(proc.stderr.strip())
            return 1
        ok = True
        for name, folder in SUITES.items():
            passed, total = conformance.check(work / folder / "store.sqlite", args.sdist / folder / "cases.json")
            print(f"{name}: {passed}/{total} published cases pass on our reader")
            ok &= passed == total
    return 0 if ok else 1


def our_writer(sdist: Path, peer_python: str) -> int:
    contextpull = str(Path(sys.executable).parent / "contextpull")
    with tempfile.TemporaryDirectory(prefix="peer-conf-") as tmp:
        work = Path(tmp) / "sdist"
        shutil.copytree(sdist, work)
        for folder in SUITES.values():
            suite = work / folder
            out = Path(tmp) / "out" / folder.replace("/", "-")
            build = subprocess.run([contextpull, "build", str(suite / "corpus"), "--out", str(out)],
                                   capture_output=True, text=True)
            if build.returncode != 0:
                print(build.stderr.strip())
                return 1
            shutil.copyfile(out / "store.sqlite", suite / "store.sqlite")
        proc = subprocess.run([peer_python, "conformance/run.py", "check", "all"], cwd=work,
                              capture_output=True, text=True)
        print((proc.stdout + proc.stderr).strip())
        return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
