"""Local mode as a new player meets it: a whole 4-player 1856 game typed at the terminal from
``/game new`` to its end where every reply says who is next and what they do, the pictures
(only what changed, never overwriting earlier files), the settings it reads, and its texts.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.commands.layer import CommandLayer
from bot.storage.store import Store
from bot.terminal.local import LocalSession, local_paths
from tests.fixture_util import load_export
from tests.local_play import lobby, play_export


def _said(printed: list[str]) -> list[str]:
    """The reply's text, without files, buttons and pings."""
    return [ln for ln in printed if not ln.startswith(("[file]", "[button", "@", "(direct message"))]


async def test_a_4_player_1856_game_from_game_new_to_the_end(tmp_path: Path) -> None:
    """89363 (a real 4-player game) typed command by command by four users; after every reply the
    last line names the player who must act next and what they do, or says the game is over."""
    store = await Store.open(str(tmp_path / "local.db"))
    try:
        session = LocalSession(CommandLayer(store, images=False), tmp_path / "images", user="alice")
        start = await lobby(session, "1856", 4, "alternate_destinations")
        assert _said(start)[-1] == "next: alice, buy FT for $20, bid on another private, or pass (/bid, /pass)"
        checked, printed, after, skips = 0, start, None, []
        async for line, printed, after in play_export(session, load_export("1856", "89363")):
            assert not printed[0].startswith("!"), (line, printed)
            skips += [ln for ln in printed if ln.endswith(": step skipped")]
            last = _said(printed)[-1]
            assert last.startswith("next: "), (line, printed)
            if after.finished:
                assert last.startswith("next: nobody, the game is over")
            else:
                for e in after.acting():
                    assert after.name_of(after.controller_of(e) or e) in last, (line, last)
            checked += 1
        # 150 moves; in one step nothing could be done: the bot passed it, nobody typed it
        assert checked == 149 and after is not None and after.finished
        assert skips == ["⏭ LPS has no tile it can lay: step skipped"]
        # the summary, and what a player who acts afterwards is told
        assert any(ln.startswith("🥇 dave: $393") for ln in printed)
        session.user = "bob"
        late = await session.run_line("/pass")
        assert late[0].startswith("! (only bob can see this) The 1856 game in this channel (game 1) is over")
    finally:
        await store.close()


async def test_local_texts_and_moves(tmp_path: Path) -> None:
    store = await Store.open(str(tmp_path / "local.db"))
    try:
        session = LocalSession(CommandLayer(store, images=False), tmp_path / "images", user="you")
        await lobby(session, "1856", 4)
        session.user = "you"
        assert await session.run_line("/pass") == [
            "! (only you can see this) You do not hold a seat in this game.",
            "! next: alice, buy FT for $20, bid on another private, or pass (/bid, /pass)"]
        session.user = "alice"
        moves = await session.run_line("/moves")
        assert moves[0] == "(only alice can see this) **alice**: buy FT for $20, bid on another private, or pass"
        bid = await session.run_line("/moves bid")
        assert "  /bid company:FT  (FT - Flos Tramway, buy for $20)" in bid  # the note only on the first line
        assert (await session.run_line("/tick weeks:1"))[0].startswith("! /tick has no option weeks:")
        assert (await session.run_line("/sell shares:X extra:1"))[0].startswith(
            "! (only alice can see this) /sell has no option extra:")
    finally:
        await store.close()


async def test_a_gzipped_export_is_imported_and_a_bad_one_refused(tmp_path: Path) -> None:
    export = load_export("1856", "hotseat001")
    packed = tmp_path / "game.json.gz"
    packed.write_bytes(gzip.compress(json.dumps(export).encode()))
    bomb = tmp_path / "bomb.json.gz"  # 40 kB that unpack to 40 MB
    bomb.write_bytes(gzip.compress(b" " * 40_000_000))
    broken = tmp_path / "broken.json.gz"
    broken.write_bytes(packed.read_bytes()[:200])
    store = await Store.open(str(tmp_path / "local.db"))
    try:
        session = LocalSession(CommandLayer(store, images=False), tmp_path / "images", user="alice")
        assert await session.run_line(f"/game import file:{bomb}") == [
            "! That file is too large for an 18xx.games export"]
        assert await session.run_line(f"/game import file:{broken}") == [
            "! That gzip file is damaged; attach the 18xx.games export again"]
        imported = await session.run_line(f"/game import file:{packed}")
        assert imported[0].startswith("alice imported a game of 1856"), imported
    finally:
        await store.close()


