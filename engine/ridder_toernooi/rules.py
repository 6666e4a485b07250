"""The rules catalogue: rule id -> English statement with the Dutch source term.
A RuleViolation names one of these ids; every id has a test marked with it."""

from ..text import N_

P = "ridder_toernooi."

RULES: dict[str, str] = {
    P + "R1": N_("Set-up (speelvoorbereiding): the knight and lady cards are shuffled and each player is dealt 2 knights "
    "(ridderkaarten) and 2 ladies (minnekaarten), or 1 and 1 with more than five players; the other cards do not "
    "take part in this tournament."),
    P + "R2": N_("Each knight starts on his card's attack dice (slagdobbelstenen), 0 wounds and 0 premiums; each lady "
    "starts on 0 premiums and her player holds her kerchief (doekfiche)."),
    P + "R3": N_("Training before day 1 (training): each knight gets 2 points, spent as +2 dice, 2 extra covered "
    "fields (trefvelden), or +1 die and 1 field; fields are mounted (1/2/3) or foot (4/5/6), at most 2 per face "
    "including the red (rood omrande) ones, and the dice stay on the card's track."),
    P + "R4": N_("Start player (startspeler): each player rolls one die; the highest roll starts (tied highest rolls "
    "roll again)."),
    P + "R5": N_("Each day every player first decides which of his knights take part (deelnemen); none is allowed; "
    "a knight out of the tournament cannot."),
    P + "R6": N_("Kerchiefs (doekjes): from the start player clockwise each player lays one lady's kerchief on any "
    "participating knight, own or foreign; a knight carries one kerchief; if he already carries one, the lady with "
    "more matches (overeenstemmingen) of her attributes with his preferences (voorliefdes) keeps him, on equal "
    "counts the rank order decides (the newcomer wins only if her matches rank higher), and on identical matches "
    "the knight's player chooses; the rejected lady offers again on her player's next turn (the option "
    "“A rejected lady is offered again first” says whether she must go first then, or any of his free ladies "
    "may), never again to a knight who rejected her that day."),
    P + "R7": N_("On day 1 every participating knight must carry a kerchief: the kerchief phase does not end while a "
    "knight is bare and a lady can still be offered to him."),
    P + "R8": N_("Challenges (uitdagen): from the start player clockwise each player challenges with one of his fit "
    "(strijdvaardige) knights a fit knight of another player; the challenged knight must accept; a player's own "
    "knights never fight each other."),
    P + "R9": N_("Mounted round (strijd te paard): the attacker rolls his dice and his hits are marked on the "
    "defender's wound track at once (vastgehouden), then the defender rolls; both rolls are judged together; only "
    "1, 2 and 3 hit, and each covered field of a face blocks one die of that face; every hit is one wound."),
    P + "R10": N_("A knight wounded on horseback falls off (valt van het paard); if exactly one falls, the other wins "
    "once both have rolled."),
    P + "R11": N_("Woedend: if neither knight hits in the mounted round, both roll again with one extra die for that "
    "round only (the option “Rerolls after a round without hits (woedend)”: “every”, “first only” or "
    "“cumulative”); the option “The extra woedend die”: the extra die is “required”, or “optional” "
    "('mag ... gebruiken')."),
    P + "R12": N_("If both fall they fight on foot (te voet): rounds of attacker then defender, only 4, 5 and 6 hit, "
    "blocked by foot fields, until one knight gives up (opgeven) after a round or reaches 10 wounds."),
    P + "R13": N_("A knight with 10 or more wounds is out of the whole tournament (uit het toernooi); both at 10 in one "
    "round: both out and nobody wins, or (the option “Both knights reach 10 wounds” set to “attacker first”) the "
    "attacker's hits count first and the defender they put out does not strike back."),
    P + "R14": N_("The winner of a duel gets +1 premium (premie), and so does the lady whose kerchief he carries."),
    P + "R15": N_("The loser is out for the rest of the day: he can neither challenge nor be challenged, and his lady "
    "collects no more premiums that day (the option “Day bonus for the lady after a lost duel”: whether the day "
    "bonus still reaches her)."),
    P + "R16": N_("After a duel the next player clockwise challenges (de linkerbuurman)."),
    P + "R17": N_("The day ends when at most one fit knight is left or all fit knights belong to one player."),
    P + "R18": N_("Day winner (dagwinnaar): the knight with the most premiums; a tie between knights of one player is "
    "settled by that player, a tie between players means no day winner; he and the lady of his kerchief get +d "
    "premiums on day d."),
    P + "R19": N_("At the end of each day every kerchief goes back to its lady."),
    P + "R20": N_("Night (de nacht): every knight still in the tournament heals 3 wounds."),
    P + "R21": N_("Training at the start of the next day by wounds after healing: 0 wounds gives 2 points (as before day 1), "
    "1–3 wounds 1 point (a die or a field), more than 3 none."),
    P + "R22": N_("Each new day is started by the player to the left of the previous day's start player."),
    P + "R23": N_("A wounded knight may sit a day out (niet aantreden); he heals in the night like every knight."),
    P + "R24": N_("The tournament lasts 4 days, or 2 or 3 if agreed beforehand (the option “Tournament days”)."),
    P + "R25": N_("After the last day's bonus the knight with the most premiums gets +4, and so does the lady with the "
    "most premiums (ties: every tied card)."),
    P + "R26": N_("A player scores the premiums of all his knights and ladies; the highest total wins."),
    P + "R27": N_("Tied players settle it in a deciding duel (beslissingsduel), each choosing one knight: normal duel "
    "rules, it ends as soon as exactly one knight falls, on foot it goes on until one has 10 or more wounds, and "
    "nobody may give up."),
    P + "E1": N_("Expansion: more than four days, the day bonus rising with the day (the option “Tournament days” up to "
    "20)."),
    P + "E2": N_("Expansion: at the start of a day a knight with 4–6 wounds rolls 1 die less and with 7–9 wounds "
    "3 dice less (the option “Wounded knights roll fewer dice”; “Dice lost with 7–9 wounds”: 2 or 3), never "
    "below the dice minimum."),
    P + "E3": N_("Expansion: play without ladies (zonder minnekaarten; the option “Play with ladies” off): no kerchiefs, "
    "only knights score."),
    P + "card_set": N_("A match is played with one validated card set; its setup records the set and its SHA-256, and "
    "a set that does not hash to the recorded hash is refused."),
    P + "dice": N_("A roll is entered die by die: exactly as many faces 1–6 as the knight rolls now."),
}
