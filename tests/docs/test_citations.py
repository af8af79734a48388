"""The docs stand on their own: every rules citation in the repository resolves to an anchor of
docs/rules.md, every design decision cited is on docs/design.md, every repository file a doc,
docstring, comment or pack names exists, nothing cites a file outside the repository, and no
text names an internal tracker's issue numbers.

Citations recognised (docs/rules.md, "How it is cited"): "RULES.md section 4.2" or "docs/rules.md
section 4.2" (also "sections 4.10-4.12", "sections 7, 8 and 10.5", "RULES.md 1.4"), "§5.1", a bare
"section 3.3.5" (code comments cite the rules that way) unless another document is named just before
it ("STYLE.md section ..."), and the ids DP-.., A-.. and V-.. (ranges such as "A-52..A-56" and
"DP-P1..P6" are expanded).
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules.md"
SCANNED = (".py", ".md", ".toml", ".yaml", ".yml")
SKIPPED_DIRS = (".venv/", "runs/")

NUM = r"\d+(?:\.\d+)*"
NUM_LIST = rf"{NUM}(?:\s*(?:,|and|-|–|to)\s*{NUM})*"
# "RULES.md 1.4" (no "section"); "§5.1"; "section 4.2" / "sections 7, 8 and 10.5", bare or after
# "RULES.md" / "docs/rules.md".
RULES_NUMBER = re.compile(rf"(?:RULES|rules)\.md\s+({NUM_LIST})")
SIGN_SECTION = re.compile(rf"§\s*({NUM_LIST})")
BARE_SECTION = re.compile(rf"\b[Ss]ections?\s+({NUM_LIST})")
# A document named right before a bare "section N" (another file's sections, not the rules').
OTHER_DOC = re.compile(r"(?:[\w./-]+\.md|\b[A-Z][A-Z_]{2,})'?s?\s*$")
RULES_DOC = re.compile(r"(?:RULES|rules)\.md'?s?\s*$")

# "DP-P1..P6" is a range, "DP-E09/E10" two ids; "DP-E01 / DP-29" is two matches.
DP_ID = re.compile(r"\bDP-([PE]?)(\d+)(?:\s*(\.\.|…|to|/)\s*(?:DP-)?\1(\d+)\b)?")
A_ID = re.compile(r"\bA-(\d{2})\b(?:\s*(?:\.\.|…|to)\s*A-(\d{2})\b)?")
V_ID = re.compile(r"\bV-(\d{2})\b(?:\s*(?:\.\.|…|to)\s*V-(\d{2})\b)?")

PATH_PREFIXES = ("docs", "bbom_env", "configs", "examples", "agents", "benchmarks", "scripts", "tests")
REPO_PATH = re.compile(rf"(?<![\w/.-])((?:{'|'.join(PATH_PREFIXES)})/[\w./-]*)")
# "engine/play/flow.py", "modules/phobias/move.py": a path inside the package, named without bbom_env/.
PACKAGE_PATH = re.compile(r"(?<![\w/.-])((?:engine|rl|rllib|modules|data)/[\w./-]*\.(?:py|toml))")


def anchors() -> set[str]:
    return set(re.findall(r'<a id="([^"]+)"></a>', RULES.read_text(encoding="utf-8")))


def _tracked_names() -> list[str]:
    """Every file git tracks (relative names), or every file under the root without git."""
    try:
        out = subprocess.run(
            ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True, timeout=60
        ).stdout.splitlines()
    except (OSError, subprocess.SubprocessError):  # no git (an exported tree): walk the files
        out = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*") if p.is_file()]
    return out


def tracked_files() -> list[Path]:
    """The repository's text sources, as git lists them (untracked scratch files are not cited)."""
    out = _tracked_names()
    names = [n for n in out if n.endswith(SCANNED) and not n.startswith(SKIPPED_DIRS)]
    names.append("docs/rules.md")  # checked even before it is committed
    return [ROOT / n for n in sorted(set(names)) if (ROOT / n).is_file()]


