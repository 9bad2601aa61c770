"""1836Jr56 rules (the 1856 engine on the Benelux map), on small positions.

Rule sources: /work/shared/rules/1836Jr56.de.txt ("summary"; .fr.txt says the same) with the
corrections of shared/rules/README.md, and the real games in tests/fixtures/1836jr56 played on
18xx.games ("game <name> #<action id>"). A test that sets state by hand says so.
"""

from __future__ import annotations

import copy

from engine import actions as A
from engine.errors import GameError
from engine.game import Game
from engine.rounds.operating import OperatingRound
from engine.rounds.stock import StockRound
from tests.positions import (
    PLAYERS4,
    at,
    corp_act,
    fresh,
    pass_,
    raw_action,
    rejected,
    turn_moves,
)

END_BANK = "1836jr56_game_end_bank"


def after_auction(players: list[tuple[str, str]] | None = None) -> Game:
    """4 players (225 F each) buy ACC, E-SF, CdH and RdP at face value in seat order."""
    g = fresh("1836Jr56", players or PLAYERS4)
    for pid, sym, price in [("1", "ACC", 20), ("2", "E-SF", 40), ("3", "CdH", 50), ("4", "RdP", 70)]:
        g.process(A.Bid(entity=pid, company=sym, price=price))
    assert isinstance(g.round, StockRound) and g.acting() == ["1"]
    return g


def test_starting_cash_and_bank() -> None:
    """900 F shared among the players (2: 450, 3: 300, 4: 225), bank 6000 F (summary
    "Startkapital nach Spielerzahl")."""
    for n, cash in [(2, 450), (3, 300), (4, 225)]:
        g = fresh("1836Jr56", PLAYERS4[:n])
        assert [p.cash for p in g.players] == [cash] * n
        assert g.bank == 6000 - n * cash
    try:
        fresh("1836Jr56", PLAYERS4 + [("5", "Eve")])
    except GameError as exc:
        assert "2 to 4 players" in str(exc)
    else:
        raise AssertionError("5 players accepted")


def test_worked_example_first_turn_of_b() -> None:
    """The summary's worked example ("Eine Runde Schritt für Schritt"), with the README's
    corrections: [B] parred at 70 F gets 140 F, another share 70 F more; in OR 1 ACC pays 5 F,
    [B] takes a 100 F loan, buys a 2-train, pays 10 F interest (after the run step), does not
    run so its price falls 70 -> 65; a second 2-train in the same turn is refused."""
    g = after_auction()
    g.process(A.Par(entity="1", corporation="B", share_price="70,4,4"))
    b = g.corporations["B"]
    assert b.cash == 140 and g.player("1").cash == 205 - 140
    g.process(A.Pass(entity="2"))
    g.process(A.BuyShares(entity="3", shares=("B_1",), percent=10))
    assert g.corporations["B"].cash == 210
    while isinstance(g.round, StockRound):
        pass_(g)
    b = g.corporations["B"]
    assert g.acting() == ["B"] and g.player("1").cash == 65 + 5
    g.process(corp_act(A.TakeLoan, "B"))
    assert b.loans == 1 and b.cash == 310
    pass_(g, "B")  # no tile (the example's Antwerp tile does not change the money)
    g.process(corp_act(A.BuyTrain, "B", train="2-0", price=100))
    assert b.cash == 310 - 100 - 10
    assert b.price is not None and b.price.price == 65
    rejected(g, corp_act(A.BuyTrain, "B", train="2-1", price=100), "cannot buy train")


def test_only_one_train_of_each_type_from_the_bank_per_turn() -> None:
    """A company buys at most one train of each type from the bank in a turn (README
    correction of the worked example; 18xx.games step/buy_train.rb). By hand: B has 600 F."""
    g = after_auction()
    g.process(A.Par(entity="1", corporation="B", share_price="65,5,4"))
    g.process(A.BuyShares(entity="2", shares=("B_1",), percent=10))
    while isinstance(g.round, StockRound):
        pass_(g)
    g.bank -= 600 - g.corporations["B"].cash
    g.corporations["B"].cash = 600
    pass_(g, "B")  # no tile
    g.process(corp_act(A.BuyTrain, "B", train="2-0", price=100))
    assert "buy_train" not in g.action_types("B")
    rejected(g, corp_act(A.BuyTrain, "B", train="2-1", price=100), "cannot buy train")


