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
# Run scripts/screenshots.sh once first (it installs Xvfb, openbox, Mesa, ImageMagick).
set -euo pipefail

cd "$(dirname "$0")/.."
OUT=${OUT:-docs}
AFTER=${AFTER:-45}
SIZE=${SIZE:-1920x1080}

cargo build --release --quiet
bin="$(realpath "${CARGO_TARGET_DIR:-target}/release/tandem")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p -m 0700 "$work/run"
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
rm -f "$OUT/overview.png" "$OUT/projector-grid.png" "$OUT/standings.png"

# A finished evening for the standings.
"$bin" event simulate Thursday --teams 8 --rules uscf-bughouse --format swiss --rounds 4 \
    --plies 30 --seed 3 --data-dir "$work/sim" >/dev/null

shoot() { # app arguments; the shot of the projector goes to $1
    local grab=$1
    shift
    cat >"$work/inside.sh" <<EOF
set -u
openbox >/dev/null 2>&1 &
sleep 1
XDG_RUNTIME_DIR="$work/run" TANDEM_DATA_DIR="$work/data" "$bin" --fullscreen $* >"$work/app.log" 2>&1 &
pid=\$!
for _ in \$(seq $((AFTER + 20))); do
    sleep 1
    kill -0 \$pid 2>/dev/null || break
    case "$*" in *--screenshots*) [ -s "$OUT/overview.png" ] && break ;; *) ;; esac
done
sleep 2
if ! kill -0 \$pid 2>/dev/null; then
    echo "the app died:" >&2
    cat "$work/app.log" >&2
    exit 1
fi
import -window root "$grab"
kill \$pid
wait \$pid 2>/dev/null
exit 0
EOF
    xvfb-run -a -s "-screen 0 ${SIZE}x24" bash "$work/inside.sh"
}

shoot "$OUT/projector-grid.png" --event-demo 8 --screenshots "$OUT" --screenshots-after "$AFTER"
AFTER=8 shoot "$OUT/standings.png" --data-dir "$work/sim" --event Thursday --hall standings

for f in overview projector-grid standings; do
    png="$OUT/$f.png"
    [ -s "$png" ] || { echo "missing $png" >&2; exit 1; }
    spread=$(convert "$png" -colorspace Gray -format '%[fx:standard_deviation]' info:)
    awk -v s="$spread" 'BEGIN { exit !(s > 0.02) }' || { echo "$png looks blank" >&2; exit 1; }
    echo "$png $(identify -format '%wx%h' "$png")"
done
