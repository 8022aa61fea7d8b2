#!/usr/bin/env bash
# The emulated Raspberry Pi check: Legatus installed and run on Raspberry Pi OS Lite Bookworm as
# closely as a PC can stand in for a Pi (docs/hardware.md, "The emulated check").
#
#   sudo scripts/pi_check.sh [--arch arm64|armhf|all] [--cache DIR] [--rebuild] [--tests quick|none]
#                            [--keep] [--build-only]
#
# For each architecture: a Debian Bookworm root file system made to look like Raspberry Pi OS
# Lite (debootstrap, pi-gen stage 2's packages that Debian has, stand-ins for the Raspberry Pi
# archive's GPIO packages and raspi-config, user pi in its groups, the stock
# /boot/firmware/config.txt), kept as a tarball in the cache (default ~/.cache/legatus/pi-check;
# --rebuild makes it anew); then, in a fresh copy of it run under qemu-user: this checkout cloned
# into /home/pi/legatus as pi, `sudo scripts/install-pi.sh` as written, and the device program run
# under the installed unit's conditions (scripts/pi_check/drive.py) with a fake panel bus and
# gpiozero's mock pins: keys, a panel unplugged and re-plugged, SIGTERM, a crash and the next
# start, the Waveshare profile, `legatus doctor`; --tests quick also runs part of the test suite
# with the Debian numpy and Pillow the install uses. Each step prints "ok" or "FAIL"; the exit
# status is the number of failures (capped at 100). No timing measured here carries over to a Pi.
#
# Needs root, network access to the Debian archive and PyPI, and ~4 GB of disk per architecture.
# Installs debootstrap and qemu-user-static with apt-get if they are missing.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
here=$repo/scripts/pi_check
arches=(arm64 armhf)
cache=${PI_CHECK_CACHE:-${HOME:-/root}/.cache/legatus/pi-check}
mirror=${PI_CHECK_MIRROR:-http://deb.debian.org/debian}
rebuild=false
tests=quick
keep=false
build_only=false
failures=0

usage() { sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
  case $1 in
    --arch) case ${2:-} in all) arches=(arm64 armhf) ;; arm64|armhf) arches=("$2") ;;
              *) echo "pi_check.sh: --arch takes arm64, armhf or all" >&2; exit 2 ;; esac; shift ;;
    --cache) cache=${2:?--cache needs a directory}; shift ;;
    --rebuild) rebuild=true ;;
    --tests) case ${2:-} in quick|none) tests=$2 ;; *) echo "pi_check.sh: --tests takes quick or none" >&2; exit 2 ;; esac; shift ;;
    --keep) keep=true ;;
    --build-only) build_only=true ;;
    -h|--help) usage; exit 0 ;;
    *) echo "pi_check.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done

say() { printf '\n==> %s\n' "$*"; }

if [ "$(id -u)" -ne 0 ]; then
  echo "pi_check.sh: run as root (it uses debootstrap, chroot and mounts)" >&2
  exit 1
fi