def _two_holdings_sr2() -> Game:
    """SR 1: Ann pars B, Ben pars GCL, Cy buys one B and two GCL, Dee one GCL; SR 2 waits for Cy."""
    g = after_auction()
    g.process(A.Par(entity="1", corporation="B", share_price="65,5,4"))
    g.process(A.Par(entity="2", corporation="GCL", share_price="65,5,4"))
    g.process(A.BuyShares(entity="3", shares=("B_1",), percent=10))
    g.process(A.BuyShares(entity="4", shares=("GCL_1",), percent=10))
    while g.acting() != ["3"]:
        pass_(g)
    g.process(A.BuyShares(entity="3", shares=("GCL_2",), percent=10))
    while isinstance(g.round, StockRound):
        pass_(g)
    while not isinstance(g.round, StockRound):
        pass_(g)
    while g.acting() != ["3"]:
        pass_(g)
    return g


def test_sell_buy_sell_in_one_turn() -> None:
    """1836Jr56 turn order: sell, buy one certificate, then sell again (summary "verkaufen, ein
    Zertifikat kaufen und wieder verkaufen"; 18xx.games SELL_BUY_ORDER sell_buy_sell)."""
    g = _two_holdings_sr2()
    g.process(A.SellShares(entity="3", shares=("B_1",), percent=10))
    gcl = g.ipo_shares("GCL")[1] if g.ipo_shares("GCL")[0].president else g.ipo_shares("GCL")[0]
    g.process(A.BuyShares(entity="3", shares=(gcl.id,), percent=10))
    assert g.acting() == ["3"] and "sell_shares" in g.action_types("3")
    g.process(A.SellShares(entity="3", shares=("GCL_2",), percent=10))
    assert g.percent_of("3", "GCL") == 10 and g.percent_of("3", "B") == 0


def test_sell_buy_sell_is_not_1856() -> None:
    """1856 lets a player sell before or after the purchase, not on both sides of it (summary
    1856: "beide Aktionen nacheinander, aber in beliebiger Reihenfolge"). Same position with
    the 1856 order set on a copy by hand."""
    g = _two_holdings_sr2()
    g.SELL_BUY_ORDER = "sell_buy_or_buy_sell"
    g.process(A.SellShares(entity="3", shares=("B_1",), percent=10))
    gcl = g.ipo_shares("GCL")[1] if g.ipo_shares("GCL")[0].president else g.ipo_shares("GCL")[0]
    g.process(A.BuyShares(entity="3", shares=(gcl.id,), percent=10))
    assert g.acting() != ["3"]  # nothing legal is left: Cy's turn is over
    rejected(g, A.SellShares(entity="3", shares=("GCL_2",), percent=10), "not Cy's turn")


def test_float_needs_10_percent_more_after_the_last_2_train() -> None:
    """20% sold to operate while 2-trains are for sale, 10% more when the last (5th) 2-train
    leaves the bank (README; 18xx.games LAST_TRAINS 2-4). Trains given away by hand."""
    g = after_auction()
    g.process(A.Par(entity="1", corporation="B", share_price="65,5,4"))
    g.process(A.BuyShares(entity="2", shares=("B_1",), percent=10))
    while isinstance(g.round, StockRound):
        pass_(g)
    for t in ("2-0", "2-1", "2-2", "2-3"):
        g.trains[t].owner = "rusted"
    assert g.percent_to_operate == 20
    pass_(g, "B")
    g.process(corp_act(A.BuyTrain, "B", train="2-4", price=100))
    assert g.percent_to_operate == 30


def test_port_offboard_pays_per_own_station_on_the_route() -> None:
    """Ports have no value of their own: from green they add 20 F (brown 30 F) per city on the
    route with the company's station (summary "Häfen"; game 1836jr56_game_end_bank #89: [B]
    runs H4-I3-J2 for 70 F in phase 3)."""
    g = at("1836jr56", END_BANK, 88)
    assert g.phase["name"] == "3"
    act = raw_action("1836jr56", END_BANK, 89)
    routes = act.to_dict()["routes"]
    port = next(r for r in routes if "J2" in r["hexes"])
    stations = sum(1 for h in port["hexes"] if g.board.hexes[h].tokened_by("B"))
    assert stations >= 1
    bad = tuple(dict(r, revenue=r["revenue"] - 20 * stations) if r is port else r for r in routes)
    rejected(g, corp_act(A.RunRoutes, "B", routes=bad), "worth")
    g.process(act)


