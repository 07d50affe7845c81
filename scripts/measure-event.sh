#!/usr/bin/env bash
# An evening's load, measured: the app running a demo evening of 8 teams (4 matches live
# at once on 8 virtual boards, each with its workers, arbiter thread, journal and
# folder), the TD overview in the main window (1366x820) and the projector grid in its
# own (1280x720), under Xvfb with software rendering (no GPU), as scripts/measure.sh
# measures the single match.
#
#   scripts/measure-event.sh                  # 30 minutes after 30 s of warm-up
#   SECS=300 scripts/measure-event.sh         # a shorter look
#
# Prints: CPU (% of one core) and RSS of the app (pidstat every second), the CPU of each
# kind of thread over the run (from /proc/PID/task/*/stat at the start and the end: the
# arbiter threads' share), and how many matches were live (sampled every 10 s from the
# event's match folders). The machine may be shared: `uptime` is printed before and after.
set -euo pipefail

cd "$(dirname "$0")/.."
. scripts/lib.sh
SECS=${SECS:-1800}
PLIES=${PLIES:-200}
need_packages sysstat
prepare

# CPU ticks of each thread, summed by thread name (digits and board letters dropped:
# arbiter, board-, virtual-, demo-hands, the UI's).
ticks() {
    for t in /proc/"$1"/task/*; do
        name=$(tr -d '\n' <"$t/comm" | sed 's/[0-9]*$//; s/-[AB]$/-/')
        # utime and stime: fields 14 and 15, counted after the ")" that ends the name.
        set -- $(sed 's/.*) //' "$t/stat")
        echo "$name ${12} ${13}"
    done | awk '{ t[$1] += $2 + $3 } END { for (n in t) print n, t[n] }' | sort
}

cat >"$work/inside.sh" <<EOF
set -u
openbox >/dev/null 2>&1 &
sleep 1
cd "$work"
XDG_RUNTIME_DIR="$work/run" TANDEM_DATA_DIR="$work/data" "$bin" --event-demo 8 --demo-plies $PLIES \
    >"$work/app.log" 2>&1 &
pid=\$!
echo \$pid >"$work/pid"
sleep 30
( while kill -0 \$pid 2>/dev/null; do
    live=0
    for d in "$work"/data/demo/events/*/rounds/*/*/; do
        [ -f "\$d/match.journal" ] && [ ! -f "\$d/closed" ] && live=\$((live + 1))
    done
    echo "\$(date +%s) \$live" >>"$work/live.txt"
    sleep 10
  done ) &
$(declare -f ticks)
ticks \$pid >"$work/ticks-start.txt"
pidstat -u -r -h -p \$pid 1 $SECS >"$work/pidstat.txt"
ticks \$pid >"$work/ticks-end.txt"
kill \$pid
wait \$pid 2>/dev/null
exit 0
EOF
echo "before: $(uptime)"
xvfb-run -a -s "-screen 0 2700x1100x24" bash "$work/inside.sh"
echo "after:  $(uptime)"
awk '$1 !~ /^#/ && NF > 10 { cpu += $8; rss += $13; if ($13 > max) max = $13; n++ }
    END { printf "app, %d samples: CPU %.1f %% of one core (mean), RSS %.0f MB (mean), %.0f MB (max)\n",
          n, cpu / n, rss / n / 1024, max / 1024 }' "$work/pidstat.txt"
hz=$(getconf CLK_TCK)
join -a 2 -e 0 -o 0,1.2,2.2 "$work/ticks-start.txt" "$work/ticks-end.txt" |
    awk -v hz="$hz" -v secs="$SECS" '{ d = ($3 - $2) / hz; total += d; t[$1] = d }
        END { for (n in t) printf "  threads %-14s %6.1f %% of one core (%.1f %% of the app)\n",
                  n, 100 * t[n] / secs, 100 * t[n] / total }' | sort -k3 -rn
awk '{ n[$2]++; total++ } END { for (k in n) printf "  %d matches live: %.0f %% of the samples\n", k, 100 * n[k] / total }' \
    "$work/live.txt" | sort -rn
