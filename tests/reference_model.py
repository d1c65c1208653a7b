"""An independent reading of SPEC.md §2.1 and §4: a scorer, random valid sessions and invalid variants."""

from __future__ import annotations

import random
import unicodedata
from fractions import Fraction
from typing import Any

NAMES = ["Ana", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus"]
ROUTE_TABLE = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21, 9: 27}
TOURISTS = {
    "kokkola": 3,
    "vaasa": 4,
    "seinajoki": 5,
    "pori": 6,
    "tromso": 7,
    "alta": 8,
    "kilpisjarvi": 3,
    "kolari": 4,
    "kemi": 5,
    "oulu": 6,
    "malmberget": 7,
    "boden": 8,
}
FIN_BONUS = {
    "longest_route": 5,
    "tunnels": 15,
    "ferries": 15,
    "longest_journey": 20,
    "cities_visited": 10,
    "valid_tickets": 10,
    "foreign_countries": 25,
    "perimeter_path": 25,
}


def fold(name: str) -> str:
    """Case- and accent-free form of a tourist name."""
    text = unicodedata.normalize("NFKD", name.casefold().replace("ø", "o"))
    return "".join(c for c in text if not unicodedata.combining(c)).strip()


# ---------------------------------------------------------------- reference scoring


def competition(order: list[str], key: Any) -> list[dict[str, Any]]:
    """Competition ranking of players sorted by key descending; equal keys share a place."""
    ranked = sorted(order, key=key, reverse=True)
    out: list[dict[str, Any]] = []
    for i, p in enumerate(ranked):
        if out and key(out[-1]["players"][0]) == key(p):
            out[-1]["players"].append(p)
        else:
            out.append({"place": i + 1, "players": [p]})
    return out


def score_booth_round(
    rnd: dict[str, dict[str, Any]], players: list[str], rules: dict[str, Any]
) -> dict[str, dict[str, Fraction]]:
    """Items per player per category for one Ticket Booth round."""
    items: dict[str, dict[str, Fraction]] = {p: {} for p in players}
    get = {p: rnd.get(p, {}) for p in players}

    def add(p: str, cat: str, v: Fraction) -> None:
        if v:
            items[p][cat] = items[p].get(cat, Fraction(0)) + v

    for n in range(1, 12):
        counts = {p: int(get[p].get("attractions", {}).get(str(n), 0)) for p in players}
        top = max(counts.values())
        if top == 0:
            continue
        leaders = [p for p in players if counts[p] == top]
        if top == n:
            add(leaders[0], f"attraction:{n}", Fraction(2 * n))
        elif len(leaders) == 1:
            add(leaders[0], f"attraction:{n}", Fraction(n))
        else:
            for p in leaders:
                add(p, f"attraction:{n}", Fraction(n, 2))
    for p in players:
        o = int(get[p].get("outhouses", 0))
        add(p, "outhouse", Fraction(8) if o == 3 else Fraction(-2 * o))
    tickets = {p: int(get[p].get("tickets", 0)) for p in players}
    most = max(tickets.values())
    for p in players:
        if get[p].get("ticket_booth") and tickets[p] > 0 and tickets[p] == most:
            alone = sum(1 for q in players if tickets[q] == most) == 1
            tie = rules.get("booth_tie", "full")
            add(
                p,
                "ticket-booth",
                Fraction(4) if alone or tie == "full" else Fraction(2) if tie == "half" else Fraction(0),
            )
    for p in players:
        if get[p].get("demolition_derby"):
            add(p, "demolition-derby", Fraction(4))
        else:
            add(p, "tickets", Fraction(tickets[p]))
    return items


