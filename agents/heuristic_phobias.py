"""The heuristic team's play of the Phobia module (docs/rules.md sections 1.3, 4.5, 9.2;
V-20 to V-38).

A Phobia is a Madness card that, once in its owner's support, constrains them until it is cured
(section 9.2). The team's answers:

1. **Cure Phobias before plain Madness, the ones that hurt most first** (``phobia_cure``, a step
   of the Action menu just before the base game's cure step; ``phobias_first`` orders the base
   step's cure moves too, so a forced cure also takes a Phobia first). A Phobia anywhere the Cure
   Action reaches counts (the decider's hand, any player's support, A-11), each ranked by the
   harm it does its owner (``phobia_harm``). It is cured when the team can spare the cost
   (the base step's test: the plan's Curses and reserve stay paid), and for the worst ones
   (harm >= ``URGENT``) from the reserve too.
2. **Crush the least useful support card** when a Phobia finds no free slot (DP-34, A-55): a
   plain Madness first (it is only freed again when the Phobia is cured), then the card the team
   needs least (``heuristic_eval.card_score``: value, Elements the Curses ask for).
3. **Cure-by-effect choices** (V-28: the owner chooses which Madness): the most harmful Phobia.
4. **Move a Phobia** with the Water Magician (V-19, both modules: ``MOVE_PHOBIA``, 1 Dark
   Matter, once on the owner's own turn; ``phobia_move``, a step of the Action menu right after
   the Phobia cure step): the move with the greatest gain (``move_gain``) when it gains more than
   ``MOVE_GAIN``, and only with Dark Matter beyond the stock the Dark Curses need
   (``heuristic_dark_matter.need``). The gain: the Phobia's harm to its owner less its harm to the
   new owner (an owner-bound constraint counts ``NOW`` more on the mover, whose turn it binds now;
   a team-wide one, marker +2 or doubled Curses, gains nothing), plus the card it frees (the card
   it crushed, A-74), less the card it crushes (a plain Madness costs nothing; Dark Matter is never
   crushed while the team stocks it). The follow-up choices (``phobia_move_from`` /
   ``phobia_move_to``) take that move's Phobia and slot.

Harm ranking (the constraint as data, ``constraint`` of ``bbom_env/data/vth_phobias.toml``, so any
pack's Phobias are ranked; higher hurts more):

- 10, no support cards (V-30): the owner loses the whole team's support pool for every payment;
- 9, the Invocation marker advances 2: it hurts the whole team (Curses trigger, rounds end sooner);
- 8, no Cure Action but on this card (V-31): Madness piles up in the owner's hand (5.4);
- 6 to 8, no Action using an Element (V-36): that Element's Curses and Spells are out for the
  owner; +1 when the team's Curses ask for that Element, +1 when the owner holds a Spell of it;
- 6, destroying a Curse costs +1: destroying Curses is how the game is won;
- 6, hand of 5: one card fewer every turn, and 5 Madness in hand eliminate (V-35);
- 4 to 6, no Ability (V-27): +2 for a Magician with an activated ability or a sheet modifier;
- 5, activating Spells costs +1: every Spell cast costs one more Element;
- 4, Curses targeting all players doubled (V-25): only those Curse parts;
- 4, reshuffling gives 2 Madness: once per reshuffle;
- 3, refresh only one Spell (A-58): Spells stay exhausted longer;
- 2, acquiring or learning costs +1: occasional Actions.

A constraint the table does not know counts 5; plain Madness 0.
"""

from __future__ import annotations

from collections.abc import Callable

from bbom_env.engine import GameState
from bbom_env.engine.core import moves as M
from bbom_env.engine.model.constants import ELEMENT_NAMES, MADNESS, MAX_SUPPORT_SLOTS, is_madness
from bbom_env.engine.model.records import NO_CARD
from bbom_env.engine.modifiers.hooks import support_capacity
from bbom_env.engine.play.decision import pending
from bbom_env.modules.dark_matter.state import DARK_MATTER
from bbom_env.modules.phobias.move import BLOCK as MOVE_BLOCK
from bbom_env.modules.phobias.move import FROM as MOVE_FROM
from bbom_env.modules.phobias.move import TO as MOVE_TO
from bbom_env.modules.phobias.placement import PLACE
from bbom_env.modules.phobias.state import PHOBIA_BASE

