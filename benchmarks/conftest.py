"""Benchmarks run with `make bench` (pytest-benchmark), on the embedded default unless DATABASE_URL is set."""
