"""Store: what a sweep folder holds on disk (``scenario.json``, cells, table) and the folder's state for resuming."""
