"""Stage 5: clean-ups on generated code that keep every value the program returns."""