from .heuristic_dark_matter import need, reach
from .heuristic_eval import card_score, wanted

MODULE = "phobias"
URGENT = 8  # harm from which a Phobia is cured even out of the reserve the base plan keeps

# Harm of one constraint modifier: (kind, detail) -> harm; detail is the rule point of a
# "replace", the Action of a "cost", "" otherwise.
_HARM: dict[tuple[str, str], float] = {
    ("no_support_payment", ""): 10,
    ("replace", "marker_steps"): 9,
    ("cure_only", ""): 8,
    ("forbid", ""): 6,
    ("cost", "destroy"): 6,
    ("replace", "hand_size"): 6,
    ("lose_ability", ""): 4,
    ("cost", "activate"): 5,
    ("replace", "curse_part_times"): 4,
    ("replace", "reshuffle_madness"): 4,
    ("replace", "concentration_refresh"): 3,
    ("cost", "acquire"): 2,
    ("cost", "learn"): 2,
}
UNKNOWN_HARM = 5.0
# Step 4, the Water Magician's move (V-19): the gain, in harm points, a move must beat to be worth
# its Dark Matter card; an owner-bound constraint on the mover counts NOW more (it binds her turn).
MOVE_GAIN = 1.5
NOW = 0.5
_TEAM_WIDE = frozenset({("replace", "marker_steps"), ("replace", "curse_part_times")})


def _on(state: GameState) -> bool:
    return MODULE in state.config.modules


def _phobia_cards(state: GameState) -> dict[int, object]:
    from bbom_env.modules.phobias.content import SECTION, phobia_codes

    sections = state.pack.sections
    return {code: sections[SECTION][pid] for pid, code in phobia_codes(sections).items()}


def phobia_harm(state: GameState, owner: int, code: int) -> float:
    """How much Phobia ``code`` hurts ``owner`` while it lies in their support (the module doc's
    table); 0 for a card that is not a Phobia."""
    if code < PHOBIA_BASE:
        return 0.0
    card = _phobia_cards(state).get(code)
    mods: tuple[dict, ...] = getattr(card, "constraint", ())
    if not mods:
        return 8.0 if "V-31" in getattr(card, "needs", "") else UNKNOWN_HARM
    return max(_mod_harm(state, owner, m) for m in mods)


def _constraint(state: GameState, code: int) -> tuple[dict, ...]:
    return getattr(_phobia_cards(state).get(code), "constraint", ())


def _mod_key(m: dict) -> tuple[str, str]:
    kind = m["kind"]
    return kind, m.get("point", "") if kind == "replace" else m.get("action", "") if kind == "cost" else ""


def _mod_harm(state: GameState, owner: int, m: dict) -> float:
    kind = m["kind"]
    if kind == "forbid":
        el = m.get("element")
        harm = _HARM["forbid", ""]
        if el in ELEMENT_NAMES:  # V-36: that Element's Curses and Spells are out for the owner
            e = ELEMENT_NAMES.index(el)
            harm += wanted(state, owner)[e] > 0
            harm += any(state.pack.spells[sp.spell].element == e for sp in state.players[owner].spells)
        return harm
    if kind == "lose_ability":  # V-27: a Magician whose ability or sheet matters loses more
        mag = state.pack.magicians[state.players[owner].magician]
        return _HARM[kind, ""] + 2 * bool(mag.activated or mag.mods)
    return _HARM.get(_mod_key(m), UNKNOWN_HARM)


def _cure_target(state: GameState, p: int, move: int) -> tuple[int, int]:
    """(owner, card code) of a Cure move of player ``p`` (section 4.5: own hand, any support)."""
    if move < M.CURE_SUPPORT:
        return p, move - M.CURE_HAND
    off, slot = divmod(move - M.CURE_SUPPORT, MAX_SUPPORT_SLOTS)
    q = (p + off) % len(state.players)
    return q, state.players[q].support[slot].card


