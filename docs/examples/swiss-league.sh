#!/usr/bin/env bash
# A Swiss league of 8 BraveRats players, end to end: accounts, pairing,
# recording, standings, exports and an offline verification.
# Needs curl and jq, and a running Kroniek (make run). Usage:
#   ADMIN_TOKEN=kr_… docs/examples/swiss-league.sh [http://127.0.0.1:8000/api]
set -euo pipefail
API=${1:-http://127.0.0.1:8000/api}
KRONIEK=${KRONIEK:-.venv/bin/kroniek}
OUT=${OUT:-.}
WAIT=${WAIT:-60}  # seconds to wait for the worker (a verdict, a ratings table) before giving up
admin=(-H "Authorization: Bearer $ADMIN_TOKEN")
json=(-H 'Content-Type: application/json')

# wait_for WHAT COMMAND…: run COMMAND every half second until it succeeds, for WAIT seconds at most.
wait_for() {
  local what=$1 deadline=$((SECONDS + WAIT)); shift
  until "$@"; do
    if ((SECONDS >= deadline)); then echo "gave up after ${WAIT} s waiting for $what" >&2; return 1; fi
    sleep 0.5
  done
}
# (the polls below match the answer's text in bash, as the recording loop does: no jq every half second)
validated() {
  local m; m=$(curl -sf "$API/matches/$1") || return 1
  [[ $m == *'"validation":"valid"'* ]] && return 0
  if [[ $m == *'"validation":"invalid"'* ]]; then
    echo "match $1 is invalid: $(jq -c '{seq, validation, validation_details}' <<<"$m")" >&2
    exit 1
  fi
  return 1
}
rated() { local r; r=$(curl -sf "$API/ratings/braverats") && [[ $r =~ \"results\":([0-9]+) ]] && ((BASH_REMATCH[1] >= $1)); }

# 1. The admin makes an organiser; the organiser's token does the rest.
ORG=$(curl -sf "$API/users" "${admin[@]}" "${json[@]}" -d "{\"name\": \"org-$RANDOM\"}" | jq -r .token)
org=(-H "Authorization: Bearer $ORG")

# 2. The league: its setup is seq 1 of its stream; the creator organises it.
L=$(curl -sf "$API/leagues" "${org[@]}" "${json[@]}" -d '{
      "name": "Winter Swiss", "game": "braverats", "format": "swiss", "rounds": 3,
      "rules": {"tiebreaks": ["buchholz", "sonneborn_berger", "wins"]},
      "players": ["Ann", "Bob", "Cas", "Dirk", "Eva", "Fien", "Gijs", "Hans"]}' | jq -r .id)
echo "league $L"

# Seat 0 (Red) and seat 1 (Blue) play these cards round by round; with this
# order Red wins 4 rounds to 1, and on even boards the seats swap hands.
ROUNDS=("prince spy" "general assassin" "ambassador musician" "wizard wizard"
        "spy princess" "musician general" "assassin ambassador" "princess prince")

for round in 1 2 3; do
  # 3. Pair the round: the server computes the Dutch-system pairing and the
  #    stream records it (a replay recomputes it and refuses any other).
  boards=$(curl -sf -X POST "$API/leagues/$L/rounds" "${org[@]}" | jq -c '.league.rounds[-1].boards')
  echo "round $round: $(jq -c '[.[] | .players]' <<<"$boards")"
  played=()
  for board in $(seq 1 "$(jq length <<<"$boards")"); do
    if [[ $round == 3 && $board == 4 ]]; then
      # 4. A board that was not played: a forfeit, with its reason.
      absent=$(jq -r ".[3].players[1]" <<<"$boards")
      curl -sf "$API/leagues/$L/forfeits" "${org[@]}" "${json[@]}" \
           -d "{\"round\": 3, \"board\": 4, \"forfeited\": [\"$absent\"], \"reason\": \"did not show\"}" >/dev/null
      continue
    fi
    # 5. The board's match (players in seat order), recorded round by round.
    M=$(curl -sf -X POST "$API/leagues/$L/rounds/$round/boards/$board/match" "${org[@]}" | jq -r .id)
    for pair in "${ROUNDS[@]}"; do
      read -r red blue <<<"$pair"
      (( board % 2 == 0 )) && cards="[\"$blue\", \"$red\"]" || cards="[\"$red\", \"$blue\"]"
      reply=$(curl -sf "$API/matches/$M/events" "${org[@]}" "${json[@]}" \
              -d "{\"type\": \"round\", \"data\": {\"cards\": $cards}}")
      # the reply's "status" says when the match is over (a bash match: no jq for each of the ~70 moves)
      [[ $reply == *'"status":"finished"'* ]] && break
    done
    played+=("$M")
  done
  # 6. A result enters once the worker has validated its match's whole log
  #    (the round's matches are validated meanwhile, side by side).
  for M in "${played[@]}"; do
    wait_for "the verdict on match $M" validated "$M"
    curl -sf "$API/leagues/$L/results" "${org[@]}" "${json[@]}" -d "{\"match\": \"$M\"}" >/dev/null
  done
done

# 7. Standings (recomputed from the stream), play rows, ratings.
curl -sf "$API/leagues/$L/standings" | jq -c '.standings[] | [.rank, .player, .points, .tiebreaks]'
curl -sf "$API/leagues/$L/standings?format=csv" > "$OUT/standings-$L.csv"
curl -sf "$API/leagues/$L/plays?format=csv" > "$OUT/plays-$L.csv"
curl -sf "$API/leagues/$L/plays?format=bgstats" > "$OUT/league-$L.bgsplay"
curl -sf "$API/leagues/$L/plays?format=bgg" > "$OUT/bgg-plays-$L.csv"
# FIDE's TRF, for a pairing program; imported again it is the same tournament.
curl -sf "$API/leagues/$L/trf" > "$OUT/league-$L.trf"
C=$(curl -sf -X POST "$API/leagues/import?game=braverats&tiebreaks=buchholz,sonneborn_berger,wins" "${org[@]}" -H 'Content-Type: text/plain; charset=utf-8' \
         --data-binary @"$OUT/league-$L.trf" | jq -r .id)
diff <(curl -sf "$API/leagues/$L/standings" | jq -c .standings) <(curl -sf "$API/leagues/$C/standings" | jq -c .standings) \
  && echo "✓ the TRF imports as a league with the same standings"
wait_for "the ratings of 11 results" rated 11
curl -sf "$API/ratings/braverats" | jq -c '.ratings[:3][] | [.player, (.rating | round), (.deviation | round)]'

# 8. The archive, and its check without the server: pin the server's key.
curl -sf "$API/leagues/$L/export" > "$OUT/league-$L.jsonl"
KEY=$(curl -sf "$API/log/public-key" | jq -r .public_key)
"$KRONIEK" audit verify "$OUT/league-$L.jsonl" --public-key "$KEY"
curl -sf "$API/leagues/$L/audit" | jq -c '{valid, checked}'
