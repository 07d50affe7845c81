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
OUT=${OUT:-docs}
AFTER=${AFTER:-50}
SIZE=${SIZE:-1920x1080}
EXTRA=""
[ -n "${PAUSED:-}" ] && EXTRA="--screenshots-paused"

packages=(xvfb xauth openbox imagemagick
    libegl1 libegl-mesa0 libgl1-mesa-dri mesa-vulkan-drivers libvulkan1
    libx11-6 libx11-xcb1 libxcursor1 libxi6 libxkbcommon0 libxkbcommon-x11-0
    libwayland-client0)
missing=()
for p in "${packages[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-target}/release/tandem"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p -m 0700 "$work/run"
mkdir -p "$OUT"
rm -f "$OUT/console.png" "$OUT/projector.png"

cat >"$work/inside.sh" <<EOF
set -u
openbox >/dev/null 2>&1 &
sleep 1
XDG_RUNTIME_DIR="$work/run" TANDEM_DATA_DIR="$work/data" \
    "$bin" --fullscreen --screenshots "$OUT" --screenshots-after "$AFTER" $EXTRA >"$work/app.log" 2>&1 &
pid=\$!
for _ in \$(seq $((AFTER + 20))); do
    sleep 1
    kill -0 \$pid 2>/dev/null || break
    [ -s "$OUT/console.png" ] && break
done
sleep 2
if ! kill -0 \$pid 2>/dev/null; then
    echo "the app died:" >&2
    cat "$work/app.log" >&2
    exit 1
fi
import -window root "$OUT/projector.png"
kill \$pid
wait \$pid 2>/dev/null
exit 0
EOF
xvfb-run -a -s "-screen 0 ${SIZE}x24" bash "$work/inside.sh"

for f in console projector; do
    png="$OUT/$f.png"
    [ -s "$png" ] || { echo "missing $png" >&2; exit 1; }
    # A blank (one-colour) picture has no spread of intensities.
    spread=$(convert "$png" -colorspace Gray -format '%[fx:standard_deviation]' info:)
    awk -v s="$spread" 'BEGIN { exit !(s > 0.02) }' || { echo "$png looks blank" >&2; exit 1; }
    echo "$png $(identify -format '%wx%h' "$png")"
done
