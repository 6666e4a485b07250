"""The rules catalogue: rule id -> English statement with the Dutch source term
(chapter numbers of the rules text in brackets). A RuleViolation names one of
these ids; every id has a test marked with it."""

from ..text import N_

RULES: dict[str, str] = {
    # -- set-up (2) ------------------------------------------------------------------
    "troubadour.players": N_(
        "Two, three or four players, each with a deck of his own (iedere speler speelt met een eigen "
        "kaartspel) [2, 11]."
    ),
    "troubadour.setup": N_(
        "Set-up (begin van het spel): the 12 jacks, queens and kings of a deck are the player's nobles (edelen); "
        "the 40 cards ace–ten are the building cards (bouwkaarten), shuffled face down as the draw pile "
        "(draaistapel). Five villages (dorpen) are dealt from it, each two cards face down and a third face up "
        "on top; the other 25 cards stay in the draw pile [2]."
    ),
    "troubadour.unseen_card": N_(
        "A card the table turns face up (from the draw pile, or a face-down village card) must be one that can "
        "be there: a building card of that player's deck that is not visible elsewhere and not known to lie "
        "elsewhere. Nobles are never among the building cards [2, recording]."
    ),
    # -- rounds and nobles (2, 6, 7) --------------------------------------------------
    "troubadour.rounds": N_(
        "The game is played in rounds (spelronden) in which every player has one turn; each round starts with "
        "a new choice of nobles from all twelve, whatever was chosen before [2]."
    ),
    "troubadour.choose": N_(
        "At the start of each round every player chooses three different nobles from his own twelve "
        "(drie edelen uit de eigen twaalf edelen) [2, 6]."
    ),
    "troubadour.secret_choice": N_(
        "The nobles are chosen in secret (zonder dat de andere speler kan zien welke) and revealed together "
        "(tegelijkertijd zichtbaar) once every player holds his three [2, 6]."
    ),
    "troubadour.noble_order": N_(
        "The ranking of the nobles (rangorde), low to high: spades, diamonds, clubs, hearts (schoppen, ruiten, "
        "klaver, harten), and within a suit jack, queen, king (boer, vrouw, heer); the suit counts first, so "
        "the clubs jack ranks above the diamonds king [7]."
    ),
    "troubadour.first_player": N_(
        "Who plays first (wie speelt het eerst): the player whose lowest chosen noble ranks lowest; when the "
        "lowest are the same, the second lowest decide, then the third [7]."
    ),
    "troubadour.turn_order": N_(
        "With three or four players (reading, as the table chooses): all players take their turns in the order "
        "of their trios, lowest first; or the lowest starts and the turn passes clockwise [7, 11]."
    ),
    "troubadour.tie_die": N_(
        "Exactly the same trios (exact dezelfde trio's), broken with a die: the tied players roll a die "
        "(dobbelsteen) and the lowest roll plays first; equal rolls are rolled again [7 N.B.1]."
    ),
    "troubadour.tie_nobles": N_(
        "Exactly the same trios, broken with one more noble: each tied player secretly picks one more noble from the "
        "nine outside his trio; queen beats jack, king beats queen, jack beats king (vrouw wint van boer, heer "
        "van vrouw, boer van heer); the beaten player must start; equal ranks, or all three, pick again "
        "[7 N.B.1]."
    ),
    "troubadour.nobles_chosen": N_(
        "A player can only use the powers of the three nobles he chose this round (de drie gekozen edelen) [6]."
    ),
    "troubadour.once_per_turn": N_(
        "Nobles (and combinations of them) exert their power only once per turn (maar één keer per beurt); "
        "a noble used in a combination is used [8]."
    ),
    # -- the turn (2, 8) ---------------------------------------------------------------
    "troubadour.own_turn": N_(
        "Only the player whose turn it is (de speler die aan de beurt is) turns cards, builds and plays nobles, "
        "and he builds only his own villages and castles (enkel de eigen kastelen) [4, 8]."
    ),
    "troubadour.standard_turn_over": N_(
        "The standard turn-over (standaardkaartdraai): once per turn the player may turn one card of his draw "
        "pile face up onto his discard pile (raapstapel); it needs a card to turn [2, 8]."
    ),
    "troubadour.no_more_flips": N_(
        "Cards are turned only by the standard turn-over (extended by the clubs jack), the clubs queen and king "
        "and hearts queen+king; after those, no more cards are turned that turn, even with an empty discard "
        "pile [8]."
    ),
    "troubadour.recycle": N_(
        "When the draw pile is empty and the player may (and wants to) turn a card, his whole discard pile is "
        "turned over unshuffled (in zijn geheel en ongeschud) as the new draw pile; when he may not, it waits "
        "for his next turn. Its order is known, so each card turned from it must be the next one [2, 8]."
    ),
    "troubadour.discard_top": N_(
        "Only the top card of the discard pile is visible and may be taken (enkel de bovenste kaart); when it "
        "is taken the next one may be taken, and so on. Nobody browses the discard pile [2, 8]."
    ),
    "troubadour.sources": N_(
        "A building card is taken only from the top of the discard pile or the top of a village (a run from "
        "the top part of a village), except with the hearts nobles; cards never go back to the discard pile "
        "or the draw pile except by a spades attack [4, 5]."
    ),
    "troubadour.end_turn": N_(
        "The player himself declares the end of his turn (geeft zelf duidelijk aan); after that he can play "
        "no forgotten noble and build nothing more [8]."
    ),
    # -- castles (4) --------------------------------------------------------------------
    "troubadour.castle_start": N_("A castle (kasteel) starts with an ace (aas) [4]."),
    "troubadour.castle_suit": N_(
        "A castle is built by suit (naar soort) in ascending order (oplopende volgorde): on the ace of spades only the two of spades, then the "
        "three, up to the ten; a castle is complete with ace–ten of one suit [4]."
    ),
    "troubadour.castle_final": N_(
        "Cards on a castle (bouwkaarten van een kasteel) never go back to a village, the discard pile or the draw pile, except through the "
        "spades jack+queen+king of an opponent [4]."
    ),
    # -- villages (5) ---------------------------------------------------------------------
    "troubadour.village_build": N_(
        "On a village the card played goes on its top card and is one lower in value and of the opposite colour "
        "(één lager, tegenovergestelde kleur: rood op zwart, zwart op rood); it comes from the top of the discard "
        "pile or the top of another village [5]."
    ),
    "troubadour.empty_village": N_(
        "Every player keeps five villages all game; a village may become empty, and any building card may then "
        "be put on it (from the top of the discard pile or of another village) [5]."
    ),
    "troubadour.run_move": N_(
        "A run (rijtje) on top of a village, each card one lower than the one below it and alternating in "
        "colour, may be moved as one card to another village whose top is one higher and of the opposite colour "
        "than its highest card, or to an empty village; so may a part of a run that includes the top card [5]."
    ),
    "troubadour.face_down_turned": N_(
        "A face-down village card that becomes the top card of its village may be turned face up (mag omgedraaid "
        "worden; reading: by its owner, in his own turn, when he chooses; until then it stays face down and "
        "nothing is built on it) [5]."
    ),
    # -- spades: attack (6, 11) -------------------------------------------------------------
    "troubadour.spades_jack": N_(
        "Spades jack (schoppen boer): all cards of one village of an opponent are taken, shuffled and put face "
        "down under that opponent's draw pile [6]."
    ),
    "troubadour.spades_queen": N_(
        "Spades queen (schoppen vrouw): the top card of every village of an opponent is taken, shuffled and put "
        "face down under that opponent's draw pile [6]."
    ),
    "troubadour.spades_trio": N_(
        "Spades jack+queen+king (schoppen boer+vrouw+heer): all cards of one castle of an opponent are taken, "
        "shuffled and put face down under that opponent's draw pile; the spades king has power only in this "
        "combination [6]."
    ),
    "troubadour.spades_either_or": N_(
        "With spades jack, queen and king chosen, the jack and queen may be played apart instead (toch afzonderlijk); after either "
        "was used alone the trio cannot be played that turn, and after the trio neither can be used alone "
        "[6 N.B.2]."
    ),
    "troubadour.attack_one_opponent": N_(
        "With three or four players each attack is aimed at one opponent (altijd op één tegenstander gericht); the jack may attack one and the "
        "queen another in the same turn, and a player may be attacked by several opponents in a round [11]."
    ),
    "troubadour.attack_under_pile": N_(
        "The cards an attack takes are shuffled and go face down under the owner's draw pile (geschud, onderop de draaistapel): the log knows "
        "them as a set, not in order, and they come up only after the cards above them [6]."
    ),
    # -- diamonds: protection (6, 11) ------------------------------------------------------
    "troubadour.diamonds_jack": N_(
        "Diamonds jack (ruiten boer) protects against the spades jack of the opponent [6]."
    ),
    "troubadour.diamonds_queen": N_(
        "Diamonds queen (ruiten vrouw) protects against the spades queen of the opponent [6]."
    ),
    "troubadour.diamonds_king": N_(
        "Diamonds king (ruiten heer), alone, protects against the spades jack+queen+king of the opponent [6]."
    ),
    "troubadour.protection_all_opponents": N_(
        "With three or four players the diamonds protect against the attacks of all opponents (beschermen tegen aanvallen van alle tegenstanders) [11]."
    ),
    # -- clubs: extra cards (6, 8) -----------------------------------------------------------
    "troubadour.clubs_jack": N_(
        "Clubs jack (klaver boer) extends the standard turn-over: cards are turned until one fits a village or "
        "a castle (with an empty village the first card fits); if the draw pile runs out, the discard pile is "
        "turned over unshuffled and turning goes on (reading: it stops when no card left could fit) [6]."
    ),
    "troubadour.clubs_queen": N_(
        "Clubs queen (klaver vrouw): two extra cards are turned on top of the standard turn-over; each may be "
        "used to build if it fits (ieder van de extra gedraaide kaarten mag gebruikt worden), so they are turned "
        "one at a time and each may be used before the next is turned [6]."
    ),
    "troubadour.clubs_king": N_(
        "Clubs king (klaver heer): three extra cards, but only when an opponent chose the clubs jack or the "
        "clubs queen this round; its cards add to those of the clubs queen, and each may be used as it is "
        "turned [6]."
    ),
    "troubadour.clubs_after_turn_over": N_(
        "The clubs queen and king are played only after the standard turn-over (perhaps extended by the clubs "
        "jack) or after hearts queen+king, which replaces it [8]."
    ),
    # -- hearts: special building (6) ----------------------------------------------------------
    "troubadour.hearts_jack": N_(
        "Hearts jack (harten boer): one face-up card from anywhere in one village may go to a castle or onto "
        "the top of a village (als bovenste kaart op een dorp; its own village too), if it fits there [6]."
    ),
    "troubadour.hearts_queen": N_(
        "Hearts queen (harten vrouw): one face-down card in one village is turned face up and stays in its "
        "place, except an ace, which may at once start a castle [6]."
    ),
    "troubadour.hearts_queen_king": N_(
        "Hearts queen+king (harten vrouw+heer), only when no village card lies face down: the player names a "
        "building card that is not in a village and, instead of the standard turn-over, turns cards without "
        "stopping until it appears (turning the discard pile over when the draw pile runs out) [6, 8]."
    ),
    # -- the end (9) -------------------------------------------------------------------------
    "troubadour.win": N_(
        "The game ends the moment a player completes his fourth castle (de tien boven op alle vier de "
        "kastelen); he wins [9]."
    ),
}
