#!/usr/bin/env bash
# Install Legatus on a Raspberry Pi (Raspberry Pi OS Bookworm). Safe to run again.
#
#   sudo scripts/install-pi.sh [--user NAME] [--venv DIR] [--serial PORT | --no-serial] [--dry-run]
#                              [--i2c-baudrate HZ] [--boot-config FILE] [--only-i2c]
#
# Steps: apt packages (python3-venv, lgpio, spidev, RPi.GPIO API, i2c-tools,
# and numpy, Pillow, cbor2 from Debian: PyPI has no 32-bit ARM wheels of them);
# I2C and SPI enabled with raspi-config, and the I2C clock set to 400 kHz
# (dtparam=i2c_arm_baudrate=400000 in /boot/firmware/config.txt or
# /boot/config.txt, or --boot-config FILE; --i2c-baudrate HZ for another speed,
# see docs/hardware.md before trying 1000000); the user added to gpio, i2c,
# spi, dialout; a virtual environment at /opt/legatus/venv (with the system
# site packages, for the apt-installed modules) with a copy of this checkout
# installed by pip from wheels only (nothing is compiled, nothing is written
# into the checkout); the systemd unit legatus.service (Restart=on-failure
# with a start limit, state and legatus.log in /var/lib/legatus; with
# --serial, the console protocol on PORT too, e.g. /dev/ttyGS0; run again
# without it, the installed unit's port is kept; --no-serial drops it) installed,
# enabled and (re)started. Run again without --venv, the installed unit's
# virtual environment is kept.
# --only-i2c sets the I2C clock and does nothing else. --dry-run prints every
# step instead of doing it and needs no root.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv=/opt/legatus/venv
user=${SUDO_USER:-$(id -un)}
user_given=false
venv_given=false
serial_args=""
serial_port=""
serial_given=false
dry_run=false
groups=(gpio i2c spi dialout)
unit_name=legatus.service
# (LEGATUS_UNIT_DIR: another directory for the unit, for the tests only)
unit_path=${LEGATUS_UNIT_DIR:-/etc/systemd/system}/$unit_name
# numpy, Pillow and cbor2 (luma.core's) come from Debian: PyPI has no armv7l wheels of them, and
# the Raspberry Pi OS Lite image has no compiler toolchain set up for building them.
apt_packages=(python3-venv python3-pip python3-lgpio python3-spidev i2c-tools
              python3-numpy python3-pil python3-cbor2 python3-smbus2)
i2c_baudrate=400000
i2c_given=false
boot_config=""
only_i2c=false

usage() {
  sed -n '2,23p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

while [ $# -gt 0 ]; do
  case $1 in
    --dry-run) dry_run=true ;;
    --user) user=${2:?--user needs a name}; user_given=true; shift ;;
    --venv) venv=${2:?--venv needs a directory}; venv_given=true; shift ;;
    --serial) serial_port=${2:?--serial needs a port}; serial_args=" --serial $serial_port"; serial_given=true; shift ;;
    --no-serial) serial_port=""; serial_args=""; serial_given=true ;;
    --i2c-baudrate) i2c_baudrate=${2:?--i2c-baudrate needs a speed in Hz}; i2c_given=true; shift ;;
    --boot-config) boot_config=${2:?--boot-config needs a file}; shift ;;
    --only-i2c) only_i2c=true ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install-pi.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done

say() { printf '==> %s\n' "$*"; }
warn() { printf 'warning: %s\n' "$*" >&2; }

# run CMD...: print it; execute it unless --dry-run.
run() {
  printf '+ %s\n' "$*"
  if ! $dry_run; then "$@"; fi
}

# Run again to upgrade without --venv (the installed unit named another one), a second virtual
# environment was made at the default path and the unit pointed at it, the first one left behind:
# the installed unit's is kept, as its serial port is (--venv DIR changes it).
if ! $venv_given && ! $only_i2c && [ -f "$unit_path" ]; then
  kept=$(sed -n 's|^ExecStart=\(/[A-Za-z0-9._/+-]*\)/bin/legatus\( .*\)\{0,1\}$|\1|p' "$unit_path" | head -1)
  if [ -n "$kept" ] && [ "$kept" != "$venv" ]; then
    venv=$kept
    echo "keeping the virtual environment $venv (from the installed unit; --venv DIR changes it)"
  fi
