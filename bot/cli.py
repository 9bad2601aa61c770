"""The conductor command: the Discord bot, the terminal game, and tools for 18xx.games exports."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.config import Settings

log = logging.getLogger(__name__)

DESCRIPTION = "Conductor runs 18xx games (1856, 1836Jr56, 1833NE) on Discord or at the terminal."
EPILOG = """start here:
  conductor start      the Discord bot when DISCORD_TOKEN is set, else the game at the terminal

Settings come from the environment and from the file .env in the current folder
(see .env.example); a variable set in the environment wins. conductor COMMAND --help
names the ones each command reads."""
DATABASE_ENV = """  DATABASE_URL        a postgresql://user:password@host:port/db URL (wins over DATABASE_PATH)
  DATABASE_PATH       the SQLite file (default conductor.sqlite3; its folder is created)
  DATABASE_POOL_SIZE  PostgreSQL connections per process (default 10)"""
LOCAL_EPILOG = f"""environment (and ./.env):
{DATABASE_ENV}
  IMAGE_DIR           the folder for pictures (default images; created)
  LOG_LEVEL           DEBUG, INFO, WARNING (default here) or ERROR; log lines go to stderr
The other settings of .env are checked too: one that cannot be used stops the start."""
RUN_EPILOG = f"""environment (and ./.env):
  DISCORD_TOKEN       the bot's token (required)
{DATABASE_ENV}
  IMAGE_DIR           with PostgreSQL, the record of the registered commands is kept beside it
  DEV_GUILD_ID        a server id: register the slash commands there only (instantly)
  SHARD_COUNT         all processes' Discord shards; SHARD_IDS: this process's (0,1,...)
  LOG_LEVEL           DEBUG, INFO (default), WARNING or ERROR; log lines go to stderr"""
START_EPILOG = """environment (and ./.env): DISCORD_TOKEN decides (empty or blank: none); then those of
conductor run --help or conductor local --help."""
MIGRATE_EPILOG = """Stop the bot first (every process using the SQLite file). The target must be an empty
database: one that already holds anything is refused, never merged into. Everything is
copied in one transaction and checked (every table compared, every game replayed on both
sides); a failure keeps nothing. Then start the bot with DATABASE_URL set to the target.