def test_port_route_needs_two_other_stops() -> None:
    """A route to a port needs at least 2 other stops (summary: "einer Route mit mindestens
    zwei weiteren Halten"; game 1836jr56_game_end_bank before #89)."""
    g = at("1836jr56", END_BANK, 88)
    short = {"train": "3-1", "connections": [["I3", "J2"]], "hexes": ["I3", "J2"]}
    rejected(g, corp_act(A.RunRoutes, "B", routes=(short,)), "port needs 2 other stops")


def test_rdp_marker_adds_20() -> None:
    """The RdP marker adds 20 F to its hex for the owning company (summary "Régie des Postes";
    game 1836jr56_game_end_bank #88 [B] places it on H6, #266 H6-H4-I3-J2 runs for 210 F)."""
    g = at("1836jr56", END_BANK, 88)
    assert g.port_assignment["B"] == "H6" and g.companies["RdP"].closed
    g = at("1836jr56", END_BANK, 265)
    act = raw_action("1836jr56", END_BANK, 266)
    routes = act.to_dict()["routes"]
    bad = tuple(dict(r, revenue=r["revenue"] - 20) if "H6" in r["hexes"] else r for r in routes)
    rejected(g, corp_act(A.RunRoutes, "B", routes=bad), "worth")
    g.process(act)


def test_rdp_marker_only_on_its_listed_hexes() -> None:
    """The RdP marker goes on one of its listed city/town hexes (18xx.games entities.rb)."""
    g = at("1836jr56", END_BANK, 87)
    rejected(g, A.Assign(entity="RdP", entity_type="company", target="A1", target_type="hex"),
             "cannot be assigned to A1")


def test_esf_blocks_b8_while_a_player_owns_it() -> None:
    """E-SF blocks hex B8 while a player owns it (summary: "blockiert ... B8")."""
    g = at("1836jr56", END_BANK, 8)  # HSM lays its first tile at #9
    sym = g.acting()[0]
    assert sym == "HSM" and "lay_tile" in g.action_types("HSM")
    assert g.companies["E-SF"].owner in g.player_by_id
    rejected(g, corp_act(A.LayTile, sym, hex="B8", tile="56-0", rotation=0), "blocked by E-SF")


def test_esf_lays_a_free_extra_tile_on_b8() -> None:
    """The company owning E-SF may lay a free tile on B8 in addition to its own tile lay
    (summary: "zusätzlich zur normalen Plättchenlegung des Zuges ein kostenloses Plättchen
    auf das Hexfeld B8"; GCL buys E-SF in game 1836jr56_game_end_bank #129)."""
    g = at("1836jr56", END_BANK, 129)
    assert g.companies["E-SF"].owner == "GCL" and "lay_tile" in g.action_types("E-SF")
    rejected(g, A.LayTile(entity="E-SF", entity_type="company", hex="C7", tile="56-0", rotation=0),
             "E-SF may lay")
    cash = g.corporations["GCL"].cash
    done = None
    for tile in ("56-0", "2-0"):
        for rot in range(6):
            probe = copy.deepcopy(g)
            try:
                probe.process(A.LayTile(entity="E-SF", entity_type="company", hex="B8", tile=tile, rotation=rot))
            except GameError:
                continue
            done = probe
            break
        if done:
            break
    assert done is not None
    assert done.board.hex("B8").laid and done.corporations["GCL"].cash == cash
    assert "lay_tile" not in done.action_types("E-SF")


def test_mess_forms_from_the_companies_that_cannot_repay() -> None:
    """At the first 6-train each company still owing loans either has its president pay them
    off or merges into the MESS; the MESS forms from the merged companies, on the top row
    (summary "Verstaatlichung"; game 1836jr56_game_end_bank #391 6-train, #392 HSM merges,
    #397 NFL's president pays instead)."""
    g = at("1836jr56", END_BANK, 391)
    assert g.phase["name"] == "6" and g.nationalizables[0] == "HSM"
    g.process(raw_action("1836jr56", END_BANK, 392))
    assert g.nationalizables == ["NFL"] and turn_moves(g, "NFL") == ["merge", "pass"]
    assert not g.corporations["MESS"].started  # it forms once every company has decided
    nfl_president = g.corporations["NFL"].president
    assert nfl_president is not None
    cash = g.player(nfl_president).cash
    g.process(raw_action("1836jr56", END_BANK, 397))
    mess, nfl = g.corporations["MESS"], g.corporations["NFL"]
    assert g.corporations["HSM"].closed and mess.started
    assert mess.price is not None and mess.price.price == 375 and mess.price.row == 0
    assert nfl.loans == 0 and not nfl.closed and g.player(nfl_president).cash < cash
    assert "take_loan" not in g.action_types("NFL")  # no loans from phase 6