fi
case $venv in
  /*) ;;
  *) echo "install-pi.sh: --venv must be an absolute path, got $venv" >&2; exit 2 ;;
esac
# Both go into the unit's ExecStart= as they are: systemd splits it at spaces (and treats quotes,
# backslashes, % and $ specially), and sed's replacement would take & and | for its own.
case $venv in
  *[!A-Za-z0-9._/+-]*) echo "install-pi.sh: --venv may hold only letters, digits and . _ / + - (the unit's ExecStart= names it), got '$venv'" >&2; exit 2 ;;
esac
case $serial_port in
  '') ;;
  *[!A-Za-z0-9._/:+-]*) echo "install-pi.sh: --serial may hold only letters, digits and . _ / : + - (the unit's ExecStart= names it), got '$serial_port'" >&2; exit 2 ;;
  /dev/*|*://*) ;;
  *) echo "install-pi.sh: --serial takes a device path such as /dev/ttyGS0 or /dev/serial0, got '$serial_port'" >&2; exit 2 ;;
esac
case $i2c_baudrate in
  ''|*[!0-9]*|0*) echo "install-pi.sh: --i2c-baudrate must be a speed in Hz such as 400000, got $i2c_baudrate" >&2; exit 2 ;;
esac

# set_i2c_baudrate: make the boot config hold dtparam=i2c_arm_baudrate=$i2c_baudrate.
# An existing (uncommented) setting is changed in place, else the line is appended under
# [all]; a file that already holds it is left untouched. Takes effect after a reboot.
set_i2c_baudrate() {
  local want="dtparam=i2c_arm_baudrate=$i2c_baudrate" file=$boot_config candidate current new old
  local setting='^[[:space:]]*dtparam=([^#]*,)?i2c_arm_baudrate='
  if [ -n "$file" ] && [ ! -f "$file" ]; then
    echo "install-pi.sh: --boot-config $file: no such file" >&2
    exit 1
  fi
  if [ -z "$file" ]; then
    for candidate in /boot/firmware/config.txt /boot/config.txt; do
      if [ -f "$candidate" ]; then file=$candidate; break; fi
    done
  fi
  if [ -z "$file" ]; then
    warn "no boot config found (/boot/firmware/config.txt or /boot/config.txt): add $want to it yourself and reboot"
    return 0
  fi
  # Run again without --i2c-baudrate (to upgrade), a faster clock chosen before with it went back to
  # 400 kHz without a word: it is kept. (A slower one, the Pi's default 100 kHz, is raised as always.)
  current=$(grep -E "$setting" "$file" | sed -n 's/.*i2c_arm_baudrate=\([0-9][0-9]*\).*/\1/p' | tail -1 || true)
  if ! $i2c_given && [ -n "$current" ] && [ "$current" -gt "$i2c_baudrate" ]; then
    echo "keeping the I2C clock at $current Hz (set before; --i2c-baudrate HZ changes it)"
    i2c_baudrate=$current
    want="dtparam=i2c_arm_baudrate=$i2c_baudrate"
  elif [ "$i2c_baudrate" -gt 400000 ]; then
    warn "$i2c_baudrate Hz is beyond I2C fast mode (400000): see docs/hardware.md for what can go wrong"
  fi
  current=$(cat "$file")
  new=$(awk -v hz="$i2c_baudrate" '
    /^[[:space:]]*dtparam=/ && /i2c_arm_baudrate=/ {
      sub(/i2c_arm_baudrate=[0-9]*/, "i2c_arm_baudrate=" hz); found = 1
    }
    { print }
    END {
      if (!found) {
        print "[all]"
        print "# I2C clock for the OLED (Legatus scripts/install-pi.sh; docs/hardware.md)"
        print "dtparam=i2c_arm_baudrate=" hz
      }
    }' "$file")
  if [ "$new" = "$current" ]; then
    echo "$file already has $want"
    return 0
  fi
  old=$(grep -E "$setting" "$file" | tr '\n' ' ' | sed 's/ $//' || true)
  if [ -n "$old" ]; then
    printf '+ edit %s: %s -> %s\n' "$file" "$old" \
      "$(printf '%s\n' "$new" | grep -E "$setting" | tr '\n' ' ' | sed 's/ $//')"
  else
    printf '+ edit %s: append [all] and %s\n' "$file" "$want"
  fi
  if $dry_run; then
    return 0
  fi
  if [ ! -w "$file" ]; then
    echo "install-pi.sh: cannot write $file; run as root (sudo)" >&2
    exit 1
  fi
  cp -p "$file" "$file.legatus-bak"
  printf '%s\n' "$new" > "$file.legatus-tmp"
  mv "$file.legatus-tmp" "$file"
  echo "(the old file is $file.legatus-bak; reboot to apply)"
}

