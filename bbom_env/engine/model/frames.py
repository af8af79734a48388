"""The frames of the decision stack, typed: one ``TypedDict`` per frame kind (design decision 2).

A frame is a plain dict (cheap to copy with ``f.copy()``, written to a save as a JSON object) whose
values are immutable: ints, strs, ``None`` and tuples. Every frame has a ``kind``; a frame that is
waiting for a choice has a ``decider`` (the deciding seat; ``None`` while it runs). The interpreter
(``resolver.py``) runs, lists and answers frames by kind.

Each value type is ``Annotated`` with its value kind (``Seat = Annotated[int, "seat"]``): the save
check (``save_check.py``) reads the schema of every kind from these types
(``frame_schema(kind)``), and the loader turns a save's JSON lists back into tuples
(``typed.codecs``). This module imports nothing from the rules code.

Frame kinds of the base game: the TypedDicts below (docs/rules.md sections in their docstrings),
registered by kind at the end: the turn structure (``flow.py``), a player's choices, the Actions
after payment (``actions.py``, section 4) and effects (``ops.py``, sections 7, 8 and 10.5).

A module adds a frame kind by registering its TypedDict with its handlers:
``resolver.frame(kind, run, legal, answer, typed=MyFrame)`` (or ``register_frame_type(kind,
MyFrame)`` first). A kind with no registered type cannot be given handlers.
"""

import typing
from typing import Annotated, Any, NotRequired, Required, TypedDict

from bbom_env.engine.model.records import HandSource, SupportSource

# Value types, annotated with the value kind the save check applies (save_values._frame_value,
# which knows exactly VALUE_KINDS).
Seat = Annotated[int, "seat"]  # a player's seat 0..n-1
Decider = Annotated[int | None, "decider"]  # the seat that must decide now; None: not waiting
Grants = Annotated[int, "grants"]  # -1: the turn's own Action phase; else Actions left
Count = Annotated[int, "count"]  # a number of picks or Spells left, >= 0
Step = Annotated[int, "step"]  # the next op of a seq, 0..len(ops)
Element = Annotated[int, "element"]  # 0..3 (fire, water, earth, air)
CardValue = Annotated[int, "value"]  # 2 or 3: a supply card's value (4.3)
Power = Annotated[int, "power"]  # power X, 1..MAX_POWER
Stage = Annotated[int, "stage"]  # 0 or 1
Slot = Annotated[int, "slot"]  # a support slot index
CureOwner = Annotated[int, "owner"]  # a seat, or -1: the curer's own hand
MadnessCode = Annotated[int, "madness"]  # a Madness card code
SpellId = Annotated[str, "spell"]
CurseId = Annotated[str, "curse"]
PayAction = Annotated[str, "action"]  # one of actions.PAY_ACTIONS
Text = Annotated[str, "text"]
CostTuple = Annotated[tuple[int | tuple[int, ...], ...], "cost"]  # payment.Cost.compact()
PickedSources = Annotated[tuple[HandSource | SupportSource, ...], "picks"]  # records.py
CardId = Annotated[str, "effect"]  # source / part / path are checked together against the pack
EffectPart = Annotated[str, "effect"]
OpPath = Annotated[tuple[int, ...], "effect"]
VALUE_KINDS = frozenset(
    ("seat", "decider", "grants", "count", "step", "element", "value", "power", "stage", "slot", "owner")
    + ("madness", "spell", "curse", "action", "text", "cost", "picks", "effect")
)


class Frame(TypedDict):
    """What every frame has: its kind (the key of ``FRAME_TYPES``)."""

    kind: str


# -- turn structure: no keys besides kind ------------------------------------------------------


class ConcFrame(Frame):
    """Concentration (3.2): the Active Player's Spells refresh (A-21)."""


class MonsterFrame(Frame):
    """The Monster phase (3.3): the Invocation marker moves."""


class AdvanceFrame(Frame):
    """One more step of the Invocation marker (3.3.2; a rule point or a "move marker" op, 3.3.8).
    ``step``: the rule point's step number k >= 2 (taken only while the rule point still gives k
    or more, V-34); absent for a "move marker" op's step."""

    step: NotRequired[Count]


