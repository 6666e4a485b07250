"""The tournament on the table (issue 19): each player's knights (ridders)
and ladies (minnen) as small cards, the duel (tweekamp) with its dice pad,
and the day's state.

- A knight's card: his attack dice (slagdobbelstenen), his fields
  (trefvelden) te paard 1–3 and te voet 4–6, red where the card covers them
  (rood omrand), filled where training covered them; his wound track
  (verwondingen, out at 10), premiums (premies), the kerchief (doek) he wears
  and his preferences (voorliefdes). A tap trains him (a picker of the ways
  to spend his points), names him the day winner (dagwinnaar) or the deciding
  duel's knight, or challenges him (uitdagen: the knight to challenge is
  tapped; a picker asks with which own knight when there are two).
- A lady's card: her attributes as the card set has them, her premiums, the
  knight wearing her kerchief. A tap on her and then on a knight lays her
  kerchief on him; when a knight must choose between two ladies, a tap on
  the one he keeps.
- Who rides today (meedoen): a button in the player's area, its picker the
  sets of his knights. Pass (passen), fight on (doorvechten), give up
  (opgeven): buttons.
- Chance: the deck's picker enters the deal (the cards in dealing order),
  the dice pads the start roll (startworp) and every duel roll (worp).

Every card lies open and every die is rolled in view, so every viewer's
table is the same; the scene is built from the view and the moves alone.
"""

from __future__ import annotations

from typing import Any

from ..scene import Chance, Element, Scene, Zone, labelled, text
from ..text import say, to_json

#: the faces a die shows, as a dice pad offers them
FACES = [1, 2, 3, 4, 5, 6]
#: fields per face on a knight's card (the card-set format fixes 2)
FIELDS_PER_FACE = 2
#: wounds that put a knight out of the tournament (R13)
OUT_AT = 10

STATUS = {
    "idle": text("not riding today", "rijdt niet mee"),
    "fit": text("fit", "strijdvaardig"),
    "out_today": text("out for today", "ligt er vandaag uit"),
    "out_of_tournament": text("out of the tournament", "uitgeschakeld"),
}
PHASE = {
    "deal": text("Dealing the cards", "Kaarten delen"),
    "train": text("Training (trainen)", "Trainen"),
    "start_roll": text("Rolling for the start player (startspeler)", "Dobbelen om de startspeler"),
    "participate": text("Who rides today (meedoen)", "Wie rijdt er mee"),
    "kerchief": text("Kerchiefs (doeken)", "Doeken aanbieden"),
    "prefer": text("The knight chooses a lady (voorkeur)", "De ridder kiest een minne"),
    "challenge": text("Challenges (uitdagen)", "Uitdagen"),
    "roll": text("Rolling the dice (dobbelen)", "Dobbelen"),
    "give_up": text("Give up or fight on (opgeven of doorvechten)", "Opgeven of doorvechten"),
    "day_winner": text("Day winner (dagwinnaar)", "Dagwinnaar"),
    "duel_knight": text("Deciding duel (beslissingsduel)", "Beslissingsduel"),
    "over": text("Tournament over", "Toernooi voorbij"),
}


def seat_text(seat: int) -> str:
    """A seat in a label: the renderer puts the player's name there."""
    return "{seat%d}" % seat


def knight_id(ident: str) -> str:
    return f"knight-{ident}"


def lady_id(ident: str) -> str:
    return f"lady-{ident}"


def join(en: list[str], nl: list[str]) -> dict[str, str]:
    return text(", ".join(en), ", ".join(nl))


def plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def training_text(dice: int, cover: list[int]) -> dict[str, str]:
    """A way to spend training points: "+1 die, cover 3" / "+1 slagdobbelsteen, trefveld 3 afdekken"."""
    en, nl = [], []
    if dice:
        bought = training_dice_text(dice)
        en.append(bought["en"])
        nl.append(bought["nl"])
    if cover:
        faces = " and ".join(str(f) for f in cover)
        en.append(f"cover {faces}")
        nl.append(f"{'trefveld' if len(cover) == 1 else 'trefvelden'} {' en '.join(str(f) for f in cover)} afdekken")
    if not en:
        return text("no training", "niet trainen")
    return join(en, nl)


def training_dice_text(dice: int) -> dict[str, str]:
    """The first step of the training picker: how many of the points buy dice."""
    if not dice:
        return text("no extra die", "geen extra slagdobbelsteen")
    return text(f"+{dice} {'die' if dice == 1 else 'dice'}",
                f"+{dice} {'slagdobbelsteen' if dice == 1 else 'slagdobbelstenen'}")


