"""Stage 2: desugar, then A-normal form (one operation per statement)."""
