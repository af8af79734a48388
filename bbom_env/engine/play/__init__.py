"""The turn, zones, effect ops, limits and the pending decision.

Folders are ranked: see docs/engine.md, "Files"."""
