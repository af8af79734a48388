"""Rules modules of The Vth Element (RULES.md section 9), built on the engine's module seams
(docs/engine.md, "Writing a module").

In progress: nothing here is registered by default, so ``GameConfig(modules=("dark_matter",))``
still refuses the module until it is finished (issue 11). Tests register it themselves.
"""
