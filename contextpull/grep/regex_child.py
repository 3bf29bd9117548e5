"""The child process of a regex grep off the main thread (``grep.regex.scan_in_child``).

It runs the same ``Ops.grep`` on the main thread of a fresh interpreter, where the signal timer
can stop a pathological pattern, and answers in JSON on stdout. It lives apart from
``grep.regex`` so that module never imports ``ops``, which imports it.
"""

from __future__ import annotations

import json
import sys

from ..errors import ToolError
from ..ops import Ops
from ..store import Store


def main() -> None:
    request = json.loads(sys.stdin.read())
    try:
        with Store.open(request["store"]) as store:
            result = Ops(store).grep(request["pattern"], request["in"], True, request["limit"])
        reply = result.to_dict()
    except ToolError as exc:
        reply = {**exc.to_dict(), "cli": {"cli_message": exc.cli_message, "cli_suggestion": exc.cli_suggestion}}
    sys.stdout.write(json.dumps(reply))


if __name__ == "__main__":
    main()
