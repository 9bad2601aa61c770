"""Local mode: the bot at a terminal. Commands come from stdin, one per line, in the syntax
Discord shows (``/par corporation:B price:70``); replies are printed and images written to a folder.

Local-only commands: ``/as NAME`` switches the user typing, ``/channel NAME`` the channel,
``/tick [minutes:N] [hours:N] [days:N]`` moves the bot's clock forward and delivers the
reminders then due (the Discord bot checks once a minute by itself), ``/quit`` stops.
``/game import file:PATH`` reads a local file. Every channel belongs to one server, "local".
There is no autocomplete at a terminal: ``/moves`` lists what you can do, as commands to type.

Pictures are written to the image folder as ``0001-map.png``, ``0002-market.png``, ...; the
numbering continues after the files already there, so nothing is overwritten. The database and
the image folder come from ``DATABASE_URL`` / ``DATABASE_PATH`` and ``IMAGE_DIR`` (``.env``) unless
given; both are named on stderr at the start. A folder that cannot be written stops the start
(exit status 2); a picture that cannot be written later is told in one line and play goes on.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sys
import tempfile
from datetime import datetime, timedelta
from pathlib import Path
from typing import TextIO

from ..collector import tune_collector
from ..commands.layer import CommandLayer
from ..gamelog import export_text
from ..reminders import Reminder, Scheduler, utc_now
from ..reply import Caller, Reply, UserError
from ..storage.store import Store, StoreError, location
from .textcmd import CommandSyntaxError, parse

PROMPT_HELP = (
    "Type /help for commands, /moves for what you can do now, /as NAME to change who is typing, "
    "/tick hours:N to let time pass, /quit to stop."
)
TICK_OPTIONS = ("minutes", "hours", "days")
_NUMBERED = re.compile(r"^(\d+)-")
LOCAL_SERVER = "local"


class LocalClock:
    """The real time plus an offset that ``/tick`` moves forward."""

    def __init__(self, start: datetime | None = None):
        self.base = start
        self.offset = timedelta(0)

    def __call__(self) -> datetime:
        return (self.base or utc_now()) + self.offset

    def advance(self, delta: timedelta) -> None:
        self.offset += delta


class LocalSession:
    """Reads command lines and formats replies as text; the same layer the Discord bot uses."""

    def __init__(
        self,
        layer: CommandLayer,
        out_dir: str | Path,
        user: str = "you",
        channel: str = "local",
        clock: LocalClock | None = None,
    ):
        self.layer = layer
        self.out = Path(out_dir)
        self.user = user
        self.channel = channel
        self._image_no: int | None = None  # the last number used; read from the folder at first
        self.clock = clock
        self.scheduler = Scheduler(layer)

    async def tick(self, params: dict[str, str]) -> list[str]:
        """``/tick``: let time pass (when the layer runs on a :class:`LocalClock`), then deliver."""
        from engine.moves.spec import number

        unknown = [k for k in params if k not in TICK_OPTIONS]
        if unknown:
            return [f"! /tick has no option {unknown[0]}: (its options: minutes:, hours:, days:)"]
        try:
            delta = timedelta(
                minutes=number(params, "minutes", default=0),
                hours=number(params, "hours", default=0),
                days=number(params, "days", default=0, hi=3650),
            )
        except UserError as exc:
            return [f"! {exc}"]
        out = []
        if delta and self.clock is not None:
            self.clock.advance(delta)
            out.append(f"(the clock moves on to {self.clock():%Y-%m-%d %H:%M} UTC)")
        return out + [self.format_reminder(r) for r in await self.scheduler.tick()]

    @staticmethod
    def format_reminder(r: Reminder) -> str:
        if r.dm:
            return f"(direct message to {r.user_id}) {r.text} [channel {r.channel_id}]"
        return f"[{r.channel_id}] @{r.user_id} {r.text}"

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
        if cmd.name == "tick":
            return await self.tick(params)
        if cmd.name == "game import" and "file" in params:
            try:
                params["file"] = export_text(Path(params["file"]).expanduser().read_bytes())
            except OSError as exc:
                return [f"! cannot read {cmd.params['file']}: {exc.strerror}"]
            except UserError as exc:
                return [f"! {exc}"]
        caller = Caller(self.user, self.user, guild=LOCAL_SERVER)
        reply = await self.layer.handle(self.channel, caller, cmd.name, params)
        if cmd.name == "help" and not params and reply.ok:
            reply.lines.append(TERMINAL_HELP)
        return self.format(reply)

    def next_image_path(self, filename: str) -> Path:
        """A new numbered file in the image folder, after any numbered files already there."""
        self.out.mkdir(parents=True, exist_ok=True)
        if self._image_no is None:
            found = (_NUMBERED.match(p.name) for p in self.out.iterdir())
            self._image_no = max((int(m.group(1)) for m in found if m), default=0)
        self._image_no += 1
        return self.out / f"{self._image_no:04d}-{filename}"

    def format(self, reply: Reply) -> list[str]:
        only = f"(only {self.user} can see this) "
        if reply.error:  # the note once, on the first line
            return [("! " + only if i == 0 else "! ") + ln for i, ln in enumerate(reply.error.splitlines())]
        out = [(only if reply.ephemeral and i == 0 else "") + ln for i, ln in enumerate(reply.lines)]
        if reply.ping:
            out.append(f"@{reply.ping} {reply.ping_text}")
        out += [f"@{uid} {text}" for uid, text in reply.heads_up]
        if reply.dm:
            out.append(f"(direct message to {reply.dm}) {reply.ping_text}")
        lost: list[str] = []
        for f in reply.files:
            try:
                path = self.next_image_path(f.filename)
                path.write_bytes(f.data)
            except OSError as exc:  # a full disk, a folder removed or made read-only meanwhile
                lost.append(f"{f.filename} ({_why(exc)})")
                continue
            out.append(f"[file] {path}")
        if lost:
            out.append(f"! pictures not written to {self.out.resolve()}: {', '.join(lost)}; play goes on")
        for b in reply.buttons:
            out.append(f"[button {b.label}] {b.command}")
        return out


TERMINAL_HELP = (
    "**Terminal**: /moves [command] (what you can do now, as commands to type) · /as NAME (type as "
    "another user) · /channel NAME (another channel, another game) · /tick minutes:N hours:N days:N "
    "(let time pass, deliver reminders) · /quit"
)


async def _main(db: str, out: str, stdin: TextIO, stdout: TextIO, images: bool = True, why: str = "") -> int:
    store = await Store.open(db)
    try:
        clock = LocalClock()
        session = LocalSession(CommandLayer(store, images=images, clock=clock), out, clock=clock)
        interactive = stdin.isatty()
        print(start_line(db, out, why), file=sys.stderr, flush=True)
        if interactive:
            print(PROMPT_HELP, file=stdout, flush=True)
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


def start_line(db: str, out: str | Path, why: str = "") -> str:
    """The first line on stderr: where the games and the pictures go (and ``why`` local mode)."""
    mode = f"Conductor local mode ({why})" if why else "Conductor local mode"
    return f"{mode}: database {location(db)}, pictures in {Path(out).resolve()}"


def local_paths(db: str | None = None, out: str | None = None) -> tuple[str, str]:
    """The database file and image folder: as given, else ``DATABASE_URL`` / ``DATABASE_PATH`` and
    ``IMAGE_DIR`` from the environment or ``.env`` (read, and every setting checked, either way:
    :class:`bot.config.SettingsError`)."""
    from ..config import load_settings

    settings = load_settings()
    return db or settings.database_path, out or settings.image_dir


def folder_problem(out: str | Path) -> str | None:
    """Why pictures cannot be written to the folder ``out`` (created when missing), or None."""
    folder = Path(out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder, prefix=".conductor-probe-"):
            pass
    except OSError as exc:
        return (f"Cannot write pictures to {folder.resolve()}: {_why(exc)}. Point IMAGE_DIR (in .env) or --out "
                "to a folder that may be written.")
    return None


def _why(exc: OSError) -> str:
    if isinstance(exc, FileExistsError | NotADirectoryError):
        return "the folder is a file"
    return exc.strerror or str(exc)


def run_local(db: str | None = None, out: str | None = None, images: bool = True, why: str = "") -> int:
    """``conductor local``: play at the terminal (interactive or piped input). A setting, a
    database or a picture folder that cannot be used stops it at once with the reason in one
    line and exit status 2."""
    from ..config import SettingsError, setup_logging

    try:
        db, out = local_paths(db, out)
        setup_logging(logging.WARNING)
    except SettingsError as exc:
        print(f"conductor: {exc}", file=sys.stderr)
        return 2
    problem = folder_problem(out) if images else None
    if problem:
        print(f"conductor: {problem}", file=sys.stderr)
        return 2
    tune_collector()
    try:
        return asyncio.run(_main(db, out, sys.stdin, sys.stdout, images, why))
    except StoreError as exc:
        print(f"conductor: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(
        run_local(
            db=sys.argv[1] if len(sys.argv) > 1 else None, out=sys.argv[2] if len(sys.argv) > 2 else None
        )
    )
