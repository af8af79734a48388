"""The Vth Element's Dark Matter module (RULES.md sections 1.2, 2.2, 4.6-4.9, 9.1; EXPANSION.md
V-01 to V-19): IN PROGRESS (issue 11, part A: content and skeleton; docs/vth_element.md).

Importing this package registers nothing: ``module.DARK_MATTER`` is the ``rules.Module``, and
``module.registered()`` registers it for a ``with`` block (tests do so). Until the module is
finished, a default ``GameConfig(modules=("dark_matter",))`` is refused as "not implemented yet".
"""