# -- the host: debootstrap, qemu-user-static, binfmt_misc -------------------------------------------
host_setup() {
  local need=() arch
  command -v debootstrap >/dev/null || need+=(debootstrap)
  [ -x /usr/bin/qemu-aarch64-static ] && [ -x /usr/bin/qemu-arm-static ] || need+=(qemu-user-static)
  command -v zstd >/dev/null || need+=(zstd)
  if [ ${#need[@]} -gt 0 ]; then
    say "host: installing ${need[*]} (Debian packages)"
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}"
  fi
  [ -e /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
  for arch in aarch64 arm; do
    # qemu-user-static's own registration line with flag C added: credentials come from the
    # emulated binary, so that sudo (setuid) works in the root as on a Pi; F: the interpreter is
    # opened now, so the root needs no copy of it.
    if [ -e "/proc/sys/fs/binfmt_misc/qemu-$arch" ] \
        && ! grep -q '^flags: .*C' "/proc/sys/fs/binfmt_misc/qemu-$arch"; then
      echo -1 > "/proc/sys/fs/binfmt_misc/qemu-$arch"
    fi
    if [ ! -e "/proc/sys/fs/binfmt_misc/qemu-$arch" ]; then
      tr -d '\n' < "/usr/lib/binfmt.d/qemu-$arch.conf" | sed -E 's/:([A-Z]*)$/:\1C/' \
        > /proc/sys/fs/binfmt_misc/register
    fi
  done
}

# -- chroot plumbing -----------------------------------------------------------------------------------
mounted=()
mount_into() {   # mount_into ROOT: proc, /dev, /dev/pts, resolv.conf
  local root=$1
  mount -t proc proc "$root/proc"; mounted+=("$root/proc")
  mount --bind /dev "$root/dev"; mounted+=("$root/dev")
  mount --bind /dev/pts "$root/dev/pts"; mounted+=("$root/dev/pts")
  cp -L /etc/resolv.conf "$root/etc/resolv.conf"
}
unmount_all() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[$i]}" 2>/dev/null || true; done
  mounted=()
}
# Commands in the root get a clean environment (none of this host's PIP_*, SSL_* or proxy settings).
in_root() {
  local root=$1; shift
  env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root TERM=dumb \
    LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive chroot "$root" "$@"
}
# If this host reaches the archives through a TLS-inspecting proxy, its extra CA certificates
# (/usr/local/share/ca-certificates) are trusted in the root too, or pip could not reach PyPI.
# A Pi on an ordinary network needs none of this.
trust_host_cas() {
  local root=$1 crt
  for crt in /usr/local/share/ca-certificates/*.crt; do
    [ -f "$crt" ] || continue
    cmp -s "$crt" "$root/usr/local/share/ca-certificates/$(basename "$crt")" && continue
    mkdir -p "$root/usr/local/share/ca-certificates"
    cp "$crt" "$root/usr/local/share/ca-certificates/"
    in_root "$root" update-ca-certificates > /dev/null 2>&1 || true
  done
}

# -- the root file system, as pi-gen's stages 0-2 would make it from Debian ---------------------------
# pi-gen (bookworm branch) stage 1 and stage 2 package lists, less the Raspberry Pi archive's own
# packages (firmware, kernels, raspberrypi-sys-mods, rpi-*, raspi-*, pigpio, rpicam) and the Wi-Fi
# firmware blobs; the GPIO packages the archive adds are stood in for below.
STAGE_PACKAGES="locales netbase systemd-timesyncd ssh less fbset sudo psmisc strace ed ncdu
console-setup keyboard-configuration debconf-utils parted build-essential manpages-dev
bash-completion gdb pkg-config python-is-python3 v4l-utils gpiod python3-libgpiod python3-gpiozero
python3-spidev python3-smbus2 avahi-daemon lua5.1 luajit ca-certificates curl fake-hwclock
nfs-common usbutils dosfstools dphys-swapfile apt-listchanges usb-modeswitch libpam-chksshpwd
libmtp-runtime rsync htop man-db policykit-1 ssh-import-id ethtool ntfs-3g pciutils udisks2 unzip zip
p7zip-full file python3-venv wpasupplicant wireless-tools network-manager net-tools
cifs-utils i2c-tools"

stock_config_txt() {
  cat <<'EOF'
# For more options and information see
# http://rptl.io/configtxt
# Some settings may impact device functionality. See link above for details

# Uncomment some or all of these to enable the optional hardware interfaces
#dtparam=i2c_arm=on
#dtparam=i2s=on
#dtparam=spi=on

# Enable audio (loads snd_bcm2835)
dtparam=audio=on

# Additional overlays and parameters are documented
# /boot/firmware/overlays/README

# Automatically load overlays for detected cameras
camera_auto_detect=1

# Automatically load overlays for detected DSI displays
display_auto_detect=1

# Automatically load initramfs files, if found
auto_initramfs=1

# Enable DRM VC4 V3D driver
dtoverlay=vc4-kms-v3d
max_framebuffers=2

# Don't have the firmware create an initial video= setting in cmdline.txt.
# Use the kernel's default instead.
disable_fw_kms_setup=1

# Disable compensation for displays with overscan
disable_overscan=1

# Run as fast as firmware / board allows
arm_boost=1

[cm4]
# Enable host mode on the 2711 built-in XHCI USB controller.
# This line should be removed if the legacy DWC2 controller is required
# (e.g. for USB device mode) or if USB support is not required.
otg_mode=1

[cm5]
dtoverlay=dwc2,dr_mode=host

[all]
EOF
}

# A Debian package that installs an upstream Python project (from PyPI) the way the Raspberry Pi
# archive packages it: make_standin ROOT NAME VERSION DEPENDS REPLACES PIP-ARGS... (REPLACES: a
# package it conflicts with, replaces and provides, or "")
make_standin() {
  local root=$1 name=$2 version=$3 depends=$4 replaces=$5; shift 5
  local stage=/tmp/standin-$name
  in_root "$root" rm -rf "$stage"
  in_root "$root" mkdir -p "$stage/DEBIAN" "$stage/usr/lib/python3/dist-packages"
  in_root "$root" env PIP_BREAK_SYSTEM_PACKAGES=1 PYPI=1 python3 -m pip install -q --no-deps --no-compile \
    --target "$stage/usr/lib/python3/dist-packages" "$@"
  cat > "$root$stage/DEBIAN/control" <<EOF
Package: $name
Version: $version
Architecture: $(in_root "$root" dpkg --print-architecture)
Maintainer: Legatus pi_check <nobody@localhost>
Depends: $depends
Description: pi_check stand-in for the Raspberry Pi archive's $name
 Built from the upstream project on PyPI by scripts/pi_check.sh.
EOF
  if [ -n "$replaces" ]; then
    printf 'Conflicts: %s\nReplaces: %s\nProvides: %s\n' "$replaces" "$replaces" "$replaces" >> "$root$stage/DEBIAN/control"
  fi
  in_root "$root" dpkg-deb --root-owner-group --build "$stage" "/tmp/$name.deb" >/dev/null
  # apt, not dpkg: a package it replaces is removed (Raspberry Pi OS has rpi-lgpio, not RPi.GPIO)
  in_root "$root" apt-get install -y -q --allow-downgrades "/tmp/$name.deb" >/dev/null
  in_root "$root" rm -rf "$stage" "/tmp/$name.deb"
}

build_rootfs() {
  # Each stage leaves a mark in the build directory, so an interrupted build goes on from there.
  local arch=$1 tarball=$2 pkgs=() pkg
  local root=$cache/build-$arch
  mkdir -p "$root"
  chmod 0755 "$root"
  if [ ! -e "$root/.pichk-debootstrap" ]; then
    say "$arch: debootstrap bookworm (this takes a while under emulation)"
    debootstrap --arch="$arch" --components=main,contrib,non-free,non-free-firmware \
      --include=python3,python3-pip,ca-certificates bookworm "$root" "$mirror" > "$root.debootstrap.log" 2>&1 \
      || { tail -20 "$root.debootstrap.log"; echo "pi_check.sh: debootstrap failed" >&2; exit 1; }
    touch "$root/.pichk-debootstrap"
  fi
  printf 'deb %s bookworm main contrib non-free non-free-firmware\n' "$mirror" > "$root/etc/apt/sources.list"
  printf 'deb %s bookworm-updates main contrib non-free non-free-firmware\n' "$mirror" >> "$root/etc/apt/sources.list"
  printf 'deb http://deb.debian.org/debian-security bookworm-security main contrib non-free non-free-firmware\n' \
    >> "$root/etc/apt/sources.list"
  mount_into "$root"
  trap 'unmount_all' EXIT
  trust_host_cas "$root"
  if [ ! -e "$root/.pichk-packages" ]; then
    # (once more after a minute if a mirror is caught in the middle of a sync; then without the
    # security suite, said so, rather than not at all)
    if ! in_root "$root" apt-get update -q >/dev/null; then
      sleep 60
      if ! in_root "$root" apt-get update -q >/dev/null; then
        echo "note: apt-get update keeps failing with bookworm-security; building without it"
        sed -i '/debian-security/d' "$root/etc/apt/sources.list"
        in_root "$root" apt-get update -q >/dev/null
      fi
    fi
    for pkg in $STAGE_PACKAGES; do
      if in_root "$root" apt-cache show "$pkg" >/dev/null 2>&1; then pkgs+=("$pkg"); else echo "not in Debian: $pkg"; fi
    done
    say "$arch: pi-gen stage 1-2 packages from Debian (${#pkgs[@]})"
    in_root "$root" apt-get install -y -q --no-install-recommends "${pkgs[@]}" > "$root.apt.log" 2>&1 \
      || { tail -20 "$root.apt.log"; echo "pi_check.sh: apt-get install failed" >&2; exit 1; }
    touch "$root/.pichk-packages"
  fi
  say "$arch: stand-ins for the Raspberry Pi archive's python3-lgpio, python3-rpi-lgpio, raspi-config"
  if [ "$arch" = arm64 ]; then
    make_standin "$root" python3-lgpio 0.2.2-1~pichk python3 "" --only-binary=:all: lgpio==0.2.2.0
  else   # PyPI has no armv7l wheel of lgpio: built from its sdist, as the archive builds it
    in_root "$root" apt-get install -y -q --no-install-recommends swig python3-dev > "$root.apt2.log" 2>&1
    make_standin "$root" python3-lgpio 0.2.2-1~pichk python3 "" --no-binary=:all: lgpio==0.2.2.0
    in_root "$root" apt-get purge -y -q swig > /dev/null 2>&1 || true
  fi
  make_standin "$root" python3-rpi-lgpio 0.6-1~pichk python3-lgpio python3-rpi.gpio --only-binary=:all: rpi-lgpio==0.6
  install -m 0755 "$here/raspi-config" "$root/usr/bin/raspi-config"
  mkdir -p "$root/boot/firmware"
  stock_config_txt > "$root/boot/firmware/config.txt"
  echo "console=serial0,115200 console=tty1 root=PARTUUID=00000000-02 rootfstype=ext4 fsck.repair=yes rootwait" \
    > "$root/boot/firmware/cmdline.txt"
  printf 'proc /proc proc defaults 0 0\nPARTUUID=00000000-01 /boot/firmware vfat defaults 0 2\nPARTUUID=00000000-02 / ext4 defaults,noatime 0 1\n' \
    > "$root/etc/fstab"
  echo raspberrypi > "$root/etc/hostname"
  sed -i 's/^#\?Storage=.*/Storage=volatile/' "$root/etc/systemd/journald.conf"
  say "$arch: user pi in Raspberry Pi OS's groups"
  # shellcheck disable=SC2016  # expanded by the chroot's shell
  in_root "$root" sh -c 'for g in input spi i2c gpio; do groupadd -f -r $g; done
    id -u pi >/dev/null 2>&1 || adduser --disabled-password --gecos "" pi >/dev/null
    for g in adm dialout cdrom audio users sudo video games plugdev input gpio spi i2c netdev render; do
      getent group $g >/dev/null && adduser pi $g >/dev/null; done
    echo "pi ALL=(ALL) NOPASSWD: ALL" > /etc/sudoers.d/010_pi-nopasswd; chmod 0440 /etc/sudoers.d/010_pi-nopasswd'
  in_root "$root" apt-get clean
  rm -f "$root"/.pichk-*
  unmount_all
  trap - EXIT
  say "$arch: packing $tarball"
  tar --numeric-owner --xattrs -C "$root" -c . | zstd -q -T0 -o "$tarball.tmp"
  mv "$tarball.tmp" "$tarball"
  rm -rf "$root" "$root".*.log
}

