"""Stage 1: read a function's source, parse it with gast, resolve its free names."""
