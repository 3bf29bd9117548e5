"""CPU time of search and grep on one store, two checkouts of this repository side by side (issue 28).

  git worktree add /tmp/base REV
  python benchmarks/read_cpu_ab.py /tmp/base . STORE ROUNDS

STORE is a ``cpbench.py gen synthetic`` store (its vocabulary and planted TX ids). Each round
starts one child process per checkout, in alternating order, that imports that checkout's reader
and times four workloads (25 calls each for search, 400 for the sub-millisecond grep) in CPU time (``time.process_time``), which a shared
machine disturbs less than wall time. Prints the medians per call and their ratio (this / base).
"""
import json, subprocess, sys, statistics
CHILD = r'''
import random, sys, time, json
sys.path.insert(0, sys.argv[1])
from contextpull import Ops, Store
WORDS = "account billing cluster deploy driver engine filter gateway handler invoice".split()
rng = random.Random(7)
out = {}
with Store.open(sys.argv[2]) as store:
    ops = Ops(store)
    paths = [r[0] for r in store.conn.execute("SELECT path FROM documents ORDER BY path")]
    n = len(paths)
    work = {
      "search, two common words": [(" ".join(rng.sample(WORDS, 2)), None) for _ in range(25)],
      "search, in = one directory": [(" ".join(rng.sample(WORDS, 2)), [rng.choice(paths).split("/")[0]]) for _ in range(25)],
      "search, in = one document": [(" ".join(rng.sample(WORDS, 2)), [rng.choice(paths)]) for _ in range(25)],
      "grep, literal, whole corpus": [(f"TX-{rng.randrange(n):05d}-0{rng.randrange(8)}", None) for _ in range(400)],
    }
    for label, items in work.items():
        for q, in_ in items[:5]:  # warm: the first calls open the trigram table and page cache
            ops.search(q, in_) if label.startswith("search") else ops.grep(q, in_)
        t = time.process_time()
        for q, in_ in items:
            ops.search(q, in_) if label.startswith("search") else ops.grep(q, in_)
        out[label] = (time.process_time() - t) / len(items) * 1000
print(json.dumps(out))
'''
if len(sys.argv) != 5 or sys.argv[1] in ("-h", "--help"):
    raise SystemExit(__doc__)
prev, new, store, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
res = {"prev": [], "new": []}
for r in range(rounds):
    for side in (("prev", "new") if r % 2 == 0 else ("new", "prev")):
        path = prev if side == "prev" else new
        p = subprocess.run([sys.executable, "-c", CHILD, path, store], capture_output=True, text=True, check=True)
        res[side].append(json.loads(p.stdout))
for label in res["prev"][0]:
    a = statistics.median(x[label] for x in res["prev"]); b = statistics.median(x[label] for x in res["new"])
    print(f"{label:30} base {a:7.2f} ms  this {b:7.2f} ms  ratio {b/a:.3f}")