def test_certificate_limit_is_fixed_after_nationalization() -> None:
    """1836Jr56 keeps its certificate limit after the MESS forms (summary: "Festes
    Zertifikatslimit (20/13/10) ..., das nach der Verstaatlichung nicht neu berechnet wird")."""
    g = at("1836jr56", END_BANK, 397)
    assert g.post_nationalization and len(g.players) == 2
    assert g.cert_limit() == 20


def test_diesel_variant_replaces_the_8_train() -> None:
    """Standard: 8-trains (1000 F, 5) trade-in 350 F off; Diesel variant: D-trains (1100 F) with
    the same 350 F trade-in, 4-trains rusting on the D (summary "Züge und Preise")."""
    g = fresh("1836Jr56", PLAYERS4)
    eights = [t for t in g.trains.values() if t.name == "8"]
    assert len(eights) == 5 and eights[0].price == 1000 and eights[0].discount == {"4": 350, "5": 350, "6": 350}
    assert g.trains["4-0"].rusts_on == "8" and g.phases[-1]["name"] == "8"
    d = fresh("1836Jr56", PLAYERS4, ("diesel_variant",))
    diesels = [t for t in d.trains.values() if t.name == "D"]
    assert diesels and diesels[0].price == 1100 and diesels[0].discount == {"4": 350, "5": 350, "6": 350}
    assert not any(t.name == "8" for t in d.trains.values())
    assert d.trains["4-0"].rusts_on == "D" and d.phases[-1]["name"] == "D"


def test_broken_bank_ends_the_game_after_the_or_set() -> None:
    """When the bank breaks the current set of ORs is finished, then the game ends (summary
    "Spielende"; game 1836jr56_game_end_bank: the bank breaks at #566 in OR 1 of the set)."""
    g = at("1836jr56", END_BANK, 566)
    assert g.bank < 0 and g.game_end_triggered == "bank" and not g.finished
    assert g.round_num < g.operating_rounds_in_set
    g = at("1836jr56", END_BANK, 629)
    assert g.finished and g.end_reason == "bank"
    assert isinstance(g.round, OperatingRound) and g.round_num == g.operating_rounds_in_set


def test_bankruptcy_ends_the_game_at_once() -> None:
    """A bankrupt player ends the game immediately (summary: "Oder ein Spieler geht bankrott:
    sofortiges Ende"; game hotseat003 #163, after interest its president could not pay)."""
    g = at("1836jr56", "hotseat003", 162)
    assert not g.finished
    g.process(raw_action("1836jr56", "hotseat003", 163))
    assert g.finished and g.end_reason == "bankrupt"
    assert g.player("Player 1").bankrupt


def test_cdh_lays_on_j8_without_connection_and_places_a_free_station() -> None:
    """1836Jr56 CdH (Charbonnages du Hainaut): its owner may lay a tile on J8 and place a station
    there paying only the mountain cost, with no connection to its network; the lay is the
    turn's track lay (rule summary 1836Jr56.de.txt: "auf dem Hexfeld J8 ein Plättchen und einen
    Bahnhofsmarker zu platzieren und dabei nur die Gebirgskosten zu zahlen, ohne dass eine
    Verbindung zum bestehenden Netz nötig ist"). The private is given to the company by hand."""
    from engine import actions as A
    from engine.replay import replay
    from tests.fixture_util import load_export

    export = load_export("1836jr56", "1836jr56_game_end_bank")
    lay = next(a for a in export["actions"] if a["type"] == "lay_tile" and a["entity"] == "B")
    before = max(a["id"] for a in export["actions"] if a["id"] < lay["id"])
    g = replay(export, upto=before).game
    corp = g.corporations["B"]
    cdh = g.companies["CdH"]
    if cdh.owner in g.player_by_id:
        g.player(cdh.owner).companies.remove("CdH")
    cdh.owner = "B"
    corp.companies.append("CdH")
    corp.cash = max(corp.cash, 200)
    bank_before = g.bank + sum(p.cash for p in g.players) + sum(c.cash for c in g.corporations.values())
    assert "lay_tile" in g.action_types("CdH")
    cash = corp.cash
    g.process(A.LayTile(entity="CdH", entity_type="company", hex="J8", tile="57-0", rotation=0))
    assert g.board.hexes["J8"].tile.name == "57"
    assert corp.cash == cash - 60  # the mountain cost only
    assert "lay_tile" not in g.action_types("B")  # it was the turn's track lay
    token_cash = corp.cash
    # the private then places the station (18xx.games: CdH acts, and holds the turn until it does)
    assert g.acting() == ["CdH"] and turn_moves(g, "CdH") == ["place_token", "pass"]
    g.process(A.PlaceToken(entity="CdH", entity_type="company", city="57-0-0"))
    assert "B" in g.board.hexes["J8"].tokens[0]
    assert corp.cash == token_cash  # the station is free
    assert "place_token" not in g.action_types("B")  # it was the turn's token
    assert g.bank + sum(p.cash for p in g.players) + sum(c.cash for c in g.corporations.values()) == bank_before


