"""``contextpull fetch``: download, verify, place atomically, or leave nothing (issue 6, part 4).

A throwaway ``http.server`` on 127.0.0.1 in a thread plays the release host. Every failure case
checks both the error and that neither the destination nor a temporary file is left behind.
"""

from __future__ import annotations

import hashlib
import http.server
import os
import stat
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from contextpull.cli import cli
from contextpull.errors import ContextPullError
import contextpull.serving.fetch as fetch_mod
from contextpull.cli.remotes import cache_dir
from contextpull.serving.fetch import FetchError, cached_path, check_url, fetch_store

try:
    from mcp_fixtures import corpus_store
except ImportError:  # tests/ imported as a package
    from tests.mcp_fixtures import corpus_store


class _Routes(http.server.BaseHTTPRequestHandler):
    routes: dict[str, tuple[int, bytes, int | None]] = {}
    hits: list[str] = []

    def do_GET(self):  # noqa: N802 - http.server's naming
        self.hits.append(self.path)
        status, body, announced = self.routes.get(self.path, (404, b"not found", None))
        self.send_response(status)
        if status in (301, 302, 307, 308):  # body is the Location
            self.send_header("Location", body.decode())
            body = b""
        self.send_header("Content-Length", str(len(body) if announced is None else announced))
        self.end_headers()
        self.wfile.write(body)
        self.close_connection = True

    def log_message(self, *args):  # keep test output clean
        pass


@pytest.fixture(scope="module")
def host():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Routes)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def store_bytes(tmp_path_factory):
    return corpus_store(tmp_path_factory.mktemp("fetch")).read_bytes()