async def test_pictures_only_when_they_changed_and_numbered_on(tmp_path: Path) -> None:
    """Start: map and market. The auction: no pictures. Each par moves the market; only then is
    the market posted. Files already in the folder are never overwritten."""
    out = tmp_path / "images"
    out.mkdir()
    (out / "0007-map.png").write_bytes(b"an earlier game")
    export = load_export("1856", "89363")
    store = await Store.open(str(tmp_path / "local.db"))
    try:
        session = LocalSession(CommandLayer(store, images=True), out, user="alice")
        start = await lobby(session, "1856", 4)
        assert [ln.split("/")[-1] for ln in start if ln.startswith("[file]")] == ["0008-map.png", "0009-market.png"]
        assert (out / "0007-map.png").read_bytes() == b"an earlier game"
        files: list[str] = []
        async for _, printed, _ in play_export(session, export, limit=22):  # the auction and Stock Round 1
            files += [ln.split("/")[-1] for ln in printed if ln.startswith("[file]")]
        # four pars move the market; the first operating turn shows the map (GW's home token)
        assert [f.split("-", 1)[1] for f in files] == ["market.png"] * 4 + ["map.png"]
        assert files[0] == "0010-market.png"
    finally:
        await store.close()


def test_local_mode_reads_database_path_and_image_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "games.sqlite3"))
    monkeypatch.setenv("IMAGE_DIR", str(tmp_path / "pictures"))
    assert local_paths() == (str(tmp_path / "games.sqlite3"), str(tmp_path / "pictures"))
    assert local_paths("other.db", None) == ("other.db", str(tmp_path / "pictures"))


# ---------------------------------------------------------------------- settings, start-up and the command line
SETTINGS = ("DISCORD_TOKEN", "DATABASE_URL", "DATABASE_PATH", "DATABASE_POOL_SIZE", "IMAGE_DIR", "DEV_GUILD_ID",
            "SHARD_COUNT", "SHARD_IDS", "LOG_LEVEL")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def here(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """An empty current folder and no setting in the environment; the environment is restored
    afterwards (also the variables a .env copied in)."""
    saved = dict(os.environ)
    for name in SETTINGS:
        os.environ.pop(name, None)
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    os.environ.clear()
    os.environ.update(saved)


def _typed(monkeypatch: pytest.MonkeyPatch, text: str, tty: bool = False) -> None:
    stdin = io.StringIO(text)
    stdin.isatty = lambda: tty  # type: ignore[method-assign]
    monkeypatch.setattr(sys, "stdin", stdin)


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def test_env_is_read_from_the_current_folder_only(here: Path) -> None:
    from bot.config import load_settings

    (here / ".env").write_text("DATABASE_PATH=games/here.sqlite3\nIMAGE_DIR=  \nDEV_GUILD_ID=42\n")
    settings = load_settings()
    assert (settings.database_path, settings.image_dir, settings.dev_guild_id) == ("games/here.sqlite3", "images", 42)
    inner = here / "inner"
    inner.mkdir()
    os.chdir(inner)  # the fixture's monkeypatch.chdir goes back; a parent's .env is not read
    os.environ.pop("DATABASE_PATH")
    assert load_settings().database_path == "conductor.sqlite3"


def test_the_environment_wins_over_env_unless_it_is_blank(here: Path) -> None:
    from bot.config import load_settings

    (here / ".env").write_text("DATABASE_PATH=from-env-file.db\nIMAGE_DIR=pics\n")
    os.environ["DATABASE_PATH"] = "exported.db"
    os.environ["IMAGE_DIR"] = " "
    settings = load_settings()
    assert (settings.database_path, settings.image_dir) == ("exported.db", "pics")


@pytest.mark.parametrize(("line", "says"), [
    ("DEV_GUILD_ID=abc", "DEV_GUILD_ID must be a Discord server id (a number"),
    ("DATABASE_POOL_SIZE=ten", "DATABASE_POOL_SIZE must be a whole number of connections, at least 1"),
    ("SHARD_COUNT=x", "SHARD_COUNT must be a whole number of shards"),
    ("SHARD_IDS=a,b", "SHARD_IDS must be shard numbers separated by commas"),
    ("LOG_LEVEL=loud", "LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR"),
])
def test_a_bad_setting_is_one_line_and_exit_2_in_every_mode(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], line: str, says: str
) -> None:
    from bot.cli import main

    _typed(monkeypatch, "/game status\n")
    (here / ".env").write_text(line + "\n")
    for argv, token in ((["local"], None), (["run"], "x.y.z"), (["start"], None), (["start"], "x.y.z")):
        if token:
            os.environ["DISCORD_TOKEN"] = token
        else:
            os.environ.pop("DISCORD_TOKEN", None)
        assert main(argv) == 2
        shown = _one_line(capsys.readouterr().err)
        assert says in shown and repr(line.split("=")[1]) in shown, (argv, shown)
    assert not (here / "conductor.sqlite3").exists()  # nothing was opened


