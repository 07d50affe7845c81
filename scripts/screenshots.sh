#!/usr/bin/env bash
# Screenshots of the TD console and the projector for the README, taken from a real window
# under Xvfb (software rendering, no GPU needed), with the demo match running.
#
#   scripts/screenshots.sh            # writes docs/console.png and docs/projector.png
#   AFTER=60 OUT=/tmp/shots scripts/screenshots.sh
#   PAUSED=1 OUT=/tmp/shots scripts/screenshots.sh   # both clocks stopped a moment before:
#                                                    # the Clocks tab and PAUSED on the projector
#
# It installs what it needs with apt-get (Debian/Ubuntu, as root or with sudo), builds the
# release binary, runs it under Xvfb with a window manager (openbox: fullscreen needs one)
# and the projector fullscreen, lets the demo play AFTER seconds, has the app save the
# console's pixels (eframe reads back the root window only), grabs the screen (the
# fullscreen projector), checks the app is still alive and the pictures are not blank,
# and stops the app.
set -euo pipefail

cd "$(dirname "$0")/.."
. scripts/lib.sh
OUT=${OUT:-docs}
AFTER=${AFTER:-50}
SIZE=${SIZE:-1920x1080}
EXTRA=""
[ -n "${PAUSED:-}" ] && EXTRA="--screenshots-paused"

need_packages "${XVFB_PACKAGES[@]}"
prepare
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
rm -f "$OUT/console.png" "$OUT/projector.png"

shoot "$OUT/projector.png" "$OUT/console.png" \
    --screenshots "$OUT" --screenshots-after "$AFTER" $EXTRA

for f in console projector; do
    check_png "$OUT/$f.png"
done
