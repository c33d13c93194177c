"""Command lines that used to crash tangentlike or end silently: each is a one-line error now."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tangentlike.cli import main

MODEL = """\
import numpy as np


def f(x, W):
    return np.sum(np.tanh(W @ x) ** 2)
"""


@pytest.fixture
def model(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.py").write_text(MODEL)
    return tmp_path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def assert_one_line_error(status: int, err: str) -> None:
    assert status == 2
    assert "Traceback" not in err and "internal error" not in err
    lines = err.splitlines()
    assert lines and lines[0].startswith("tangentlike: error: ")
    assert sum(line.startswith("tangentlike: error:") for line in lines) == 1


CHECK = ("check", "m.py:f", "--wrt", "x,W", "--inputs", "x=3,W=4x3")


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (("--eps", "0"), "--eps 0: the finite-difference step must be a positive number"),
        (("--eps=-1e-6",), "--eps -1e-06: the finite-difference step must be a positive"),
        (("--eps", "nan"), "--eps nan: the finite-difference step must be a positive number"),
        (("--eps", "inf"), "--eps inf: the finite-difference step must be a positive number"),
        (("--rtol", "-1"), "--rtol -1: a tolerance must be a number >= 0"),
        (("--atol", "nan"), "--atol nan: a tolerance must be a number >= 0"),
        (("--low=-inf",), "--low -inf: the bounds of the inputs must be finite"),
        (("--high", "inf"), "--high inf: the bounds of the inputs must be finite"),
        (("--low", "2", "--high", "1"), "--low 2.0 must be below --high 1.0"),
        (("--max-elements", "0"), "--max-elements 0: check at least 1 element"),
    ],
)
def test_check_refuses_bad_numbers(model, capsys, options, expected):
    status, out, err = run(capsys, *CHECK, *options)
    assert_one_line_error(status, err)
    assert expected in err
    assert out == ""


@pytest.mark.parametrize(
    ("inputs", "elements"),
    [
        ("x=3,W=100000x100000", "10,000,000,000"),
        ("x=10000001,W=4x3", "10,000,001"),
        ("x=3,W=99999999999999999999x2", "199,999,999,999,999,999,998"),
    ],
)
def test_check_refuses_inputs_too_large_to_make(model, capsys, inputs, elements):
    status, _, err = run(capsys, "check", "m.py:f", "--wrt", "x,W", "--inputs", inputs)
    assert_one_line_error(status, err)
    assert f"has {elements} elements" in err
    assert "at most 10,000,000 per parameter" in err


def test_check_takes_an_input_at_the_limit_of_its_size(model, capsys):
    status, out, _ = run(capsys, "check", "m.py:f", "--inputs", "x=3,W=4x3", "--max-elements", "5")
    assert status == 0 and "OK" in out


EXITS = [
    ("import sys\nsys.exit(0)\n", "sys.exit(0) (exit status 0)"),
    ("import sys\nsys.exit()\n", "sys.exit() (exit status 0)"),
    ("import sys\nsys.exit(3)\n", "sys.exit(3) (exit status 3)"),
    ("import sys\nsys.exit('bye')\n", "sys.exit('bye') (exit status 1)"),
    ("raise SystemExit(0)\n", "sys.exit(0) (exit status 0)"),
]


@pytest.mark.parametrize(("tail", "expected"), EXITS)
@pytest.mark.parametrize("command", ["grad", "show", "check"])
def test_a_target_file_exiting_at_import_is_an_error(model, capsys, tail, expected, command):
    (model / "exits.py").write_text(MODEL + "\n\n" + tail)
    argv = [command, "exits.py:f"] + (["-o", "d.py"] if command == "grad" else [])
    status, out, err = run(capsys, *argv)
    assert_one_line_error(status, err)
    assert f"importing exits.py called {expected}" in err
    assert 'if __name__ == "__main__":' in err
    assert out == ""
    assert not (model / "d.py").exists()


def test_a_function_exiting_when_called_is_an_error(model, capsys):
    (model / "quits.py").write_text("import sys\n\n\ndef f(x):\n    sys.exit(0)\n")
    status, _, err = run(capsys, "check", "quits.py:f")
    assert_one_line_error(status, err)
    assert "running quits.py:f called sys.exit(0) (exit status 0)" in err


def test_exit_at_import_in_a_fresh_process_exits_2_with_a_message(model):
    (model / "exits.py").write_text(MODEL + "\nimport sys\nsys.exit(0)\n")
    done = subprocess.run(
        [sys.executable, "-m", "tangentlike", "grad", "exits.py:f", "-o", "d.py"],
        cwd=model,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert "tangentlike: error: importing exits.py called sys.exit(0)" in done.stderr
    assert not (model / "d.py").exists()


def test_a_module_target_exiting_at_import_is_an_error(model, capsys):
    (model / "exitpkg_xyz.py").write_text("import sys\nsys.exit(5)\n")
    status, _, err = run(capsys, "grad", "exitpkg_xyz:f", "-o", "d.py")
    assert_one_line_error(status, err)
    assert "importing module 'exitpkg_xyz' called sys.exit(5) (exit status 5)" in err