def test_acc_blocks_amsterdam_only_while_a_player_owns_it() -> None:
    """ACC blocks D6 (Amsterdam) while a player owns it (summary: "[ACC] ... blockiert D6";
    18xx.games ability blocks_hexes, owner_type player). Moving it to a corporation is done by hand."""
    g = after_auction()
    assert g.hex_blocked_by("D6") == "ACC"
    try:
        g.check_lay_static(g.corporations["HSM"], "D6", "59-0")
    except GameError as exc:
        assert "blocked by ACC" in str(exc)
    else:
        raise AssertionError("a lay on D6 must be refused while a player owns ACC")
    acc = g.companies["ACC"]
    g.player(acc.owner).companies.remove("ACC")
    acc.owner = "HSM"
    g.corporations["HSM"].companies.append("ACC")
    assert g.hex_blocked_by("D6") is None


def test_destination_releases_escrow_computed_by_our_own_check() -> None:
    """A company destinates when its home connects to its destination; escrow then ends and it
    becomes incremental (summary: "zurückgehaltenes Kapital beim Erreichen des Ziels"). Game
    1836jr56_game_end_bank #91: HSM's tile connects HSM (D6 -> E11) and the not yet started NBDS
    (E11 -> E5), which will then start incremental. The lay carries no recorded result here, so
    the engine's own connection check decides (as in live play)."""
    import dataclasses

    from engine.replay import replay
    from tests.fixture_util import load_export

    export = load_export("1836jr56", END_BANK)
    g = replay(export, upto=90).game
    raw = next(a for a in export["actions"] if a["id"] == 91)
    action = dataclasses.replace(A.Action.from_dict(raw), auto_actions=())
    escrow = {s: g.corporations[s].escrow for s in ("NBDS", "HSM")}
    cash = {s: g.corporations[s].cash for s in ("NBDS", "HSM")}
    g.process(action)
    hsm, nbds = g.corporations["HSM"], g.corporations["NBDS"]
    assert hsm.destinated and hsm.escrow is None and hsm.capitalization == "incremental"
    assert escrow["HSM"] == 0 and hsm.cash <= cash["HSM"]  # nothing was held back; it paid for the tile
    assert nbds.destinated and not nbds.ipoed
    assert g.capitalization_type(nbds) == "incremental"  # it will not start in escrow
    assert not g.corporations["GCL"].destinated


def test_rdp_marker_leaves_its_hex_at_the_first_6_train() -> None:
    """The first 6-train removes the RdP marker from B and from H6 (18xx.games
    event_remove_tokens!: corp.remove_assignment! and hex.remove_assignment!); the map kept
    drawing the RdP tag on Brussels after the story said it was removed (a play-test)."""
    g = at("1836jr56", END_BANK, 390)
    assert g.board.hexes["H6"].assignments == {"RdP"} and g.port_assignment == {"B": "H6"}
    g = at("1836jr56", END_BANK, 391)
    assert g.board.hexes["H6"].assignments == set() and g.port_assignment == {}


def test_the_diesel_options_text_tells_the_prices_the_game_charges() -> None:
    """The option's text (shown when a game starts) said "$1100 Diesels (and $300 trade in
    discount)", as 18xx.games' meta.rb does, in a game counted in florins whose D-trains take
    350 F off for a 4, 5 or 6 (game_trains' discount, as in 18xx.games)."""
    d = fresh("1836Jr56", PLAYERS4, ("diesel_variant",))
    desc = next(r["desc"] for r in d.rules.optional_rules if r["sym"] == "diesel_variant")
    diesel = next(t for t in d.trains.values() if t.name == "D")
    assert desc == (f"Replaces 8-trains with {d.fmt(diesel.price)} Diesels "
                    f"(and {d.fmt(diesel.discount['4'])} trade in discount)")
