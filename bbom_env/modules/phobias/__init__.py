"""The Vth Element's Phobia module (docs/rules.md sections 1.3, 9.2; V-19 to V-41;
docs/vth_element.md): cards, the face-up Madness pile, placement and crushing, the constraints,
the Phobia move.

Importing this package registers nothing; ``bbom_env.modules`` (imported by ``import bbom_env``)
registers it, so ``GameConfig(modules=("phobias",))`` plays it.
"""