def _numbers(num_list: str) -> list[str]:
    """'4.10-4.12' -> both ends; '7, 8 and 10.5' -> each number."""
    return re.findall(NUM, num_list)


def _expand(prefix: str, lo: str, hi: str | None, width: int) -> list[str]:
    if hi is None:
        return [f"{prefix}{lo}"]
    a, b = int(lo), int(hi)
    if not a <= b <= a + 100:  # not a range ("DP-15-16" reversed or absurd): check both ends only
        return [f"{prefix}{lo}", f"{prefix}{hi}"]
    return [f"{prefix}{i:0{width}d}" for i in range(a, b + 1)]


def citations(text: str) -> Iterator[tuple[int, str, str]]:
    """(line number, the citation as written, the anchor it needs)."""
    for lineno, line in enumerate(text.splitlines(), 1):
        for m in RULES_NUMBER.finditer(line):
            for n in _numbers(m.group(1)):
                yield lineno, m.group(0), f"s{n}"
        for m in SIGN_SECTION.finditer(line):
            for n in _numbers(m.group(1)):
                yield lineno, m.group(0), f"s{n}"
        for m in BARE_SECTION.finditer(line):
            before = line[: m.start()]
            if RULES_DOC.search(before) or not OTHER_DOC.search(before):
                for n in _numbers(m.group(1)):
                    yield lineno, m.group(0), f"s{n}"
        for m in DP_ID.finditer(line):
            kind, lo, sep, hi = m.groups()
            width = 1 if kind == "P" else 2
            if sep == "/":
                idents = [f"DP-{kind}{lo}", f"DP-{kind}{hi}"]
            else:
                idents = _expand(f"DP-{kind}", lo, hi, width)
            for ident in idents:
                yield lineno, m.group(0), ident
        for pattern, prefix in ((A_ID, "A-"), (V_ID, "V-")):
            for m in pattern.finditer(line):
                for ident in _expand(prefix, m.group(1), m.group(2), 2):
                    yield lineno, m.group(0), ident


def test_rules_reference_has_every_section_and_id() -> None:
    """The anchors the rest relies on: sections 0-12, every DP, A and V id of the specification."""
    have = anchors()
    want = {f"s{n}" for n in range(13)}
    want |= {f"DP-{i:02d}" for i in range(1, 38)} | {f"DP-P{i}" for i in range(1, 8)}
    want |= {f"DP-E{i:02d}" for i in range(1, 17)}
    want |= {f"A-{i:02d}" for i in range(1, 80)} | {f"V-{i:02d}" for i in range(1, 42)}
    missing = sorted(want - have)
    assert not missing, f"docs/rules.md lacks the anchors {missing}"


def test_every_citation_resolves() -> None:
    have = anchors()
    files = tracked_files()
    assert len(files) > 50, f"only {len(files)} files found under {ROOT}"
    found = 0
    bad = []
    for path in files:
        for lineno, cited, anchor in citations(path.read_text(encoding="utf-8", errors="replace")):
            found += 1
            if anchor not in have:
                bad.append(f"{path.relative_to(ROOT)}:{lineno}: {cited!r} needs #{anchor}")
    assert found > 300, f"only {found} citations found: is the scan broken?"
    assert not bad, f"{len(bad)} citation(s) do not resolve in docs/rules.md:\n" + "\n".join(bad)


