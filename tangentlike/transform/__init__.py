"""Stage 4: reverse mode (forward sweep with pushes, backward sweep with pops)."""
