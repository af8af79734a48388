"""The heuristic team's answers to payments (manual mode) and to effect choices (docs/rules.md
section 10: DP-P1..P6 payments, DP-10 Spell to the box, DP-15 reward, DP-36 Recuperation discard,
DP-E.. effect choices)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bbom_env.engine import GameState
from bbom_env.engine.core import moves as M
from bbom_env.engine.model.constants import (
    MAX_STACK,
    NUM_CODES,
    NUM_ELEMENT_CODES,
    code_element,
    code_value,
    is_madness,
)
from bbom_env.engine.model.records import HandSource
from bbom_env.engine.payment.cost import _min_sum_at_least
from bbom_env.engine.play.decision import pending
from bbom_env.engine.play.ops import lookup
from bbom_env.modules.dark_matter.state import DARK_MATTER

from .heuristic_dark_matter import dark_matter_to_support, keep_dark_matter
from .heuristic_eval import (
    CYCLE,
    can_destroy_count,
    card_score,
    curses,
    effect_value,
    keep_value,
    madness_in,
    spell_value,
    team_elements,
    wanted,
)

# -- payment (manual mode) ---------------------------------------------------------------------


def pay_move(state: GameState, f: dict, legal: list[int]) -> int:
    """Least waste: for each Element still owed, a card of the least-waste combination (hand
    before the support pool, own support before others'); for the "any" part, the card the
    team needs least. Confirm as soon as the cost is covered (section 4.0)."""
    if M.PAY_CONFIRM in legal:
        return M.PAY_CONFIRM
    p = f["player"]
    left = pending(state).cost_left
    cands = _pay_candidates(state, p, legal)
    if not cands:
        return M.PAY_CANCEL
    picked_hand = [0] * NUM_CODES
    for src in f["picks"]:
        if type(src) is HandSource:
            picked_hand[src.code] += 1
    for e in range(4):
        if left[e] <= 0:
            continue
        mine = [c for c in cands if code_element(c[0]) == e]
        if mine:
            return _pay_element(state.players[p].hand, left[e], mine, picked_hand)
    # The "any" part: a least-waste combination of values (a minimal one is irreducible, A-18),
    # then the card of that value the team needs least.
    want = wanted(state, p)
    have = [0, 0, 0]
    for code, _m, rank in cands:
        if code < NUM_ELEMENT_CODES:
            have[code_value(code) - 1] += state.players[p].hand[code] - picked_hand[code] if rank == 0 else 1
    best = _min_sum_at_least(left[4], *have)
    values = [v for v in (2, 1, 0) if best and best[v]] or [0, 1, 2]
    # c % 3, not code_value: a Dark Matter card (code 13, Vth Element modules) ranks as a value-2 one.
    options = [c for c in cands if c[0] % 3 in values[:1]] or cands
    return min(options, key=lambda c: (card_score(c[0], want), c[2]))[1]


def _pay_candidates(state: GameState, p: int, legal: list[int]) -> list[tuple[int, int, int]]:
    """(code, move, source rank) of every legal pick: hand first (rank 0), then own support
    (1), then the others' (seat order)."""
    n = len(state.players)
    cands = []
    for m in legal:
        if M.PAY_HAND <= m < M.PAY_SUPPORT:
            cands.append((m - M.PAY_HAND, m, 0))
        elif M.PAY_SUPPORT <= m < M.PAY_CONFIRM:
            off, s = M.decode(m).args  # SupportRef(seat offset, slot)
            cands.append((state.players[(p + off) % n].support[s].card, m, 1 + off))
    return cands


def _pay_element(hand: list[int], owed: int, mine: list[tuple[int, int, int]], picked_hand: list[int]) -> int:
    """The pick toward ``owed`` Elements of one Element, from that Element's candidates: a card of
    the least-waste combination of values, highest value first."""
    have = [0, 0, 0]
    for code, _m, rank in mine:
        if rank == 0:
            have[code_value(code) - 1] = hand[code] - picked_hand[code]
        else:
            have[code_value(code) - 1] += 1
    best = _min_sum_at_least(owed, *have)
    if best is not None:
        for v in (2, 1, 0):
            if best[v]:
                options = sorted((c for c in mine if code_value(c[0]) - 1 == v), key=lambda c: c[2])
                if options:
                    return options[0][1]
    return min(mine, key=lambda c: (c[2], -(code_value(c[0]) - 1)))[1]


# -- single choices ----------------------------------------------------------------------------


def reward_element(state: GameState, p: int, legal: list[int]) -> int:
    """Destroy reward / gain an Element of choice: the Element the team lacks most for what it
    still has to destroy (section 4.4: a value-2 card to the discard pile)."""
    opts = [m - M.PICK_ELEMENT for m in legal if M.PICK_ELEMENT <= m < M.PICK_ELEMENT + 4]
    if not opts:
        return M.DECLINE
    team = team_elements(state)
    want = wanted(state, p)
    e = max(opts, key=lambda el: (want[el] > 0, -team[el], -el))
    return M.PICK_ELEMENT + e


def _hand_pick(legal: list[int], base: int) -> list[int]:
    return [m - base for m in legal if base <= m < base + NUM_CODES]


def _support_slots(legal: list[int]) -> list[int]:
    return [m - M.PICK_SUPPORT for m in legal if M.PICK_SUPPORT <= m < M.PICK_PLAYER]


def _spell_picks(legal: list[int]) -> list[int]:
    return [m - M.PICK_SPELL for m in legal if M.PICK_SPELL <= m < M.PICK_ELEMENT]


def _curse_picks(state: GameState, payer: int, legal: list[int]) -> list[int]:
    """Legal PICK_CURSE arguments, most urgent Curse first."""
    args = {m - M.PICK_CURSE for m in legal if M.PICK_CURSE <= m < M.PICK_SPELL}
    return [ci.arg for ci in curses(state, payer) if ci.arg in args]


def _worst_card(state: GameState, p: int, codes: list[int]) -> int:
    if keep_dark_matter(state):  # Dark Matter saved up for a Dark Curse (section 4.7)
        codes = [c for c in codes if c != DARK_MATTER] or codes
    want = wanted(state, p)
    return min(codes, key=lambda c: (card_score(c, want), c))


def _best_card(state: GameState, p: int, codes: list[int]) -> int:
    want = wanted(state, p)
    return max(codes, key=lambda c: (card_score(c, want), -c))


def answer_choice(state: GameState, f: dict, legal: list[int]) -> int:
    k = f["kind"]
    if k == "recup":  # DP-36: discard down to the hand size; keep the useful cards
        codes = _hand_pick(legal, M.PICK_HAND)
        if keep_dark_matter(state):  # Dark Matter saved up for a Dark Curse (section 4.7)
            codes = [c for c in codes if c != DARK_MATTER] or codes
        return M.PICK_HAND + _worst_card(state, f["player"], codes)
    if k == "learn":  # DP-10: the least valuable Spell goes to the box
        spells = state.players[f["player"]].spells
        return M.PICK_SPELL + min(_spell_picks(legal), key=lambda i: spell_value(state, spells[i].spell))
    if k == "tgt":
        return _choose_player(state, f, legal)
    if k != "op":
        return legal[0]
    c = _Choice(state, f, legal)
    answer = _EFFECT_CHOICES.get(c.name)
    move = answer(c) if answer is not None else None
    if move is not None:
        return move
    return M.DECLINE if c.optional else legal[0]


@dataclass
class _Choice:
    """An effect op's pending choice (docs/rules.md section 10.5): the chooser ``p`` and the legal picks
    by zone (hand and discard card codes, support slots)."""

    state: GameState
    f: dict
    legal: list[int]

    def __post_init__(self) -> None:
        self.name = pending(self.state).kind
        self.p = self.f["player"]
        self.pl = self.state.players[self.p]
        self.optional = M.DECLINE in self.legal
        self.hand = _hand_pick(self.legal, M.PICK_HAND)
        self.disc = _hand_pick(self.legal, M.PICK_DISCARD)
        self.slots = _support_slots(self.legal)

    def least_wanted_support(self) -> int:
        want = wanted(self.state, self.p)
        return M.PICK_SUPPORT + min(self.slots, key=lambda s: card_score(self.pl.support[s].card, want))


def _discard(c: _Choice) -> int | None:
    state, p, hand = c.state, c.p, c.hand
    if hand and c.name == "discard":
        want = wanted(state, p)
        if keep_dark_matter(state):  # Dark Matter saved up for a Dark Curse (section 4.7)
            hand = [code for code in hand if code != DARK_MATTER] or hand
        worst = min(hand, key=lambda code: (keep_value(code, want), code))
        # Cycling (the rule heuristic_eval values discards with): an optional discard only
        # of a card worth less than the fresh draw that replaces it at Recuperation.
        if c.optional and keep_value(worst, want) >= CYCLE:
            return M.DECLINE
        return M.PICK_HAND + worst
    if hand:
        if c.optional and not any(is_madness(code) for code in hand):
            return M.DECLINE
        return M.PICK_HAND + _worst_card(state, p, hand)
    if c.slots:
        return c.least_wanted_support()
    return None


def _destroy(c: _Choice) -> int | None:
    state, p, hand, disc = c.state, c.p, c.hand, c.disc
    if hand:
        mad = [code for code in hand if is_madness(code)]
        if mad:
            return M.PICK_HAND + mad[0]
        return M.DECLINE if c.optional else M.PICK_HAND + _worst_card(state, p, hand)
    if disc:
        # Thin the deck of value-1 cards only while it is large (a small deck reshuffles
        # more often, and each reshuffle brings a Madness, section 5.2).
        pl = c.pl
        size = sum(pl.hand) + sum(pl.discard) + len(pl.deck)
        ones = [code for code in disc if code_value(code) == 1]
        mad = [code for code in disc if is_madness(code)]
        if mad:
            return M.PICK_DISCARD + mad[0]
        if c.optional and (size < 14 or not ones):
            return M.DECLINE
        team = team_elements(state)
        pool = ones or disc
        return M.PICK_DISCARD + max(
            pool, key=lambda code: (team[code_element(code)] if code < NUM_ELEMENT_CODES else -99, code)
        )
    if c.slots:
        return c.least_wanted_support()
    return None


def _place_in_support(c: _Choice) -> int | None:
    if DARK_MATTER in c.hand and dark_matter_to_support(c.state, c.p):
        return M.PICK_HAND + DARK_MATTER  # the Dark Matter stock, within every teammate's reach
    elems = [code for code in c.hand if code < NUM_ELEMENT_CODES]
    if elems:
        return M.PICK_HAND + _best_card(c.state, c.p, elems)
    mad = [code for code in c.hand if is_madness(code)]
    if mad and (madness_in(c.pl.hand) >= 4 or not c.optional):
        return M.PICK_HAND + mad[0]  # keeps the Madness out of the hand (elimination, 5.4)
    return M.DECLINE if c.optional else None


def _put_on_top(c: _Choice) -> int | None:
    if c.disc:
        best = _best_card(c.state, c.p, c.disc)
        if c.optional and card_score(best, wanted(c.state, c.p)) < 3:
            return M.DECLINE  # nothing worth drawing again next
        return M.PICK_DISCARD + best
    if c.hand:
        if c.optional:
            return M.DECLINE
        return M.PICK_HAND + _worst_card(c.state, c.p, c.hand)
    return None


def _upgrade(c: _Choice) -> int | None:
    codes = c.hand or c.disc
    if not codes:
        return None
    base = M.PICK_HAND if c.hand else M.PICK_DISCARD
    want = wanted(c.state, c.p)
    return base + max(codes, key=lambda code: (card_score(code + 1, want), -code))


def _spell_to_lose(c: _Choice) -> int | None:
    picks = _spell_picks(c.legal)
    if not picks:
        return None
    spells = c.pl.spells
    # An exhausted Spell loses least (it could not be cast this turn anyway).
    return M.PICK_SPELL + min(
        picks, key=lambda i: (not spells[i].exhausted, spell_value(c.state, spells[i].spell))
    )


def _refresh_spell(c: _Choice) -> int | None:
    picks = _spell_picks(c.legal)
    if not picks:
        return None
    return M.PICK_SPELL + max(picks, key=lambda i: spell_value(c.state, c.pl.spells[i].spell))


def _curse_to_hit(c: _Choice) -> int | None:
    picks = _curse_picks(c.state, c.f["controller"], c.legal)
    if not picks:
        return None
    if c.name == "remove_tokens":
        return M.PICK_CURSE + _most_tokens(c.state, picks)
    return M.PICK_CURSE + picks[0]


def _add_tokens(c: _Choice) -> int | None:
    picks = _curse_picks(c.state, c.f["controller"], c.legal)
    return M.PICK_CURSE + picks[-1] if picks else None  # the least urgent Curse (already triggered first)


def _exchange(c: _Choice) -> int | None:
    codes = _hand_pick(c.legal, M.PICK_HAND)
    return M.PICK_HAND + _worst_card(c.state, c.f["decider"], codes) if codes else None


def _may(c: _Choice) -> int | None:
    value = effect_value(lookup(c.state, c.f)["ops"], c.f["x"], c.state, c.p)
    return M.ACCEPT if value > 0 else M.DECLINE


# The answer to each kind of effect choice (``pending(state).kind``); None: decline when optional,
# else the first legal move.
_EFFECT_CHOICES: dict[str, Callable[[_Choice], int | None]] = {
    "discard": _discard,
    "receive_madness": _discard,
    "destroy": _destroy,
    "place_in_support": _place_in_support,
    "put_on_top": _put_on_top,
    "upgrade": _upgrade,
    "neutralize_spell": _spell_to_lose,
    "exhaust_spell": _spell_to_lose,
    "lose_spell": _spell_to_lose,
    "refresh_spell": _refresh_spell,
    "neutralize_curse": _curse_to_hit,
    "destroy_curse": _curse_to_hit,
    "remove_tokens": _curse_to_hit,
    "add_tokens": _add_tokens,
    "gain": lambda c: reward_element(c.state, c.p, c.legal),
    "exchange": _exchange,
    "may": _may,
}


def _most_tokens(state: GameState, args: list[int]) -> int:
    def tokens(arg: int) -> int:
        slot, pos = divmod(arg, MAX_STACK)
        stack = state.track[slot]
        return sum(stack[len(stack) - 1 - pos].tokens)

    return max(args, key=lambda a: (tokens(a), -args.index(a)))


def _choose_player(state: GameState, f: dict, legal: list[int]) -> int:
    """DP-E01 / DP-29: the target of "a player" / "another player" effects."""
    op = lookup(state, f)
    c = f["controller"]
    n = len(state.players)
    seats = [(c + m - M.PICK_PLAYER) % n for m in legal if M.PICK_PLAYER <= m < M.PICK_CURSE]
    name = op["op"]
    if name == "grant_actions":
        q = max(
            seats,
            key=lambda s: (can_destroy_count(state, s), sum(state.players[s].hand[:NUM_ELEMENT_CODES]), -s),
        )
    elif name == "receive_madness":
        # The player furthest from elimination takes it (section 5.4).
        q = min(seats, key=lambda s: (madness_in(state.players[s].hand), s))
    elif name in ("lose_spell", "exhaust_spell", "neutralize_spell"):
        q = max(seats, key=lambda s: (len(state.players[s].spells), s != c))
    elif name == "refresh_spell":
        q = max(seats, key=lambda s: (sum(1 for sp in state.players[s].spells if sp.exhausted), s == c))
    elif name == "exchange":
        others = [s for s in seats if s != c] or seats
        q = max(others, key=lambda s: sum(state.players[s].hand[:NUM_ELEMENT_CODES]))
    else:
        q = c if c in seats else seats[0]
    return M.PICK_PLAYER + (q - c) % n
