"""Build one gradient module, or load it from the disk cache when an entry for it is there
and everything it was built from still holds.

`build` runs the pipeline (pipeline.ModuleBuilder) with a Recorder whose roots are the
differentiated function and the classes it is specialised for, renders and loads the
module, compiles its guards from the record, and stores the text with its manifest
(compile/manifest.py) on disk; or, finding an entry under the key of the function's text
and options, validates its manifest here and loads it instead. Either way it returns a
Built (live.py): the generated function, its text and the guards that keep it current.
"""

from __future__ import annotations

import importlib.util
import logging
import marshal
from collections.abc import Callable

from . import __version__
from .compile import loader, manifest
from .compile.cache import DiskCache, cache_key
from .compile.guards import Guards
from .job import ENTRY, Job
from .live import Built
from .parse.record import Recorder
from .pipeline import ModuleBuilder, ModuleText
from .rules.registry import Registry

log = logging.getLogger("tangentlike")

_ENTRY = "# " + ENTRY


def build(
    job: Job,
    registry: Registry,
    disk: DiskCache | None = None,
    front: Callable | None = None,
) -> Built:
    """Build the gradient module of `job`, or load it from the disk cache when an entry
    for it is there and everything it was built from is unchanged. `front`: the
    tangentlike gradient `job.func` is the generated code of (rebuilt when that gradient
    is); `job.func` is then what it runs now."""
    func = job.func
    roots: dict[str, object] = {"entry": func}
    roots.update({f"param:{p}": t for p, t in job.param_types})
    if front is not None:
        roots["given"] = front

    def transform() -> tuple[str, ModuleText, Recorder]:
        builder = ModuleBuilder(registry, job, recorder=Recorder(dict(roots)))
        if front is not None:
            builder.recorder.watch(front, "current")
        name = builder.entry()
        first = builder.parsed[0]
        text = builder.render(job.header(f"{first.basename}:{first.first_line}", name))
        return name, text, builder.recorder

    built = cached(job.disk_options(), roots, registry, disk, transform)
    # what a second derivative rebuilds it from (higher/form_schedules.py)
    built.generated.__tangentlike_job__ = job  # type: ignore[attr-defined]
    return built


def cached(
    options: tuple[str, ...],
    roots: dict[str, object],
    registry: Registry,
    disk: DiskCache | None,
    transform: Callable[[], tuple[str, ModuleText, Recorder]],
) -> Built:
    """The module `transform` makes (entry name, text, the record of what it read), or the
    disk cache's entry for the same entry function, `options` and registry when everything
    it was built from holds here; a new module is stored (unless it needs objects that have
    no source text: `external`)."""
    disk_key = None
    if disk is not None:
        option_text = (*options, registry.fingerprint())
        builder = (__version__, builder_fingerprint())
        disk_key = manifest.entry_key(roots["entry"], option_text, builder, roots)
    if disk_key is not None:
        loaded = _load(disk.load(disk_key), roots, registry, disk, disk_key)
        if loaded is not None:
            return loaded
    name, text, record = transform()
    code = loader.compiled(text.source, name, text.helpers)
    module = loader.load(text.source, name, text.external, code)
    guards = Guards(record.resolutions, record.watches, record.bindings, vars(module), registry)
    if disk_key is not None and not text.external:
        written = manifest.write(record)
        if written is not None and disk.store(disk_key, written + text.source) is not None:
            disk.store_bytes(_code_key(disk_key), marshal.dumps(code), ".code")
    return Built(getattr(module, name), text.source, dict(text.external), "transform", guards)


def _load(
    entry: str | None, roots: dict[str, object], registry: Registry, disk: DiskCache, key: str
) -> Built | None:
    """The gradient a disk-cache entry holds, if everything it was built from holds here."""
    if entry is None:
        return None
    found, text = manifest.split(entry)
    if found is None or _ENTRY not in text:
        return None
    live = manifest.validate(found, roots)
    if live is None:
        return None
    name = text.split(_ENTRY, 1)[1].split("\n", 1)[0].strip()
    try:
        module = loader.load(text, name, {}, _code(disk, key, text, name))
    except Exception as err:  # an import that fails here: not an entry for this process
        log.debug("disk-cache entry not loaded: %s: %s", type(err).__name__, err)
        return None
    generated = getattr(module, name, None)
    if generated is None:
        return None
    guards = Guards(live.resolutions, live.watches, live.bindings, vars(module), registry)
    return Built(generated, text, {}, "disk cache", guards)


def _code(disk: DiskCache, key: str, text: str, name: str) -> loader.Code:
    """The code object of the disk-cache entry `text` (stored under `key`), from its own
    entry beside it (`<code key>.code`, marshalled for this Python's bytecode, stored by
    the build that stored the text: compiling the text was most of a disk load), or
    compiled here and stored there for the next process. A code entry for another text
    (its file name holds the text's digest) or that does not unmarshal is a miss."""
    code_key = _code_key(key)
    data = disk.load_bytes(code_key, ".code")
    if data is not None:
        try:
            code = marshal.loads(data)
        except (EOFError, ValueError, TypeError):
            code = None
        if loader.is_code_for(code, text, name):
            return code
    code = loader.compiled(text, name)
    disk.store_bytes(code_key, marshal.dumps(code), ".code")
    return code


def _code_key(key: str) -> str:
    """The key of the code entry of the source entry `key`, for this Python's bytecode."""
    return cache_key(key, "code", importlib.util.MAGIC_NUMBER.hex())


def builder_fingerprint() -> str:
    """What identifies the code that builds gradients, beyond its version: the path, size
    and modification time of every module of the package (manifest.compiler_fingerprint:
    one walk and a stat per file, once per process). Part of every disk-cache key, so
    that tangentlike changed in place (a checkout of another commit, an edit, a
    reinstall under the same version) never loads a module an older transformer wrote."""
    return manifest.compiler_fingerprint()
