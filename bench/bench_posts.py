"""Pictures a channel receives: a real 4-player 1856 game (tests/fixtures/1856/89363.json, 150
actions) typed in local mode from /game new to its end, with pictures on.

    python -m bench.bench_posts

Prints the files posted, files per 100 actions, their size, and how many replies posted any.
Target (issue 14): map only when the board changed, market only when prices moved, at most
one post per turn; before that change the game posted 142 files (95 per 100 actions, 9.0 MB).
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.commands.layer import CommandLayer  # noqa: E402
from bot.storage.store import Store  # noqa: E402
from bot.terminal.local import LocalSession  # noqa: E402
from tests.fixture_util import load_export  # noqa: E402
from tests.local_play import lobby, play_export  # noqa: E402


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(str(Path(tmp) / "bench.db"))
        try:
            session = LocalSession(CommandLayer(store, images=True), Path(tmp) / "images", user="alice")
            printed = [await lobby(session, "1856", 4, "alternate_destinations")]
            async for _, out, _ in play_export(session, load_export("1856", "89363")):
                printed.append(out)
            actions = len(printed) - 1
            files = [ln.split(" ", 1)[1] for out in printed for ln in out if ln.startswith("[file]")]
            size = sum(Path(f).stat().st_size for f in files)
            posting = sum(any(ln.startswith("[file]") for ln in out) for out in printed)
            kinds: dict[str, int] = {}
            for f in files:
                kind = Path(f).name.split("-", 1)[1]
                kinds[kind] = kinds.get(kind, 0) + 1
            print(f"{actions} actions: {len(files)} files ({100 * len(files) / actions:.0f} per 100 actions), "
                  f"{size / 1e6:.1f} MB, posted with {posting} of {len(printed)} replies; {kinds}")
        finally:
            await store.close()


if __name__ == "__main__":
    asyncio.run(main())