TONE_TEXT = {
    "red": text("covered on the card", "rood omrand"), "covered": text("covered by training", "afgedekt"),
    "open": text("open", "open"), "hit": text("hit", "treffer"), "blocked": text("blocked", "afgeweerd"),
    "miss": text("no hit", "geen treffer"),
}


def spoken(faces: list[dict[str, Any]]) -> dict[str, str]:
    """What a row of dice says to a screen reader: "1 covered on the card, 1 open, …"."""
    return {lang: ", ".join(f"{f['face']} {TONE_TEXT[f['tone']][lang]}" for f in faces) for lang in ("en", "nl")}


def fields(k: dict[str, Any], part: str, faces: tuple[int, ...]) -> dict[str, Any]:
    """A row of a knight's fields: red where the card covers, filled where training did, open else."""
    out = []
    for f in faces:
        red, covered = k["red"][part][str(f)], k["cover"][part][str(f)]
        for i in range(max(FIELDS_PER_FACE, covered)):
            out.append({"face": f, "tone": "red" if i < red else "covered" if i < covered else "open"})
    label = text("mounted", "te paard") if part == "mounted" else text("on foot", "te voet")
    return {"label": label, "faces": out, "spoken": spoken(out)}


def rolled(faces: list[int], cover: dict[str, int], lo: int) -> list[dict[str, Any]]:
    """The attacker's dice as they fell: hits, dice a covered field blocks, misses (R9, R12)."""
    seen: dict[int, int] = {}
    out = []
    for f in faces:
        seen[f] = seen.get(f, 0) + 1
        tone = "miss" if not lo <= f <= lo + 2 else "blocked" if seen[f] <= cover[str(f)] else "hit"
        out.append({"face": f, "tone": tone})
    return out


def knight_lines(k: dict[str, Any], ladies: dict[str, dict[str, Any]]) -> list[dict[str, str]]:
    status = STATUS.get(k["status"], text(k["status"]))
    dice = plural(k["dice_today"], "die", "dice")
    nl_dice = plural(k["dice_today"], "slagdobbelsteen", "slagdobbelstenen")
    if k["penalty"]:
        dice += f" (of {k['dice']})"
        nl_dice += f" (van {k['dice']})"
    prem = plural(k["premiums"], "premium", "premiums")
    nl_prem = plural(k["premiums"], "premie", "premies")
    if k["day_premiums"] and k["status"] != "idle":
        prem += f", +{k['day_premiums']} today"
        nl_prem += f", +{k['day_premiums']} vandaag"
    lines = [text(f"{status['en']} · {dice} · {prem}", f"{status['nl']} · {nl_dice} · {nl_prem}")]
    if k["kerchief"]:
        name = ladies[k["kerchief"]]["name"] if k["kerchief"] in ladies else k["kerchief"]
        lines.append(text(f"kerchief: {name}", f"doek: {name}"))
    if k["training_points"]:
        n = k["training_points"]
        lines.append(text(f"{plural(n, 'training point', 'training points')} to spend",
                          f"{plural(n, 'trainingspunt', 'trainingspunten')} te besteden"))
    prefs = ", ".join(p.split(":", 1)[-1] for p in k["preferences"])
    if prefs:
        lines.append(text(f"prefers: {prefs}", f"voorliefde: {prefs}"))
    return lines


def lady_lines(x: dict[str, Any], knights: dict[str, dict[str, Any]]) -> list[dict[str, str]]:
    attrs = ", ".join(x["attributes"].values())
    lines = [text(attrs)] if attrs else []
    prem = text(plural(x["premiums"], "premium", "premiums"), plural(x["premiums"], "premie", "premies"))
    if x["knight"]:
        name = knights[x["knight"]]["name"] if x["knight"] in knights else x["knight"]
        lines.append(text(f"{prem['en']} · kerchief on {name}", f"{prem['nl']} · doek op {name}"))
    else:
        lines.append(prem)
    return lines