def test_the_scan_reads_every_citation_form() -> None:
    """The scan itself: each spelling the repository uses yields the anchors it should."""

    def got(text: str) -> list[str]:
        return [a for _, _, a in citations(text)]

    assert got("RULES.md sections 4.10-4.12, 8 and 10.5") == ["s4.10", "s4.12", "s8", "s10.5"]
    assert got("see docs/rules.md section 3.3.5.") == ["s3.3.5"]
    assert got("(RULES.md 1.4) and §5.1") == ["s1.4", "s5.1"]
    assert got("a comment (section 2.1, steps 1-12)") == ["s2.1"]
    assert got("STYLE.md section 4.2 and KNOWN_CARDS section 0") == []
    assert got("design/RL_ANCHORS.md section 12") == []
    assert got("A-27, A-52..A-56") == ["A-27", "A-52", "A-53", "A-54", "A-55", "A-56"]
    assert got("DP-P1..P3 and DP-E09/E10, DP-36") == ["DP-P1", "DP-P2", "DP-P3", "DP-E09", "DP-E10", "DP-36"]
    assert got("V-09; SHA-256; A-1; XA-01") == ["V-09"]


def repo_paths(line: str) -> Iterator[str]:
    """The repository paths a line names ("docs/rules.md", "bbom_env/data/base_pack.toml", and
    "engine/play/flow.py" for bbom_env/engine/play/flow.py); patterns ("agents/masking_*.py", "runs/<name>",
    "docs/observation.{x}.md") are not files."""
    for pattern, root in ((REPO_PATH, ""), (PACKAGE_PATH, "bbom_env/")):
        for m in pattern.finditer(line):
            name = m.group(1).rstrip(".,:;")
            if any(ch in name for ch in "*<>{") or line[m.end() : m.end() + 1] in ("*", "<", "{"):
                continue
            yield root + name


def test_the_path_scan_reads_each_form() -> None:
    line = "see docs/rules.md, `engine/play/flow.py` and bbom_env/modules/phobias/move.py; agents/m_*.py"
    assert list(repo_paths(line)) == [
        "docs/rules.md",
        "bbom_env/modules/phobias/move.py",
        "bbom_env/engine/play/flow.py",
    ]


def test_files_named_anywhere_exist() -> None:
    """Every repository path named in a doc, docstring, comment, pack or config exists. The
    CHANGELOG is history: it names files as they were when each entry was written."""
    bad = []
    checked = 0
    for path in tracked_files():
        if path.name == "CHANGELOG.md":
            continue
        for lineno, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            for name in repo_paths(line):
                checked += 1
                if not (ROOT / name).exists():
                    bad.append(f"{path.relative_to(ROOT)}:{lineno}: {name}")
    assert checked > 300, f"only {checked} paths found: is the scan broken?"
    assert not bad, f"{len(bad)} file(s) named in the repository do not exist:\n" + "\n".join(bad)


# Files that live outside the repository (the project's private notes): a user cannot open them, so
# nothing may cite them. The rules doc is docs/rules.md, never a bare "RULES.md".
OUTSIDE = re.compile(
    r"(?<![\w/.-])RULES\.md|EXPANSION\.md|KNOWN_CARDS|STYLE\.md|TRAINING_NOTES|RL_ANCHORS"
    r"|\.\./shared\b|\bshared/(?:rules|cards|design)\b"
)
# A markdown file named anywhere is a tracked file, or one a tool writes (its output, not a source).
MD_NAME = re.compile(r"(?<![\w.+/-])([\w.+-]*\w\.md)\b")
WRITTEN_MD = {"evaluation.md", "results.md", "report.md", "again.md"}
# An internal tracker's issue numbers mean nothing to a user ("issue 12", "issues 11 and 12").
ISSUE = re.compile(r"\b[Ii]ssues?\s+#?\d+")
DESIGN_DECISION = re.compile(r"\b[Dd]esign decisions?\s+(\d+(?:\s*(?:,|and|/)\s*\d+)*)")
SELF = Path(__file__).resolve()  # this file names the patterns it forbids


def outside_references(text: str) -> Iterator[tuple[int, str]]:
    """(line number, what it cites) for each reference to a file outside the repository or to an
    internal issue number."""
    tracked = {Path(n).name for n in _tracked_names()}
    for lineno, line in enumerate(text.splitlines(), 1):
        for m in OUTSIDE.finditer(line):
            yield lineno, m.group(0)
        for m in MD_NAME.finditer(line):
            if m.group(1) not in tracked and m.group(1) not in WRITTEN_MD and not OUTSIDE.search(m.group(1)):
                yield lineno, m.group(1)
        for m in ISSUE.finditer(line):
            yield lineno, m.group(0)


