"""The store on PostgreSQL: :class:`bot.store.Store`'s tables over :class:`bot.store_pg.PgDatabase`."""

from __future__ import annotations

from .store import Store
from .store_pg import PgDatabase


class PgStore(PgDatabase, Store):
    """Store on PostgreSQL (opened by :meth:`bot.store.Store.open` with a ``postgresql://`` URL)."""
