"""The Vth Element's Dark Matter module (docs/rules.md sections 1.2, 2.2, 4.6-4.9, 9.1;
V-01 to V-19; docs/vth_element.md).

Importing this package registers nothing: ``module.DARK_MATTER_MODULE`` is the ``rules.Module``,
registered by ``bbom_env.modules`` (which ``import bbom_env`` imports), so
``GameConfig(modules=("dark_matter",))`` plays it.
"""
