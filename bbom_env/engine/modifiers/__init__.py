"""Standing rule changes, read fresh: modifier hooks, module sources, cost transforms.

Folders are ranked: see docs/engine.md, "Files"."""