def test_nothing_cites_a_file_outside_the_repository_or_an_issue_number() -> None:
    bad = []
    for path in tracked_files():
        if path.resolve() == SELF:
            continue
        for lineno, cited in outside_references(path.read_text(encoding="utf-8", errors="replace")):
            bad.append(f"{path.relative_to(ROOT)}:{lineno}: {cited!r}")
    assert not bad, (
        f"{len(bad)} reference(s) to files outside the repository or to issue numbers "
        "(cite docs/rules.md, docs/design.md, docs/cards.md's sources instead):\n" + "\n".join(bad)
    )


def test_the_outside_scan_catches_each_form() -> None:
    def got(text: str) -> list[str]:
        return [c for _, c in outside_references(text)]

    assert got("RULES.md section 4.2; see docs/rules.md section 4.2") == ["RULES.md"]
    assert got("EXPANSION.md V-19 and KNOWN_CARDS.md 1b") == ["EXPANSION.md", "KNOWN_CARDS"]
    assert "../shared" in got("policy 2 of ../shared/cards/README.md")
    assert got("STYLE.md practice 10, TRAINING_NOTES, RL_ANCHORS section 0.3")[:3] == [
        "STYLE.md",
        "TRAINING_NOTES",
        "RL_ANCHORS",
    ]
    assert got("see PLAN.md") == ["PLAN.md"]
    assert got("docs/vth_element.md and CHANGELOG.md; writes evaluation.md") == []
    assert got("(issue 12) and Issues 11 and 12; issue #8") == ["issue 12", "Issues 11", "issue #8"]
    assert got("`#0` is END; an issue of timing; 12 issues") == []


def design_decisions() -> set[str]:
    return set(re.findall(r'<a id="decision-(\d+)"></a>', (ROOT / "docs" / "design.md").read_text("utf-8")))


def test_every_design_decision_cited_is_on_the_design_page() -> None:
    have = design_decisions()
    assert len(have) >= 8, f"docs/design.md has only the decisions {sorted(have)}"
    bad = []
    found = 0
    for path in tracked_files():
        for lineno, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            for m in DESIGN_DECISION.finditer(line):
                for n in re.findall(r"\d+", m.group(1)):
                    found += 1
                    if n not in have:
                        bad.append(f"{path.relative_to(ROOT)}:{lineno}: design decision {n}")
    assert found > 10, f"only {found} design decisions cited: is the scan broken?"
    assert not bad, "design decisions not on docs/design.md:\n" + "\n".join(bad)


# `module.name` in the docs names engine code (`flow.run_place`, `state.reserve1`): the engine is
# refactored under the docs, so each name is checked to exist.
CODE_REF = re.compile(r"`([A-Za-z_]+)\.([A-Za-z_]\w*)(?:\([^`]*\))?`")


def _engine_has(module: str, name: str) -> bool | None:
    """True / False for a name the engine should have; None for a reference that is not code."""
    import dataclasses
    import importlib

    from bbom_env.engine.core.state import GameState

    if name in ("py", "yaml", "md", "json", "toml"):  # a file name, not code
        return None
    if module == "config":
        from bbom_env.engine.core.config import GameConfig

        return name in GameConfig.known_names() or hasattr(GameConfig, name)
    if module in ("state", "GameState"):
        fields = {f.name for f in dataclasses.fields(GameState)}
        return name in fields or hasattr(GameState, name)
    dotted = _ENGINE_MODULES.get(module)
    if dotted is None or name == "py":
        return None
    return hasattr(importlib.import_module(dotted), name)


