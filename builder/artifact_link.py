"""Last step of the action: publish the uploaded artifact's link as the ``artifact-url`` output.

``actions/upload-artifact`` returns the link as its own step output; a composite action's outputs
can only be read from steps, so this step copies it (empty when no artifact was uploaded) and puts
the link in the job summary where a reviewer finds it beside the build figures.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

from gha import append_summary, write_outputs


def summary_line(name: str, url: str, label: str = "Artifact") -> str:
    if not url:
        return ""
    text = "".join("\\" + c if c in "\\[]" else c for c in (name or "store"))  # link text as given
    # The blank line ends whatever came before (the build's table), or the link renders into it.
    return f"\n{label}: [{text}]({url})\n"


def main(environ: Mapping[str, str] = os.environ) -> int:
    url = environ.get("CONTEXTPULL_ACTION_UPLOADED_URL", "")
    write_outputs({"artifact-url": url}, environ)
    line = summary_line(environ.get("CONTEXTPULL_ACTION_ARTIFACT_NAME", ""), url)
    line += summary_line(environ.get("CONTEXTPULL_ACTION_GOLDEN_ARTIFACT_NAME", ""),
                         environ.get("CONTEXTPULL_ACTION_GOLDEN_URL", ""), "New golden files")
    if line:
        append_summary(line, environ)
    return 0


if __name__ == "__main__":
    sys.exit(main())
