"""Per-title data and hooks (1856, 1836Jr56, 1833NE)."""
