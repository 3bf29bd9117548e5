"""Open an Office Open XML package without trusting it (system-design.txt section 3, "Parse";
issue 7, "Hostile and broken files never stall or crash a build").

docx, xlsx and pptx files are zip archives of XML. A file in a docs folder is input we did not
write, so a package is judged by what decompressing it would cost (issue 22): before any member
is read we check what the archive *declares* (total uncompressed size, and the ratio of that to
the compressed bytes, which no Office XML comes near but a bomb's deflate streams do), and while
reading we count what it *delivers* (declared sizes can lie). The member count alone says little
(a real deck of 10,000 slides has over 20,000 members), so its bound only caps the bookkeeping
of the member list, far above any real document. Nesting costs nothing here: members are read
only by the names a format's parser asks for, all XML, so an archive inside the archive (an
embedded workbook, a zip in a zip) is never opened. XML
with a document type declaration is refused outright: ``xml.etree`` does not fetch external
entities but does expand internal ones, so a DTD is the door to "billion laughs" expansion, and
no Office part needs one.

Every refusal is a ``ParseError`` whose message is the skip reason the user sees.
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from xml.etree import ElementTree as ET

from .blocks import ParseError

MAX_MEMBERS = 250_000  # the member list's own cost (a few hundred bytes each), not a bomb test
MAX_TOTAL_BYTES = 200 * 1024 * 1024  # uncompressed, across all members
# declared uncompressed / compressed, judged once a package declares over RATIO_FLOOR: Office
# XML deflates 5 to 30 times, a table of one repeated value perhaps 100; deflate's ceiling,
# where bombs live, is about 1,000.
MAX_RATIO = 250
RATIO_FLOOR = 16 * 1024 * 1024
_CHUNK = 1024 * 1024
_DTD = re.compile(rb"<!\s*(?:DOCTYPE|ENTITY)", re.IGNORECASE)


def _mb(n: int) -> str:
    return f"{n // (1024 * 1024)} MB"


class SafeZip:
    """A zip archive held in memory whose members are read under a size budget."""

    def __init__(
        self,
        data: bytes,
        *,
        max_members: int = MAX_MEMBERS,
        max_total_bytes: int = MAX_TOTAL_BYTES,
        max_ratio: int = MAX_RATIO,
    ):
        try:
            self._zf = zipfile.ZipFile(io.BytesIO(data))
            infos = self._zf.infolist()
        except zipfile.BadZipFile:
            raise ParseError("not a zip file (truncated or not an Office document)") from None
        except (OSError, ValueError, EOFError, NotImplementedError, zipfile.LargeZipFile) as exc:
            raise ParseError(f"unreadable zip file ({exc})") from None
        if len(infos) > max_members:
            raise ParseError(f"too many zip members (more than {max_members})")
        declared = sum(info.file_size for info in infos)
        if declared > max_total_bytes:
            raise ParseError(f"zip bomb: uncompressed size over {_mb(max_total_bytes)}")
        packed = sum(info.compress_size for info in infos)
        if declared > RATIO_FLOOR and declared > max_ratio * max(packed, 1):
            raise ParseError(
                f"zip bomb: expands {declared // max(packed, 1)} times"
                f" ({_mb(declared)} from {packed} bytes; the limit is {max_ratio} times)"
            )
        self._infos = {info.filename: info for info in infos}
        self._budget = max_total_bytes

    def names(self) -> list[str]:
        return list(self._infos)

    def has(self, name: str) -> bool:
        return name in self._infos

    def read(self, name: str) -> bytes:
        """The member's bytes, read in chunks and stopped as soon as it exceeds what it declared."""
        info = self._infos.get(name)
        if info is None:
            raise ParseError(f"missing {name}")
        limit = min(info.file_size, self._budget)
        parts: list[bytes] = []
        got = 0
        try:
            with self._zf.open(info) as member:
                while True:
                    chunk = member.read(min(_CHUNK, limit - got + 1))
                    if not chunk:
                        break
                    got += len(chunk)
                    if got > limit:
                        raise ParseError(f"zip bomb: {name} expands beyond its declared size")
                    parts.append(chunk)
        except ParseError:
            raise
        except RuntimeError:  # zipfile's signal for an encrypted member
            raise ParseError(f"encrypted zip member {name}") from None
        except NotImplementedError as exc:
            raise ParseError(f"unsupported zip compression in {name} ({exc})") from None
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError) as exc:
            raise ParseError(f"corrupt zip member {name} ({exc})") from None
        self._budget -= got
        return b"".join(parts)

    def xml(self, name: str) -> ET.Element:
        """Parse a member as XML, refusing any DTD before the parser sees it."""
        return parse_xml(self.read(name), name)


def parse_xml(data: bytes, name: str) -> ET.Element:
    """Parse untrusted XML bytes; a DOCTYPE or ENTITY declaration is refused, not expanded."""
    probe = data
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):  # UTF-16 hides the markup from a byte scan
        try:
            probe = data.decode("utf-16").encode("utf-8")
        except UnicodeDecodeError:
            raise ParseError(f"malformed XML in {name} (bad UTF-16)") from None
    if _DTD.search(probe):
        raise ParseError(f"XML entity declarations refused in {name} (possible entity expansion)")
    try:
        return ET.fromstring(data)
    except ET.ParseError as exc:
        raise ParseError(f"malformed XML in {name} ({exc})") from None
