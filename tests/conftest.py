"""Fixtures shared by the test modules: both store engines (:mod:`tests.pg_util`)."""

pytest_plugins = ["tests.pg_util"]
