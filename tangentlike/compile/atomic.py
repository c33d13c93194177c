"""Atomic file writes, shared by the disk cache (compile/cache.py) and the command line.

`write_atomic` writes to a temporary file in the target's directory, flushes and fsyncs
it, gives it its permission bits, renames it over the target (`os.replace`) and fsyncs
the directory (POSIX, best effort); `durable=False` leaves out both fsyncs, for files
whose readers detect a torn file themselves (the disk cache's digest). Guarantees: a
reader sees the old file or the whole new one, never a part (after a machine crash,
only when durable); on any failure, an interrupt included, the temporary file is
removed and the error raised, and the target is as it was. Assumes: the directory
exists (the caller creates it with the permissions it wants). Standard library only.
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import tempfile

TEMPORARY_SUFFIX = ".tmp"


def write_atomic(
    path: pathlib.Path, data: bytes, mode: int | None = None, durable: bool = True
) -> None:
    """Replace `path` by a file holding `data`, atomically.

    The temporary file is `.<name>.<random>.tmp` beside `path`. `mode`: the new file's
    permission bits; None keeps the temporary file's 0600 (private). `durable`: fsync
    the file and the directory (two disk flushes, milliseconds each)."""
    fd, temporary = tempfile.mkstemp(
        prefix=f".{path.name}.", suffix=TEMPORARY_SUFFIX, dir=path.parent
    )
    try:
        with open(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    if durable:
        fsync_directory(path.parent)


def mode_to_keep(path: pathlib.Path) -> int:
    """The permission bits `path` has, or those a new file gets under the umask."""
    with contextlib.suppress(FileNotFoundError):
        return path.stat().st_mode & 0o7777
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def fsync_directory(directory: pathlib.Path) -> None:
    """Make a rename in `directory` durable where the platform allows it (POSIX); best effort."""
    if os.name != "posix":
        return
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)
