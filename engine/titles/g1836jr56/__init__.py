"""1836Jr56: 1856's rules (G1856) on its own map and data."""
