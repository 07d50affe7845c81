#!/usr/bin/env bash
# CPU and memory of the app, measured with pidstat over 60 s under Xvfb (software
# rendering: Mesa's lavapipe/llvmpipe, no GPU), in two situations:
#   demo   the demo match playing (clocks running, both windows open);
#   idle   two idle virtual boards (`tandem emulate`), a match started, no clock running.
#
#   scripts/measure.sh            # both
#   scripts/measure.sh demo       # one of them
#
# Run scripts/screenshots.sh once first (or install xvfb, openbox and Mesa yourself);
# this script adds sysstat (pidstat) if it is missing.
set -euo pipefail

cd "$(dirname "$0")/.."
. scripts/lib.sh
which=${1:-all}
SECS=${SECS:-60}
need_packages sysstat
prepare

measure() { # name, then the app's arguments
    local name=$1
    shift
    cat >"$work/inside.sh" <<EOF
set -u
openbox >/dev/null 2>&1 &
sleep 1
cd "$work"
extra=""
if [ "$name" = idle ]; then
    mkfifo emu_in
    ( sleep $((SECS + 60)) >emu_in ) &
    "$bin" emulate <emu_in >emu.out 2>&1 &
    sleep 2
    extra="--board-a \$(awk '/^A:/ {print \$2}' emu.out) --board-b \$(awk '/^B:/ {print \$2}' emu.out)"
fi
XDG_RUNTIME_DIR="$work/run" TANDEM_DATA_DIR="$work/data-$name" "$bin" $* \$extra >"$work/app-$name.log" 2>&1 &
pid=\$!
sleep 30
pidstat -u -r -h -p \$pid 1 $SECS >"$work/pidstat-$name.txt"
kill \$pid
wait \$pid 2>/dev/null
exit 0
EOF
    xvfb-run -a -s "-screen 0 2700x1100x24" bash "$work/inside.sh"
    awk -v name="$name" '$1 !~ /^#/ && NF > 10 { cpu += $8; rss += $13; n++ }
        END { printf "%-5s %d samples: CPU %.1f %% of one core (mean), RSS %.0f MB (mean)\n",
              name, n, cpu / n, rss / n / 1024 }' "$work/pidstat-$name.txt"
}

if [ "$which" = all ] || [ "$which" = demo ]; then
    measure demo
fi
if [ "$which" = all ] || [ "$which" = idle ]; then
    measure idle --profile virtual --start --players "Ada,Boris,Chen,Dana"
fi