if $only_i2c; then
  say "I2C clock $i2c_baudrate Hz"
  set_i2c_baudrate
  exit 0
fi
# raspi-config's overlay file system (boot=overlay on the kernel command line: / is an overlay on
# RAM): everything installed now would be gone at the next boot, and no game could be kept.
# (LEGATUS_PROC: another /proc, for the tests only)
if grep -qw 'boot=overlay' "${LEGATUS_PROC:-/proc}/cmdline" 2>/dev/null; then
  overlay="the overlay file system is on (raspi-config): what this script installs would be gone at the next boot, and Legatus could keep no game. Turn it off (sudo raspi-config nonint disable_overlayfs), reboot, and run this script again"
  if $dry_run; then
    warn "$overlay"
  else
    echo "install-pi.sh: $overlay" >&2
    exit 1
  fi
fi
if ! $dry_run && [ "$(id -u)" -ne 0 ]; then
  echo "install-pi.sh: run as root (sudo $0 $*), or with --dry-run to see the steps" >&2
  exit 1
fi
if [ "$user" = root ] && ! $user_given; then
  echo "install-pi.sh: the service should not run as root; pass --user NAME" >&2
  exit 1
fi
if ! id -u "$user" >/dev/null 2>&1; then
  if $dry_run; then
    warn "user $user does not exist (dry run: continuing)"
  else
    echo "install-pi.sh: user $user does not exist; pass --user NAME" >&2
    exit 1
  fi
fi

