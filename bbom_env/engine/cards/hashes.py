"""Content hashes of a game's card pack, recorded in saves and pickles.

Saves and pickles name their pack by path only (``GameConfig.pack`` / ``pack_overrides``), so an
edited pack file would otherwise be used silently by a loaded game. ``pack_sha256`` gives the
sha256 of the bytes of the pack file and of each override file, in that order (one hex digest per
file, so a refusal can name the file that changed; each digest is what ``sha256sum`` prints).

Digests are cached per file and keyed by the file's stat (mtime, size, inode): saving a state
costs a ``stat`` per file, not a read.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from bbom_env.engine.cards.pack import resolve_pack_path

# path -> ((mtime_ns, size, inode), hex digest)
_CACHE: dict[str, tuple[tuple[int, int, int], str]] = {}


def pack_files(pack: str, overrides: tuple[str, ...]) -> list[Path]:
    """The files a pack spec reads, in load order (named packs resolved as ``load_pack`` does)."""
    return [resolve_pack_path(pack)] + [resolve_pack_path(o) for o in overrides]


def file_sha256(path: Path) -> str:
    """Hex sha256 of a file's bytes; OSError (FileNotFoundError ...) when it cannot be read."""
    key = str(path)
    st = os.stat(path)
    sig = (st.st_mtime_ns, st.st_size, st.st_ino)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] == sig:
        return hit[1]
    digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    _CACHE[key] = (sig, digest)
    return digest


def pack_sha256(pack: str, overrides: tuple[str, ...]) -> list[str]:
    """One hex sha256 per pack file (the pack, then each override). Raises OSError when a file
    cannot be read."""
    return [file_sha256(p) for p in pack_files(pack, overrides)]


def pack_mismatch(pack: str, overrides: tuple[str, ...], recorded: list[str]) -> str | None:
    """None when the pack files still hash to ``recorded``; otherwise why not, naming the file and
    both hashes."""
    files = pack_files(pack, overrides)
    if len(recorded) != len(files):
        return (
            f"the save records {len(recorded)} pack hash(es) but its config names {len(files)} pack "
            f"file(s) ({', '.join(map(str, files))})"
        )
    for path, then in zip(files, recorded, strict=True):
        try:
            now = file_sha256(path)
        except OSError as exc:
            return f"card pack file {path} cannot be read: {exc}"
        if now != then:
            return (
                f"card pack file {path} changed since the state was saved: its sha256 is now {now}, "
                f"the save recorded {then}; load the save with the pack it was made with"
            )
    return None