def scene(view: dict[str, Any], moves: list[dict[str, Any]]) -> Scene:
    knights = {k["id"]: k for k in view.get("knights") or []}
    ladies = {x["id"]: x for x in view.get("ladies") or []}
    names = {**{i: k["name"] for i, k in knights.items()}, **{i: x["name"] for i, x in ladies.items()}}
    chance = "chance" in (view.get("to_act") or [])
    phase = view.get("phase")
    players = len(view.get("scores") or [])
    by_id: dict[str, Element] = {}

    def nm(ident: str) -> str:
        return names.get(ident, ident)

    # -- the cards of each player --------------------------------------------------------------
    for i, k in knights.items():
        by_id[knight_id(i)] = Element(
            knight_id(i), "token", text(k["name"]),
            shows={"lines": knight_lines(k, ladies),
                   "dice": [fields(k, "mounted", (1, 2, 3)), fields(k, "foot", (4, 5, 6))],
                   "marks": [{"label": text("wounds", "verwondingen"), "value": k["wounds"], "max": OUT_AT}],
                   "status": k["status"]},
        )
    for i, x in ladies.items():
        by_id[lady_id(i)] = Element(lady_id(i), "token", text(x["name"]), shows={"lines": lady_lines(x, knights)})
    seat_actions: dict[int, list[Element]] = {s: [] for s in range(players)}
    duel_actions: list[Element] = []

    # -- every legal move on its place ----------------------------------------------------------
    participate: dict[int, list[dict[str, Any]]] = {}
    fallback: list[dict[str, Any]] = []
    for m in moves:
        t, d, seat = m["type"], m["data"], m["seat"]
        if t == "train":
            label = training_text(d["dice"], d["cover"])
            by_id[knight_id(d["knight"])].moves.append(labelled(m, label["en"], label["nl"],
                                                                group=training_dice_text(d["dice"])))
        elif t == "participate":
            ks = [nm(k) for k in d["knights"]]
            if not ks:
                label = text("nobody rides today", "niemand rijdt mee")
            elif len(ks) == 1:
                label = text(f"{ks[0]} rides", f"{ks[0]} rijdt mee")
            else:
                label = text(f"{' and '.join(ks)} ride", f"{' en '.join(ks)} rijden mee")
            participate.setdefault(seat, []).append(labelled(m, label["en"], label["nl"]))
        elif t == "kerchief":
            by_id[lady_id(d["lady"])].targets.setdefault(knight_id(d["knight"]), []).append(m)
        elif t == "prefer":
            by_id[lady_id(d["lady"])].moves.append(labelled(m, f"{nm(d['lady'])} keeps her kerchief on him",
                                                            f"{nm(d['lady'])} houdt haar doek op hem"))
        elif t == "challenge":
            by_id[knight_id(d["target"])].moves.append(labelled(m, f"{nm(d['knight'])} challenges {nm(d['target'])}",
                                                                f"{nm(d['knight'])} daagt {nm(d['target'])} uit"))
        elif t in ("day_winner", "duel_knight"):
            label = (text(f"{nm(d['knight'])} is the day winner", f"{nm(d['knight'])} is dagwinnaar") if t == "day_winner"
                     else text(f"{nm(d['knight'])} rides the deciding duel", f"{nm(d['knight'])} rijdt het beslissingsduel"))
            by_id[knight_id(d["knight"])].moves.append(labelled(m, label["en"], label["nl"]))
        elif t == "pass":
            seat_actions[seat].append(Element(f"pass-{seat}", "action", text("Pass: no challenge now", "Passen: nu niet uitdagen"),
                                              moves=[m], highlight=True))
        elif t in ("fight_on", "give_up"):
            duel = view.get("duel") or {}
            mine = [k for k in (duel.get("attacker"), duel.get("defender")) if k in knights and knights[k]["owner"] == seat]
            who = nm(mine[0]) if mine else seat_text(seat)
            label = (text(f"{who} fights on", f"{who} vecht door") if t == "fight_on"
                     else text(f"{who} gives up", f"{who} geeft op"))
            duel_actions.append(Element(f"{t}-{seat}", "action", label, moves=[m], highlight=True))
        else:  # a move of a kind this drawing has no place for: the text buttons enter it
            fallback.append(m)
    for seat, ms in participate.items():
        seat_actions[seat].append(Element(f"participate-{seat}", "action", text("Who rides today?", "Wie rijdt er mee?"),
                                          moves=ms, highlight=True))
    involved = {i for e in by_id.values() if e.targets for i in (e.id, *e.targets)}
    for e in by_id.values():
        e.highlight = bool(e.moves) or e.id in involved

    # -- the zones ------------------------------------------------------------------------------
    zones: list[Zone] = [tournament_zone(view, names)]
    if phase == "deal":
        zones.append(deck_zone(view, chance, players))
    if phase == "start_roll":
        zones.append(start_zone(view, chance))
    if view.get("duel"):
        zones.append(duel_zone(view, names, chance, duel_actions))
    for seat in range(players):
        own = [by_id[knight_id(i)] for i, k in knights.items() if k["owner"] == seat]
        own += [by_id[lady_id(i)] for i, x in ladies.items() if x["owner"] == seat]
        score = view["scores"][seat]
        title = text(f"{seat_text(seat)}: {plural(score, 'premium', 'premiums')} (premies)",
                     f"{seat_text(seat)}: {plural(score, 'premie', 'premies')}")
        if view.get("start_player") == seat and phase != "over":
            title = {k: v + (" · start player" if k == "en" else " · startspeler") for k, v in title.items()}
        zones.append(Zone(f"seat-{seat}", "seat", title, own + seat_actions[seat], seat=seat))
    return Scene(zones, fallback)


