"""Tests of tangentlike.compile.cache: location, keys, entry validation, atomicity, concurrency."""

from __future__ import annotations

import concurrent.futures
import hashlib
import os
import pathlib
import subprocess
import sys
import threading

import platformdirs
import pytest

from tangentlike.compile import cache
from tangentlike.compile.cache import DiskCache, cache_key, default_cache_dir

KEY = cache_key("f", "source of f")
OTHER_KEY = cache_key("g", "source of g")
SOURCE = 'import numpy as np\n\n\ndef dloss(x):\n    """é → ∂"""\n    return 2.0 * x\n'
# Large enough that concurrent writes would interleave if they were not atomic.
BIG_SOURCE = "".join(f"_t{i} = np.sum(x) * {i}  # ∂ line {i}\n" for i in range(20000))

running_as_root = hasattr(os, "geteuid") and os.geteuid() == 0


def entry_files(directory: pathlib.Path) -> list[str]:
    return sorted(os.listdir(directory))


def stored(tmp_path: pathlib.Path, source: str = SOURCE) -> tuple[DiskCache, pathlib.Path]:
    disk = DiskCache(tmp_path / "cache")
    path = disk.store(KEY, source)
    assert path is not None
    return disk, path


def assert_rejected(disk: DiskCache, key: str, path: pathlib.Path) -> None:
    assert disk.load(key) is None
    assert not path.exists()
    assert disk.load(key) is None


