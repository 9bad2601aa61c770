"""Command-line tools outside the engine: best routes of a recorded game (routes) and replaying
exports against reference traces (fidelity).
"""