def tournament_zone(view: dict[str, Any], names: dict[str, str]) -> Zone:
    """The day, what happens now, the start player, the day's results and a placeholder set's warning."""
    day, days, phase = view.get("day", 0), view.get("days", 4), view.get("phase")
    els = []
    if day:
        els.append(Element("day", "label", text(f"Day {day} of {days} (toernooidag)", f"Toernooidag {day} van {days}")))
    else:
        els.append(Element("day", "label", text(f"Before the tournament of {days} days", f"Voor het toernooi van {days} dagen")))
    now = PHASE.get(phase, text(str(phase)))
    if view.get("turn") is not None and phase not in ("over",):
        now = {k: f"{v}: {seat_text(view['turn'])}" for k, v in now.items()}
    els.append(Element("phase", "label", now))
    contest = view.get("contest")
    if contest:
        k, (a, b) = contest["knight"], contest["ladies"]
        els.append(Element("contest", "label", text(f"{names.get(k, k)} chooses: {names.get(a, a)} or {names.get(b, b)}",
                                                    f"{names.get(k, k)} kiest: {names.get(a, a)} of {names.get(b, b)}")))
    won = [(k["name"], k["day_premiums"]) for k in view.get("knights") or []
           if k["day_premiums"] and k["status"] != "idle" and phase not in ("train", "over")]
    if won:
        en = ", ".join(f"{n} ×{p}" for n, p in won)
        els.append(Element("won-today", "label", text(f"Duels won today: {en}", f"Vandaag gewonnen: {en}")))
    out = [k["name"] for k in view.get("knights") or [] if k["status"] == "out_today"]
    if out:
        els.append(Element("out-today", "label", text(f"Out for today: {', '.join(out)}", f"Vandaag afgevallen: {', '.join(out)}")))
    result = view.get("result")
    if result:
        # said from the catalogue where it is shown (scene.js), in the page's language
        els.append(Element("result", "label", to_json(say("Over: {reason}", reason=result.get("reason", "")))))
    card_set = view.get("card_set") or {}
    if card_set.get("placeholder"):
        els.append(Element("placeholder", "label", text("PLACEHOLDER card values (not the printed cards)",
                                                        "PLAATSVERVANGENDE kaartwaarden (niet de gedrukte kaarten)")))
    return Zone("tournament", "row", text("Tournament (toernooi)", "Toernooi"), els)


def deck_zone(view: dict[str, Any], chance: bool, players: int) -> Zone:
    """Before the deal: the knight and lady cards, whose picker enters the deal in dealing order."""
    deck = view.get("deck") or {"knights": [], "ladies": [], "per_player": 2, "ladies_in_play": True}
    cards = deck["knights"] + deck["ladies"]
    per = deck["per_player"]
    picker = None
    if chance:
        n = per * players * (2 if deck["ladies_in_play"] else 1)
        knights = text(plural(per, "knight", "knights"), plural(per, "ridder", "ridders"))
        ladies = text(plural(per, "lady", "ladies"), plural(per, "minne", "minnen"))
        what = (text(f"{knights['en']} and {ladies['en']}", f"{knights['nl']} en {ladies['nl']}") if deck["ladies_in_play"]
                else knights)
        picker = Chance(type="deal", field="cards", values=[c["id"] for c in cards], count=n,
                        names={c["id"]: text(c["name"]) for c in cards},
                        label=text(f"Deal: tap the cards each player gets, {seat_text(0)} first: {what['en']} each",
                                   f"Delen: tik de kaarten van elke speler aan, {seat_text(0)} eerst: elk {what['nl']}"))
    el = Element("deck", "pile", text(f"Knight and lady cards: {len(cards)}", f"Ridder- en minnekaarten: {len(cards)}"),
                 shows={"count": len(cards)}, face_down=True, chance=picker, highlight=picker is not None)
    return Zone("deck", "stack", text("The cards (kaarten)", "De kaarten"), [el])


