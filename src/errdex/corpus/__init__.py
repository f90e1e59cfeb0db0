"""Corpus mode: many packages and their releases, planned from a package index, mined one task
per artifact on a local pool or a Ray cluster, into one store (SQLite or PostgreSQL)."""