class ReleaseFrame(Frame):
    """Start of the Action phase: Curses neutralized on an earlier turn flip face up (A-19)."""


class EndRoundFrame(Frame):
    """End of a round (3.3.4): Bonus or Failure of the Monster."""


class ClearTrackFrame(Frame):
    """After a Failure every Curse leaves the track."""


class ExpireFrame(Frame):
    """Effects lasting "until the next Monster" end at the page turn (A-68)."""


class NewMonsterFrame(Frame):
    """The New Monster procedure (3.3.5)."""


class PlaceFrame(Frame):
    """The new Monster's Curses are placed on the track (A-01, A-02)."""


class EndTurnFrame(Frame):
    """End of turn (3.6): per-turn flags and "this turn" effects reset."""


# -- choices of a player -----------------------------------------------------------------------


class MenuFrame(Frame):
    """The Action menu of ``player`` (3.4, DP-03); ``grants``: -1 on their own Action phase (any
    number of Actions), else the granted Actions left (4.12)."""

    player: Seat
    grants: Grants
    decider: Decider


class RecupFrame(Frame):
    """Recuperation of ``player`` (5.1): discard down to the hand size, or draw up to it."""

    player: Seat
    decider: Decider


class RefreshChoiceFrame(Frame):
    """``player`` chooses ``left`` more exhausted Spells to refresh (a lowered refresh, 9.2)."""

    player: Seat
    left: Count
    decider: Decider


class LimitsFrame(Frame):
    """``player`` puts Spells in the box or discards support cards until within their limits,
    which shrank (``flow.py``, 4.11)."""

    player: Seat
    decider: Decider


class RewardFrame(Frame):
    """``player`` takes a value-2 card as the reward of a destroyed Curse (4.4, DP-15)."""

    player: Seat
    decider: Decider


class PayFrame(Frame):
    """``player`` pays ``cost`` for ``action`` on ``target`` (a Spell id, a Curse id, ``"e-v"`` for a
    supply card, ``""`` for a cure); ``picks``: the sources picked so far (manual payment, 4.0, 10.4)."""

    player: Seat
    cost: CostTuple
    picks: PickedSources
    action: PayAction
    target: Text
    decider: Decider


# -- the Actions after payment (section 4) -----------------------------------------------------


class ActivateFrame(Frame):
    """Activate ``spell`` of ``player`` with power ``x`` (4.1)."""

    player: Seat
    spell: SpellId
    x: Power


class ExhaustFrame(Frame):
    """Exhaust ``spell`` of ``player`` once its effect resolved (4.1)."""

    player: Seat
    spell: SpellId


class LearnFrame(Frame):
    """``player`` learns the top Spell of the Library pile of ``element`` (4.2); waits while a
    Spell must go to the box first (DP-10, A-69)."""

    player: Seat
    element: Element
    decider: Decider


class AcquireFrame(Frame):
    """``player`` takes the supply card of ``element`` and ``value`` (4.3)."""

    player: Seat
    element: Element
    value: CardValue


class DestroyFrame(Frame):
    """``player`` destroys ``curse`` (4.4)."""

    player: Seat
    curse: CurseId


class CureFrame(Frame):
    """``player`` cures Madness card ``code``: from their own hand (``owner`` -1, no ``slot``), or
    from support ``slot`` of ``owner`` (4.5, A-11)."""

    player: Seat
    owner: CureOwner
    code: MadnessCode
    slot: NotRequired[Slot]


# -- effects (ops.py) --------------------------------------------------------------------------


class _EffectFrame(Frame):
    """An effect names its op list or op by ``source`` (a card id), ``part`` (effect / arrival /
    bonus / failure / activated / trigger<i>) and ``path`` (indices into nested op lists), with
    ``controller`` (the caster, A-33) and power ``x``."""

    source: CardId
    part: EffectPart
    path: OpPath
    controller: Seat
    x: Power


