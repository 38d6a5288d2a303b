"""Run: sweeping a scenario's cells (local processes or Dask), progress, shared cells, whole-paper runs, added seeds."""
