"""Spec: what a scenario is (its fields, TOML form and check), the catalogue of named scenarios, the readings index."""