def phobias_first(state: GameState, p: int, moves: list[int]) -> list[int]:
    """Cure moves (CURE_HAND / CURE_SUPPORT) of ``p`` with the Phobias first, most harmful first,
    then plain Madness in their order; unchanged without the module or without a Phobia."""
    if not _on(state) or not moves:
        return moves
    targets = [_cure_target(state, p, m) for m in moves]
    if all(code < PHOBIA_BASE for _q, code in targets):
        return moves
    harm = {m: phobia_harm(state, q, code) for m, (q, code) in zip(moves, targets, strict=True)}
    return sorted(moves, key=lambda m: -harm[m])  # stable: plain Madness keeps its order


def phobia_cure(
    state: GameState,
    p: int,
    legal: list[int],
    affordable: Callable[[], bool],
    urgent_affordable: Callable[[], bool],
) -> int | None:
    """Step 1 of the module doc: the most harmful curable Phobia, when the team can spare the
    cost (``affordable()``: the base cure step's test) or, for harm >= ``URGENT``, when the cost
    fits beside the plan's Curses alone (``urgent_affordable()``). None: the base steps go on."""
    if not _on(state):
        return None
    best, harm = None, 0.0
    for m in legal:
        if M.CURE_HAND <= m < M.ABILITY:
            q, code = _cure_target(state, p, m)
            if code < PHOBIA_BASE:
                continue  # plain Madness: the base cure step
            h = phobia_harm(state, q, code) + 0.1 * (q == p)  # ties: the decider's own first
            if h > harm:
                best, harm = m, h
    if best is None:
        return None
    if affordable() or (harm >= URGENT and urgent_affordable()):
        return best
    return None


def phobia_choice(state: GameState, f: dict, legal: list[int]) -> int | None:
    """Steps 2 and 3 of the module doc: the crush choice (DP-34) and a cure-by-effect choice among
    Madness cards (V-28); None for any other decision (the base answers)."""
    if not _on(state):
        return None
    if f["kind"] == PLACE:  # the frame whose decider crushes a card (DP-34)
        return crush_choice(state, f["player"], legal)
    if f["kind"] in (MOVE_FROM, MOVE_TO):  # the Water Magician's move (V-19)
        return move_choice(state, f, legal)
    if "cure" in pending(state).kind:
        return _cure_choice(state, f, legal)
    return None


def crush_choice(state: GameState, p: int, legal: list[int]) -> int | None:
    """The support card to crush (A-55: the owner's own, never a Phobia): a plain Madness first,
    then the card the team needs least (``card_score``), the lower slot on ties."""
    slots = [m - M.PICK_SUPPORT for m in legal if M.PICK_SUPPORT <= m < M.PICK_SUPPORT + MAX_SUPPORT_SLOTS]
    if not slots:
        return None
    support = state.players[p].support
    want = wanted(state, p)
    return M.PICK_SUPPORT + min(slots, key=lambda s: (card_score(support[s].card, want), s))


def _cure_choice(state: GameState, f: dict, legal: list[int]) -> int | None:
    """V-28: the owner picks which Madness the effect cures: the most harmful Phobia (a Phobia in
    the hand or the discard pile will be placed when it comes back; plain Madness harms 0)."""
    p = f["player"]
    best, harm = None, -1.0
    for m in legal:
        code = _picked_code(state, p, m)
        if code is None or not is_madness(code):
            continue
        h = phobia_harm(state, p, code) if code != MADNESS else 0.0
        if h > harm:
            best, harm = m, h
    return best


def _picked_code(state: GameState, p: int, m: int) -> int | None:
    """The card code a PICK_HAND / PICK_DISCARD / PICK_SUPPORT move names (None otherwise)."""
    if M.PICK_HAND <= m < M.PICK_SUPPORT:  # PICK_HAND then PICK_DISCARD: a card code each
        return (m - M.PICK_HAND) % (M.PICK_DISCARD - M.PICK_HAND)
    if M.PICK_SUPPORT <= m < M.PICK_PLAYER:
        off, slot = divmod(m - M.PICK_SUPPORT, MAX_SUPPORT_SLOTS)
        support = state.players[(p + off) % len(state.players)].support
        return support[slot].card if slot < len(support) else None
    return None


# -- moving a Phobia (V-19, the Water Magician) ---------------------------------------------------

Place = tuple[int, int]  # (seat, support slot)


