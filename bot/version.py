"""The engine version every stored game records, so an engine change that breaks replay is caught.

Bump ``ENGINE_VERSION`` whenever the engine's rules change in a way that may alter how a stored
action log replays; ``tests/store/test_bot_store.py`` replays stored games under this engine and
checks that a log another engine version wrote and this one cannot replay is refused clearly.
"""

ENGINE_VERSION = "2026.08-1"