def _engine_modules() -> dict[str, str]:
    """Short name -> dotted module of the engine's files (``hooks`` -> bbom_env.engine.modifiers.hooks),
    and the folder-qualified names (``payment.cost``); a short name two folders share is left out."""
    out: dict[str, str] = {}
    shared: set[str] = set()
    engine = ROOT / "bbom_env" / "engine"
    for p in engine.rglob("*.py"):
        if p.name == "__init__.py":
            continue
        rel = p.relative_to(engine).with_suffix("").parts
        dotted = "bbom_env.engine." + ".".join(rel)
        if rel[-1] in out:
            shared.add(rel[-1])
        out[rel[-1]] = dotted
    shared.add("pack")  # `pack.curses`: a Pack, the loaded cards, not the module
    return {k: v for k, v in out.items() if k not in shared}


_ENGINE_MODULES = _engine_modules()


def test_engine_names_in_the_docs_exist() -> None:
    """Every `module.name` in README.md and docs/*.md that names an engine module exists."""
    bad = []
    checked = 0
    # docs/observation.md (and observation.<modules>.md per module set) are left out: their
    # `section.field` names are observation fields (generated from the layout and checked by
    # tests/rl), not engine code.
    docs = [p for p in sorted((ROOT / "docs").glob("*.md")) if not p.name.startswith("observation.")]
    for path in [ROOT / "README.md", *docs]:
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in CODE_REF.finditer(line):
                ok = _engine_has(m.group(1), m.group(2))
                if ok is None:
                    continue
                checked += 1
                if not ok:
                    bad.append(f"{path.relative_to(ROOT)}:{lineno}: {m.group(0)}")
    assert checked > 60, f"only {checked} engine names found: is the scan broken?"
    assert not bad, f"{len(bad)} engine name(s) in the docs do not exist:\n" + "\n".join(bad)


def test_every_engine_file_is_in_the_engine_docs_table() -> None:
    """docs/engine.md's Files table names every module of bbom_env/engine (and only those)."""
    text = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    table = text[text.index("## Files") :].split("\n\n## ")[0]
    named: set[str] = set()
    for line in table.splitlines():
        row = re.match(r"\| `([a-z_]+)/` \|", line)
        folder = row.group(1) + "/" if row else ""
        named.update(folder + f for f in re.findall(r"`([a-z_]+\.py)`", line))
    engine = ROOT / "bbom_env" / "engine"
    files = {p.relative_to(engine).as_posix() for p in engine.rglob("*.py")}
    files -= {f for f in files if f.endswith("/__init__.py")}
    assert not files - named, f"engine files missing from docs/engine.md's table: {sorted(files - named)}"
    assert not named - files, f"docs/engine.md's table names files that do not exist: {sorted(named - files)}"


def test_every_card_source_tag_is_in_the_sources_table() -> None:
    """A card's ``source`` names its sources by tag ("[HJ-FAQ] ruling 11"), and so do the packs'
    notes and comments; docs/cards.md's Sources table (bbom_env.cards.SOURCES) says what each tag is.
    (Lower-case brackets are TOML tables.)"""
    from bbom_env.cards import SOURCES

    known = set(re.findall(r"\[[\w-]+\]", " ".join(SOURCES) + " " + " ".join(SOURCES.values())))
    assert "[VthRB]" in known and "[ZH]" in known
    table = (ROOT / "docs" / "cards.md").read_text(encoding="utf-8")
    assert all(f"| {tag} |" in table for tag in SOURCES), "docs/cards.md's Sources table is stale"
    used: dict[str, str] = {}
    for pack in sorted((ROOT / "bbom_env" / "data").glob("*.toml")):
        for lineno, line in enumerate(pack.read_text(encoding="utf-8").splitlines(), 1):
            for tag in re.findall(r"\[[A-Z][\w-]*\]", line):
                used.setdefault(tag, f"{pack.relative_to(ROOT)}:{lineno}")
    assert len(used) >= 8, f"only {sorted(used)} source tags found: is the scan broken?"
    missing = {tag: where for tag, where in used.items() if tag not in known}
    assert not missing, f"source tags not in docs/cards.md's Sources table: {missing}"
