"""Setup, saves, invariants, scenarios and the text board: what is built on the rules.

Folders are ranked: see docs/engine.md, "Files"."""
