"""Rules modules of The Vth Element (docs/rules.md section 9), built on the engine's module seams
(docs/engine.md, "Writing a module").

Importing this package registers them (``rules.register``), so that
``GameConfig(modules=("dark_matter",))`` plays with the Dark Matter module and
``GameConfig(modules=("phobias",))`` with the Phobia module (both: ``("dark_matter", "phobias")``);
``import bbom_env`` imports it. The engine itself never imports a module: it knows them only
through the registry.
"""

from bbom_env.engine.ext import register, register_hidden, ruleset

from .dark_matter.hidden import resample_black_book
from .dark_matter.module import DARK_MATTER_MODULE
from .phobias.module import PHOBIA_MODULE

ruleset()  # the base game's module registers itself first (rules.register requires it)
register(DARK_MATTER_MODULE)
register(PHOBIA_MODULE)
# Its face-down Black Book pages, and the Dark Curses it adds to the track (seen by everyone, V-09).
register_hidden(DARK_MATTER_MODULE.name, resample_black_book, ("dark_curse_added",))