say "1/5 system packages"
if command -v apt-get >/dev/null 2>&1; then
  # luma's SPI interface needs the RPi.GPIO API; rpi-lgpio provides it on Bookworm. (Asked of
  # dpkg, not by importing it: importing lgpio as root here would leave its root-owned
  # notification pipe in the current directory, the user's checkout.)
  if ! dpkg-query -W -f='${Status}' python3-rpi-lgpio python3-rpi.gpio 2>/dev/null | grep -q 'ok installed'; then
    apt_packages+=(python3-rpi-lgpio)
  fi
  needed=()
  for pkg in "${apt_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed' || needed+=("$pkg")
  done
  if [ ${#needed[@]} -gt 0 ]; then
    # Offline, apt's own last words were "Unable to fetch some archives, maybe run apt-get update or
    # try with --fix-missing?" (or "Unable to locate package" on an image with no package lists):
    # nothing said that the network is what is missing, and the script stopped there.
    if ! run apt-get update; then
      warn "apt-get update failed (no network?): trying with the package lists already here"
    fi
    if ! run apt-get install -y --no-install-recommends "${needed[@]}"; then
      echo "install-pi.sh: apt-get could not install ${needed[*]} (its errors are above). Without a" \
        "network they cannot be fetched: connect the Pi to the network (sudo raspi-config, System" \
        "Options, Wireless LAN) and run this script again. Nothing else was changed." >&2
      exit 1
    fi
  else
    echo "all of ${apt_packages[*]} are installed"
  fi
else
  warn "apt-get not found: install ${apt_packages[*]} python3-rpi-lgpio yourself"
fi

say "2/5 I2C (at $i2c_baudrate Hz) and SPI"
if command -v raspi-config >/dev/null 2>&1; then
  run raspi-config nonint do_i2c 0
  run raspi-config nonint do_spi 0
else
  warn "raspi-config not found: add dtparam=i2c_arm=on and dtparam=spi=on to /boot/firmware/config.txt and reboot"
fi
set_i2c_baudrate

say "3/5 groups for $user: ${groups[*]}"
missing=()
for group in "${groups[@]}"; do
  if ! getent group "$group" >/dev/null; then
    warn "group $group does not exist on this system: skipping it (is this Raspberry Pi OS?)"
  elif id -nG "$user" 2>/dev/null | tr ' ' '\n' | grep -qx "$group"; then
    echo "$user is already in $group"
  else
    missing+=("$group")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  run usermod -aG "$(IFS=,; echo "${missing[*]}")" "$user"
fi

say "4/5 virtual environment $venv"
if [ -x "$venv/bin/python" ]; then
  echo "$venv exists: reusing it"
else
  run mkdir -p "$(dirname "$venv")"
  run python3 -m venv --system-site-packages "$venv"
fi
# pip builds a source tree in place (build/, legatus.egg-info): it gets a root-owned copy, so the
# user's checkout stays the user's. Wheels only: nothing is compiled on the Pi.
if $dry_run; then
  src=/tmp/legatus-src.XXXXXX
else
  src=$(mktemp -d /tmp/legatus-src.XXXXXX)
  trap 'rm -rf "$src"' EXIT
fi
printf '+ copy %s to %s (without .git, .venv, build/, *.egg-info)\n' "$repo" "$src"
if ! $dry_run; then
  tar -C "$repo" --exclude=./.git --exclude=./.venv --exclude=./build --exclude='./*.egg-info' \
    --exclude='.lgd-nfy*' -cf - . | tar -C "$src" -xf -
fi
# Without a network (an upgrade copied onto a Pi that only talks to a laptop over USB), pip
# cannot fetch setuptools for its isolated build: then the same install is made from what is
# already here (the dependencies in the venv, Debian's setuptools and wheel), if that is enough.
if ! run "$venv/bin/pip" install --upgrade --only-binary=:all: "$src"; then
  warn "pip could not install from PyPI (no network?): trying with what is already installed"
  if ! run "$venv/bin/pip" install --upgrade --no-index --no-build-isolation --only-binary=:all: "$src"; then
    echo "install-pi.sh: pip could not install Legatus (its errors are above). Without a network" \
      "not everything it needs is here yet: connect the Pi to the network and run this script" \
      "again. What was installed before is unchanged; the unit was not touched." >&2
    exit 1
  fi
fi
# What an earlier version of this script left root-owned in the checkout goes back to the user.
for stale in "$repo/build" "$repo"/*.egg-info "$repo"/.lgd-nfy*; do
  if [ -e "$stale" ] && [ "$(stat -c %U "$stale")" = root ] && [ "$user" != root ]; then
    run chown -R "$user": "$stale"
  fi
done

say "5/5 systemd unit $unit_path"
# Run again to upgrade ("pull and rerun") without --serial, the unit was written without the
# console's port: the serial console stopped after the upgrade, without a word. The installed
# unit's port is kept unless --serial or --no-serial says otherwise.
if ! $serial_given && [ -f "$unit_path" ]; then
  kept=$(sed -n 's/^ExecStart=.* --serial \([A-Za-z0-9._\/:+-][A-Za-z0-9._\/:+-]*\).*$/\1/p' "$unit_path" | head -1)
  if [ -n "$kept" ]; then
    serial_args=" --serial $kept"
    echo "keeping the serial console on $kept (from the installed unit; --no-serial drops it)"
  fi
fi
unit=$(sed -e "s|@USER@|$user|g" -e "s|@VENV@|$venv|g" -e "s|@ARGS@|$serial_args|g" \
  "$repo/scripts/$unit_name")
if $dry_run; then
  printf '+ write %s:\n%s\n' "$unit_path" "$unit"
elif [ -f "$unit_path" ] && [ "$(cat "$unit_path")" = "$unit" ]; then
  echo "$unit_path is up to date"
else
  printf '+ write %s\n' "$unit_path"
  printf '%s\n' "$unit" > "$unit_path.tmp"
  chmod 0644 "$unit_path.tmp"
  mv "$unit_path.tmp" "$unit_path"
fi
if [ -d /run/systemd/system ] || $dry_run; then
  run systemctl daemon-reload
  run systemctl enable "$unit_name"
  run systemctl restart "$unit_name"
else
  # Not booted with systemd (a chroot building an image, say): enabling works offline; it starts
  # at the next boot.
  run systemctl enable "$unit_name"
  warn "systemd is not running here: $unit_name is enabled and starts at the next boot"
fi

say "done. Logs: /var/lib/legatus/legatus.log (kept over reboots) and journalctl -u $unit_name -f.
Check the set-up: sudo -u $user LEGATUS_STATE_DIR=/var/lib/legatus $venv/bin/legatus doctor
Reboot if I2C, SPI or the I2C clock were just changed."
