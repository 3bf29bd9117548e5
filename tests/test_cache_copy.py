"""The cache's byte copy (contextpull/artifact/cache_copy.py): the same bytes and the same digest
whichever way the copy is made, a copy that ends where its source ends, and every failure handed
to the build rather than a copy that is silently short."""

from __future__ import annotations

import errno
import hashlib
import os
import threading

import pytest

from contextpull.artifact import cache_copy


def _source(tmp_path, size: int = 300_001):
    """A source of ``size`` bytes that repeat only every 251 bytes, so a misplaced block shows."""
    source = tmp_path / "cache.sqlite"
    source.write_bytes((bytes(range(251)) * (size // 251 + 1))[:size])
    return source


def _copied(source, target):
    copy = cache_copy.CacheCopy(source, target)
    copy.wait()
    return copy


def test_the_cache_copy_is_preallocated_and_ends_where_the_source_ends(tmp_path, monkeypatch):
    source = tmp_path / "cache.sqlite"
    source.write_bytes(bytes(range(256)) * 4099)
    asked = []
    real = getattr(os, "posix_fallocate", None)

    def fallocate(fd, offset, length):
        asked.append((offset, length))
        if real is not None:
            real(fd, offset, length + 5000)  # more than the source: the copy must still end with it

    monkeypatch.setattr(os, "posix_fallocate", fallocate, raising=False)
    copy = cache_copy.CacheCopy(source, tmp_path / "copy.sqlite")
    copy.wait()
    assert asked == [(0, source.stat().st_size)]
    assert (tmp_path / "copy.sqlite").read_bytes() == source.read_bytes()


@pytest.mark.parametrize("code", [errno.EOPNOTSUPP, errno.EINVAL])
def test_a_file_system_without_preallocation_still_gets_the_copy(tmp_path, monkeypatch, code):
    source = tmp_path / "cache.sqlite"
    source.write_bytes(b"x" * 100_000)

    def unsupported(fd, offset, length):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(os, "posix_fallocate", unsupported, raising=False)
    copy = cache_copy.CacheCopy(source, tmp_path / "copy.sqlite")
    copy.wait()
    assert copy.complete and (tmp_path / "copy.sqlite").read_bytes() == source.read_bytes()


def test_a_full_disk_fails_the_copy_before_it_writes(tmp_path, monkeypatch):
    source = tmp_path / "cache.sqlite"
    source.write_bytes(b"x" * 100_000)

    def full(fd, offset, length):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "posix_fallocate", full, raising=False)
    copy = cache_copy.CacheCopy(source, tmp_path / "copy.sqlite")
    with pytest.raises(OSError) as info:
        copy.wait()
    assert info.value.errno == errno.ENOSPC and not copy.complete


@pytest.mark.skipif(not hasattr(os, "copy_file_range"), reason="the kernel copy is Linux only")
def test_the_kernel_copy_hashes_short_and_unaligned_blocks_in_order(tmp_path, monkeypatch):
    source = _source(tmp_path)
    real = os.copy_file_range
    calls = []

    def short(src, dst, count, offset_src, offset_dst):
        calls.append(offset_src)
        return real(src, dst, min(count, 7_001), offset_src, offset_dst)  # never on a page boundary

    monkeypatch.setattr(os, "copy_file_range", short)
    copy = _copied(source, tmp_path / "copy.sqlite")
    assert len(calls) > 40  # the kernel path was taken, in short pieces
    assert copy.complete and copy.digest == hashlib.sha256(source.read_bytes()).hexdigest()
    assert (tmp_path / "copy.sqlite").read_bytes() == source.read_bytes()


@pytest.mark.parametrize("code", [errno.EXDEV, errno.ENOSYS, errno.EOPNOTSUPP, errno.EINVAL])
def test_where_the_kernel_cannot_copy_the_buffers_do(tmp_path, monkeypatch, code):
    source = _source(tmp_path)

    def refused(*args):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(os, "copy_file_range", refused, raising=False)
    copy = _copied(source, tmp_path / "copy.sqlite")
    assert copy.complete and copy.digest == hashlib.sha256(source.read_bytes()).hexdigest()
    assert (tmp_path / "copy.sqlite").read_bytes() == source.read_bytes()


def test_without_a_kernel_copy_the_buffers_copy(tmp_path, monkeypatch):
    source = _source(tmp_path)
    monkeypatch.delattr(os, "copy_file_range", raising=False)
    copy = _copied(source, tmp_path / "copy.sqlite")
    assert copy.complete and (tmp_path / "copy.sqlite").read_bytes() == source.read_bytes()


@pytest.mark.skipif(not hasattr(os, "copy_file_range"), reason="the kernel copy is Linux only")
def test_a_kernel_copy_that_fails_part_way_is_an_error_not_a_short_copy(tmp_path, monkeypatch):
    source = _source(tmp_path, 3 * cache_copy.CacheCopy._BLOCK + 5)
    real = os.copy_file_range

    def failing(src, dst, count, offset_src, offset_dst):
        if offset_src >= cache_copy.CacheCopy._BLOCK:
            raise OSError(errno.EINVAL, os.strerror(errno.EINVAL))  # "not here" only before the first byte
        return real(src, dst, count, offset_src, offset_dst)

    monkeypatch.setattr(os, "copy_file_range", failing)
    copy = cache_copy.CacheCopy(source, tmp_path / "copy.sqlite")
    with pytest.raises(OSError) as info:
        copy.wait()
    assert info.value.errno == errno.EINVAL and not copy.complete


@pytest.mark.parametrize("kernel", [True, False], ids=["kernel", "buffers"])
def test_a_cancelled_copy_is_removed(tmp_path, monkeypatch, kernel):
    source = _source(tmp_path, 4 * cache_copy.CacheCopy._BLOCK)
    cancelling, made = threading.Event(), []
    if kernel and hasattr(os, "copy_file_range"):
        real = os.copy_file_range

        def held(*args):
            # Each block waits until the copy has been told to stop: it cannot finish first,
            # however the threads are scheduled (a timed pause could be outrun on a busy machine).
            cancelling.wait(timeout=60)
            made[0]._stop.wait(timeout=60)
            return real(*args)

        monkeypatch.setattr(os, "copy_file_range", held)
    elif kernel:
        pytest.skip("the kernel copy is Linux only")
    else:
        monkeypatch.delattr(os, "copy_file_range", raising=False)
    copy = cache_copy.CacheCopy(source, tmp_path / "copy.sqlite")
    made.append(copy)
    cancelling.set()
    copy.cancel()
    assert copy.done() and not (tmp_path / "copy.sqlite").exists()
    if kernel:
        assert not copy.complete


def _other_file_system(tmp_path):
    """A writable folder on another file system than ``tmp_path`` (Linux's /dev/shm), or None."""
    shm = "/dev/shm"
    if not os.path.isdir(shm) or not os.access(shm, os.W_OK):
        return None
    return shm if os.stat(shm).st_dev != os.stat(tmp_path).st_dev else None


def test_a_copy_across_file_systems_is_whole_and_checked(tmp_path):
    """Without mocks: where the kernel refuses a copy across file systems (EXDEV on recent
    Linux), the buffers copy, and the digest is still the source's."""
    other = _other_file_system(tmp_path)
    if other is None:
        pytest.skip("no second file system to copy to")
    source = _source(tmp_path, 2 * cache_copy.CacheCopy._BLOCK + 3)
    target = os.path.join(other, f"contextpull-test-{os.getpid()}.sqlite")
    try:
        copy = _copied(source, target)
        assert copy.complete and copy.digest == hashlib.sha256(source.read_bytes()).hexdigest()
        with open(target, "rb") as handle:
            assert handle.read() == source.read_bytes()
    finally:
        if os.path.exists(target):
            os.unlink(target)
