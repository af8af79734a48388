"""The Action menu, the base Actions and the base game as the first rules module.

Folders are ranked: see docs/engine.md, "Files"."""
