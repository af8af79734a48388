"""The Vth Element's Phobia module (RULES.md sections 1.3, 9.2; EXPANSION.md V-20 to V-41;
docs/vth_element.md), part A: cards, the face-up Madness pile, placement and crushing.

Importing this package registers nothing, and ``bbom_env.modules`` does not register it yet:
``module.registered()`` (a context manager) makes ``GameConfig(modules=("phobias",))`` playable
for a ``with`` block.
"""
