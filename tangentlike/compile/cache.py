"""On-disk cache of generated gradient modules, stored as text.

One file per key, ``<key>.py``: a header line, then the generated source verbatim (UTF-8)::

    # tangentlike-cache v1 key=<key> sha256=<hex digest of the body>
    <body>

Assumes: keys come from `cache_key` over everything the generated text depends on (sources,
options, rule registry fingerprint, tangentlike version), so one key always maps to one text; the
cache directory is trusted (the digest detects damage, not tampering: whoever can write the
directory can make us load any source). Guarantees: never pickles; writes are atomic
(compile/atomic.py: temporary file in the same directory, `os.replace`; no fsync: after a
machine crash a torn entry fails its digest), so no reader ever sees a partial entry; a
temporary left by a killed writer is removed by a later `store` once it is older than
`STALE_TEMPORARY_SECONDS`, or by `clear`; directories the cache creates are private (0700,
whatever the umask), entries are 0600; `load` returns a body only if its
header, key and digest all check out, and otherwise reports a miss; environmental failures
(unwritable or unreadable directory, full disk) become misses or ``None``,
never exceptions. Standard library and platformdirs (the default directory) only.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pathlib
import re
import time

import platformdirs

from .atomic import write_atomic

__all__ = ["DiskCache", "cache_key", "default_cache_dir"]

FORMAT_VERSION = 1
_MAGIC = "tangentlike-cache"
_SUFFIX = ".py"
_SUFFIXES = (_SUFFIX, ".code")  # a source entry; the marshalled code of one (build.py)
_KEY_RE = re.compile(r"[0-9a-f]{16,128}")
_ENTRY_RE = re.compile(r"[0-9a-f]{16,128}\.py")
_CODE_RE = re.compile(r"[0-9a-f]{16,128}\.code")
_TMP_RE = re.compile(r"\.[0-9a-f]{16,128}\..*\.tmp")
# A temporary file this old belongs to a writer that died (a store takes milliseconds).
STALE_TEMPORARY_SECONDS = 600


def default_cache_dir() -> pathlib.Path:
    """Where the cache lives unless a directory is given.

    ``$TANGENTLIKE_CACHE_DIR`` when set and non-empty (``~`` expanded); else the user cache
    directory platformdirs gives for tangentlike: ``$XDG_CACHE_HOME/tangentlike`` or
    ``~/.cache/tangentlike`` on Linux, ``~/Library/Caches/tangentlike`` on macOS,
    ``%LOCALAPPDATA%\\tangentlike\\Cache`` on Windows. Reads the environment at each call;
    creates nothing.
    """
    explicit = os.environ.get("TANGENTLIKE_CACHE_DIR")
    if explicit:
        return pathlib.Path(explicit).expanduser()
    return pathlib.Path(platformdirs.user_cache_dir("tangentlike", appauthor=False))


def cache_key(*parts: str) -> str:
    """The sha256 hex digest (64 lowercase hex chars) of `parts`, in order.

    Each part is UTF-8 encoded and prefixed with its byte length, so different tuples never share
    an encoding: ``("ab", "c")``, ``("a", "bc")`` and ``("abc",)`` give different keys.
    """
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8")
        digest.update(len(data).to_bytes(8, "big"))
        digest.update(data)
    return digest.hexdigest()


def _check_key(key: str) -> None:
    if not isinstance(key, str) or not _KEY_RE.fullmatch(key):
        raise ValueError(f"cache key must be 16-128 lowercase hex characters, got {key!r}")


def _header(key: str, body: bytes) -> bytes:
    digest = hashlib.sha256(body).hexdigest()
    return f"# {_MAGIC} v{FORMAT_VERSION} key={key} sha256={digest}\n".encode("ascii")


class DiskCache:
    """Generated sources on disk, one text file per key, safe across threads and processes.

    `directory` is made absolute at construction (a later ``chdir`` does not move the cache) and
    is created on the first `store`, not before.
    """

    def __init__(self, directory: str | os.PathLike[str] | None = None) -> None:
        path = default_cache_dir() if directory is None else pathlib.Path(directory)
        self.directory: pathlib.Path = path.expanduser().absolute()

    def __repr__(self) -> str:
        return f"DiskCache({str(self.directory)!r})"

    def path_for(self, key: str, suffix: str = _SUFFIX) -> pathlib.Path:
        """The entry file for `key` (which need not exist). Raises ValueError for a bad key."""
        _check_key(key)
        if suffix not in _SUFFIXES:
            raise ValueError(f"cache entries end in {' or '.join(_SUFFIXES)}, not {suffix!r}")
        return self.directory / (key + suffix)

    def load(self, key: str) -> str | None:
        """The source stored under `key`, or None on a miss.

        A miss is: no entry, an unreadable entry or directory, or an entry that fails validation
        (empty, truncated, body or header edited, another format version, another key, not
        UTF-8). An entry that fails validation is removed, best effort, and only if the file is
        still the one that was read (a concurrent `store` may have replaced it with a good one).
        Raises ValueError for a malformed key, never for a bad entry.
        """
        body = self.load_bytes(key)
        if body is None:
            return None
        try:
            return body.decode("utf-8")
        except UnicodeDecodeError:
            return None

    def load_bytes(self, key: str, suffix: str = _SUFFIX) -> bytes | None:
        """The bytes stored under `key` in the file `<key><suffix>` (`.py`: a source entry,
        `.code`: its compiled code), validated as `load` says, or None on a miss."""
        path = self.path_for(key, suffix)
        try:
            with open(path, "rb") as f:
                seen = os.fstat(f.fileno())
                data = f.read()
        except OSError:
            return None
        newline = data.find(b"\n")
        if newline >= 0:
            header, body = data[: newline + 1], data[newline + 1 :]
            if header == _header(key, body) and (suffix != _SUFFIX or _is_utf8(body)):
                return body
        _discard(path, seen)
        return None

    def store(self, key: str, source: str) -> pathlib.Path | None:
        """Write `source` under `key` atomically; return the entry path, or None if not written.

        None means the directory could not be created or written (or the final rename failed,
        e.g. on Windows while another process holds the entry open); nothing partial is left under
        the entry name and the temporary file is removed. Concurrent stores of one key by threads
        or processes all succeed or miss, and the entry ends up as one complete write. Raises
        ValueError for a malformed key and UnicodeEncodeError if `source` is not encodable
        (caller errors, raised before touching the disk).
        """
        self.path_for(key)  # a malformed key raises before anything is encoded
        return self.store_bytes(key, source.encode("utf-8"))

    def store_bytes(self, key: str, body: bytes, suffix: str = _SUFFIX) -> pathlib.Path | None:
        """Write `body` under `key` in the file `<key><suffix>`, as `store` says."""
        path = self.path_for(key, suffix)
        data = _header(key, body) + body
        try:
            _make_private_directory(self.directory)
            _remove_stale_temporaries(self.directory)
            # 0600: only its user may plant code we run. Not durable: a torn entry after
            # a crash fails its digest and is a miss, so the two fsyncs (a cold build's
            # slowest step) buy nothing
            write_atomic(path, data, durable=False)
        except OSError:
            return None
        return path

    def subdirectory(self, name: str) -> pathlib.Path | None:
        """The private directory `name` inside the cache (made 0700 if missing), for files
        another tool reads by path (the compiled path's modules); None if it cannot be made."""
        path = self.directory / name
        try:
            _make_private_directory(path)
        except OSError:
            return None
        return path

    def clear(self) -> int:
        """Remove every entry and any leftover temporary file; return how many entries went.

        Only files named like entries (``<hex key>.py``) or our temporaries are touched, so
        pointing the cache at a directory holding other files does not delete them. A store
        running concurrently may lose its write (it then returns None). Never raises OSError.
        """
        try:
            names = os.listdir(self.directory)
        except OSError:
            return 0
        removed = 0
        for name in names:
            is_entry = _ENTRY_RE.fullmatch(name) is not None
            ours = _CODE_RE.fullmatch(name) or _TMP_RE.fullmatch(name)
            if not is_entry and ours is None:
                continue
            try:
                os.unlink(self.directory / name)
            except OSError:
                continue
            if is_entry:
                removed += 1
        return removed


def _is_utf8(body: bytes) -> bool:
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _make_private_directory(directory: pathlib.Path) -> None:
    """Create `directory` and its missing parents readable and writable by the user alone
    (0700: under umask 000 a shared cache would let anyone plant code we execute)."""
    missing = []
    path = directory
    while not path.exists():
        missing.append(path)
        if path.parent == path:
            break
        path = path.parent
    for path in reversed(missing):
        with contextlib.suppress(FileExistsError):  # another process made it meanwhile
            os.mkdir(path, 0o700)
    if not directory.is_dir():
        raise NotADirectoryError(str(directory))


def _remove_stale_temporaries(directory: pathlib.Path) -> None:
    """Remove our temporary files older than STALE_TEMPORARY_SECONDS (their writer was killed
    before it could rename or remove them); younger ones may be a concurrent store's."""
    try:
        names = os.listdir(directory)
    except OSError:
        return
    now = time.time()
    for name in names:
        if _TMP_RE.fullmatch(name) is None:
            continue
        path = directory / name
        with contextlib.suppress(OSError):
            if now - os.stat(path).st_mtime > STALE_TEMPORARY_SECONDS:
                os.unlink(path)


def _discard(path: pathlib.Path, seen: os.stat_result) -> None:
    """Remove `path` if it is still the file described by `seen`; ignore every failure."""
    with contextlib.suppress(OSError):
        now = os.stat(path)
        if (now.st_dev, now.st_ino) == (seen.st_dev, seen.st_ino):
            os.unlink(path)
