"""The command-line tool: written modules, show, check, and every error path.

Most tests run `main([...])` in-process; a few run `python -m tangentlike` and
import a written module in an interpreter where tangentlike cannot be imported.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from reference import BLOCK_TANGENTLIKE

import tangentlike
from tangentlike import cli
from tangentlike.cli import main

MODEL = """\
import numpy as np


def f(x, W):
    return np.sum(np.tanh(W @ x) ** 2)


def scaled(a, b):
    return a * a * b + np.sin(b)
"""


@pytest.fixture
def model(tmp_path, monkeypatch):
    """A small source file in a fresh current directory; returns its path relative to it."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.py").write_text(MODEL)
    return "m.py"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def run_module(*argv: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tangentlike", *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def load(path: Path):
    """Execute a written module in a fresh namespace (no import machinery, no caching)."""
    namespace: dict = {"__name__": "written"}
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    return namespace


def assert_one_line_error(status: int, err: str) -> None:
    assert status == 2
    assert "Traceback" not in err
    lines = err.splitlines()
    assert lines and lines[0].startswith("tangentlike: error: ")
    assert sum(line.startswith("tangentlike: error:") for line in lines) == 1


# --------------------------------------------------------------------------- grad


def test_grad_writes_a_module(model, tmp_path, capsys):
    status, out, _ = run(capsys, "grad", "m.py:f", "--wrt", "x,W", "-o", "build/df.py")
    assert status == 0
    assert "wrote build/df.py" in out
    written = tmp_path / "build" / "df.py"
    text = written.read_text()
    assert "def df(x, W, bf=1.0):" in text
    assert "tangentlike" not in "\n".join(
        line for line in text.splitlines() if line.startswith(("import", "from"))
    )
    assert sorted(os.listdir(written.parent)) == ["df.py"]  # no temporary left behind


def test_written_module_matches_finite_differences_without_tangentlike(model, tmp_path, capsys):
    assert run(capsys, "grad", "m.py:f", "--wrt", "x,W", "-o", "df.py")[0] == 0
    code = BLOCK_TANGENTLIKE + textwrap.dedent(
        """
        spec = importlib.util.spec_from_file_location("written_df", "df.py")
        written = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(written)

        def f(x, W):
            return np.sum(np.tanh(W @ x) ** 2)

        rng = np.random.default_rng(1)
        x, W = rng.standard_normal(3), rng.standard_normal((4, 3))
        gx, gW = written.df(x, W)
        errors = []
        for arg, g in ((x, gx), (W, gW)):
            for i in np.ndindex(arg.shape):
                plus, minus = arg.copy(), arg.copy()
                plus[i] += 1e-6
                minus[i] -= 1e-6
                fd = (f(*(plus if a is arg else a for a in (x, W)))
                      - f(*(minus if a is arg else a for a in (x, W)))) / 2e-6
                errors.append(abs(g[i] - fd))
        blocked = [m for m in sys.modules if m.startswith("tangentlike") and sys.modules[m]]
        print(json.dumps({"max_err": max(errors), "loaded": blocked}))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["loaded"] == []
    assert result["max_err"] < 1e-7


def test_writing_twice_is_byte_identical_in_and_out_of_process(model, tmp_path, capsys):
    assert run(capsys, "grad", "m.py:f", "--wrt", "W", "-o", "a.py")[0] == 0
    first = (tmp_path / "a.py").read_bytes()
    assert run(capsys, "grad", "m.py:f", "--wrt", "W", "-o", "a.py")[0] == 0
    assert (tmp_path / "a.py").read_bytes() == first
    done = run_module("grad", "m.py:f", "--wrt", "W", "-o", "a.py", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "a.py").read_bytes() == first


def test_header_names_file_function_options_hash_version_and_command(model, tmp_path, capsys):
    absolute = str(tmp_path / "m.py")  # given absolute, shown relative to the current directory
    out = str(tmp_path / "out" / "dscaled.py")
    assert run(capsys, "grad", f"{absolute}:scaled", "--wrt", "a,b", "-o", out)[0] == 0
    text = Path(out).read_text()
    header = [line for line in text.splitlines() if line.startswith("#")][:7]
    digest = hashlib.sha256((tmp_path / "m.py").read_bytes()).hexdigest()[:16]
    assert "# source:      m.py" in header
    assert "# function:    scaled" in header
    assert "# options:     wrt=a,b mode=grad" in header
    assert any(digest in line for line in header)
    assert f"# tangentlike: {tangentlike.__version__}" in header
    command = "tangentlike grad m.py:scaled --wrt a,b --mode grad -o out/dscaled.py"
    assert f"# command:     {command}" in header
    assert str(tmp_path) not in text


def test_regenerating_command_in_header_reproduces_the_file(model, tmp_path, capsys):
    assert run(capsys, "grad", "m.py:scaled", "--wrt", "1", "-o", "d.py")[0] == 0
    text = (tmp_path / "d.py").read_text()
    command = next(line for line in text.splitlines() if line.startswith("# command:"))
    argv = command.split(":", 1)[1].split()
    assert argv[0] == "tangentlike"
    os.remove(tmp_path / "d.py")
    assert run(capsys, *argv[1:])[0] == 0
    assert (tmp_path / "d.py").read_text() == text


def test_wrt_by_name_and_by_position_give_the_same_module(model, tmp_path, capsys):
    assert run(capsys, "grad", "m.py:scaled", "--wrt", "b", "-o", "by_name.py")[0] == 0
    assert run(capsys, "grad", "m.py:scaled", "--wrt", "1", "-o", "by_position.py")[0] == 0
    by_name = (tmp_path / "by_name.py").read_text()
    by_position = (tmp_path / "by_position.py").read_text()
    assert by_name.replace("by_name.py", "X") == by_position.replace("by_position.py", "X")
    a, b = 1.5, -0.7
    assert load(tmp_path / "by_name.py")["dscaled"](a, b) == pytest.approx(a * a + np.cos(b))


def test_default_wrt_is_the_first_parameter(model, tmp_path, capsys):
    assert run(capsys, "grad", "m.py:scaled", "-o", "d.py")[0] == 0
    text = (tmp_path / "d.py").read_text()
    assert "wrt=a mode=grad" in text
    assert load(tmp_path / "d.py")["dscaled"](1.5, -0.7) == pytest.approx(2 * 1.5 * -0.7)


@pytest.mark.parametrize(
    ("wrt", "expected"),
    [
        ("z", "'z' is not a parameter of m.py:f; its parameters are x, W"),
        ("2", "position 2 is out of range: m.py:f has 2 parameters (x, W)"),
        ("x,,W", "empty name"),
        ("x,x", "names x more than once"),
    ],
)
def test_bad_wrt_is_an_error_naming_the_parameters(model, tmp_path, capsys, wrt, expected):
    status, _, err = run(capsys, "grad", "m.py:f", "--wrt", wrt, "-o", "d.py")
    assert_one_line_error(status, err)
    assert expected in err
    assert not (tmp_path / "d.py").exists()


@pytest.mark.parametrize("mode", ["vjp", "value_and_grad"])
def test_other_modes_write_working_modules(model, tmp_path, capsys, mode):
    assert run(capsys, "grad", "m.py:scaled", "--wrt", "a,b", "--mode", mode, "-o", "d.py")[0] == 0
    written = load(tmp_path / "d.py")["dscaled"]
    a, b = 1.5, -0.7
    expected = (2 * a * b, a * a + np.cos(b))
    if mode == "vjp":
        ga, gb = written(a, b, 2.0)
        assert (ga, gb) == pytest.approx(tuple(2.0 * e for e in expected))
    else:
        value, (ga, gb) = written(a, b)
        assert value == pytest.approx(a * a * b + np.sin(b))
        assert (ga, gb) == pytest.approx(expected)


def test_module_target_and_sibling_imports(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    package = tmp_path / "clipkg_example"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "consts.py").write_text("POWER = 3.0\n")
    (package / "model.py").write_text(
        "import numpy as np\n\nfrom .consts import POWER\n\n\n"
        "def cube_sum(x):\n    return np.sum(x ** POWER)\n"
    )
    status, _, err = run(capsys, "grad", "clipkg_example.model:cube_sum", "-o", "d.py")
    assert status == 0, err
    assert not [m for m in sys.modules if m.startswith("clipkg_example")]
    text = (tmp_path / "d.py").read_text()
    assert "# source:      clipkg_example.model" in text
    x = np.array([1.0, -2.0])
    assert np.allclose(load(tmp_path / "d.py")["dcube_sum"](x), 3 * x**2)


def test_file_target_with_sibling_module_and_dataclass(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    src = tmp_path / "src"
    src.mkdir()
    (src / "cli_sibling_consts.py").write_text("RATE = 0.5\n")
    (src / "model.py").write_text(
        "from dataclasses import dataclass\n\nimport numpy as np\n\n"
        "from cli_sibling_consts import RATE\n\n\n"
        "@dataclass\nclass Config:\n    rate: float = 0.5\n\n\n"
        "def loss(w):\n    return RATE * np.sum(w * w)\n"
    )
    status, _, err = run(capsys, "grad", "src/model.py:loss", "-o", "d.py")
    assert status == 0, err
    assert "cli_sibling_consts" not in sys.modules  # loading left no trace
    w = np.array([1.0, 2.0])
    assert np.allclose(load(tmp_path / "d.py")["dloss"](w), w)


# --------------------------------------------------------------------------- show


def test_show_prints_the_source_with_file_comments(model, capsys):
    status, out, _ = run(capsys, "show", "m.py:f", "--wrt", "W")
    assert status == 0
    assert "def df(x, W, bf=1.0):" in out
    assert any(line.lstrip().startswith("#") and "m.py" in line for line in out.splitlines())
    assert any("# m.py:" in line for line in out.splitlines())  # per-statement origins
    assert "\033[" not in out  # captured stdout is not a terminal


def test_show_color_always_and_never(model, capsys):
    pytest.importorskip("pygments")
    status, coloured, _ = run(capsys, "show", "m.py:f", "--color", "always")
    assert status == 0
    assert "\033[" in coloured
    status, plain, _ = run(capsys, "show", "m.py:f", "--color", "never")
    assert status == 0
    assert "\033[" not in plain
    assert "def df(" in plain
    # the colours are pygments' (the text stays the same once they are taken out)
    assert re.sub(r"\033\[[0-9;]*m", "", coloured) == plain


def test_show_without_pygments_is_plain(model, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "pygments", None)  # import pygments: ImportError
    status, out, _ = run(capsys, "show", "m.py:f", "--color", "always")
    assert status == 0
    assert "\033[" not in out and "def df(" in out


def test_show_warns_when_the_module_would_not_be_standalone(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "closure.py").write_text(CLOSURE)
    status, out, err = run(capsys, "show", "closure.py:f")
    assert status == 0
    assert "def df(" in out
    assert "warning: not standalone" in err and "w" in err


# --------------------------------------------------------------------------- check


def test_check_passes_and_reports_the_max_error(model, capsys):
    status, out, _ = run(capsys, "check", "m.py:f", "--wrt", "x,W", "--inputs", "x=3,W=4x3")
    assert status == 0
    assert "max abs error" in out and "max rel error" in out and "OK" in out
    assert "4x3" in out


def test_check_without_inputs_uses_float_scalars(model, capsys):
    status, out, _ = run(capsys, "check", "m.py:scaled", "--wrt", "a,b", "--seed", "3")
    assert status == 0
    assert "seed 3" in out


def test_check_fails_with_status_1_when_out_of_tolerance(model, capsys):
    status, out, _ = run(
        capsys, "check", "m.py:f", "--inputs", "x=3,W=4x3", "--rtol", "0", "--atol", "0"
    )
    assert status == 1
    assert "FAILED" in out


def test_check_reports_a_function_failing_at_the_given_shapes(model, capsys):
    status, _, err = run(capsys, "check", "m.py:f", "--inputs", "x=3,W=4x4")
    assert_one_line_error(status, err)
    assert "m.py:f raised ValueError at random inputs of shapes (3, 4x4)" in err


def test_check_needs_a_scalar_output(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "vec.py").write_text("def f(x):\n    return x * 2.0\n")
    status, _, err = run(capsys, "check", "vec.py:f", "--inputs", "x=3")
    assert_one_line_error(status, err)
    assert "check needs a scalar output" in err


@pytest.mark.parametrize(
    ("inputs", "expected"),
    [
        ("x=3,W=4y3", "bad shape '4y3'"),
        ("x3", "is not NAME=SHAPE"),
        ("x=3,V=2", "V, which is not a parameter"),
        ("x=3,x=2", "gives 'x' twice"),
    ],
)
def test_check_bad_inputs(model, capsys, inputs, expected):
    status, _, err = run(capsys, "check", "m.py:f", "--inputs", inputs)
    assert_one_line_error(status, err)
    assert expected in err


# --------------------------------------------------------------------------- errors

CLOSURE = """\
import numpy as np


def make():
    w = np.arange(3.0)

    def f(x):
        return np.sum(x * w)

    return f


f = make()
"""

YIELD = """\
def f(x):
    yield x * 2.0
"""


@pytest.mark.parametrize(
    ("files", "target", "expected"),
    [
        ({}, "missing.py:f", "no such file: missing.py"),
        ({"m.py": MODEL}, "m.py:nope", "m.py has no function 'nope' (functions defined there: f"),
        ({"gen.py": YIELD}, "gen.py:f", "gen.py:2:5: `yield` is not supported"),
        ({"closure.py": CLOSURE}, "closure.py:f", "not standalone: it uses w,"),
        ({"m.py": MODEL}, "m.py", "bad target 'm.py'"),
        ({"broken.py": "def f(x:\n"}, "broken.py:f", "importing broken.py failed: SyntaxError"),
        ({}, "no_such_pkg_xyz.mod:f", "cannot import module 'no_such_pkg_xyz.mod'"),
    ],
)
def test_errors_exit_2_with_one_line_and_no_file(
    tmp_path, monkeypatch, capsys, files, target, expected
):
    monkeypatch.chdir(tmp_path)
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    status, out, err = run(capsys, "grad", target, "-o", "out/d.py")
    assert_one_line_error(status, err)
    assert expected in err
    assert out == ""
    assert not (tmp_path / "out").exists()


def test_unsupported_syntax_error_shows_the_line_and_a_caret(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "gen.py").write_text(YIELD)
    status, _, err = run(capsys, "grad", "gen.py:f", "-o", "d.py")
    assert_one_line_error(status, err)
    assert "yield x * 2.0" in err and "^" in err


def test_existing_output_is_untouched_when_generation_fails(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "gen.py").write_text(YIELD)
    (tmp_path / "closure.py").write_text(CLOSURE)
    (tmp_path / "d.py").write_text("# an earlier version\n")
    for target in ("gen.py:f", "closure.py:f", "gen.py:missing"):
        status, _, _ = run(capsys, "grad", target, "-o", "d.py")
        assert status == 2
    assert (tmp_path / "d.py").read_text() == "# an earlier version\n"
    assert sorted(os.listdir(tmp_path)) == ["closure.py", "d.py", "gen.py"]


def test_refuses_a_module_that_would_import_tangentlike(model, tmp_path, monkeypatch, capsys):
    real = cli.output.generate

    def generate(*args, **kwargs):
        df = real(*args, **kwargs)
        df.source = "from tangentlike.runtime import unbroadcast\n" + df.source
        return df

    monkeypatch.setattr(cli.output, "generate", generate)
    status, _, err = run(capsys, "grad", "m.py:f", "-o", "d.py")
    assert_one_line_error(status, err)
    assert "imports tangentlike" in err
    assert not (tmp_path / "d.py").exists()


CLASS = """\
from dataclasses import dataclass


@dataclass
class Scale:
    factor: float


def f(x):
    return x * Scale(3.0).factor
"""


def test_written_module_imports_the_source_files_own_objects_by_its_name(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "scaling.py").write_text(CLASS)
    status, _, err = run(capsys, "grad", "scaling.py:f", "-o", "d.py")
    assert status == 0, err
    assert "from scaling import Scale" in (tmp_path / "d.py").read_text()
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        assert load(tmp_path / "d.py")["df"](2.0) == pytest.approx(3.0)
    finally:
        sys.modules.pop("scaling", None)


def test_refuses_an_import_of_a_file_shadowed_by_a_standard_module(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "json.py").write_text(CLASS)  # `import json` would not find this file
    status, _, err = run(capsys, "grad", "json.py:f", "-o", "d.py")
    assert_one_line_error(status, err)
    assert "imports from json.py itself" in err and "rename the file" in err
    assert not (tmp_path / "d.py").exists()


def test_an_unexpected_exception_is_one_line_naming_an_internal_error(
    model, tmp_path, monkeypatch, capsys
):
    def broken(*args, **kwargs):
        raise KeyError("boom\nsecond line")

    monkeypatch.setattr(cli.output, "generate", broken)
    status, _, err = run(capsys, "grad", "m.py:f", "-o", "d.py")
    assert_one_line_error(status, err)
    assert "internal error: KeyError" in err and "--debug" in err
    assert len(err.splitlines()) == 1
    assert not (tmp_path / "d.py").exists()


def test_refuses_to_overwrite_the_source_file(model, tmp_path, capsys):
    status, _, err = run(capsys, "grad", "m.py:f", "-o", "m.py")
    assert_one_line_error(status, err)
    assert (tmp_path / "m.py").read_text() == MODEL


def test_debug_reraises(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "gen.py").write_text(YIELD)
    with pytest.raises(tangentlike.UnsupportedSyntaxError):
        main(["grad", "gen.py:f", "-o", "d.py", "--debug"])
    with pytest.raises(tangentlike.TangentlikeError):
        main(["--debug", "grad", "missing.py:f", "-o", "d.py"])


def test_usage_errors_exit_2(capsys):
    assert main([]) == 2
    assert main(["grad", "m.py:f"]) == 2  # -o is required
    assert "required" in capsys.readouterr().err


# --------------------------------------------------------------------------- python -m


def test_python_m_help(tmp_path):
    done = run_module("--help", cwd=tmp_path)
    assert done.returncode == 0
    assert "grad" in done.stdout and "show" in done.stdout and "check" in done.stdout
    for command in ("grad", "show", "check"):
        done = run_module(command, "--help", cwd=tmp_path)
        assert done.returncode == 0
        assert "examples:" in done.stdout and f"tangentlike {command} " in done.stdout


def test_python_m_error_has_no_traceback(tmp_path):
    (tmp_path / "gen.py").write_text(YIELD)
    done = run_module("grad", "gen.py:f", "-o", "d.py", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith("tangentlike: error: ")
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "d.py").exists()


def test_mode_reverse_is_grad(tmp_path):
    src = tmp_path / "rev_fns.py"
    src.write_text("import numpy as np\n\n\ndef f(x):\n    return np.sum(np.exp(x) * x)\n")
    out_a, out_b = tmp_path / "a.py", tmp_path / "b.py"
    assert cli.main(["grad", f"{src}:f", "--mode", "reverse", "-o", str(out_a)]) == 0
    assert cli.main(["grad", f"{src}:f", "--mode", "grad", "-o", str(out_b)]) == 0
    body = [ln for ln in out_a.read_text().splitlines() if not ln.startswith("#")]
    assert body == [ln for ln in out_b.read_text().splitlines() if not ln.startswith("#")]


# --------------------------------------------------------------------------- --checkpoint

RNN = """\
import numpy as np


def rnn(W, h, xs):
    for t in range(len(xs)):
        h = np.tanh(W @ h + xs[t])
    return np.sum(h * h)
"""


@pytest.mark.parametrize("spec", ["snapshots=3", "every=4"])
def test_checkpoint_option_writes_a_standalone_checkpointed_module(
    tmp_path, monkeypatch, capsys, spec
):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "r.py").write_text(RNN)
    status, _, _ = run(capsys, "grad", "r.py:rnn", "--wrt", "W", "--checkpoint", spec, "-o", "d.py")
    assert status == 0
    text = (tmp_path / "d.py").read_text()
    assert f"checkpoint={spec}" in text.splitlines()[3]
    assert f"--checkpoint {spec}" in text
    assert ".reversal()" in text
    code = textwrap.dedent(
        """
        import sys
        sys.modules["tangentlike"] = None  # not importable here
        import numpy as np
        namespace = {}
        exec(open("d.py").read(), namespace)
        r = np.random.default_rng(0)
        W, h, xs = r.standard_normal((3, 3)) * 0.5, r.standard_normal(3), r.standard_normal((11, 3))
        np.save("g.npy", namespace["drnn"](W, h, xs))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    sys.path.insert(0, str(tmp_path))
    try:
        import r as module
    finally:
        sys.path.remove(str(tmp_path))
    rng = np.random.default_rng(0)
    W = rng.standard_normal((3, 3)) * 0.5
    h, xs = rng.standard_normal(3), rng.standard_normal((11, 3))
    expected = tangentlike.grad(module.rnn)(W, h, xs)
    np.testing.assert_allclose(np.load(tmp_path / "g.npy"), expected, rtol=1e-12)


@pytest.mark.parametrize("spec", ["snapshot=3", "every=0", "every=x", "binomial"])
def test_bad_checkpoint_spec_is_one_line_error(model, capsys, spec):
    status, _, err = run(capsys, "grad", "m.py:f", "--checkpoint", spec, "-o", "d.py")
    assert_one_line_error(status, err)
    assert "snapshots=K" in err and "every=N" in err
