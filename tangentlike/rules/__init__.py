"""Derivative rules as data: one template per function, one file per namespace."""