# -- one architecture's check --------------------------------------------------------------------------
check_arch() {
  local arch=$1 root rc
  local tarball=$cache/rpios-lite-bookworm-$arch.tar.zst
  if $rebuild || [ ! -f "$tarball" ]; then build_rootfs "$arch" "$tarball"; fi
  if $build_only; then return 0; fi
  root=$(mktemp -d "$cache/run-$arch.XXXXXX")
  say "$arch: fresh root from $tarball"
  zstd -q -dc "$tarball" | tar --numeric-owner -C "$root" -x
  chmod 0755 "$root"        # mktemp's 0700 would keep every user but root out of the root's /
  mount_into "$root"
  trap 'unmount_all' EXIT
  trust_host_cas "$root"
  # the checkout as pi would have it after git clone (tracked and new files, not .venv or build/)
  install -d -o 1000 -g 1000 "$root/home/pi/legatus"
  (cd "$repo" && git ls-files -co --exclude-standard -z | tar --null -T - -c) \
    | tar -C "$root/home/pi/legatus" --no-same-owner -x
  chown -R 1000:1000 "$root/home/pi/legatus"
  mkdir -p "$root/opt/pi-check"
  cp -r "$here/." "$root/opt/pi-check/"
  # shellcheck disable=SC2016  # expanded by the chroot's shell
  say "$arch: Raspberry Pi OS stand-in: $(in_root "$root" sh -c '. /etc/os-release; echo $PRETTY_NAME') $(in_root "$root" uname -m), Python $(in_root "$root" python3 -c 'import sys; print(sys.version.split()[0])')"
  rc=0
  in_root "$root" python3 /opt/pi-check/drive.py --arch "$arch" --tests "$tests" || rc=$?
  failures=$((failures + rc))
  unmount_all
  trap - EXIT
  if $keep; then echo "kept: $root"; else rm -rf "$root"; fi
}

mkdir -p "$cache"
host_setup
for arch in "${arches[@]}"; do
  check_arch "$arch"
done
say "pi_check: $failures failure(s) on ${arches[*]}"
exit $((failures > 100 ? 100 : failures))
