"""The one command table: every text and slash command, its handler, its options and help.

:data:`COMMANDS` maps a command's name (``"game new"``, ``"lay"``) to a :class:`Command`: the
handler the command layer dispatches to (``await handler(service, channel_id, caller, params)``),
its :class:`~bot.commands.usage.Usage` (options, a line of help, an example; ``/help NAME`` and the
option check read it), whether it runs without the channel's lock (no channel game involved) and
whether Discord defers it privately. Game actions (``/par``, ``/lay``, ...) are built from
:data:`engine.moves.MOVES`, whose entries say how each action is made; their handler is
:meth:`bot.service.GameService.act`. ``/help`` lists the commands by :data:`HELP_LAYOUT`.

An option a command does not have is refused (not silently ignored). Options set by buttons or
by the Discord adapter (``state``, ``vote``, ``confirm``, ``user_name``) are accepted but not shown.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from engine.game import Game
from engine.titles.registry import title_names

from ..acting import resolve_entity, waiting_for
from ..choices import title_options
from ..handlers import access, lifecycle, offers, records, repair, seating, turn_end, undo
from ..handlers import remind as remind_cmds
from ..handlers import rules as rules_cmds
from ..handlers.moves import command_moves, fit, moves
from ..play import ENTITY_OPTION, MOVES, Move, for_title, help_summary, option_text, title_example
from ..reply import Caller, Reply, UserError
from ..texts.game import you_can
from .usage import ALWAYS, Usage, help_lines

if TYPE_CHECKING:
    from ..service import GameService

Handler = Callable[["GameService", str, Caller, dict[str, str]], Awaitable[Reply]]


@dataclass(frozen=True)
class Command:
    name: str
    handler: Handler
    usage: Usage | None = None  # None: not explained by /help NAME and its options not checked
    overview: str = ""  # how /help lists it ("" : /NAME)
    unlocked: bool = False  # no channel game involved: not serialized per channel
    private: bool = False  # answered privately: Discord defers it ephemerally
    action: bool = False  # a game action (a refusal adds who is next)

    @property
    def listed(self) -> str:
        return self.overview or f"/{self.name}"


# ---------------------------------------------------------------------- /help
async def help_command(
    service: GameService, channel_id: str, caller: Caller, params: dict[str, str]
) -> Reply:
    """``/help``: the commands, by :data:`HELP_LAYOUT`, and what the caller can do now;
    ``/help NAME``: one command (:func:`command_help`)."""
    if params.get("command"):
        return await command_help(service, channel_id, caller, params["command"])
    row = await service.store.open_game(channel_id)
    if (params.get("topic") or "").strip():
        game = (await service.load(row)).game if row and row.status == "active" else None
        return Reply(lines=topic_help(params["topic"], game), ephemeral=True)
    lines = []
    if row and row.status == "active":
        cached = await service.load(row)
        seats = await service.store.seats(row.id)
        lines.append("Now " + waiting_for(cached.game) + ".")
        lines += you_can(cached.game, seats, caller)
    lines.append("**Help by topic** (/help topic:NAME lists a topic, /help command:NAME explains one):")
    for section, names in HELP_LAYOUT:
        shown = ", ".join(f"/{n}" for n in names[:HELP_PREVIEW])
        more = f" and {len(names) - HELP_PREVIEW} more" if len(names) > HELP_PREVIEW else ""
        lines.append(f"**{section}**: {shown}{more}")
    return Reply(lines=lines, ephemeral=True)


HELP_PREVIEW = 4  # commands named per topic in the /help overview


def topic_help(topic: str, game: Game | None = None) -> list[str]:
    """``/help topic:NAME``: the topic's commands, one a line, each with what it does (when a
    game is running, its actions in the words of its title, those of other titles only left out)."""
    key = topic.strip().lower()
    section = next((s for s in HELP_LAYOUT if s[0].lower() == key), None) \
        or next((s for s in HELP_LAYOUT if key and any(w.startswith(key) for w in s[0].lower().split())), None)
    if section is None:
        raise UserError(f"There is no help topic {topic!r}; topics: " + ", ".join(s for s, _ in HELP_LAYOUT))
    out = [f"**{section[0]}**"]
    for name in section[1]:
        usage = COMMANDS[name].usage
        move = MOVES.get(name)
        if usage is None:
            out.append(COMMANDS[name].listed)
        elif game is None or move is None:
            out.append(f"/{name}: {usage.summary}")
        elif for_title(game, move.help) is not None and in_title(game, move):  # not other titles' only
            out.append(f"/{name}: {help_summary(game, move)}")
    return out


def in_title(game: Game, move: Move) -> bool:
    """Whether ``game``'s title has ``move`` at all, where its help's tags cannot say (1836Jr56
    plays as "1856": it has neither 1856's rights nor 1833NE's issues and takeovers; 1833NE has
    no loans and no national)."""
    if move.action_type in ("take_loan", "payoff_loan"):
        return game.HAS_LOANS
    if move.action_type in ("remove_token", "borrow_train"):
        return game.rules.national is not None
    if move.action_type == "special_buy":
        return bool(game.special_buy_names())
    if move.command in ("issue", "redeem"):
        return any(game.issue_choices(corp) is not None for corp in game.corporations.values())
    if move.action_type == "accept_takeover":
        return for_title(game, MOVES["takeover"].help) is not None
    return True


async def command_help(service: GameService, channel_id: str, caller: Caller, name: str) -> Reply:
    """``/help NAME``: the command's options and an example; for a game action, what the caller
    can choose now; for a group of commands (``/help game``), each of them in a line."""
    group = group_commands(name)
    if group:
        return Reply(lines=[f"/{u.name}: {u.summary}" for u in group]
                     + [f"/help command:{group[0].name} explains one of them"], ephemeral=True)
    usage = find_usage(name)
    lines = help_lines(usage)
    if usage.name == "game new":  # each title's optional rules, to name in options:
        for title in title_names():
            rules = ", ".join(f"{c.value}" for c in title_options(title))
            lines.append(f"{title} options: {rules or 'none'}")
    cmd = MOVES.get(usage.name)
    row = await service.store.open_game(channel_id)
    if cmd is not None and row is not None and row.status == "active":
        cached = await service.load(row)
        game = cached.game
        seats = await service.store.seats(row.id)
        pids = {s.player_id for s in seats if s.user_id == caller.id and s.player_id and not s.conceded}
        entity: str | None = None
        try:
            entity = resolve_entity(game, cmd, pids, None)
        except UserError as exc:
            now = [f"Now: {exc}"]
        else:
            now = fit(command_moves(game, entity, cmd, {}, seats))
        lines = help_lines(_in_game_words(game, cmd, usage, entity)) + now
    return Reply(lines=lines, ephemeral=True)


def _in_game_words(game: Game, move: Move, usage: Usage, entity: str | None) -> Usage:
    """A game action's usage as ``game``'s title has it: its help and options in the title's
    words (an option for other titles only is left out: 1856 has no home: for /par), the
    example in its names."""
    options = []
    for name, what in usage.options:
        option = move.option(name)
        text = option_text(game, move, option, entity) if option is not None else what
        if text is not None:
            options.append((name, text))
    return replace(usage, summary=help_summary(game, move, entity), options=tuple(options),
                   example=title_example(game, move))


# ---------------------------------------------------------------------- the table
_SEAT = ("seat", "a seat name")
HELP_TOPICS = ("Game", "Absent players", "Records", "Actions", "More")  # the sections of HELP_LAYOUT


def _game_commands() -> tuple[Command, ...]:
    return (
        Command(
            "help",
            help_command,
            Usage(
                "help",
                "the commands by topic; /help NAME explains one",
                (("command", "a command name"), ("topic", "a help topic: " + ", ".join(HELP_TOPICS))),
                example="/help lay",
            ),
            overview="/help NAME explains one command (/help lay)",
            private=True,
        ),
        Command(
            "moves",
            moves,
            Usage(
                "moves",
                "what you can do now, with the exact commands: /moves, /moves lay hex:F17, /moves token",
                (("command", "a game action, then its options so far"),),
                example="/moves lay hex:F17",
            ),
            overview="/moves lists what you can do now, as commands to type (/moves lay hex:F17)",
        ),
        Command(
            "game new",
            lifecycle.game_new,
            Usage(
                "game new",
                "open a game in this channel",
                (
                    ("title", "1856, 1836Jr56 or 1833NE"),
                    ("options", "optional rules, separated by spaces"),
                    ("bonuses", "1833NE: values from your rulebook"),
                    ("robots", "how many seats the computer player takes"),
                ),
                ("title",),
                "/game new title:1856 options:alternate_destinations",
            ),
            overview="/game new title:" + "|".join(title_names()),
        ),
        Command(
            "game rules",
            rules_cmds.game_rules,
            Usage(
                "game rules",
                "1833NE's provisional values; the host sets them (once the game is under way, "
                "with every player's agreement)",
                (("bonuses", "e.g. Boston-Portland=50/50/80/80/0 ferry=20"),),
                example="/game rules",
                hidden=("vote",),
            ),
            overview="/game rules [bonuses:] (1833NE's provisional values)",
        ),
        Command(
            "game join",
            lifecycle.game_join,
            Usage(
                "game join",
                "take a seat (name: takes another seat yourself)",
                (("name", "a seat name"),),
                example="/game join",
            ),
        ),
        Command(
            "game leave",
            lifecycle.game_leave,
            Usage("game leave", "leave before the game starts", (_SEAT,), example="/game leave"),
        ),
        Command(
            "game start",
            lifecycle.game_start,
            Usage(
                "game start",
                "start the game (host)",
                (("order", "random or joined"),),
                example="/game start order:random",
            ),
            overview="/game start [order:random|joined]",
        ),
        Command(
            "game status",
            lifecycle.game_status,
            Usage(
                "game status",
                "who must act and what you can do, with the pictures (only you see it)",
                example="/game status",
            ),
            private=True,
        ),
        Command(
            "game undo",
            undo.game_undo,
            Usage(
                "game undo",
                "undo the last action (the table agrees unless it was yours in your turn)",
                example="/game undo",
                hidden=("vote",),
            ),
        ),
        Command(
            "game offer",
            offers.game_offer,
            Usage(
                "game offer",
                "answer the offer for your private or your corporation's train (the buyer: vote:no withdraws it)",
                (("vote", "yes: accept, no: refuse"),),
                example="/game offer vote:yes",
                hidden=("state", "offer"),
            ),
        ),
        Command(
            "game export",
            lifecycle.game_export,
            Usage("game export", "the game as an 18xx.games export", example="/game export"),
        ),
        Command(
            "game import",
            lifecycle.game_import,
            Usage(
                "game import",
                "load an 18xx.games export; players then claim seats",
                (("file", "the export"),),
                ("file",),
                "/game import file:game.json",
            ),
            overview="/game import file:",
        ),
        Command(
            "game claim",
            lifecycle.game_claim,
            Usage(
                "game claim",
                "take a free seat of an imported game",
                (_SEAT,),
                ("seat",),
                '/game claim seat:"Player 1"',
            ),
            overview="/game claim seat:",
        ),
        Command(
            "game seat",
            lifecycle.game_seat,
            Usage(
                "game seat",
                "hand a seat to another user",
                (_SEAT, ("user", "who takes it")),
                ("seat", "user"),
                '/game seat seat:"Player 1" user:@bob',
                hidden=("user_name",),
            ),
            overview="/game seat seat: user:",
        ),
        Command(
            "game settings",
            remind_cmds.game_settings,
            Usage(
                "game settings",
                "reminder settings (the host changes them)",
                (
                    ("remind_hours", "hours before the first reminder"),
                    ("repeat_hours", "hours between reminders"),
                    ("reminders", "how many reminders"),
                    ("idle_days", "days before the host hears of it"),
                    ("sub_days", "days of silence before a vote may hand the seat over"),
                ),
                example="/game settings remind_hours:12",
            ),
            overview="/game settings [remind_hours:] [repeat_hours:] [reminders:] [idle_days:] [sub_days:]",
        ),
        Command(
            "game notify",
            remind_cmds.game_notify,
            Usage(
                "game notify",
                "your reminders: time zone, quiet hours, direct messages",
                (
                    ("tz", "a time zone like Europe/Berlin"),
                    ("quiet", "quiet hours like 22-7, or off"),
                    ("dm", "yes or no"),
                ),
                example="/game notify tz:Europe/Berlin quiet:22-7",
            ),
            overview="/game notify [tz:] [quiet:22-7] [dm:yes]",
            unlocked=True,
            private=True,
        ),
        Command(
            "game remind",
            remind_cmds.game_remind,
            Usage("game remind", "remind the acting player (at most once an hour)", example="/game remind"),
        ),
        Command(
            "game sub",
            seating.game_sub,
            Usage(
                "game sub",
                "hand a seat to a substitute",
                (("user", "the substitute"), _SEAT),
                ("user",),
                "/game sub user:@carol",
                hidden=("user_name", "vote"),
            ),
            overview="/game sub user: [seat:] [vote:]",
        ),
        Command(
            "game robot",
            seating.game_robot,
            Usage(
                "game robot",
                "hand a seat to the computer player (holder, host, or a vote)",
                (_SEAT,),
                example='/game robot seat:"Player 2"',
                hidden=("vote",),
            ),
            overview="/game robot seat: [vote:]",
        ),
        Command(
            "game concede",
            seating.game_concede,
            Usage(
                "game concede",
                "leave the game: the seat then moves automatically",
                (_SEAT,),
                example="/game concede",
                hidden=("confirm",),
            ),
        ),
        Command(
            "game history",
            records.game_history,
            Usage("game history", "this server's finished games", example="/game history"),
            unlocked=True,
            private=True,
        ),
        Command(
            "game end",
            lifecycle.game_end,
            Usage("game end", "end the game (host or server admin)", example="/game end", hidden=("confirm",)),
        ),
        Command(
            "games",
            records.games,
            Usage("games", "this server's running games", example="/games"),
            unlocked=True,
            private=True,
        ),
        Command(
            "stats",
            records.stats,
            Usage(
                "stats",
                "games played, wins and average placing",
                (("user", "whose"),),
                example="/stats",
                hidden=("user_name",),
            ),
            overview="/stats [user:]",
            unlocked=True,
            private=True,
        ),
        Command(
            "game repair",
            repair.game_repair,
            Usage(
                "game repair",
                "cut a log that no longer replays back to its last good action (host; asks first)",
                example="/game repair",
                hidden=("confirm",),
            ),
        ),
        Command(
            "creators",
            access.creators,
            Usage(
                "creators",
                "who may open games on this server; a server admin sets a role, or everyone",
                (("role", "the role whose members may open games, or everyone"),),
                example="/creators role:everyone",
                hidden=("role_name",),
            ),
            unlocked=True,
        ),
        Command(
            "done",
            turn_end.done,
            Usage(
                "done",
                "end your turn: pass every step you may pass, up to the next decision",
                (ENTITY_OPTION,),
                example="/done",
            ),
            action=True,
        ),
    )


def _action_handler(name: str) -> Handler:
    async def handler(service: GameService, channel_id: str, caller: Caller, params: dict[str, str]) -> Reply:
        return await service.act(channel_id, caller, name, params)

    return handler


def _action_commands() -> tuple[Command, ...]:
    out = []
    for move in MOVES.values():
        options = (*((o.name, o.description) for o in move.options), ENTITY_OPTION)
        required = tuple(o.name for o in move.options if o.required)
        usage = Usage(move.command, move.help, options, required, move.example)
        out.append(
            Command(
                move.command,
                _action_handler(move.command),
                usage,
                overview=f"/{move.command} ({move.help})",
                action=True,
            )
        )
    return tuple(out)


COMMANDS: dict[str, Command] = {c.name: c for c in (*_game_commands(), *_action_commands())}

# the topics of /help (named in HELP_TOPICS, the choices of /help topic:)
HELP_LAYOUT: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "Game",
        (
            "game new",
            "game join",
            "game leave",
            "game start",
            "game status",
            "game undo",
            "game offer",
            "game export",
            "game import",
            "game claim",
            "game seat",
            "game end",
            "game repair",
            "game rules",
        ),
    ),
    ("Absent players", ("game remind", "game notify", "game settings", "game sub", "game robot", "game concede", "games")),
    ("Records", ("game history", "stats", "creators")),
    ("Actions", ("done", *MOVES)),
    ("More", ("help", "moves")),
)


# ---------------------------------------------------------------------- reading the table
def find_command(name: str) -> Command:
    """The command called ``name``; a refusal pointing at /help for an unknown one."""
    command = COMMANDS.get(name)
    if command is None and name in DISCORD_ONLY:
        raise UserError(f"/{name} works on Discord only; /help command:{name} explains it")
    if command is None:
        raise UserError(f"Unknown command /{name}; see /help")
    return command


def command_names() -> list[str]:
    """The commands /help NAME explains, in table order."""
    return [c.name for c in COMMANDS.values() if c.usage is not None]


def group_commands(name: str) -> list[Usage]:
    """The commands of group ``name`` ("game": /game new, /game join, ...) when it names a group and
    no command of its own."""
    key = " ".join(name.strip().lstrip("/").lower().split())
    if key in COMMANDS and COMMANDS[key].usage is not None:
        return []
    return [u for c in COMMANDS.values() if c.name.startswith(key + " ") and (u := c.usage) is not None]


# commands of the Discord front end alone (not in the table: /help NAME explains them all the same)
DISCORD_ONLY = {
    "sync": Usage("sync", "Discord only: registers the bot's slash commands with Discord again (when they are "
                          "missing or out of date in the clients); for server admins (Manage Server), hidden "
                          "from other members"),
}


def find_usage(name: str) -> Usage:
    key = " ".join(name.strip().lstrip("/").lower().split())
    if key in DISCORD_ONLY:
        return DISCORD_ONLY[key]
    for candidate in (key, "game " + key):
        command = COMMANDS.get(candidate)
        if command is not None and command.usage is not None:
            return command.usage
    subs = [c.name for c in COMMANDS.values() if c.name.startswith(key + " ") and c.usage is not None]
    if subs:  # a group (/game): its commands
        raise UserError(f"/{key} has these commands: " + ", ".join(f"/{n}" for n in subs)
                        + f"; for one of them: /help command:{subs[0]}")
    raise UserError(f"There is no command /{key}; /help lists them all")


def check_options(name: str, params: dict[str, str]) -> None:
    """Refuse an option ``/name`` does not have (unknown commands are the dispatcher's to refuse)."""
    command = COMMANDS.get(name)
    usage = command.usage if command else None
    if usage is None:
        return
    allowed = {o for o, _ in usage.options} | set(usage.hidden) | set(ALWAYS)
    if name == "moves" and params.get("command"):
        inner = COMMANDS.get(params["command"].strip().lstrip("/").lower())
        allowed |= {o for o, _ in inner.usage.options} if inner and inner.usage else set()
    unknown = [k for k in params if k not in allowed]
    if unknown:
        shown = ", ".join(f"{o}:" for o, _ in usage.options) or "none"
        example = f"; /help {name} shows an example" if usage.example else ""
        raise UserError(f"/{name} has no option {unknown[0]}: (its options: {shown}{example}); nothing was done")


def is_unlocked(name: str) -> bool:
    command = COMMANDS.get(name)
    return command is not None and command.unlocked


def is_private(name: str) -> bool:
    command = COMMANDS.get(name)
    return command is not None and command.private


def is_action(name: str) -> bool:
    command = COMMANDS.get(name)
    return command is not None and command.action