@pytest.fixture(autouse=True)
def clean_routes():
    _Routes.routes = {}
    _Routes.hits = []


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    """Every test gets its own cache folder; nothing is written under the real home."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("CONTEXTPULL_CACHE", str(folder))
    return folder


def files_under(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")) if folder.exists() else []


def publish(name: str, body: bytes, *, checksum: str | None = None, announced: int | None = None):
    _Routes.routes[f"/{name}"] = (200, body, announced)
    digest = checksum or hashlib.sha256(body).hexdigest()
    _Routes.routes[f"/{name}.sha256"] = (200, f"{digest}  {name}\n".encode(), None)


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_good_file_is_verified_and_placed(host, store_bytes, tmp_path):
    publish("store.sqlite", store_bytes)
    out = tmp_path / "dl" / "store.sqlite"
    fetched = fetch_store(f"{host}/store.sqlite", cache=cache_dir(os.environ), out=out)
    assert fetched.path == out and not fetched.reused
    assert out.read_bytes() == store_bytes
    assert fetched.sha256 == hashlib.sha256(store_bytes).hexdigest()
    assert leftovers(out.parent) == ["store.sqlite"]


def test_explicit_checksum_needs_no_sha256_asset(host, store_bytes, tmp_path):
    _Routes.routes["/only.sqlite"] = (200, store_bytes, None)
    out = tmp_path / "only.sqlite"
    fetch_store(f"{host}/only.sqlite", cache=cache_dir(os.environ), out=out, sha256=hashlib.sha256(store_bytes).hexdigest().upper())
    assert out.read_bytes() == store_bytes
    assert "/only.sqlite.sha256" not in _Routes.hits


def test_cached_copy_with_right_checksum_is_reused_without_download(host, store_bytes, cache):
    publish("store.sqlite", store_bytes)
    first = fetch_store(f"{host}/store.sqlite", cache=cache)
    assert first.path == cached_path(f"{host}/store.sqlite", first.sha256, cache)
    _Routes.hits.clear()
    second = fetch_store(f"{host}/store.sqlite", cache=cache)
    assert second.reused and second.path == first.path
    assert _Routes.hits == ["/store.sqlite.sha256"]  # the checksum only, never the body


def test_wrong_checksum_leaves_nothing(host, cache, store_bytes, tmp_path):
    publish("store.sqlite", store_bytes, checksum="0" * 64)
    out = tmp_path / "dl" / "store.sqlite"
    with pytest.raises(ContextPullError, match="checksum mismatch"):
        fetch_store(f"{host}/store.sqlite", cache=cache_dir(os.environ), out=out)
    assert leftovers(out.parent) == []
    assert files_under(cache) == []


def test_truncated_body_leaves_nothing(host, cache, store_bytes, tmp_path):
    publish("store.sqlite", store_bytes[:5000], announced=len(store_bytes))
    out = tmp_path / "dl" / "store.sqlite"
    with pytest.raises(ContextPullError, match="truncated|broke off"):
        fetch_store(f"{host}/store.sqlite", cache=cache_dir(os.environ), out=out, sha256=hashlib.sha256(store_bytes).hexdigest())
    assert leftovers(out.parent) == []
    assert files_under(cache) == []


def test_http_404_leaves_nothing(host, cache, tmp_path):
    out = tmp_path / "dl" / "store.sqlite"
    with pytest.raises(ContextPullError, match="HTTP 404"):
        fetch_store(f"{host}/missing.sqlite", cache=cache_dir(os.environ), out=out, sha256="a" * 64)
    assert leftovers(out.parent) == []
    assert files_under(cache) == []


def test_missing_checksum_asset_names_the_fix(host, store_bytes, tmp_path):
    _Routes.routes["/bare.sqlite"] = (200, store_bytes, None)
    with pytest.raises(ContextPullError, match="no checksum") as info:
        fetch_store(f"{host}/bare.sqlite", cache=cache_dir(os.environ), out=tmp_path / "bare.sqlite")
    assert "--sha256" in info.value.suggestion
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("body", [b"<html>release page</html>" * 100, b"SQLite format 3\x00" + b"\x00" * 4000])
def test_file_that_is_not_a_store_leaves_nothing(host, tmp_path, cache, body):
    publish("store.sqlite", body)
    out = tmp_path / "dl" / "store.sqlite"
    with pytest.raises(ContextPullError, match="not a valid store") as info:
        fetch_store(f"{host}/store.sqlite", cache=cache_dir(os.environ), out=out)
    # The message names the URL, not the temporary file that no longer exists.
    assert f"{host}/store.sqlite is not a valid store" in info.value.message
    assert ".part" not in info.value.message
    assert leftovers(out.parent) == []
    assert files_under(cache) == []


@pytest.mark.skipif(os.name == "nt", reason="POSIX file modes")
def test_placed_files_get_the_usual_mode_not_the_temporary_files_0600(host, store_bytes, tmp_path, cache):
    publish("store.sqlite", store_bytes)
    out = tmp_path / "dl" / "store.sqlite"
    previous = os.umask(0o022)
    try:
        fetched = fetch_store(f"{host}/store.sqlite", cache=cache_dir(os.environ), out=out)
    finally:
        os.umask(previous)
    assert stat.S_IMODE(out.stat().st_mode) == 0o644
    assert stat.S_IMODE(cached_path(f"{host}/store.sqlite", fetched.sha256, cache_dir(os.environ)).stat().st_mode) == 0o644


def test_out_is_filled_from_the_cache_without_downloading_again(host, store_bytes, tmp_path, cache):
    publish("store.sqlite", store_bytes)
    first = fetch_store(f"{host}/store.sqlite", cache=cache_dir(os.environ), out=tmp_path / "a" / "store.sqlite")
    assert not first.reused
    assert files_under(cache) == [first.sha256[:16], f"{first.sha256[:16]}/store.sqlite"]
    _Routes.hits.clear()
    second = fetch_store(f"{host}/store.sqlite", cache=cache_dir(os.environ), out=tmp_path / "b" / "store.sqlite")
    assert second.reused and second.source == "cache" and second.path.read_bytes() == store_bytes
    assert _Routes.hits == ["/store.sqlite.sha256"]
    assert leftovers(tmp_path / "b") == ["store.sqlite"]


def test_unwritable_cache_still_fetches_to_out(host, store_bytes, tmp_path, monkeypatch):
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the cache folder should be")
    monkeypatch.setenv("CONTEXTPULL_CACHE", str(blocker / "cache"))
    publish("store.sqlite", store_bytes)
    out = tmp_path / "out" / "store.sqlite"
    assert fetch_store(f"{host}/store.sqlite", cache=cache_dir(os.environ), out=out).path == out
    assert leftovers(out.parent) == ["store.sqlite"]


def test_existing_destination_survives_a_failed_fetch(host, store_bytes, tmp_path, cache):
    out = tmp_path / "dest" / "store.sqlite"
    out.parent.mkdir()
    out.write_bytes(b"previous good copy")
    publish("store.sqlite", store_bytes, checksum="1" * 64)
    with pytest.raises(ContextPullError):
        fetch_store(f"{host}/store.sqlite", cache=cache_dir(os.environ), out=out)
    assert out.read_bytes() == b"previous good copy"
    assert leftovers(out.parent) == ["store.sqlite"]
    assert files_under(cache) == []


@pytest.mark.parametrize("url", ["http://example.com/store.sqlite", "ftp://127.0.0.1/x", "file:///etc/passwd"])
def test_only_https_or_loopback_http(url):
    with pytest.raises(ContextPullError, match="only https"):
        check_url(url)


def test_cache_dir_from_environment(tmp_path):
    assert cache_dir({"CONTEXTPULL_CACHE": str(tmp_path)}) == tmp_path
    assert cache_dir({}) == Path.home() / ".cache" / "contextpull"


def test_cli_fetch_success_and_failure_exit_codes(host, store_bytes, tmp_path):
    publish("store.sqlite", store_bytes)
    out = tmp_path / "cli.sqlite"
    ok = CliRunner().invoke(cli, ["fetch", f"{host}/store.sqlite", "--out", str(out)])
    assert ok.exit_code == 0, ok.output
    assert "fetched" in ok.output and out.is_file()
    again = CliRunner().invoke(cli, ["fetch", f"{host}/store.sqlite", "--out", str(out)])
    assert again.exit_code == 0 and "kept existing" in again.output
    bad = CliRunner().invoke(cli, ["fetch", f"{host}/gone.sqlite", "--out", str(tmp_path / "x.sqlite"), "--sha256", "b" * 64])
    assert bad.exit_code != 0
    assert "HTTP 404" in bad.stderr
    assert not (tmp_path / "x.sqlite").exists()


def test_redirect_to_plain_http_elsewhere_is_refused(host, tmp_path, cache):
    class Redirect(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            self.send_response(302)
            self.send_header("Location", "http://example.com/store.sqlite")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with pytest.raises(ContextPullError, match="refusing a redirect"):
            fetch_store(f"http://127.0.0.1:{server.server_address[1]}/store.sqlite", cache=cache_dir(os.environ), out=tmp_path / "s.sqlite", sha256="c" * 64)
    finally:
        server.shutdown()
        server.server_close()
    assert not (tmp_path / "s.sqlite").exists()
    assert files_under(cache) == []


def test_redirect_within_the_rules_is_followed(host, store_bytes, tmp_path):
    publish("real.sqlite", store_bytes)
    _Routes.routes["/moved.sqlite"] = (302, b"/real.sqlite", None)  # a release URL pointing at its CDN copy
    out = tmp_path / "moved.sqlite"
    fetched = fetch_store(f"{host}/moved.sqlite", cache=cache_dir(os.environ), out=out, sha256=hashlib.sha256(store_bytes).hexdigest())
    assert fetched.path.read_bytes() == store_bytes
    assert _Routes.hits == ["/moved.sqlite", "/real.sqlite"]


@pytest.mark.parametrize("url", ["https://example.org/releases/..", "https://example.org"])
def test_a_url_with_no_file_name_is_cached_under_the_default_name(url, cache):
    digest = "ab" * 32
    assert cached_path(url, digest, cache) == cache / digest[:16] / "store.sqlite"


def test_a_destination_that_cannot_be_replaced_is_one_error_and_leaves_nothing(host, store_bytes, tmp_path, cache, monkeypatch):
    publish("store.sqlite", store_bytes)
    out = tmp_path / "dl" / "store.sqlite"

    def busy(src, dst):
        raise OSError(16, "Device or resource busy")

    monkeypatch.setattr(fetch_mod.os, "replace", busy)
    with pytest.raises(FetchError) as info:
        fetch_store(f"{host}/store.sqlite", cache=cache_dir(os.environ), out=out)
    # the first placing that fails says so: in the cache, or at OUT
    assert info.value.message.startswith("cannot place the store at ")
    assert info.value.message.endswith(": Device or resource busy")
    assert leftovers(out.parent) == [] and not any(p.suffix == ".part" for p in cache.rglob("*"))
