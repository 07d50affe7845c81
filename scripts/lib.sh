# Shared by the scripts in this folder (sourced, not run): packages, the release build, a
# scratch folder, the app under Xvfb, and the check that a screenshot is not blank.

# Installs with apt-get whichever of the named Debian packages are missing (as root or
# with sudo).
need_packages() {
    local missing=() p sudo=""
    for p in "$@"; do
        dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
    done
    ((${#missing[@]})) || return 0
    [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# What the app needs to draw under Xvfb with software rendering (no GPU), and to be grabbed.
XVFB_PACKAGES=(xvfb xauth openbox imagemagick
    libegl1 libegl-mesa0 libgl1-mesa-dri mesa-vulkan-drivers libvulkan1
    libx11-6 libx11-xcb1 libxcursor1 libxi6 libxkbcommon0 libxkbcommon-x11-0
    libwayland-client0)

# Builds the release binary; sets `bin` to its absolute path and `work` to a scratch
# folder removed on exit (with a private XDG_RUNTIME_DIR in "$work/run").
prepare() {
    cargo build --release --quiet
    bin="$(realpath "${CARGO_TARGET_DIR:-target}/release/tandem")"
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    mkdir -p -m 0700 "$work/run"
}

# Runs the app fullscreen under Xvfb with a window manager (fullscreen needs one) until
# the picture `wait_for` exists (or the app dies, or AFTER + 20 s pass), checks it is still
# alive, grabs the screen into `grab` and stops it.
#   shoot GRAB WAIT_FOR APP_ARGS...      (WAIT_FOR may be "" to wait the whole time)
shoot() {
    local grab=$1 wait_for=$2
    shift 2
    cat >"$work/inside.sh" <<INSIDE
set -u
openbox >/dev/null 2>&1 &
sleep 1
XDG_RUNTIME_DIR="$work/run" TANDEM_DATA_DIR="$work/data" "$bin" --fullscreen $* >"$work/app.log" 2>&1 &
pid=\$!
for _ in \$(seq $((AFTER + 20))); do
    sleep 1
    kill -0 \$pid 2>/dev/null || break
    [ -n "$wait_for" ] && [ -s "$wait_for" ] && break
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
INSIDE
    xvfb-run -a -s "-screen 0 ${SIZE}x24" bash "$work/inside.sh"
}

# Fails unless the picture exists and is not blank (one colour has no spread of
# intensities); prints its size.
check_png() {
    local png=$1 spread
    [ -s "$png" ] || { echo "missing $png" >&2; exit 1; }
    spread=$(convert "$png" -colorspace Gray -format '%[fx:standard_deviation]' info:)
    awk -v s="$spread" 'BEGIN { exit !(s > 0.02) }' || { echo "$png looks blank" >&2; exit 1; }
    echo "$png $(identify -format '%wx%h' "$png")"
}
