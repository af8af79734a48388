"""Module packs: ``bbom-cards validate`` and the loader agree (validate checks
the pack as every game would read it: the base game and each set of registered modules), every
message names the file, the card and the field, and ``load_pack`` refuses a module name that is not
registered. A 17th ``[[phobia]]`` passed validate and then failed every Phobia game with a bare
ValueError; a Phobia constraint of a Dark Matter kind played in a Phobia-only game; an unknown
module was read as no module at all."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bbom_env.cards import main
from bbom_env.engine import GameConfig, new_game
from bbom_env.engine.cards.pack import load_pack
from bbom_env.engine.cards.vocab import PackError

SETS = [(), ("dark_matter",), ("phobias",), ("dark_matter", "phobias")]
HEAD = '[pack]\nid = "o"\nname = "o"\nversion = 1\n'


def _phobia(pid: str, constraint: str = '{ kind = "cost", action = "activate", amount = 1 }') -> str:
    return (
        f'\n[[phobia]]\nid = "{pid}"\nname = "Fear {pid}"\ntext = "x"\nconstraint = [{constraint}]\n'
        'provenance = "reconstructed"\n'
    )


def _write(tmp_path: Path, body: str) -> str:
    path = tmp_path / "override.toml"
    path.write_text(HEAD + body, encoding="utf-8")
    return str(path)


def _loader_refuses(path: str, modules: tuple[str, ...]) -> str:
    """The error a game of ``modules`` with the override gives ("" when it starts)."""
    try:
        new_game(GameConfig(num_players=2, modules=modules, pack_overrides=(path,)))
    except PackError as exc:
        return str(exc)
    return ""


def _validate(path: str, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    status = main(["validate", path, *extra])
    out = capsys.readouterr()
    return status, out.err.strip() or out.out.strip()


def test_a_17th_phobia_is_refused_by_validate_and_by_phobia_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, _phobia("phobia_99"))
    where = rf"^{path}: phobia 'phobia_99'\.id: a Phobia beyond the 16 \(17 in \[\[phobia\]\]\)"
    for modules in SETS:
        msg = _loader_refuses(path, modules)
        assert (not msg) if "phobias" not in modules else re.match(where, msg), (modules, msg)
    status, text = _validate(path, capsys)
    assert status == 1 and re.match(rf"INVALID: {where[1:]}.* \(a game with modules \['phobias'\]\)", text), (
        text
    )
    assert _validate(path, capsys, "--base-only")[0] == 0  # a base game never reads [[phobia]]


def test_a_phobia_of_a_dark_matter_kind_needs_the_dark_matter_module(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, _phobia("phobia_01", '{ kind = "move_phobia" }'))
    msg = _loader_refuses(path, ("phobias",))
    assert msg.startswith(
        f"{path}: phobia 'phobia_01'.constraint[0].kind: modifier kind 'move_phobia' comes with"
    )
    assert not _loader_refuses(path, ("dark_matter", "phobias"))  # the module that declares it
    status, text = _validate(path, capsys)
    assert status == 1 and "constraint[0].kind" in text and "(a game with modules ['phobias'])" in text
    status, text = _validate(path, capsys, "--module", "dark_matter", "--module", "phobias")
    assert status == 0 and text.endswith("valid in games with modules ['dark_matter', 'phobias']"), text


def test_validate_names_an_unknown_module_as_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, _phobia("phobia_01"))
    assert main(["validate", path, "--module", "fifth"]) == 2
    assert "--module 'fifth': no such module" in capsys.readouterr().err


@pytest.mark.parametrize("modules", [("fifth",), ("dark_matter", "nope"), ("base",)])
def test_load_pack_refuses_an_unknown_module(modules: tuple[str, ...]) -> None:
    with pytest.raises(
        PackError,
        match=r"^load_pack: unknown module\(s\) \[.*\]; registered modules: \['dark_matter', 'phobias'\]",
    ):
        load_pack("default", modules=modules)


def test_load_pack_refuses_modules_that_are_not_names() -> None:
    for modules in ("phobias", [1]):
        with pytest.raises(PackError, match="^load_pack: modules must be a tuple of module names"):
            load_pack("default", modules=modules)  # type: ignore[arg-type]


# -- property: validate refuses exactly what some game refuses --------------------------------

KINDS = [  # constraint modifiers: the Phobias' own kinds, a base kind, other modules' kinds
    '{ kind = "cost", action = "activate", amount = 1 }',
    '{ kind = "hand_size", amount = -1 }',
    '{ kind = "move_phobia" }',
    '{ kind = "lose_ability" }',
    '{ kind = "air_conversion" }',
    '{ kind = "no_support_payment" }',
]


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    ids=st.lists(
        st.sampled_from([*(f"phobia_{k:02}" for k in (1, 5, 16)), "phobia_x"]),
        min_size=1,
        max_size=3,
        unique=True,
    ),
    kinds=st.lists(st.sampled_from(KINDS), min_size=3, max_size=3),
)
def test_validate_refuses_exactly_what_a_game_refuses(ids: list[str], kinds: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        body = "".join(_phobia(pid, kind) for pid, kind in zip(ids, kinds, strict=False))
        path = str(Path(tmp) / "override.toml")
        try:
            Path(path).write_text(HEAD + body, encoding="utf-8")
            load_pack("default", (path,))
        except PackError:
            return  # the file itself does not load: validate says so too (test_cards_cli.py)
        refused = {m: _loader_refuses(path, m) for m in SETS}
        status = main(["validate", path])
        assert (status == 1) == any(refused.values()), refused
        for msg in refused.values():
            assert not msg or msg.startswith(f"{path}: phobia '"), msg  # the file and the card
