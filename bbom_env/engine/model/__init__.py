"""Value types of the engine: constants, records, frames, typed fields, move arguments (no rules).

Folders are ranked: see docs/engine.md, "Files"."""