class SeqFrame(_EffectFrame):
    """Run the op list at ``path`` of effect (``source``, ``part``), next op ``step``."""

    step: Step


class TgtFrame(_EffectFrame):
    """Resolve the target of the op at ``path``; waits when the controller picks a player."""

    decider: NotRequired[Decider]


class OpFrame(_EffectFrame):
    """Run the op at ``path`` for ``player``: ``count`` picks left, exchange ``stage`` (A-37: 0 the
    controller gives, 1 the target gives back)."""

    player: Seat
    count: Count
    decider: Decider
    stage: Stage


# -- the registry: each kind's TypedDict and the schema read from it --------------------------------


class FrameSchema(typing.NamedTuple):
    """The keys of a frame kind (``kind`` left out): key -> (value kind, Python type), and the
    keys that may be absent."""

    keys: dict[str, tuple[str, Any]]
    optional: frozenset[str]


FRAME_TYPES: dict[str, type] = {}
_SCHEMAS: dict[str, FrameSchema] = {}


def register_frame_type(kind: str, td: type) -> None:
    """Register the TypedDict of frame kind ``kind`` (a module's new frames included). Every key
    is typed ``Annotated[T, value_kind]``, so that saves can check and load it."""
    if not (isinstance(td, type) and issubclass(td, dict) and hasattr(td, "__required_keys__")):
        raise TypeError(f"frame kind {kind!r}: {td!r} is not a TypedDict")
    if "kind" not in td.__required_keys__:
        raise TypeError(f"frame kind {kind!r}: {td.__name__} has no 'kind' key (derive it from Frame)")
    keys = {}
    optional = set(td.__optional_keys__)  # type: ignore[attr-defined]
    for key, tp in typing.get_type_hints(td, include_extras=True).items():
        # Read NotRequired / Required from the hints too: a TypedDict defined under
        # ``from __future__ import annotations`` does not see them in __optional_keys__.
        if typing.get_origin(tp) is NotRequired:
            optional.add(key)
        elif typing.get_origin(tp) is Required:
            optional.discard(key)
        while typing.get_origin(tp) in (Required, NotRequired):
            tp = typing.get_args(tp)[0]
        if key == "kind":
            continue
        value_kind = next((m for m in getattr(tp, "__metadata__", ()) if isinstance(m, str)), None)
        if typing.get_origin(tp) is not Annotated or value_kind not in VALUE_KINDS:
            raise TypeError(
                f"frame kind {kind!r}: key {key!r} of {td.__name__} is not Annotated with a value kind"
                f" the save check knows ({sorted(VALUE_KINDS)})"
            )
        keys[key] = (value_kind, typing.get_args(tp)[0])
    old = FRAME_TYPES.get(kind)
    if old is not None and old is not td:
        raise ValueError(f"frame kind {kind!r} is already registered ({old.__name__})")
    FRAME_TYPES[kind] = td
    _SCHEMAS[kind] = FrameSchema(keys, frozenset(optional))


def frame_schema(kind: str) -> FrameSchema:
    """The schema of a registered frame kind (KeyError for an unknown kind)."""
    return _SCHEMAS[kind]


for _kind, _td in {
    "conc": ConcFrame,
    "monster": MonsterFrame,
    "advance": AdvanceFrame,
    "release": ReleaseFrame,
    "endround": EndRoundFrame,
    "cleartrack": ClearTrackFrame,
    "expire": ExpireFrame,
    "newmonster": NewMonsterFrame,
    "place": PlaceFrame,
    "endturn": EndTurnFrame,
    "menu": MenuFrame,
    "recup": RecupFrame,
    "refresh_choice": RefreshChoiceFrame,
    "limits": LimitsFrame,
    "reward": RewardFrame,
    "pay": PayFrame,
    "activate": ActivateFrame,
    "exhaust": ExhaustFrame,
    "learn": LearnFrame,
    "acquire": AcquireFrame,
    "destroy": DestroyFrame,
    "cure": CureFrame,
    "seq": SeqFrame,
    "tgt": TgtFrame,
    "op": OpFrame,
}.items():
    register_frame_type(_kind, _td)
