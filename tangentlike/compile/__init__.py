"""Stage 7: load generated source as a module, and cache it in memory and on disk."""
