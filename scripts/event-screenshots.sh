#!/usr/bin/env bash
# Screenshots of an evening for the README, from real windows under Xvfb (software
# rendering), as scripts/screenshots.sh takes the single match's:
#   overview.png        the TD overview: a demo evening of 8 teams, 4 matches live on 8
#                       virtual boards (the app saves its own window)
#   projector-grid.png  the projector fullscreen: the round's 4 matches in a grid
#   standings.png       the projector between rounds: the standings of an evening played
#                       by `tandem event simulate` (8 teams, Swiss)
#
#   scripts/event-screenshots.sh                 # into docs/
#   AFTER=40 OUT=/tmp/shots scripts/event-screenshots.sh
#
set -euo pipefail

cd "$(dirname "$0")/.."
. scripts/lib.sh
OUT=${OUT:-docs}
AFTER=${AFTER:-45}
SIZE=${SIZE:-1920x1080}

need_packages "${XVFB_PACKAGES[@]}"
prepare
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
rm -f "$OUT/overview.png" "$OUT/projector-grid.png" "$OUT/standings.png"

# A finished evening for the standings.
"$bin" event simulate Thursday --teams 8 --rules uscf-bughouse --format swiss --rounds 4 \
    --plies 30 --seed 3 --data-dir "$work/sim" >/dev/null

shoot "$OUT/projector-grid.png" "$OUT/overview.png" --event-demo 8 --screenshots "$OUT" --screenshots-after "$AFTER"
AFTER=8 shoot "$OUT/standings.png" "" --data-dir "$work/sim" --event Thursday --hall standings

for f in overview projector-grid standings; do
    check_png "$OUT/$f.png"
done
