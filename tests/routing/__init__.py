"""The route finder: exact best routes, dominance, long trains, extensions, the per-position cache."""
