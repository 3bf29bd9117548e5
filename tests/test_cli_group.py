"""The command group loads command modules lazily; every command must still be reachable."""

from __future__ import annotations

import subprocess
import sys

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
        "print(' '.join(m for m in ('contextpull.ops', 'contextpull.mcp_server', 'contextpull.build.artifact')"
        " if m in sys.modules))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == ""


def test_library_names_still_import():
    from contextpull import Ops, Store

    assert Ops.__name__ == "Ops" and Store.__name__ == "Store"
