"""The one atomic writer (compile/atomic.py), shared by the disk cache and the command line."""

from __future__ import annotations

import os
import stat

import pytest

from tangentlike.compile import atomic
from tangentlike.compile.atomic import mode_to_keep, write_atomic


def test_writes_the_bytes_and_leaves_no_temporary(tmp_path):
    path = tmp_path / "out.py"
    write_atomic(path, b"x = 1\n")
    assert path.read_bytes() == b"x = 1\n"
    write_atomic(path, "y = 'é'\n".encode())
    assert path.read_text(encoding="utf-8") == "y = 'é'\n"
    assert os.listdir(tmp_path) == ["out.py"]


@pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")
def test_private_unless_given_a_mode(tmp_path):
    write_atomic(tmp_path / "private", b"")
    assert stat.S_IMODE((tmp_path / "private").stat().st_mode) == 0o600
    write_atomic(tmp_path / "shared", b"", mode=0o644)
    assert stat.S_IMODE((tmp_path / "shared").stat().st_mode) == 0o644


@pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")
def test_mode_to_keep(tmp_path):
    kept = tmp_path / "kept"
    kept.write_text("")
    kept.chmod(0o640)
    assert mode_to_keep(kept) == 0o640
    umask = os.umask(0o027)
    try:
        assert mode_to_keep(tmp_path / "new") == 0o640
    finally:
        os.umask(umask)


@pytest.mark.parametrize("failure", [OSError(28, "No space left on device"), KeyboardInterrupt()])
def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch, failure):
    path = tmp_path / "out.py"
    path.write_bytes(b"old\n")

    def fail(fd):
        raise failure

    monkeypatch.setattr(atomic.os, "fsync", fail)
    with pytest.raises(type(failure)):
        write_atomic(path, b"new\n")
    assert path.read_bytes() == b"old\n"
    assert os.listdir(tmp_path) == ["out.py"]


def test_a_missing_directory_is_an_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        write_atomic(tmp_path / "missing" / "out.py", b"")


def test_not_durable_writes_without_fsync(tmp_path, monkeypatch):
    """The disk cache's writes skip the flushes (its digest detects a torn entry)."""
    calls = []
    monkeypatch.setattr(atomic.os, "fsync", calls.append)
    write_atomic(tmp_path / "a.py", b"a\n", durable=False)
    assert (tmp_path / "a.py").read_bytes() == b"a\n" and calls == []
    write_atomic(tmp_path / "b.py", b"b\n")
    assert len(calls) >= 1  # durable by default: the file (and the directory, POSIX)
