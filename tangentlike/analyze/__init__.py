"""Stage 3: analyses on A-normal form. Each returns a frozen result; none mutates nodes."""
