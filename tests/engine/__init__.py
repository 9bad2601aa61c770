"""The engine's own rules and structure: decisions, moves, rejections and rollback, tiles, title data and layers, imports."""
