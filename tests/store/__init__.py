"""Storage and faults: SQLite and PostgreSQL stores, races, shards, damaged rows, hostile imports, crashes, reminders."""