def move_gain(state: GameState, p: int, src: Place, dst: Place) -> float:
    """What ``p`` moving the Phobia at ``src`` to ``dst`` gains (step 4 of the module doc): the
    harm it stops doing its owner less the harm it does the new owner (an owner-bound constraint
    weighs ``NOW`` more on ``p``), plus the card it frees (A-74), less the card it crushes."""
    (a, s), (b, t) = src, dst
    slot = state.players[a].support[s]
    code = slot.card
    gain = 0.0
    if b != a:
        bound = not _constraint(state, code) or any(
            _mod_key(m) not in _TEAM_WIDE for m in _constraint(state, code)
        )
        ha, hb = phobia_harm(state, a, code), phobia_harm(state, b, code)
        if bound:
            ha, hb = ha * (1 + NOW * (a == p)), hb * (1 + NOW * (b == p))
        gain += ha - hb
    want = wanted(state, p)
    if slot.crushed != NO_CARD:
        gain += max(0.0, card_score(slot.crushed, want))
    support = state.players[b].support
    if t < len(support):
        card = support[t].card
        if card == DARK_MATTER and need(state) > 0:
            return float("-inf")  # the Dark Curses' stock
        gain -= max(0.0, card_score(card, want))
    return gain


def _destinations(state: GameState, src: Place) -> list[Place]:
    """Where V-19 lets the Phobia at ``src`` go (``bbom_env/modules/phobias/move.py``): a
    non-Phobia card of a living support, or a support's free slot (its own only when it crushes a
    card)."""
    a, s = src
    lifted = state.players[a].support[s].crushed != NO_CARD
    out = []
    for b, q in enumerate(state.players):
        if q.eliminated:
            continue
        out += [
            (b, t)
            for t, slot in enumerate(q.support[:MAX_SUPPORT_SLOTS])
            if slot.card < PHOBIA_BASE and (b, t) != src
        ]
        if len(q.support) < min(support_capacity(state, b), MAX_SUPPORT_SLOTS) and (b != a or lifted):
            out.append((b, len(q.support)))
    return out


def best_move(state: GameState, p: int) -> tuple[float, Place, Place] | None:
    """The move of a Phobia (any living support) with the greatest ``move_gain``; None: none."""
    best = None
    for a, q in enumerate(state.players):
        if q.eliminated:
            continue
        for s, slot in enumerate(q.support[:MAX_SUPPORT_SLOTS]):
            if slot.card < PHOBIA_BASE:
                continue
            for dst in _destinations(state, (a, s)):
                g = move_gain(state, p, (a, s), dst)
                if best is None or g > best[0]:
                    best = (g, (a, s), dst)
    return best


def phobia_move(state: GameState, p: int, legal: list[int]) -> int | None:
    """Step 4 of the module doc: ``MOVE_PHOBIA`` when the best move gains more than
    ``MOVE_GAIN`` and the team has Dark Matter beyond the stock its Dark Curses need. None
    otherwise (and in every game without the Water Magician's Action)."""
    if not _on(state):
        return None
    spec = M.layout(state.config.modules).by_name.get(MOVE_BLOCK)
    if spec is None or spec.start not in legal:
        return None
    if reach(state) - 1 < need(state):
        return None  # the Dark Matter the Dark Curses need (heuristic_dark_matter)
    best = best_move(state, p)
    return spec.start if best is not None and best[0] > MOVE_GAIN else None


def _place(state: GameState, p: int, move: int) -> Place:
    off, slot = divmod(move - M.PICK_SUPPORT, MAX_SUPPORT_SLOTS)
    return (p + off) % len(state.players), slot


def move_choice(state: GameState, f: dict, legal: list[int]) -> int | None:
    """The follow-up choices of the move (V-19): the Phobia of the best move (``phobia_move_from``),
    then its best slot (``phobia_move_to``); the lower id on ties."""
    p = f["player"]
    picks = [m for m in legal if M.PICK_SUPPORT <= m < M.PICK_PLAYER]
    if not picks:
        return None
    if f["kind"] == MOVE_FROM:

        def score(m: int) -> float:
            src = _place(state, p, m)
            return max(
                (move_gain(state, p, src, d) for d in _destinations(state, src)), default=float("-inf")
            )

    else:
        src = (f["seat"], f["slot"])

        def score(m: int) -> float:
            return move_gain(state, p, src, _place(state, p, m))

    return max(picks, key=lambda m: (score(m), -m))
