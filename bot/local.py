"""Local mode: the bot at a terminal. Commands come from stdin, one per line, in the syntax
Discord shows (``/par corporation:B price:70``); replies are printed and images written to a folder.

Local-only commands: ``/as NAME`` switches the user typing, ``/channel NAME`` the channel,
``/quit`` stops. ``/game import file:PATH`` reads a local file.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import TextIO

from .commands import CommandLayer
from .reply import Caller, Reply
from .store import Store
from .textcmd import CommandSyntaxError, parse

PROMPT_HELP = "Type /help for commands, /as NAME to change who is typing, /quit to stop."


class LocalSession:
    """Reads command lines and formats replies as text; the same layer the Discord bot uses."""

    def __init__(self, layer: CommandLayer, out_dir: str | Path, user: str = "you", channel: str = "local"):
        self.layer = layer
        self.out = Path(out_dir)
        self.user = user
        self.channel = channel
        self._image_no = 0

    async def run_line(self, line: str) -> list[str]:
        """Handle one line; returns the printed lines."""
        line = line.strip()
        if not line or line.startswith("#"):
            return []
        if line.split()[0] == "/as":
            name = line[3:].strip()
            if not name:
                return ["! usage: /as NAME"]
            self.user = name
            return [f"(now typing as {name})"]
        if line.split()[0] == "/channel":
            name = line[8:].strip()
            if not name:
                return ["! usage: /channel NAME"]
            self.channel = name
            return [f"(now in channel {name})"]
        try:
            cmd = parse(line)
        except CommandSyntaxError as exc:
            return [f"! {exc}"]
        params = dict(cmd.params)
        if cmd.name == "game import" and "file" in params:
            try:
                params["file"] = Path(params["file"]).expanduser().read_text()
            except OSError as exc:
                return [f"! cannot read {cmd.params['file']}: {exc.strerror}"]
        reply = await self.layer.handle(self.channel, Caller(self.user, self.user), cmd.name, params)
        return self.format(reply)

    def format(self, reply: Reply) -> list[str]:
        if reply.error:
            return [f"! (only {self.user} sees this) " + ln for ln in reply.error.splitlines()]
        prefix = f"(only {self.user} sees this) " if reply.ephemeral else ""
        out = [prefix + ln for ln in reply.lines]
        if reply.ping:
            out.append(f"@{reply.ping} {reply.ping_text}")
        for f in reply.files:
            self.out.mkdir(parents=True, exist_ok=True)
            self._image_no += 1
            path = self.out / f"{self._image_no:04d}-{f.filename}"
            path.write_bytes(f.data)
            out.append(f"[file] {path}")
        for b in reply.buttons:
            out.append(f"[button {b.label}] {b.command}")
        return out


async def _main(db: str, out: str, stdin: TextIO, stdout: TextIO, images: bool = True) -> int:
    store = await Store.open(db)
    try:
        session = LocalSession(CommandLayer(store, images=images), out)
        interactive = stdin.isatty()
        if interactive:
            print(f"Conductor local mode ({db}). {PROMPT_HELP}", file=stdout, flush=True)
        while True:
            if interactive:
                print(f"{session.user}> ", end="", file=stdout, flush=True)
            line = await asyncio.to_thread(stdin.readline)
            if not line:
                break
            if line.strip() in ("/quit", "/exit"):
                break
            if not interactive and line.strip():
                print(f"{session.user}> {line.strip()}", file=stdout, flush=True)
            for text in await session.run_line(line):
                print(text, file=stdout, flush=True)
    finally:
        await store.close()
    return 0


def run_local(db: str, out: str, images: bool = True) -> int:
    """``conductor local``: play at the terminal (interactive or piped input)."""
    try:
        return asyncio.run(_main(db, out, sys.stdin, sys.stdout, images))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(run_local(db=sys.argv[1] if len(sys.argv) > 1 else "conductor-local.sqlite3",
                               out=sys.argv[2] if len(sys.argv) > 2 else "out"))
