"""Read a file the build did not write: a regular file only, and never more than a bound
(issue 22; supplement.md "Failure modes": bad input is a named skip or one clear line).

Every file the write side reads for itself (documents, ``.contextpullignore``, ``pyproject.toml``,
golden files, the checksum and manifest it verifies, a cache's store) can be something other than
a file: a named pipe blocks ``open`` until a writer comes (forever, in CI), a link to
``/dev/zero`` never ends, a sparse file claims gigabytes it does not have on disk. So the file is
opened without blocking, checked with ``fstat`` on the open descriptor (no race with a rename
between a check and the open), refused unless it is a regular file no larger than the bound, and
read to at most the bound plus one byte, which also catches a file that grows while it is read.

The refusals are ``OSError`` subclasses, so the callers' existing ``except OSError`` still holds,
and their messages are written to be the tail of a one-line skip reason or error.
"""

from __future__ import annotations

import os
import stat

# A small file the build reads for itself (pyproject.toml, .contextpullignore, golden files, a
# manifest, a generator's configuration): far above any real one, small enough that a wrong file
# cannot exhaust memory.
CONFIG_FILE_LIMIT = 16 * 1024 * 1024

_KINDS = (
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a folder"),
)


class NotRegularFile(OSError):
    """The path is a pipe, device, socket or folder (after following links)."""

    def __init__(self, mode: int):
        super().__init__(not_regular_reason(mode))
        self.kind = kind_of(mode)  # "a named pipe", ...


class FileTooLarge(OSError):
    """The file is larger than the bound the caller gave."""

    def __init__(self, message: str, size: int, limit: int):
        super().__init__(message)
        self.size, self.limit = size, limit


def why(exc: BaseException) -> str:
    """The reason in an error, without the path an ``OSError``'s message repeats."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc)


def kind_of(mode: int) -> str:
    """What a non-regular file is, in words: "a named pipe", "a character device", ..."""
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def not_regular_reason(mode: int) -> str:
    return f"not a regular file ({kind_of(mode)})"


def too_large_reason(size: int, limit: int) -> str:
    return f"file is {size} bytes, over the limit of {limit}"


def read_regular(path: str | os.PathLike, limit: int) -> bytes:
    """The bytes of the regular file at ``path`` (links followed), at most ``limit`` of them.

    ``FileNotFoundError`` and the other ``OSError`` of ``open`` pass through unchanged;
    ``NotRegularFile`` and ``FileTooLarge`` say why a file that exists was not read.

    Read with ``os.read`` on the descriptor: first the size ``fstat`` gave and one byte more (a
    byte there says the file grew), then in chunks of 64 KB to its end. A build reads small files
    by the thousand (its pages, a book's 700 included listings), and a file object's buffer and
    reads of a megabyte, each allocated whole, cost more than the read itself: 17 us for a file
    of a few hundred bytes, 10 us this way.
    """
    fd, size = _open_regular_fd(path)
    try:
        if size > limit:
            raise FileTooLarge(too_large_reason(size, limit), size, limit)
        chunks: list[bytes] = []
        got = 0
        want = size + 1  # all of it, and the byte that says it did not grow
        while got <= limit:  # in chunks: a read of ``limit + 1`` would allocate that much at once
            chunk = os.read(fd, min(want, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
            want = 1 << 16
    finally:
        os.close(fd)
    if got > limit:  # grew after fstat
        raise FileTooLarge(too_large_reason(got, limit), got, limit)
    return b"".join(chunks)


def read_regular_text(path: str | os.PathLike, limit: int, encoding: str = "utf-8", errors: str = "strict") -> str:
    """``read_regular`` decoded; ``UnicodeDecodeError`` passes through."""
    return read_regular(path, limit).decode(encoding, errors)


def require_regular(path: str | os.PathLike) -> None:
    """``NotRegularFile`` unless ``path`` (links followed) is a regular file; never opens it, so
    a pipe cannot block. For files handed to SQLite, which would open them itself."""
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        raise NotRegularFile(mode)


def open_regular(path: str | os.PathLike, *, follow: bool = True):
    """A binary file object on the regular file at ``path``, for callers that stream (hashing a
    store): opened without blocking, ``NotRegularFile`` otherwise. The caller closes it. With
    ``follow=False`` a link is refused where the platform can say so (``O_NOFOLLOW``): the open
    itself checks, so a file swapped for a link after a caller looked is not followed."""
    fd, _ = _open_regular_fd(path, follow=follow)
    return os.fdopen(fd, "rb")


def _open_regular_fd(path: str | os.PathLike, *, follow: bool = True) -> tuple[int, int]:
    """(descriptor, size) of the regular file at ``path``, opened as ``open_regular`` says; the
    caller closes the descriptor."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    flags |= getattr(os, "O_BINARY", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotRegularFile(st.st_mode)
    except BaseException:
        os.close(fd)
        raise
    return fd, st.st_size
