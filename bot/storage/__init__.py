"""The store: one API (store) on two engines, SQLite (db) and PostgreSQL (pg), with the schema and
its migrations (schema), the rows it returns (rows) and moving a bot to PostgreSQL (migrate).
"""
