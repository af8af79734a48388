"""Costs and paying them: the cost solver, auto payment, the payment frame.

Folders are ranked: see docs/engine.md, "Files"."""