def start_zone(view: dict[str, Any], chance: bool) -> Zone:
    """The start roll (R4): one die for each player still rolling, on the dice pad."""
    rolling = view.get("rolling_for_start") or []
    who = ", ".join(seat_text(s) for s in rolling)
    picker = None
    if chance and rolling:
        picker = Chance(type="start_roll", field="faces", values=FACES, count=len(rolling), repeat=True,
                        label=text(f"Start roll: each player's die, in seat order: {who}",
                                   f"Startworp: de dobbelsteen van elke speler, in volgorde: {who}"))
    pad = Element("start-dice", "action", text(f"Dice pad: {who} roll one die each", f"Dobbelstenen: {who} gooien elk één"),
                  chance=picker, highlight=picker is not None)
    return Zone("start", "row", text("Start player (startspeler)", "Startspeler"), [pad])


def duel_zone(view: dict[str, Any], names: dict[str, str], chance: bool, actions: list[Element]) -> Zone:
    """The duel: who fights whom, how, the attacker's roll with its hits, the dice pad, and give up / fight on."""
    duel = view["duel"]
    a, d = duel["attacker"], duel["defender"]
    knights = {k["id"]: k for k in view.get("knights") or []}
    mounted = duel["mode"] == "mounted"
    how = text("mounted", "te paard") if mounted else text("on foot", "te voet")
    els = [Element("duel", "label", text(f"{names.get(a, a)} challenged {names.get(d, d)} · {how['en']}",
                                         f"{names.get(a, a)} daagde {names.get(d, d)} uit · {how['nl']}"))]
    if duel["deciding"]:
        els.append(Element("deciding", "label", text("Deciding duel: nobody gives up", "Beslissingsduel: niemand geeft op")))
    if duel["extra_dice"]:
        n = duel["extra_dice"]
        els.append(Element("woedend", "label", text(f"Woedend: {plural(n, 'extra die', 'extra dice')} this round",
                                                    f"Woedend: {n} slagdobbelsteen extra deze ronde" if n == 1
                                                    else f"Woedend: {n} slagdobbelstenen extra deze ronde")))
    if duel["attacker_roll"] is not None:
        lo = 1 if mounted else 4
        cover = knights[d]["cover"]["mounted" if mounted else "foot"] if d in knights else {str(f): 0 for f in FACES}
        hits = duel["attacker_hits"]
        said = text(f"{names.get(a, a)} rolled", f"{names.get(a, a)} gooide")
        if hits is not None:
            said = text(f"{said['en']}: {plural(hits, 'hit', 'hits')}", f"{said['nl']}: {plural(hits, 'treffer', 'treffers')}")
        els.append(Element("attacker-roll", "label", said,
                           shows={"dice": [{"label": text("roll", "worp"), "faces": (faces := rolled(duel["attacker_roll"], cover, lo)),
                                            "spoken": spoken(faces)}]}))
    roller = duel.get("to_roll")
    if roller:
        n, least = duel["dice_to_roll"], duel["dice_to_roll_min"]
        count = plural(n, "die", "dice") if least == n else f"{least}–{n} dice"
        nl_count = plural(n, "slagdobbelsteen", "slagdobbelstenen") if least == n else f"{least}–{n} slagdobbelstenen"
        picker = None
        if chance:
            picker = Chance(type="roll", field="faces", values=FACES, count=n, repeat=True, least=None if least == n else least,
                            label=text(f"Roll: {names.get(roller, roller)}'s {count}, tap each face",
                                       f"Worp: {names.get(roller, roller)} gooit {nl_count}, tik elke uitkomst aan"))
        els.append(Element("dice", "action", text(f"Dice pad: {names.get(roller, roller)} rolls {count}",
                                                  f"Dobbelstenen: {names.get(roller, roller)} gooit {nl_count}"),
                           chance=picker, highlight=picker is not None))
    title = text("Duel (tweekamp)", "Tweekamp")
    return Zone("duel", "row", title, els + actions)
