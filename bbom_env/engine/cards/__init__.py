"""The card pack: effect vocabulary, card kinds, the loader and its checks.

Folders are ranked: see docs/engine.md, "Files"."""