# default_cache_dir


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path) -> pathlib.Path:
    """No cache variables set; HOME points into tmp_path. Returns the fake home."""
    home = tmp_path / "home"
    monkeypatch.delenv("TANGENTLIKE_CACHE_DIR", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("USERPROFILE", str(home))
    return home


def test_default_dir_prefers_tangentlike_cache_dir(clean_env, monkeypatch, tmp_path):
    monkeypatch.setenv("TANGENTLIKE_CACHE_DIR", str(tmp_path / "mine"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "mine"


@pytest.mark.skipif(sys.platform != "linux", reason="the XDG layout")
def test_default_dir_ignores_empty_tangentlike_cache_dir(clean_env, monkeypatch, tmp_path):
    monkeypatch.setenv("TANGENTLIKE_CACHE_DIR", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "xdg" / "tangentlike"


@pytest.mark.skipif(sys.platform != "linux", reason="the XDG layout")
def test_default_dir_uses_xdg_cache_home(clean_env, monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "xdg" / "tangentlike"


def test_default_dir_is_the_platforms_user_cache_dir(clean_env):
    """Without TANGENTLIKE_CACHE_DIR, platformdirs decides (macOS, Windows, XDG rules)."""
    expected = platformdirs.user_cache_dir("tangentlike", appauthor=False)
    assert default_cache_dir() == pathlib.Path(expected)


@pytest.mark.skipif(sys.platform != "linux", reason="the XDG layout")
def test_default_dir_falls_back_to_home_cache(clean_env):
    assert default_cache_dir() == clean_env / ".cache" / "tangentlike"


def test_disk_cache_without_directory_uses_default_and_creates_nothing(monkeypatch, tmp_path):
    monkeypatch.setenv("TANGENTLIKE_CACHE_DIR", str(tmp_path / "lazy"))
    disk = DiskCache()
    assert disk.directory == tmp_path / "lazy"
    assert disk.load(KEY) is None
    assert disk.clear() == 0
    assert not disk.directory.exists()
    assert disk.store(KEY, SOURCE) == tmp_path / "lazy" / f"{KEY}.py"


def test_relative_directory_is_fixed_at_construction(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    disk = DiskCache("rel")
    monkeypatch.chdir(tmp_path.parent)
    assert disk.directory == tmp_path / "rel"


# cache_key


def test_cache_key_is_deterministic_sha256_hex():
    key = cache_key("source", "options", "0.1.0")
    assert key == cache_key("source", "options", "0.1.0")
    assert len(key) == 64
    assert all(c in "0123456789abcdef" for c in key)
    expected = hashlib.sha256()
    for part in ("source", "options", "0.1.0"):
        data = part.encode("utf-8")
        expected.update(len(data).to_bytes(8, "big") + data)
    assert key == expected.hexdigest()


def test_cache_key_is_unambiguous():
    tuples = [(), ("",), ("", ""), ("abc",), ("ab", "c"), ("a", "bc"), ("abc", ""), ("", "abc")]
    keys = {cache_key(*parts) for parts in tuples}
    assert len(keys) == len(tuples)


def test_cache_key_depends_on_order_and_content():
    assert cache_key("a", "b") != cache_key("b", "a")
    assert cache_key("é") != cache_key("e")


# round trip and misses


@pytest.mark.parametrize(
    "source",
    [SOURCE, "", "x = 1", "x = 1\r\ny = 2\r\n", "s = '\\n'\n\n\n", BIG_SOURCE],
    ids=["unicode", "empty", "no-final-newline", "crlf", "blank-lines", "big"],
)
def test_store_then_load_returns_exact_text(tmp_path, source):
    disk = DiskCache(tmp_path)
    assert disk.store(KEY, source) == tmp_path / f"{KEY}.py"
    assert disk.load(KEY) == source
    assert DiskCache(tmp_path).load(KEY) == source


def test_entry_is_a_header_line_then_the_body(tmp_path):
    _, path = stored(tmp_path)
    data = path.read_bytes()
    digest = hashlib.sha256(SOURCE.encode("utf-8")).hexdigest()
    header = f"# tangentlike-cache v1 key={KEY} sha256={digest}\n".encode()
    assert data == header + SOURCE.encode("utf-8")


def test_store_replaces_an_existing_entry(tmp_path):
    disk, _ = stored(tmp_path)
    disk.store(KEY, "x = 2\n")
    assert disk.load(KEY) == "x = 2\n"
    assert entry_files(disk.directory) == [f"{KEY}.py"]


def test_missing_key_returns_none(tmp_path):
    disk, _ = stored(tmp_path)
    assert disk.load(OTHER_KEY) is None


def test_load_from_missing_directory_returns_none_and_creates_nothing(tmp_path):
    disk = DiskCache(tmp_path / "absent")
    assert disk.load(KEY) is None
    assert not disk.directory.exists()


def test_directory_in_place_of_an_entry_is_a_miss(tmp_path):
    (tmp_path / f"{KEY}.py").mkdir()
    assert DiskCache(tmp_path).load(KEY) is None


# bad entries: each is a miss, and is removed


def test_corrupted_body_is_rejected_and_removed(tmp_path):
    disk, path = stored(tmp_path)
    data = bytearray(path.read_bytes())
    data[-2] = ord("3") if data[-2] != ord("3") else ord("4")
    path.write_bytes(bytes(data))
    assert_rejected(disk, KEY, path)


def test_truncated_entry_is_rejected_and_removed(tmp_path):
    disk, path = stored(tmp_path)
    path.write_bytes(path.read_bytes()[:-10])
    assert_rejected(disk, KEY, path)


def test_entry_truncated_inside_header_is_rejected_and_removed(tmp_path):
    disk, path = stored(tmp_path)
    path.write_bytes(path.read_bytes()[:20])
    assert_rejected(disk, KEY, path)


def test_hand_edited_header_is_rejected_and_removed(tmp_path):
    disk, path = stored(tmp_path)
    header, body = path.read_bytes().split(b"\n", 1)
    path.write_bytes(header + b" edited by hand\n" + body)
    assert_rejected(disk, KEY, path)


def test_other_format_version_is_rejected_and_removed(tmp_path):
    disk, path = stored(tmp_path)
    path.write_bytes(path.read_bytes().replace(b" v1 ", b" v2 ", 1))
    assert_rejected(disk, KEY, path)


def test_hand_edited_body_with_old_digest_is_rejected_and_removed(tmp_path):
    disk, path = stored(tmp_path)
    path.write_bytes(path.read_bytes() + b"import os\nos.system('true')\n")
    assert_rejected(disk, KEY, path)


def test_entry_renamed_to_another_key_is_rejected_and_removed(tmp_path):
    disk, path = stored(tmp_path)
    renamed = disk.directory / f"{OTHER_KEY}.py"
    os.replace(path, renamed)
    assert_rejected(disk, OTHER_KEY, renamed)


def test_empty_entry_is_rejected_and_removed(tmp_path):
    disk, path = stored(tmp_path)
    path.write_bytes(b"")
    assert_rejected(disk, KEY, path)


def test_body_that_is_not_utf8_is_rejected_and_removed(tmp_path):
    disk, path = stored(tmp_path)
    body = b"x = '\xff'\n"
    digest = hashlib.sha256(body).hexdigest()
    path.write_bytes(f"# tangentlike-cache v1 key={KEY} sha256={digest}\n".encode() + body)
    assert_rejected(disk, KEY, path)


def test_bad_entry_replaced_after_reading_is_kept(tmp_path):
    # load removes a bad entry only if it is still the file it read: a concurrent store's good
    # entry must survive.
    disk, path = stored(tmp_path)
    path.write_bytes(b"garbage")
    seen = os.stat(path)
    disk.store(KEY, SOURCE)
    cache._discard(path, seen)
    assert disk.load(KEY) == SOURCE


# atomic writes and failures


def test_store_leaves_no_temporary_files(tmp_path):
    disk = DiskCache(tmp_path)
    for i in range(5):
        disk.store(KEY, f"x = {i}\n")
        disk.store(OTHER_KEY, f"y = {i}\n")
    assert entry_files(tmp_path) == sorted([f"{KEY}.py", f"{OTHER_KEY}.py"])


def test_failed_rename_returns_none_and_removes_temporary_file(tmp_path, monkeypatch):
    disk = DiskCache(tmp_path)

    def failing_replace(src, dst):
        raise PermissionError("entry held open by another process")

    monkeypatch.setattr(cache.os, "replace", failing_replace)
    assert disk.store(KEY, SOURCE) is None
    assert entry_files(tmp_path) == []


def test_store_when_directory_cannot_be_created_returns_none(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    disk = DiskCache(blocker / "cache")
    assert disk.store(KEY, SOURCE) is None
    assert disk.load(KEY) is None
    assert disk.clear() == 0


@pytest.mark.skipif(running_as_root, reason="root can write to any directory")
@pytest.mark.skipif(os.name != "posix", reason="directory permissions are POSIX modes")
def test_store_into_unwritable_directory_returns_none(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        assert DiskCache(locked).store(KEY, SOURCE) is None
        assert entry_files(locked) == []
    finally:
        locked.chmod(0o700)


@pytest.mark.skipif(running_as_root, reason="root can read any directory")
@pytest.mark.skipif(os.name != "posix", reason="directory permissions are POSIX modes")
def test_load_from_unreadable_directory_returns_none(tmp_path):
    disk, _ = stored(tmp_path)
    disk.directory.chmod(0o000)
    try:
        assert disk.load(KEY) is None
        assert disk.clear() == 0
    finally:
        disk.directory.chmod(0o700)
    assert disk.load(KEY) == SOURCE


def test_unencodable_source_raises_before_touching_disk(tmp_path):
    disk = DiskCache(tmp_path / "cache")
    with pytest.raises(UnicodeEncodeError):
        disk.store(KEY, "x = '\udc80'\n")
    assert not disk.directory.exists()


KILLED_WRITER = """
import os, sys, time
sys.path.insert(0, {root!r})
from tangentlike.compile import cache

def stuck(*args):  # the writer is killed between writing its temporary file and renaming it
    print("writing", flush=True)
    time.sleep(60)

cache.os.replace = stuck
cache.DiskCache({directory!r}).store({key!r}, "x = 1\\n" * 1000)
"""


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL is POSIX")
def test_temporary_file_of_a_killed_writer_is_removed_once_stale(tmp_path):
    import signal

    directory = tmp_path / "cache"
    code = KILLED_WRITER.format(
        root=str(pathlib.Path(__file__).resolve().parents[2]), directory=str(directory), key=KEY
    )
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline() == "writing\n"
    child.send_signal(signal.SIGKILL)
    child.wait()
    child.stdout.close()
    (leftover,) = [p for p in directory.iterdir() if p.suffix == ".tmp"]
    disk = DiskCache(directory)
    disk.store(OTHER_KEY, SOURCE)  # young: perhaps a live writer's, so it stays
    assert leftover.exists()
    old = leftover.stat().st_mtime - cache.STALE_TEMPORARY_SECONDS - 1
    os.utime(leftover, (old, old))
    disk.store(OTHER_KEY, SOURCE)
    assert entry_files(directory) == [f"{OTHER_KEY}.py"]


def test_store_removes_only_stale_temporaries_of_the_cache(tmp_path):
    disk = DiskCache(tmp_path)
    stale, young = tmp_path / f".{KEY}.a1.tmp", tmp_path / f".{OTHER_KEY}.b2.tmp"
    foreign = tmp_path / "notes.tmp"
    for path in (stale, young, foreign):
        path.write_text("partial")
    old = stale.stat().st_mtime - cache.STALE_TEMPORARY_SECONDS - 1
    for path in (stale, foreign):
        os.utime(path, (old, old))
    disk.store(KEY, SOURCE)
    assert entry_files(tmp_path) == sorted([young.name, "notes.tmp", f"{KEY}.py"])


PRIVATE_UNDER_UMASK_0 = """
import os, stat, sys
sys.path.insert(0, {root!r})
from tangentlike.compile.cache import DiskCache
os.umask(0)
DiskCache({directory!r}).store({key!r}, "x = 1\\n")
for path in ({parent!r}, {directory!r}, os.path.join({directory!r}, {key!r} + ".py")):
    print(oct(stat.S_IMODE(os.stat(path).st_mode)))
"""


@pytest.mark.skipif(os.name != "posix", reason="modes and umask are POSIX")
def test_directories_are_private_even_under_umask_0(tmp_path):
    parent = tmp_path / "home" / ".cache"
    directory = parent / "tangentlike"
    code = PRIVATE_UNDER_UMASK_0.format(
        root=str(pathlib.Path(__file__).resolve().parents[2]),
        parent=str(parent),
        directory=str(directory),
        key=KEY,
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0o700", "0o700", "0o600"]


# clear


def test_clear_removes_entries_and_counts_them(tmp_path):
    disk = DiskCache(tmp_path)
    disk.store(KEY, SOURCE)
    disk.store(OTHER_KEY, SOURCE)
    assert disk.clear() == 2
    assert entry_files(tmp_path) == []
    assert disk.load(KEY) is None
    assert disk.clear() == 0


def test_clear_removes_leftover_temporary_files_without_counting_them(tmp_path):
    disk = DiskCache(tmp_path)
    disk.store(KEY, SOURCE)
    (tmp_path / f".{KEY}.abc123.tmp").write_text("partial")
    assert disk.clear() == 1
    assert entry_files(tmp_path) == []


def test_clear_leaves_files_that_are_not_entries(tmp_path):
    disk = DiskCache(tmp_path)
    disk.store(KEY, SOURCE)
    foreign = ["model.py", "notes.txt", f"{KEY.upper()}.py", "abc.py"]
    for name in foreign:
        (tmp_path / name).write_text("keep me")
    assert disk.clear() == 1
    assert entry_files(tmp_path) == sorted(foreign)


def test_clear_of_missing_directory_returns_zero(tmp_path):
    assert DiskCache(tmp_path / "absent").clear() == 0


# keys


@pytest.mark.parametrize(
    "key",
    ["", "abc", "0" * 15, "0" * 129, KEY.upper(), "g" * 64, f"../{KEY}", f"{KEY}.py", f" {KEY}"],
    ids=["empty", "short", "15", "129", "upper", "not-hex", "path", "suffix", "space"],
)
def test_invalid_key_raises_value_error(tmp_path, key):
    disk = DiskCache(tmp_path)
    with pytest.raises(ValueError, match="16-128 lowercase hex"):
        disk.load(key)
    with pytest.raises(ValueError, match="16-128 lowercase hex"):
        disk.store(key, SOURCE)
    assert entry_files(tmp_path) == []


@pytest.mark.parametrize("key", ["0" * 16, "f" * 128])
def test_keys_at_the_length_limits_are_accepted(tmp_path, key):
    disk = DiskCache(tmp_path)
    disk.store(key, SOURCE)
    assert disk.load(key) == SOURCE


# concurrency


def test_threads_storing_and_loading_one_key(tmp_path):
    disk = DiskCache(tmp_path / "cache")
    workers = 8
    start = threading.Barrier(workers)

    def work() -> None:
        start.wait()
        for _ in range(20):
            path = disk.store(KEY, BIG_SOURCE)
            assert path is not None or os.name == "nt"
            assert disk.load(KEY) == BIG_SOURCE

    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        for future in [pool.submit(work) for _ in range(workers)]:
            future.result()
    assert disk.load(KEY) == BIG_SOURCE
    assert entry_files(disk.directory) == [f"{KEY}.py"]


# Imports this checkout's tangentlike, installed or not.
# argv: repository root, cache directory, key, start-signal file, text file, rounds.
CHILD = """
import os, sys, time
sys.path.insert(0, sys.argv[1])
from tangentlike.compile import cache as module
directory, key, go, text_file, rounds = sys.argv[2:]
with open(text_file, encoding="utf-8", newline="") as f:
    text = f.read()
disk = module.DiskCache(directory)
while not os.path.exists(go):
    time.sleep(0.001)
for _ in range(int(rounds)):
    if disk.store(key, text) is None and os.name == "posix":
        sys.exit("store failed")
    if disk.load(key) is None:
        sys.exit("load missed right after a store")
"""


def run_writers(directory: pathlib.Path, texts: list[str], rounds: int = 20) -> None:
    """Start one process per text, release them together, check they all exited cleanly."""
    work = directory.parent / "work"
    work.mkdir()
    go = work / "go"
    procs = []
    for i, text in enumerate(texts):
        text_file = work / f"text{i}"
        text_file.write_bytes(text.encode("utf-8"))
        root = str(pathlib.Path(cache.__file__).resolve().parents[2])
        args = [root, str(directory), KEY, str(go), str(text_file), str(rounds)]
        procs.append(
            subprocess.Popen(
                [sys.executable, "-c", CHILD, *args],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    go.touch()
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err


def test_processes_storing_one_key(tmp_path):
    directory = tmp_path / "cache"
    run_writers(directory, [BIG_SOURCE] * 4)
    assert DiskCache(directory).load(KEY) == BIG_SOURCE
    assert entry_files(directory) == [f"{KEY}.py"]


def test_processes_storing_different_texts_leave_one_whole_entry(tmp_path):
    # One key never has two texts in real use; here distinct texts expose any interleaved write.
    directory = tmp_path / "cache"
    texts = [BIG_SOURCE.replace("∂", str(i)) for i in range(4)]
    run_writers(directory, texts)
    assert DiskCache(directory).load(KEY) in texts
    assert entry_files(directory) == [f"{KEY}.py"]


def test_bytes_entries_round_trip_and_are_validated(tmp_path):
    """`.code` entries (the marshalled code of a source entry) hold any bytes, under the
    same header and digest as sources; another suffix is refused."""
    c = DiskCache(tmp_path)
    key = cache_key("code entry")
    body = bytes(range(256))  # not UTF-8: fine for a code entry
    assert c.store_bytes(key, body, ".code") == tmp_path / f"{key}.code"
    assert c.load_bytes(key, ".code") == body
    assert c.load(key) is None  # the source entry of the same key is another file
    path = tmp_path / f"{key}.code"
    path.write_bytes(path.read_bytes()[:-1])  # truncated: a miss, and removed
    assert c.load_bytes(key, ".code") is None and not path.exists()
    with pytest.raises(ValueError, match=r"end in \.py or \.code"):
        c.store_bytes(key, body, ".pyc")
    c.store_bytes(key, b"\xff\xfe", ".py")  # a source entry must be UTF-8
    assert c.load(key) is None
