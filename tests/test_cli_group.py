"""The command group loads command modules lazily; every command must still be reachable."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner

from contextpull.cli import COMMAND_MODULES, cli


def test_every_registered_command_is_in_the_lazy_map():
    listed = cli.list_commands(None)  # imports every command module
    assert set(listed) == set(COMMAND_MODULES)


def test_help_lists_every_command():
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    for name in COMMAND_MODULES:
        assert f"  {name} " in result.output


def test_an_unknown_command_is_a_usage_error():
    result = CliRunner().invoke(cli, ["nope"])
    assert result.exit_code == 2
    assert "No such command 'nope'" in result.stderr


def test_ingest_does_not_load_the_read_side_or_the_server():
    code = (
        "import sys; from contextpull.cli import cli; cli.get_command(None, 'ingest');"
        "print(' '.join(m for m in ('contextpull.ops', 'contextpull.serving.mcp_server', 'contextpull.artifact.run')"
        " if m in sys.modules))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == ""


def test_library_names_still_import():
    from contextpull import Ops, Store

    assert Ops.__name__ == "Ops" and Store.__name__ == "Store"


def _store(tmp_path):
    from artifact_helpers import fixture_corpus, quiet_build

    docs = fixture_corpus(tmp_path / "docs")
    quiet_build(docs, tmp_path / "out")
    return tmp_path / "out" / "store.sqlite"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["index"], ["export-chunks"], ["claude-md"]])
def test_output_to_a_full_disk_is_one_line_and_exit_3(tmp_path, args):
    store = _store(tmp_path)
    argv = [sys.executable, "-m", "contextpull", *args] + (["--store", str(store)] if args != ["claude-md"] else [])
    with open("/dev/full", "w") as full:
        proc = subprocess.run(argv, stdout=full, stderr=subprocess.PIPE, text=True)
    assert proc.returncode == 3
    assert proc.stderr == "Error: No space left on device\n"


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS refuses file names that are not UTF-8")
def test_a_store_path_that_is_not_utf8_opens(tmp_path):
    store = _store(tmp_path)
    odd = tmp_path / os.fsdecode(b"s\xff.sqlite")
    shutil.copy(store, odd)
    result = CliRunner().invoke(cli, ["search", "cache directory", "--store", str(odd)])
    assert result.exit_code == 0 and "guide/config.md#" in result.output


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS refuses file names that are not UTF-8")
def test_an_out_folder_that_is_not_utf8_is_one_line(tmp_path):
    from artifact_helpers import clean_env, fixture_corpus

    docs = fixture_corpus(tmp_path / "docs")
    out = tmp_path / os.fsdecode(b"o\xffut")
    result = CliRunner().invoke(cli, ["build", str(docs), "--out", str(out)], env=clean_env())
    assert result.exit_code == 3
    assert result.stderr.startswith("Error: '") and result.stderr.rstrip().endswith(
        "is not valid UTF-8 text (rename the path or pass UTF-8)")
    assert not out.exists()
