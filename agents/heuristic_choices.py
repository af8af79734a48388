"""The heuristic team's answers to payments (manual mode) and to effect choices (RULES.md
section 10: DP-P1..P6 payments, DP-10 Spell to the box, DP-15 reward, DP-36 Recuperation discard,
DP-E.. effect choices)."""

from __future__ import annotations

from bbom_env.engine import GameState
from bbom_env.engine import moves as M
from bbom_env.engine.constants import MAX_STACK, MAX_SUPPORT_SLOTS, NUM_CODES, is_madness
from bbom_env.engine.decision import pending
from bbom_env.engine.ops import lookup
from bbom_env.engine.payment import _min_sum_at_least
from bbom_env.engine.records import HandSource

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
    p = f["p"]
    n = len(state.players)
    left = pending(state).cost_left
    # (code, move, source rank): hand first, then own support, then the others' (seat order).
    cands = []
    for m in legal:
        if M.PAY_HAND <= m < M.PAY_SUPPORT:
            cands.append((m - M.PAY_HAND, m, 0))
        elif M.PAY_SUPPORT <= m < M.PAY_CONFIRM:
            off, s = divmod(m - M.PAY_SUPPORT, MAX_SUPPORT_SLOTS)
            cands.append((state.players[(p + off) % n].support[s].card, m, 1 + off))
    if not cands:
        return M.PAY_CANCEL
    picked_hand = [0] * NUM_CODES
    for src in f["picks"]:
        if type(src) is HandSource:
            picked_hand[src.code] += 1
    for e in range(4):
        if left[e] <= 0:
            continue
        mine = [c for c in cands if c[0] // 3 == e]
        if not mine:
            continue
        have = [0, 0, 0]
        for code, _m, rank in mine:
            if rank == 0:
                have[code % 3] = state.players[p].hand[code] - picked_hand[code]
            else:
                have[code % 3] += 1
        best = _min_sum_at_least(left[e], *have)
        if best is not None:
            for v in (2, 1, 0):
                if best[v]:
                    options = sorted((c for c in mine if c[0] % 3 == v), key=lambda c: c[2])
                    if options:
                        return options[0][1]
        return min(mine, key=lambda c: (c[2], -(c[0] % 3)))[1]
    # The "any" part: a least-waste combination of values (a minimal one is irreducible, A-18),
    # then the card of that value the team needs least.
    want = wanted(state, p)
    have = [0, 0, 0]
    for code, _m, rank in cands:
        if code < 12:
            have[code % 3] += state.players[p].hand[code] - picked_hand[code] if rank == 0 else 1
    best = _min_sum_at_least(left[4], *have)
    values = [v for v in (2, 1, 0) if best and best[v]] or [0, 1, 2]
    options = [c for c in cands if c[0] % 3 in values[:1]] or cands
    return min(options, key=lambda c: (card_score(c[0], want), c[2]))[1]


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
    want = wanted(state, p)
    return min(codes, key=lambda c: (card_score(c, want), c))


def _best_card(state: GameState, p: int, codes: list[int]) -> int:
    want = wanted(state, p)
    return max(codes, key=lambda c: (card_score(c, want), -c))


def answer_choice(state: GameState, f: dict, legal: list[int]) -> int:
    k = f["k"]
    if k == "recup":  # DP-36: discard down to the hand size; keep the useful cards
        return M.PICK_HAND + _worst_card(state, f["p"], _hand_pick(legal, M.PICK_HAND))
    if k == "learn":  # DP-10: the least valuable Spell goes to the box
        spells = state.players[f["p"]].spells
        return M.PICK_SPELL + min(_spell_picks(legal), key=lambda i: spell_value(state, spells[i].spell))
    if k == "tgt":
        return _choose_player(state, f, legal)
    if k != "op":
        return legal[0]
    op = lookup(state, f)
    name = pending(state).kind
    p = f["p"]
    pl = state.players[p]
    optional = M.DECLINE in legal
    hand = _hand_pick(legal, M.PICK_HAND)
    disc = _hand_pick(legal, M.PICK_DISCARD)
    slots = _support_slots(legal)

    if name in ("discard", "receive_madness"):
        if hand and name == "discard":
            want = wanted(state, p)
            worst = min(hand, key=lambda c: (keep_value(c, want), c))
            # Cycling (the rule heuristic_eval values discards with): an optional discard only
            # of a card worth less than the fresh draw that replaces it at Recuperation.
            if optional and keep_value(worst, want) >= CYCLE:
                return M.DECLINE
            return M.PICK_HAND + worst
        if hand:
            if optional and not any(is_madness(c) for c in hand):
                return M.DECLINE
            return M.PICK_HAND + _worst_card(state, p, hand)
        if slots:
            return M.PICK_SUPPORT + min(slots, key=lambda s: card_score(pl.support[s].card, wanted(state, p)))
    if name == "destroy":
        if hand:
            mad = [c for c in hand if is_madness(c)]
            if mad:
                return M.PICK_HAND + mad[0]
            return M.DECLINE if optional else M.PICK_HAND + _worst_card(state, p, hand)
        if disc:
            # Thin the deck of value-1 cards only while it is large (a small deck reshuffles
            # more often, and each reshuffle brings a Madness, section 5.2).
            size = sum(pl.hand) + sum(pl.discard) + len(pl.deck)
            ones = [c for c in disc if c < 12 and c % 3 == 0]
            mad = [c for c in disc if is_madness(c)]
            if mad:
                return M.PICK_DISCARD + mad[0]
            if optional and (size < 14 or not ones):
                return M.DECLINE
            team = team_elements(state)
            pool = ones or disc
            return M.PICK_DISCARD + max(pool, key=lambda c: (team[c // 3] if c < 12 else -99, c))
        if slots:
            return M.PICK_SUPPORT + min(slots, key=lambda s: card_score(pl.support[s].card, wanted(state, p)))
    if name == "place_in_support":
        elems = [c for c in hand if c < 12]
        if elems:
            return M.PICK_HAND + _best_card(state, p, elems)
        mad = [c for c in hand if is_madness(c)]
        if mad and (madness_in(pl.hand) >= 4 or not optional):
            return M.PICK_HAND + mad[0]  # keeps the Madness out of the hand (elimination, 5.4)
        if optional:
            return M.DECLINE
    if name == "put_on_top":
        if disc:
            best = _best_card(state, p, disc)
            if optional and card_score(best, wanted(state, p)) < 3:
                return M.DECLINE  # nothing worth drawing again next
            return M.PICK_DISCARD + best
        if hand:
            if optional:
                return M.DECLINE
            return M.PICK_HAND + _worst_card(state, p, hand)
    if name == "upgrade":
        codes = hand or disc
        if codes:
            base = M.PICK_HAND if hand else M.PICK_DISCARD
            want = wanted(state, p)
            return base + max(codes, key=lambda c: (card_score(c + 1, want), -c))
    if name in ("neutralize_spell", "exhaust_spell", "lose_spell"):
        picks = _spell_picks(legal)
        if picks:
            # An exhausted Spell loses least (it could not be cast this turn anyway).
            return M.PICK_SPELL + min(
                picks, key=lambda i: (not pl.spells[i].exhausted, spell_value(state, pl.spells[i].spell))
            )
    if name == "refresh_spell":
        picks = _spell_picks(legal)
        if picks:
            return M.PICK_SPELL + max(picks, key=lambda i: spell_value(state, pl.spells[i].spell))
    if name in ("neutralize_curse", "destroy_curse", "remove_tokens"):
        picks = _curse_picks(state, f["c"], legal)
        if picks:
            if name == "remove_tokens":
                return M.PICK_CURSE + _most_tokens(state, picks)
            return M.PICK_CURSE + picks[0]
    if name == "add_tokens":
        picks = _curse_picks(state, f["c"], legal)
        if picks:
            return M.PICK_CURSE + picks[-1]  # the least urgent Curse (already triggered first)
    if name == "gain":
        return reward_element(state, p, legal)
    if name == "exchange":
        giver = f["w"]
        codes = _hand_pick(legal, M.PICK_HAND)
        if codes:
            return M.PICK_HAND + _worst_card(state, giver, codes)
    if name == "may":
        value = effect_value(op["ops"], f["X"], state, p)
        return M.ACCEPT if value > 0 else M.DECLINE
    return M.DECLINE if optional else legal[0]


def _most_tokens(state: GameState, args: list[int]) -> int:
    def tokens(arg: int) -> int:
        slot, pos = divmod(arg, MAX_STACK)
        stack = state.track[slot]
        return sum(stack[len(stack) - 1 - pos].tokens)

    return max(args, key=lambda a: (tokens(a), -args.index(a)))


def _choose_player(state: GameState, f: dict, legal: list[int]) -> int:
    """DP-E01 / DP-29: the target of "a player" / "another player" effects."""
    op = lookup(state, f)
    c = f["c"]
    n = len(state.players)
    seats = [(c + m - M.PICK_PLAYER) % n for m in legal if M.PICK_PLAYER <= m < M.PICK_CURSE]
    name = op["op"]
    if name == "grant_actions":
        q = max(seats, key=lambda s: (can_destroy_count(state, s), sum(state.players[s].hand[:12]), -s))
    elif name == "receive_madness":
        # The player furthest from elimination takes it (section 5.4).
        q = min(seats, key=lambda s: (madness_in(state.players[s].hand), s))
    elif name in ("lose_spell", "exhaust_spell", "neutralize_spell"):
        q = max(seats, key=lambda s: (len(state.players[s].spells), s != c))
    elif name == "refresh_spell":
        q = max(seats, key=lambda s: (sum(1 for sp in state.players[s].spells if sp.exhausted), s == c))
    elif name == "exchange":
        others = [s for s in seats if s != c] or seats
        q = max(others, key=lambda s: sum(state.players[s].hand[:12]))
    else:
        q = c if c in seats else seats[0]
    return M.PICK_PLAYER + (q - c) % n
