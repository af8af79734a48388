"""The move layout's argument helpers (moves.py)."""

from __future__ import annotations


def test_move_argument_helpers_match_the_typed_arguments() -> None:
    """moves.curse_arg / support_arg write out the blocks' index formulas (a hot path of the menu):
    they must agree with the typed arguments' own to_index for every argument."""
    from bbom_env.engine.core import moves as M
    from bbom_env.engine.model import move_args as A

    for i in range(A.CURSE.size):
        ref = A.CURSE.from_index(i)
        assert M.curse_arg(*ref) == A.CURSE.to_index(ref) == i
    for i in range(A.SUPPORT.size):
        ref = A.SUPPORT.from_index(i)
        assert M.support_arg(*ref) == A.SUPPORT.to_index(ref) == i
