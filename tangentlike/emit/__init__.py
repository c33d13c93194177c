"""Stage 6: generated gast -> Python source text with comments pointing at the original."""
