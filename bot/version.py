"""The engine version every stored game records, so an engine change that breaks replay is caught.

Bump ``ENGINE_VERSION`` whenever the engine's rules change in a way that may alter how a stored
action log replays; ``tests/test_bot_compat.py`` replays stored games under the current engine.
"""

ENGINE_VERSION = "2026.08-1"