def booth_warns(rnd: dict[str, dict[str, Any]], players: list[str]) -> bool:
    """Whether a complete Ticket Booth round deserves a warning (cards that do not add up)."""
    n_p = len(players)
    get = [rnd[p] for p in players]
    held = [
        sum(int(v) for v in g.get("attractions", {}).values())
        + int(g.get("outhouses", 0))
        + sum(1 for k in ("ticket_booth", "demolition_derby", "piglet_race") if g.get(k))
        for g in get
    ]
    if n_p == 5:
        return sum(held) != 70 or any(h != 14 for h in held)
    for n in range(1, 12):
        if sum(int(g.get("attractions", {}).get(str(n), 0)) for g in get) != n:
            return True
    if sum(int(g.get("outhouses", 0)) for g in get) != 3:
        return True
    for k in ("ticket_booth", "demolition_derby", "piglet_race"):
        if not any(g.get(k) for g in get):
            return True
    if sum(int(g.get("tickets", 0)) for g in get) != 5 * n_p:
        return True
    return any(h != 72 // n_p for h in held)


def ttr_round(
    rnd: dict[str, dict[str, Any]], players: list[str], rules: dict[str, Any], finland: bool
) -> dict[str, dict[str, Fraction]]:
    """Items per player per category for a Ticket to Ride / Finland round."""
    items: dict[str, dict[str, Fraction]] = {p: {} for p in players}
    get = {p: rnd.get(p, {}) for p in players}

    def add(p: str, cat: str, v: int) -> None:
        if v:
            items[p][cat] = items[p].get(cat, Fraction(0)) + v

    for p in players:
        g = get[p]
        if "routes" in g:
            add(p, "routes", sum(ROUTE_TABLE[int(k)] * int(v) for k, v in g["routes"].items()))
        else:
            add(p, "routes", int(g.get("route_points", 0)))
        for t in g.get("tickets", []):
            add(p, "ticket", int(t["points"]) if t.get("completed") else -int(t["points"]))
        if finland:
            for t in g.get("tourists", []):
                pts = int(t["points"]) if "points" in t else TOURISTS[fold(t["name"])]
                add(p, "tourist", pts if t.get("completed") else -pts)
    if not finland:
        lp = {p: int(get[p].get("longest_path", 0)) for p in players}
        top = max(lp.values())
        if top > 0:
            for p in players:
                if lp[p] == top:
                    add(p, "longest-path", int(rules.get("longest_path_bonus", 10)))
    else:
        for measure, value in FIN_BONUS.items():
            if measure == "valid_tickets":
                m = {p: sum(1 for t in get[p].get("tickets", []) if t.get("completed")) for p in players}
            else:
                m = {p: int(get[p].get(measure, 0)) for p in players}
            top = max(m.values())
            if top == 0:
                continue
            best = [p for p in players if m[p] == top]
            if len(best) > 1 and rules.get("bonus_tie", "all") == "none":
                continue
            for p in best:
                add(p, f"bonus:{measure}", value)
    return items


def mars_round(rnd: dict[str, dict[str, Any]], players: list[str]) -> dict[str, dict[str, Fraction]]:
    """Items per player per category for a Ticket to Mars round."""
    items: dict[str, dict[str, Fraction]] = {p: {} for p in players}
    for p in players:
        for obj in ("pairs", "occupancy", "character"):
            o = rnd.get(p, {}).get(obj)
            if o:
                v = int(o.get("count", 0)) * int(o.get("each", 0))
                if v:
                    items[p][f"objective:{obj}"] = Fraction(v)
    return items


def reference(doc: dict[str, Any]) -> dict[str, Any]:
    """What SPEC §2.1/§4 says `score --json` reports for a valid session."""
    game = doc["game"]
    players = doc["players"]
    rules = doc.get("rules", {})
    rounds = [r.get("players", {}) for r in doc.get("rounds", [])]
    per_round = []
    warn = False
    for rnd in rounds:
        if game == "ticket-booth":
            it = score_booth_round(rnd, players, rules)
            if len(rnd) == len(players):
                warn = warn or booth_warns(rnd, players)
        elif game == "ticket-to-mars":
            it = mars_round(rnd, players)
        else:
            it = ttr_round(rnd, players, rules, game == "ticket-to-finland")
            if game == "ticket-to-ride" and len(rnd) == len(players):  # one card of each ticket in the deck
                named: dict[frozenset[str], set[str]] = {}
                for p, g in rnd.items():
                    for t in g.get("tickets", []):
                        if t.get("name"):
                            ends = frozenset(c.strip().casefold() for c in t["name"].replace("–", "-").split("-"))
                            named.setdefault(ends, set()).add(p)
                warn = warn or any(len(who) > 1 for who in named.values())
            for p in players:
                if p in rnd:
                    g = rnd[p]
                    if len(g.get("tickets", [])) < (3 if game == "ticket-to-finland" else 2):
                        warn = True
                    if game == "ticket-to-finland" and len(g.get("tourists", [])) < 3:
                        warn = True
                    if (
                        "routes" in g
                        and "route_points" in g
                        and int(g["route_points"]) != sum(ROUTE_TABLE[int(k)] * int(v) for k, v in g["routes"].items())
                    ):
                        warn = True
        per_round.append(it)
    points = [{p: sum(it[p].values(), Fraction(0)) for p in players} for it in per_round]
    totals = {p: sum((r[p] for r in points), Fraction(0)) for p in players}
    complete_rounds = [len(r) == len(players) for r in rounds]
    scheduled = (
        1
        if game in ("ticket-to-ride", "ticket-to-finland")
        else int(rules.get("rounds", 3 if game == "ticket-booth" else 1))
    )
    all_scored = len(rounds) >= scheduled and all(complete_rounds)
    top = max(totals.values())
    tied_first = [p for p in players if totals[p] == top]
    tiebreak_needed = len(tied_first) > 1
    criteria: list[str] = []  # what each link of the chain is called in a sentence, in the chain's order
    if game == "ticket-booth":
        last = points[-1] if points else {p: Fraction(0) for p in players}
        ranking = competition(players, lambda p: (totals[p], last[p]))
        chain = [lambda p: last[p]] if points else []
        criteria = ["last round"]
    elif game == "ticket-to-ride" and rules.get("tiebreak", "tickets") == "tickets":
        r0 = rounds[0] if rounds else {}
        done = {p: sum(1 for t in r0.get(p, {}).get("tickets", []) if t.get("completed")) for p in players}
        lp_holder = {p: 1 if "longest-path" in (per_round[0][p] if per_round else {}) else 0 for p in players}
        ranking = competition(players, lambda p: (totals[p], done[p], lp_holder[p]))
        chain = [lambda p: done[p], lambda p: lp_holder[p]]
        criteria = ["completed more tickets", "Longest Path"]
    else:
        ranking = competition(players, lambda p: totals[p])
        chain = []
    started = any(rounds)
    for place in ranking:
        place["total"] = totals[place["players"][0]]
        # SPEC 2.1 `why`: a sentence exactly where the place's total is another player's too, naming what decided
        # this place: the deepest link of the chain that separates it from a player level on points, or that the
        # players still share it (Ticket to Mars: an extra round decides a tie for first).
        mine = place["players"][0]
        level = [q for q in players if q != mine and totals[q] == totals[mine]]
        if not level:
            place["why"] = None
            continue
        splits = []
        for q in level:
            split = next((k for k, key in enumerate(chain) if key(q) != key(mine)), None)
            splits.append(split)
        if not started:
            place["why"] = ["nothing scored"]
        elif None not in splits:
            place["why"] = [criteria[max(s for s in splits if s is not None)]]
        elif game == "ticket-to-mars" and place["place"] == 1:
            place["why"] = ["extra round", "goes on"]
        else:
            place["why"] = ["shar"]  # "share 2nd place", "a shared victory"
    winners = ranking[0]["players"]
    mars_ever_tied = False
    if game == "ticket-to-mars":
        running = {p: Fraction(0) for p in players}
        for k, pts in enumerate(points, 1):
            for p in players:
                running[p] += pts[p]
            if k >= scheduled and list(running.values()).count(max(running.values())) > 1:
                mars_ever_tied = True
        complete = all_scored and not tiebreak_needed
        has_tiebreak = mars_ever_tied or tiebreak_needed
    else:
        complete = all_scored
        has_tiebreak = tiebreak_needed
    return {
        "points": points,
        "items": per_round,
        "totals": totals,
        "ranking": ranking,
        "winners": winners,
        "tiebreak": has_tiebreak,
        "complete": complete,
        "next_null": complete,
        "warn": warn,
    }


def mars_first(doc: dict[str, Any], k: int) -> str:
    """The first player of round k (1-based) of a Ticket to Mars session."""
    players = doc["players"]
    if k == 1:
        return players[0]
    tot = {p: 0 for p in players}
    for r in doc["rounds"][: k - 1]:
        for p in players:
            o = r["players"].get(p, {})
            tot[p] += sum(
                int(o.get(x, {}).get("count", 0)) * int(o.get(x, {}).get("each", 0))
                for x in ("pairs", "occupancy", "character")
            )
    low = min(tot.values())
    return next(p for p in players if tot[p] == low)


# ---------------------------------------------------------------- generators


def gen_booth(rng: random.Random) -> dict[str, Any]:
    """A valid Ticket Booth session; often a full deal, sometimes partial or incomplete."""
    n_p = rng.randint(2, 5)
    players = NAMES[:n_p]
    rules: dict[str, Any] = {}
    if rng.random() < 0.5:
        rules["booth_tie"] = rng.choice(["full", "half", "none"])
    n_rounds = 3
    if rng.random() < 0.2:
        n_rounds = rng.randint(1, 4)
        rules["rounds"] = n_rounds
    played = n_rounds if rng.random() < 0.8 else rng.randint(0, n_rounds)
    rounds = []
    for _ in range(played):
        rounds.append({"players": booth_round(rng, players)})
    if rounds and played < n_rounds and rng.random() < 0.3:
        del rounds[-1]["players"][rng.choice(players)]
    doc: dict[str, Any] = {"format": 1, "game": "ticket-booth", "players": players}
    if rules:
        doc["rules"] = rules
    doc["rounds"] = rounds
    return doc


def booth_round(rng: random.Random, players: list[str]) -> dict[str, dict[str, Any]]:
    """One valid round of The Ticket Booth, with many ties."""
    n_p = len(players)
    full = rng.random() < 0.5
    deck = [("a", n) for n in range(1, 12) for _ in range(n)] + [("o", 0)] * 3 + [("tb", 0), ("dd", 0), ("pr", 0)]
    rng.shuffle(deck)
    if not full:
        deck = deck[: rng.randint(0, len(deck))]
    elif n_p == 5:
        deck = deck[:70]
    hands: dict[str, dict[str, Any]] = {p: {} for p in players}
    style = rng.random()
    for i, (kind, n) in enumerate(deck):
        p = (
            players[i % n_p]
            if full
            else players[rng.randrange(n_p)]
            if style < 0.5
            else players[min(int(rng.random() * 2), n_p - 1)]
        )
        h = hands[p]
        if kind == "a":
            h.setdefault("attractions", {})
            h["attractions"][str(n)] = h["attractions"].get(str(n), 0) + 1
        elif kind == "o":
            h["outhouses"] = h.get("outhouses", 0) + 1
        else:
            h[{"tb": "ticket_booth", "dd": "demolition_derby", "pr": "piglet_race"}[kind]] = True
    total = 5 * n_p if full or rng.random() < 0.5 else rng.randint(0, 5 * n_p)
    mode = rng.random()
    for i in range(total):
        if mode < 0.3:
            p = players[i % n_p]
        elif mode < 0.4:
            continue
        else:
            p = rng.choice(players)
        hands[p]["tickets"] = hands[p].get("tickets", 0) + 1
    if full and rng.random() < 0.4:
        tweak(rng, hands, players)
    for h in hands.values():
        if rng.random() < 0.2 and "tickets" not in h:
            h["tickets"] = 0
        if rng.random() < 0.1:
            h["piglet_race"] = h.get("piglet_race", False)
    return hands


def tweak(rng: random.Random, hands: dict[str, dict[str, Any]], players: list[str]) -> None:
    """One small change to a full deal, so that each warning is met alone."""
    p, q = rng.sample(players, 2)
    kind = rng.randrange(5)
    if kind == 0 and hands[p].get("attractions"):
        n = rng.choice(sorted(hands[p]["attractions"]))
        hands[p]["attractions"][n] -= 1
        hands[q].setdefault("attractions", {})
        hands[q]["attractions"][n] = hands[q]["attractions"].get(n, 0) + 1
    elif kind == 1 and hands[p].get("tickets"):
        hands[p]["tickets"] -= 1
    elif kind == 2:
        for h in hands.values():
            h.pop(rng.choice(["ticket_booth", "demolition_derby", "piglet_race"]), None)
    elif kind == 3 and hands[p].get("outhouses"):
        hands[p]["outhouses"] -= 1
    elif kind == 4 and hands[p].get("tickets"):
        hands[p]["tickets"] -= 1
        hands[q]["tickets"] = hands[q].get("tickets", 0) + 1


def gen_ticket(rng: random.Random) -> dict[str, Any]:
    """A destination ticket."""
    t: dict[str, Any] = {"points": rng.choice([4, 5, 8, 8, 9, 10, 11, 13, 20, 21, 22])}
    c = rng.random()
    if c < 0.55:
        t["completed"] = True
    elif c < 0.9:
        t["completed"] = False
    if rng.random() < 0.5:
        t["name"] = rng.choice(["Denver – El Paso", "Boston – Miami", "Helsinki – Oulu", "x"])
    return t


def gen_routes(rng: random.Random, limit: int) -> tuple[dict[str, int], int]:
    """Routes by length within a wagon limit; returns them with the trains used."""
    routes: dict[str, int] = {}
    used = 0
    for _ in range(rng.randint(0, 14)):
        length = rng.choice([1, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8, 9])
        if used + length > limit:
            continue
        routes[str(length)] = routes.get(str(length), 0) + 1
        used += length
    return routes, used


def gen_ttr(rng: random.Random, finland: bool = False) -> dict[str, Any]:
    """A valid Ticket to Ride (no map) or Ticket to Finland session, with ties forced often."""
    n_p = rng.randint(2, 5)
    players = NAMES[:n_p]
    rules: dict[str, Any] = {}
    limit = 45
    if finland:
        if rng.random() < 0.5:
            rules["bonus_tie"] = rng.choice(["all", "none"])
        if rng.random() < 0.2:
            limit = rng.choice([30, 40, 45])
            rules["trains"] = limit
    else:
        if rng.random() < 0.5:
            rules["tiebreak"] = rng.choice(["tickets", "shared"])
        if rng.random() < 0.2:
            rules["longest_path_bonus"] = rng.choice([0, 5, 10, 15])
    rnd: dict[str, dict[str, Any]] = {}
    small = rng.random() < 0.5
    for p in players:
        g: dict[str, Any] = {}
        kind = rng.random()
        used = None
        if kind < 0.5:
            routes, used = gen_routes(rng, limit)
            g["routes"] = routes
            if rng.random() < 0.15:
                g["route_points"] = sum(ROUTE_TABLE[int(k)] * v for k, v in routes.items())
        elif kind < 0.9:
            g["route_points"] = rng.randint(0, 12) if small else rng.randint(0, 120)
        g["tickets"] = [gen_ticket(rng) for _ in range(rng.choice([0, 1, 2, 2, 3, 3, 3, 4, 5]))]
        if small:
            for t in g["tickets"]:
                t["points"] = rng.choice([4, 5])
        if finland:
            tour = []
            for _ in range(rng.choice([0, 2, 3, 3, 4, 5])):
                t: dict[str, Any] = {}
                if rng.random() < 0.6:
                    key = rng.choice(list(TOURISTS))
                    name = rng.choice(
                        [
                            key,
                            key.upper(),
                            key.title(),
                            {"seinajoki": "Seinäjoki", "tromso": "Tromsø", "kilpisjarvi": "KILPISJÄRVI"}.get(key, key),
                        ]
                    )
                    t["name"] = name
                    if rng.random() < 0.6:
                        t["points"] = TOURISTS[key]
                else:
                    t["points"] = rng.randint(3, 8)
                    if rng.random() < 0.5:
                        t["name"] = rng.choice(["Helsinki", "Turku", "Sling", "Rovaniemi"])
                c = rng.random()
                if c < 0.6:
                    t["completed"] = True
                elif c < 0.9:
                    t["completed"] = False
                tour.append(t)
            g["tourists"] = tour
            for m in (
                "longest_route",
                "tunnels",
                "ferries",
                "longest_journey",
                "cities_visited",
                "foreign_countries",
                "perimeter_path",
            ):
                if rng.random() < 0.7:
                    g[m] = rng.choice([0, 1, 2, 3]) if small else rng.randint(0, 20)
            if used is not None and "longest_route" in g:
                g["longest_route"] = min(g["longest_route"], used)
        else:
            if rng.random() < 0.9:
                cap = used if used is not None else 45
                g["longest_path"] = rng.choice([0, min(cap, rng.choice([3, 5, 5, 8])), rng.randint(0, cap)])
        rnd[p] = g
    if rng.random() < 0.05:
        del rnd[rng.choice(players)]
    doc: dict[str, Any] = {
        "format": 1,
        "game": "ticket-to-finland" if finland else "ticket-to-ride",
        "players": players,
    }
    if rules:
        doc["rules"] = rules
    doc["rounds"] = [{"players": rnd}] if rng.random() < 0.97 else []
    return doc


def gen_mars(rng: random.Random) -> dict[str, Any]:
    """A valid Ticket to Mars session; ties force extra rounds."""
    n_p = rng.randint(2, 5)
    players = NAMES[:n_p]
    rules: dict[str, Any] = {}
    sched = 1
    if rng.random() < 0.4:
        sched = rng.randint(1, 3)
        rules["rounds"] = sched
    small = rng.random() < 0.6
    totals = {p: 0 for p in players}
    rounds = []
    k = 0
    while True:
        k += 1
        if k > sched:
            top = max(totals.values())
            if list(totals.values()).count(top) < 2:
                break
        if rng.random() < 0.08:
            break
        rnd: dict[str, dict[str, Any]] = {}
        for p in players:
            g: dict[str, Any] = {}
            for obj in ("pairs", "occupancy", "character"):
                if rng.random() < 0.85:
                    g[obj] = {"count": rng.randint(0, 2 if small else 5), "each": rng.randint(1, 2 if small else 6)}
                    totals[p] += g[obj]["count"] * g[obj]["each"]
            rnd[p] = g
        rounds.append({"players": rnd})
        if k > 8:
            break
    if rounds and rng.random() < 0.05:
        del rounds[-1]["players"][rng.choice(players)]
    doc: dict[str, Any] = {"format": 1, "game": "ticket-to-mars", "players": players}
    if rules:
        doc["rules"] = rules
    doc["rounds"] = rounds
    return doc


GENS = {
    "ticket-booth": gen_booth,
    "ticket-to-ride": gen_ttr,
    "ticket-to-finland": lambda rng: gen_ttr(rng, finland=True),
    "ticket-to-mars": gen_mars,
}


# ---------------------------------------------------------------- comparison


def num(x: Any) -> Fraction:
    """A JSON number as an exact fraction."""
    return Fraction(str(x))


def compare(doc: dict[str, Any], got: dict[str, Any]) -> list[str]:
    """Differences between the reference and the CLI's JSON for one session."""
    ref = reference(doc)
    diffs: list[str] = []
    players = doc["players"]
    if len(got["rounds"]) != len(doc["rounds"]):
        diffs.append(f"rounds {len(got['rounds'])} != {len(doc['rounds'])}")
        return diffs
    for k, (gr, rp, ri) in enumerate(zip(got["rounds"], ref["points"], ref["items"], strict=True), 1):
        if gr["number"] != k:
            diffs.append(f"round {k} number {gr['number']}")
        complete = len(doc["rounds"][k - 1]["players"]) == len(players)
        if gr["complete"] != complete:
            diffs.append(f"round {k} complete {gr['complete']}")
        if complete or True:
            for p in players:
                if num(gr["points"][p]) != rp[p]:
                    diffs.append(f"round {k} {p}: points {gr['points'][p]} != {rp[p]}")
        cats: dict[str, dict[str, Fraction]] = {p: {} for p in players}
        for item in gr["items"]:
            v = num(item["points"])
            if isinstance(item["points"], float) and v.denominator == 1:
                diffs.append(f"round {k}: whole point as float {item['points']}")
            cats[item["player"]][item["category"]] = cats[item["player"]].get(item["category"], Fraction(0)) + v
        for p in players:
            if sum(cats[p].values(), Fraction(0)) != num(gr["points"][p]):
                diffs.append(f"round {k} {p}: items sum {sum(cats[p].values())} != points {gr['points'][p]}")
            mine = {c: v for c, v in ri[p].items() if v}
            theirs = {c: v for c, v in cats[p].items() if v}
            if doc["game"] == "ticket-to-finland":
                mine = {("bonus:valid" if c == "bonus:valid_tickets" else c): v for c, v in mine.items()}
                theirs = {
                    (
                        "bonus:valid"
                        if c.startswith("bonus:")
                        and c.removeprefix("bonus:") not in FIN_BONUS
                        or c == "bonus:valid_tickets"
                        else c
                    ): v
                    for c, v in theirs.items()
                }
            if mine != theirs:
                shown = [sorted((c, str(v)) for c, v in d.items()) for d in (theirs, mine)]
                diffs.append(f"round {k} {p}: items {shown[0]} != {shown[1]}")
        if doc["game"] == "ticket-booth" and gr.get("first_player") != players[(k - 1) % len(players)]:
            diffs.append(f"round {k} first player {gr.get('first_player')}")
        if doc["game"] == "ticket-to-mars" and gr.get("first_player") != mars_first(doc, k):
            diffs.append(f"round {k} first player {gr.get('first_player')} != {mars_first(doc, k)}")
    for p in players:
        if num(got["totals"][p]) != ref["totals"][p]:
            diffs.append(f"total {p} {got['totals'][p]} != {ref['totals'][p]}")
    gr_rank = [{"place": r["place"], "players": r["players"], "total": num(r["total"])} for r in got["ranking"]]
    ref_rank = [{k: v for k, v in r.items() if k != "why"} for r in ref["ranking"]]
    if gr_rank != ref_rank:
        diffs.append(f"ranking {got['ranking']} != {ref_rank}")
    for entry, want in zip(got["ranking"], ref["ranking"], strict=False):
        why = entry.get("why", "missing")
        if want["why"] is None:
            if why is not None:
                diffs.append(f"place {entry['place']}: why {why!r} expected null (no one level on points)")
        elif not isinstance(why, str):
            diffs.append(f"place {entry['place']}: why {why!r} expected a sentence naming {want['why']}")
        else:
            total = entry["total"]
            if f"tied on {total}" not in why:
                diffs.append(f"place {entry['place']}: why {why!r} does not say the players tied on {total}")
            if not any(word in why for word in want["why"]):
                diffs.append(f"place {entry['place']}: why {why!r} does not name {' or '.join(want['why'])}")
    if got["winners"] != ref["winners"]:
        diffs.append(f"winners {got['winners']} != {ref['winners']}")
    started = any(r["players"] for r in doc["rounds"])
    if (got["tiebreak"] is not None) != ref["tiebreak"] and started:
        diffs.append(f"tiebreak {got['tiebreak']!r} expected {'a sentence' if ref['tiebreak'] else 'null'}")
    if got["complete"] != ref["complete"]:
        diffs.append(f"complete {got['complete']} != {ref['complete']}")
    if (got["next"] is None) != ref["next_null"]:
        diffs.append(f"next {got['next']!r} expected {'null' if ref['next_null'] else 'a step'}")
    if (
        got["next"]
        and doc["rounds"]
        and all(len(r["players"]) == len(players) for r in doc["rounds"])
        and doc["game"] in ("ticket-booth", "ticket-to-mars")
    ):
        k = len(doc["rounds"]) + 1
        first = (
            players[(k - 1) % len(players)]
            if doc["game"] == "ticket-booth"
            else mars_first({**doc, "rounds": doc["rounds"] + [{"players": {}}]}, k)
        )
        if f"first player: {first}" not in got["next"]:
            diffs.append(f"next {got['next']!r}: first player should be {first}")
    real_warns = [w for w in got["warnings"] if "43 or more" not in w and "trains" not in w]
    if bool(real_warns) != ref["warn"] and all(len(r["players"]) == len(players) for r in doc["rounds"]):
        diffs.append(f"warnings {got['warnings']} expected {'some' if ref['warn'] else 'none'}")
    return diffs


# ---------------------------------------------------------------- invalid files


def mutations(game: str, doc: dict[str, Any], rng: random.Random) -> list[tuple[str, dict[str, Any], str]]:
    """Invalid variants of a valid session: (what, document, the place `check` must name)."""
    import copy

    out: list[tuple[str, dict[str, Any], str]] = []
    players = doc["players"]
    p, q = players[0], players[1]

    def variant(what: str, place: str, change: Any) -> None:
        d = copy.deepcopy(doc)
        if not d["rounds"]:
            d["rounds"] = [{"players": {x: {} for x in players}}]
        r = d["rounds"][0]["players"]
        r.setdefault(p, {})
        r.setdefault(q, {})
        change(d, r)
        out.append((what, d, place))

    pre = f'rounds[1].players."{p}".'
    variant("control char in title", "title", lambda d, r: d.__setitem__("title", "Fri\x1b[31mday"))
    variant("control char in notes", "notes", lambda d, r: d.__setitem__("notes", "a\x07b"))
    variant("unknown top key", "titel", lambda d, r: d.__setitem__("titel", "x"))
    variant("unknown player key", pre + "bogus", lambda d, r: r[p].__setitem__("bogus", 1))
    variant("bad rule", "rules.", lambda d, r: d.setdefault("rules", {}).__setitem__("nonsense", 1))
    if game == "ticket-booth":
        variant("count above n", pre + 'attractions."3"', lambda d, r: r[p].__setitem__("attractions", {"3": 4}))

        def over(d: dict[str, Any], r: dict[str, Any]) -> None:
            r[p]["attractions"] = {**r[p].get("attractions", {}), "6": 4}
            r[q]["attractions"] = {**r[q].get("attractions", {}), "6": 3}

        variant("sum above n", 'attractions."6"', over)
        variant("attraction 12", 'attractions."12"', lambda d, r: r[p].__setitem__("attractions", {"12": 1}))
        variant("attraction 0", 'attractions."0"', lambda d, r: r[p].__setitem__("attractions", {"0": 1}))
        variant("negative count", 'attractions."5"', lambda d, r: r[p].__setitem__("attractions", {"5": -1}))
        variant("float count", 'attractions."5"', lambda d, r: r[p].__setitem__("attractions", {"5": 1.0}))

        def two(d: dict[str, Any], r: dict[str, Any]) -> None:
            r[p]["ticket_booth"] = True
            r[q]["ticket_booth"] = True

        variant("two booths", "ticket_booth", two)

        def two_dd(d: dict[str, Any], r: dict[str, Any]) -> None:
            r[p]["demolition_derby"] = True
            r[q]["demolition_derby"] = True

        variant("two derbies", "demolition_derby", two_dd)
        variant("4 outhouses", pre + "outhouses", lambda d, r: r[p].__setitem__("outhouses", 4))

        def oh(d: dict[str, Any], r: dict[str, Any]) -> None:
            r[p]["outhouses"] = 2
            r[q]["outhouses"] = 2

        variant("outhouses sum 4", "outhouses", oh)
        variant("tickets over 5xN", "tickets", lambda d, r: r[p].__setitem__("tickets", 5 * len(players) + 1))
        variant("negative tickets", pre + "tickets", lambda d, r: r[p].__setitem__("tickets", -1))
        variant("bool tickets", pre + "tickets", lambda d, r: r[p].__setitem__("tickets", True))
        variant("float tickets", pre + "tickets", lambda d, r: r[p].__setitem__("tickets", 2.5))
        variant("int booth", pre + "ticket_booth", lambda d, r: r[p].__setitem__("ticket_booth", 1))
        variant(
            "booth_tie value", "booth_tie", lambda d, r: d.setdefault("rules", {}).__setitem__("booth_tie", "double")
        )
        variant(
            "round past rounds",
            "rounds[2]",
            lambda d, r: (
                d.setdefault("rules", {}).__setitem__("rounds", 1),
                d["rounds"].__setitem__(slice(1, None), [{"players": {}}]),
            ),
        )
    if game in ("ticket-to-ride", "ticket-to-finland"):

        def lp(d: dict[str, Any], r: dict[str, Any]) -> None:
            r[p]["routes"] = {"3": 2}
            r[p].pop("route_points", None)
            r[p]["longest_path" if game == "ticket-to-ride" else "longest_route"] = 7

        if game == "ticket-to-ride":
            variant("longest path above trains", pre + "longest_path", lp)
            variant(
                "longest path above 45",
                pre + "longest_path",
                lambda d, r: (r[p].pop("routes", None), r[p].__setitem__("longest_path", 46)),
            )
        variant("trains above limit", pre + "routes", lambda d, r: r[p].__setitem__("routes", {"9": 5, "1": 1}))
        variant("route length 10", pre + 'routes."10"', lambda d, r: r[p].__setitem__("routes", {"10": 1}))
        variant("negative route points", pre + "route_points", lambda d, r: r[p].__setitem__("route_points", -3))
        variant(
            "float ticket points",
            pre + "tickets",
            lambda d, r: r[p].__setitem__(
                "tickets", [{"points": 8.0, "completed": True}, {"points": 5, "completed": True}]
            ),
        )
        variant(
            "string completed",
            pre + "tickets",
            lambda d, r: r[p].__setitem__(
                "tickets", [{"points": 8, "completed": "yes"}, {"points": 5, "completed": True}]
            ),
        )
        variant(
            "unknown ticket key",
            pre + "tickets",
            lambda d, r: r[p].__setitem__(
                "tickets", [{"points": 8, "complete": True}, {"points": 5, "completed": True}]
            ),
        )
        variant(
            "control in ticket name",
            pre + "tickets",
            lambda d, r: r[p].__setitem__(
                "tickets", [{"points": 8, "completed": True, "name": "A\x00B"}, {"points": 5}]
            ),
        )
        variant("second round", "rounds[2]", lambda d, r: d["rounds"].append({"players": {x: {} for x in players}}))
        if game == "ticket-to-ride":
            variant(
                "tiebreak value", "tiebreak", lambda d, r: d.setdefault("rules", {}).__setitem__("tiebreak", "coin")
            )
        else:
            variant(
                "tourist wrong value",
                pre + "tourists",
                lambda d, r: r[p].__setitem__("tourists", [{"name": "Pori", "points": 5, "completed": True}] * 3),
            )
            variant(
                "tourist accent wrong value",
                pre + "tourists",
                lambda d, r: r[p].__setitem__("tourists", [{"name": "TROMSØ", "points": 6, "completed": True}] * 3),
            )
            variant(
                "tourist 9",
                pre + "tourists",
                lambda d, r: r[p].__setitem__("tourists", [{"name": "Turku", "points": 9, "completed": True}] * 3),
            )
            variant(
                "tourist 2",
                pre + "tourists",
                lambda d, r: r[p].__setitem__("tourists", [{"points": 2, "completed": True}] * 3),
            )
            variant(
                "tourist unknown no points",
                pre + "tourists",
                lambda d, r: r[p].__setitem__("tourists", [{"name": "Turku", "completed": True}] * 3),
            )
            variant("negative tunnels", pre + "tunnels", lambda d, r: r[p].__setitem__("tunnels", -1))
            variant("bool ferries", pre + "ferries", lambda d, r: r[p].__setitem__("ferries", True))
            variant(
                "bonus_tie value", "bonus_tie", lambda d, r: d.setdefault("rules", {}).__setitem__("bonus_tie", "half")
            )
            variant(
                "trains rule limit",
                pre + "routes",
                lambda d, r: (
                    d.setdefault("rules", {}).__setitem__("trains", 20),
                    r[p].__setitem__("routes", {"6": 4}),
                ),
            )
    if game == "ticket-to-mars":
        variant("negative count", pre + "pairs", lambda d, r: r[p].__setitem__("pairs", {"count": -1, "each": 2}))
        variant("float each", pre + "occupancy", lambda d, r: r[p].__setitem__("occupancy", {"count": 1, "each": 2.5}))
        variant("unknown objective", pre + "pair", lambda d, r: r[p].__setitem__("pair", {"count": 1, "each": 2}))
        variant(
            "unknown objective key",
            pre + "character",
            lambda d, r: r[p].__setitem__("character", {"count": 1, "eachh": 2}),
        )

        def past(d: dict[str, Any], r: dict[str, Any]) -> None:
            d["rules"] = {"rounds": 1}
            r.clear()
            r[p] = {"pairs": {"count": 1, "each": 3}}
            for x in players[1:]:
                r[x] = {}
            d["rounds"][1:] = [{"players": {x: {} for x in players}}]

        variant("round past rounds without tie", "rounds[2]", past)
    return out