@pytest.mark.parametrize("how", ["not text", "a folder", "unreadable"])
def test_an_env_file_that_cannot_be_read_is_one_line_naming_it(
    here: Path, capsys: pytest.CaptureFixture[str], how: str
) -> None:
    from bot.cli import main

    env = here / ".env"
    if how == "not text":
        env.write_bytes(b"DISCORD_TOKEN=\xff\xfe\x00\x81garbage\n")
    elif how == "a folder":
        env.mkdir()
    elif os.geteuid() != 0:
        env.write_text("DATABASE_PATH=x.db\n")
        env.chmod(0)
    else:  # root reads any file: a file the kernel refuses to read (EIO) stands in
        env.symlink_to("/proc/self/mem")
    for argv in (["start"], ["local"], ["run"]):
        assert main(argv) == 2
        shown = _one_line(capsys.readouterr().err)
        assert str(env) in shown, shown


@pytest.mark.parametrize("value", ['""', " ", "   # no token yet", "''"])
def test_start_plays_at_the_terminal_when_env_has_no_token(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    from bot.cli import main

    (here / ".env").write_text(f"DISCORD_TOKEN={value}\nIMAGE_DIR=pictures\n")
    _typed(monkeypatch, "/game new title:1856\n")
    assert main(["start"]) == 0
    out, err = capsys.readouterr()
    assert "you opened a game of 1856" in out
    assert _one_line(err) == (f"Conductor local mode (no DISCORD_TOKEN in the environment or {here / '.env'}, or "
                              "it is empty: set it there to run the Discord bot): "
                              f"database {here / 'conductor.sqlite3'}, pictures in {here / 'pictures'}")


@pytest.mark.parametrize("where", ["env file", "environment", "environment over a blank export"])
def test_start_runs_the_discord_bot_when_a_token_is_set(
    here: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    import bot.discord.client
    from bot.cli import main
    from bot.config import Settings

    started: list[Settings] = []
    monkeypatch.setattr(bot.discord.client, "run_bot", lambda s: started.append(s) or 0)
    if where == "environment":
        os.environ["DISCORD_TOKEN"] = "tok.en"
    else:
        (here / ".env").write_text("DISCORD_TOKEN=tok.en # the bot's\n")
        if where != "env file":
            os.environ["DISCORD_TOKEN"] = "  "
    assert main(["start"]) == 0
    assert [s.discord_token for s in started] == ["tok.en"]
    assert (here / "conductor.sqlite3").exists()  # the database was checked before connecting


def test_local_names_the_database_and_the_pictures_folder_on_stderr(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.cli import main

    expected = f"Conductor local mode: database {here / 'db' / 'new' / 'g.db'}, pictures in {here / 'pics'}"
    for tty in (False, True):
        _typed(monkeypatch, "/quit\n", tty)
        assert main(["local", "--db", "db/new/g.db", "--out", "pics"]) == 0  # the database's folder is created
        out, err = capsys.readouterr()
        assert _one_line(err) == expected
        assert ("/help for commands" in out) == tty
    assert (here / "pics").is_dir()


def test_a_pictures_folder_that_cannot_be_written_stops_the_start(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.cli import main

    (here / "taken").write_text("a file")
    _typed(monkeypatch, "/game new title:1856\n")
    for argv in (["local", "--out", "taken"], ["local", "--out", "taken/sub"]):
        assert main(argv) == 2
        assert _one_line(capsys.readouterr().err).startswith(f"conductor: Cannot write pictures to {here / 'taken'}")
    (here / ".env").write_text("IMAGE_DIR=taken\n")
    assert main(["start"]) == 2 and "Cannot write pictures" in capsys.readouterr().err
    assert not (here / "conductor.sqlite3").exists()


async def test_a_picture_that_cannot_be_written_is_told_and_play_goes_on(tmp_path: Path) -> None:
    store = await Store.open(str(tmp_path / "local.db"))
    out = tmp_path / "images"
    try:
        session = LocalSession(CommandLayer(store, images=True), out, user="alice")
        out.write_text("the folder was replaced by a file")
        start = await lobby(session, "1856", 4)  # /game start posts the map and the market
        lost = [ln for ln in start if "pictures not written" in ln]
        assert lost == [f"! pictures not written to {out}: map.png (the folder is a file), market.png (the "
                        "folder is a file); play goes on"]
        assert not any(ln.startswith("[file]") for ln in start)
        assert any(ln.startswith("next: alice") for ln in start)  # the reply to the stored start is shown
        row = await store.open_game("local")
        assert row is not None and row.status == "active"
        out.unlink()
        session.user = "alice"
        printed = await session.run_line("/pass")
        assert not printed[0].startswith("!"), printed
    finally:
        await store.close()


def test_help_texts_are_plain_and_name_the_environment(capsys: pytest.CaptureFixture[str]) -> None:
    from bot.cli import main

    def shown(*argv: str) -> str:
        with pytest.raises(SystemExit) as done:
            main([*argv, "--help"])
        assert done.value.code == 0
        return capsys.readouterr().out

    top = shown()
    assert "``" not in top and ":mod:" not in top and "conductor start" in top and ".env" in top
    run = shown("run")
    for name in SETTINGS:
        assert name in run, name
    local = shown("local")
    for name in ("DATABASE_URL", "DATABASE_PATH", "DATABASE_POOL_SIZE", "IMAGE_DIR", "LOG_LEVEL"):
        assert name in local, name
    migrate = shown("migrate")
    assert "Stop the bot first" in migrate and "must be an empty" in migrate and "DATABASE_POOL_SIZE" in migrate
    assert "DISCORD_TOKEN" in shown("start")


def test_readme_sets_up_with_two_commands_and_gitignore_has_the_pictures() -> None:
    from bot.config import DEFAULT_IMAGE_DIR

    readme = (ROOT / "README.md").read_text()
    setup = readme.split("## Set-up on a fresh machine", 1)[1].split("\n## ", 1)[0]
    blocks = [b.split("```", 1)[0].strip() for b in setup.split("```sh\n")[1:]]
    assert blocks == ["python3 -m venv .venv && . .venv/bin/activate && pip install -e . && conductor start",
                      "bash .ci/run"]
    assert f"/{DEFAULT_IMAGE_DIR}/" in (ROOT / ".gitignore").read_text().splitlines()