environment: DATABASE_POOL_SIZE (PostgreSQL connections, default 10). .env is not read:
--from and --to say everything."""


def _result_ids(export: dict[str, Any], result: dict[str, int]) -> dict[str, int]:
    """Our results keyed by player id as the export writes them (ints stay ints in JSON keys)."""
    return {str(k): v for k, v in result.items()}


def cmd_replay(args: argparse.Namespace) -> int:
    from bot.tools.fidelity import read_export
    from engine.replay import replay

    export = read_export(Path(args.file))
    res = replay(export, trace=bool(args.trace))
    game = res.game
    if args.trace:
        with open(args.trace, "w") as fh:
            for line in res.trace:
                fh.write(json.dumps(line) + "\n")
    result = _result_ids(export, game.result())
    expected = export.get("result")
    matches = None
    if expected is not None:
        matches = {str(k): v for k, v in expected.items()} == result
    summary = {"title": game.title, "actions": res.processed, "finished": game.finished,
               "result": result, "matches_export": matches}
    if args.story:
        from bot.texts.story import export_story

        with open(args.story, "w") as fh:
            for line in export_story(export)[0]:
                fh.write(json.dumps(line) + "\n")
    if res.error:
        print(f"action {res.failed_action_id} rejected: {res.error}")
    print(json.dumps(summary))
    return 1 if res.error else 0


def cmd_fidelity(args: argparse.Namespace) -> int:
    from bot.tools.fidelity import run_fidelity

    return run_fidelity(args.dirs, jobs=args.jobs)


def cmd_selfplay(args: argparse.Namespace) -> int:
    from bot.choices import title_options
    from bot.handlers.rules import plain_options
    from bot.tools.selfplay import run_seated, run_selfplay
    from engine.selfplay import SEAT_POLICIES

    known = [c.value for c in title_options(args.title)]
    unknown = [o for o in plain_options(args.option or []) if o not in known]
    if unknown:  # (a misspelt option was played as the base game without a word)
        print(f"{args.title} has no option {unknown[0]}; its options: {', '.join(known) or 'none'}", file=sys.stderr)
        return 2
    if args.seats:
        seats = [s.strip().lower() for s in args.seats.split(",") if s.strip()]
        unknown = [s for s in seats if s not in SEAT_POLICIES]
        if unknown or not seats:
            print(f"--seats takes {' or '.join(SEAT_POLICIES)} for each seat, not {', '.join(unknown) or 'nothing'}",
                  file=sys.stderr)
            return 2
        count = args.players if args.players > 0 else len(seats)
        seats = (seats + [seats[-1]] * count)[:max(count, 1)]  # the last policy fills the other seats
        return run_seated(args.title, seats, args.games, args.seed, args.option or [],
                          max_actions=args.max_actions, export_dir=args.export)
    return run_selfplay(args.title, args.players, args.games, args.seed, args.option or [],
                        max_actions=args.max_actions, verbose=args.verbose, export_dir=args.export)


def _settings() -> Settings | None:
    """The settings, or None after one line on stderr naming the one that cannot be used."""
    from bot.config import SettingsError, load_settings

    try:
        return load_settings()
    except SettingsError as exc:
        print(f"conductor: {exc}", file=sys.stderr)
        return None


def cmd_run(args: argparse.Namespace) -> int:
    from bot.config import setup_logging

    settings = _settings()
    if settings is None:
        return 2
    if not settings.discord_token:
        print("No DISCORD_TOKEN is set. Copy .env.example to .env and put your bot token there "
              "to run the Discord bot, or play at the terminal with: conductor local", file=sys.stderr)
        return 2
    setup_logging(logging.INFO)
    import asyncio  # not at the top: replaying an export does not need it

    from bot.storage.store import StoreError, check_database, location

    try:  # a database that cannot be used stops the bot before it connects to Discord
        asyncio.run(check_database(settings.database_path))
    except StoreError as exc:
        print(f"conductor: {exc}", file=sys.stderr)
        return 2
    log.info("starting the Discord bot; database %s", location(settings.database_path))
    from bot.discord.client import run_bot

    return run_bot(settings)


def cmd_migrate(args: argparse.Namespace) -> int:
    import asyncio

    from bot.storage.migrate import MigrateError, run_migrate

    try:
        print(asyncio.run(run_migrate(args.source, args.target)))
    except MigrateError as exc:
        print(f"conductor migrate: {exc}", file=sys.stderr)
        return 2
    return 0


def cmd_local(args: argparse.Namespace) -> int:
    from bot.terminal.local import run_local

    return run_local(db=args.db, out=args.out)


def cmd_start(args: argparse.Namespace) -> int:
    """The Discord bot when a token is set (environment or ./.env), else the terminal game."""
    from bot.terminal.local import run_local

    settings = _settings()
    if settings is None:
        return 2
    if settings.discord_token:
        return cmd_run(args)
    env = os.path.join(os.getcwd(), ".env")
    return run_local(why=f"no DISCORD_TOKEN in the environment or {env}, or it is empty: set it there to run the "
                         "Discord bot")


def cmd_render(args: argparse.Namespace) -> int:
    from bot.tools.fidelity import read_export
    from engine.replay import replay

    export = read_export(Path(args.file))
    res = replay(export, upto=args.at)
    if res.error:
        print(f"action {res.failed_action_id} rejected: {res.error}", file=sys.stderr)
    from render.map.image import render_map
    from render.market_image import render_market
    from render.status_image import render_status

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "map.png").write_bytes(render_map(res.game))
    (out / "market.png").write_bytes(render_market(res.game))
    (out / "status.png").write_bytes(render_status(res.game))
    print(f"wrote {out / 'map.png'}, {out / 'market.png'}, {out / 'status.png'}")
    return 0


def cmd_routes(args: argparse.Namespace) -> int:
    from bot.tools.routes import main_routes

    return main_routes(args.file)


def build_parser() -> argparse.ArgumentParser:
    raw = argparse.RawDescriptionHelpFormatter
    p = argparse.ArgumentParser(prog="conductor", description=DESCRIPTION, epilog=EPILOG, formatter_class=raw)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    st = sub.add_parser("start", help="the Discord bot when DISCORD_TOKEN is set, else the game at the terminal",
                        description="Run the Discord bot when DISCORD_TOKEN is set (in the environment or ./.env),\n"
                                    "else play at the terminal (conductor local).",
                        epilog=START_EPILOG, formatter_class=raw)
    st.set_defaults(func=cmd_start)

    r = sub.add_parser("replay", help="replay an 18xx.games export")
    r.add_argument("file")
    r.add_argument("--trace", help="write our state after each action (JSON lines)")
    r.add_argument("--story", help="write what the bot tells after each action: {id, lines} (JSON lines)")
    r.set_defaults(func=cmd_replay)

    fid = sub.add_parser("fidelity", help="replay exports against their reference traces (18xx.games)")
    fid.add_argument("dirs", nargs="+", help="folders (or files) of exports with NAME.trace.jsonl[.gz] beside them")
    fid.add_argument("--jobs", type=int, default=2)
    fid.set_defaults(func=cmd_fidelity)

    s = sub.add_parser("selfplay", help="random legal games with invariant checks")
    from engine.titles.registry import title_names

    s.add_argument("--title", default=title_names()[0], help=f"one of {', '.join(title_names())}")
    s.add_argument("--players", type=int, default=4)
    s.add_argument("--games", type=int, default=20)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--option", action="append")
    s.add_argument("--max-actions", type=int, default=20000)
    s.add_argument("--verbose", action="store_true")
    s.add_argument("--export", metavar="DIR", help="write each game as an 18xx.games export into DIR")
    s.add_argument("--seats", help="each seat's player: robot (the computer player) or random, comma-separated "
                                   "(the last fills the remaining seats); prints win rates and mean values")
    s.set_defaults(func=cmd_selfplay)

    loc = sub.add_parser("local", help="play at the terminal (no Discord needed)",
                         description="Play at the terminal: commands typed (or piped) one a line, replies printed,\n"
                                     "pictures written to a folder. Type /help to begin.",
                         epilog=LOCAL_EPILOG, formatter_class=raw)
    loc.add_argument("--db", help="SQLite file or postgresql:// URL (default: DATABASE_URL, else DATABASE_PATH, "
                     "else conductor.sqlite3)")
    loc.add_argument("--out", help="folder for pictures (default: IMAGE_DIR, else images)")
    loc.set_defaults(func=cmd_local)

    run = sub.add_parser("run", help="the Discord bot (needs DISCORD_TOKEN)",
                         description="Run the Discord bot until it is stopped (Ctrl-C or SIGTERM).",
                         epilog=RUN_EPILOG, formatter_class=raw)
    run.set_defaults(func=cmd_run)

    mig = sub.add_parser("migrate", help="copy a SQLite database into an empty PostgreSQL one, and check it",
                         description="Copy the bot's SQLite database into an empty PostgreSQL database.",
                         epilog=MIGRATE_EPILOG, formatter_class=raw)
    mig.add_argument("--from", dest="source", required=True, metavar="SQLITE_PATH",
                     help="the bot's SQLite file (DATABASE_PATH)")
    mig.add_argument("--to", dest="target", required=True, metavar="postgresql://user:password@host:port/db",
                     help="an empty PostgreSQL database")
    mig.set_defaults(func=cmd_migrate)

    rt = sub.add_parser("routes", help="best routes before each run of an export, compared with the recorded runs")
    rt.add_argument("file")
    rt.set_defaults(func=cmd_routes)

    ren = sub.add_parser("render", help="replay an export and write map/market/status PNGs")
    ren.add_argument("file")
    ren.add_argument("--out", required=True)
    ren.add_argument("--at", type=int, help="stop after this action id")
    ren.set_defaults(func=cmd_render)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    return int(args.func(args) or 0)


if __name__ == "__main__":
    raise SystemExit(main())
