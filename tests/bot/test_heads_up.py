"""A player whose private or train another player's corporation buys is mentioned in that
move's message (18xx.games lets any corporation buy them, for $1 up, without asking)."""

from __future__ import annotations

from pathlib import Path

from bot.commands.layer import CommandLayer
from bot.storage.store import Store
from bot.terminal.local import LocalSession

SCRIPT = """/as alice
/game new title:1833NE
/as bob
/game join
/as carol
/game join
/as alice
/game start order:joined
/bid company:P1 price:15
/as bob
/bid company:P2 price:40
/as carol
/bid company:P3 price:50
/as alice
/bid company:P4 price:60
/as bob
/bid company:P5 price:70
/as carol
/bid company:P6 price:80
/as alice
/par corporation:B&L price:60
/as bob
/par corporation:BW price:70
/as carol
/buy share:B&L
/as alice
/buy share:BW
/as bob
/buy share:B&L
/as carol
/pass
/as alice
/pass
/as bob
/pass
/as alice
/done
/train train:2-0 variant:2
/done
/as bob
/lay hex:F23 tile:58 rotation:2
/lay hex:E22 tile:57 rotation:2
/token city:E22"""


async def _bob_at_his_train_step(tmp_path: Path) -> LocalSession:
    store = await Store.open(str(tmp_path / "local.db"))
    session = LocalSession(CommandLayer(store, images=False), tmp_path / "images", user="alice")
    for line in SCRIPT.splitlines():
        printed = await session.run_line(line)
        assert not printed or not printed[0].startswith("!"), (line, printed)
    return session


async def test_the_owner_of_a_train_bought_by_another_players_corporation_is_mentioned(tmp_path: Path) -> None:
    session = await _bob_at_his_train_step(tmp_path)
    try:
        printed = await session.run_line("/train train:2-0 price:1")
        assert printed[0] == "BW buys a 2-train for $1 from B&L (bob)"
        assert "@alice alice: your corporation B&L's train 2-0 was bought (see above)" in printed
        printed = await session.run_line("/private company:P1 price:1")  # alice's private
        assert any(ln.startswith("BW buys P1 from alice for $1") for ln in printed), printed
        assert "@alice alice: your private P1 was bought (see above)" in printed
    finally:
        await session.layer.store.close()


async def test_a_players_own_purchase_mentions_nobody_else(tmp_path: Path) -> None:
    session = await _bob_at_his_train_step(tmp_path)
    try:
        printed = await session.run_line("/private company:P2 price:1")  # bob's own private
        assert not [ln for ln in printed if ln.startswith("@") and "was bought" in ln], printed
    finally:
        await session.layer.store.close()


def test_on_discord_the_message_notifies_the_next_player_and_the_seller_only() -> None:
    from bot.discord.cog import message_for
    from bot.reply import Reply

    reply = Reply(lines=["BW buys P1 from alice for $1 (bob)"], ping="222", ping_text="your turn (bob)",
                  heads_up=[("111", "alice: your private P1 was bought (see above)")])
    kwargs = message_for(reply, "text", reply.ping)
    mentions = kwargs["allowed_mentions"]
    assert [u.id for u in mentions.users] == [222, 111]
    assert mentions.everyone is False and mentions.roles is False
    alone = message_for(Reply(lines=["x"], heads_up=[("111", "t")]), "text", None)["allowed_mentions"]
    assert [u.id for u in alone.users] == [111]
