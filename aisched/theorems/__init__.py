"""Audits of the papers' theorems: proof invariants, each guarantee as a check, a search for the worst case."""
