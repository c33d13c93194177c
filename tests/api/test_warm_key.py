"""The warm path's reading of TANGENTLIKE_CHECKS (gradients._checks_text)."""

from __future__ import annotations

import os

from tangentlike import gradients


def test_it_follows_the_environment(monkeypatch):
    monkeypatch.delenv("TANGENTLIKE_CHECKS", raising=False)
    unset = gradients._checks_text()
    assert unset is None
    monkeypatch.setenv("TANGENTLIKE_CHECKS", "1")
    one = gradients._checks_text()
    monkeypatch.setenv("TANGENTLIKE_CHECKS", "0")
    zero = gradients._checks_text()
    assert len({unset, one, zero}) == 3
    assert one in ("1", b"1")


def test_a_replaced_os_environ_is_read_through_get(monkeypatch):
    monkeypatch.setattr(os, "environ", {"TANGENTLIKE_CHECKS": "yes"})
    assert gradients._checks_text() == "yes"
