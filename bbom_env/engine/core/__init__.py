"""The core of the interpreter: config, the move layout, the module registry, the frame loop, the state.

Folders are ranked: see docs/engine.md, "Files"."""
