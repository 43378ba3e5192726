#!/bin/sh
# Builds a Debian 12 (bookworm) base image from Debian's own packages, for hosts that can reach
# Debian's archive but no container registry:
#
#   deploy/debian-base.sh [TAG]        (default TAG: localhost/debian:bookworm-slim)
#   podman build --format docker --build-arg BASE_IMAGE=localhost/debian:bookworm-slim -t browserdeck .
#
# Needs root, debootstrap and podman (apt-get install debootstrap podman). The root file system is
# kept as a tarball in ${XDG_CACHE_HOME:-~/.cache}/browserdeck, so a second run only imports it.
# DEBIAN_MIRROR chooses the archive (default http://deb.debian.org/debian).
set -eu
tag=${1:-localhost/debian:bookworm-slim}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/browserdeck
# PODMAN: the podman command with any global options, e.g. "podman --storage-driver=overlay".
podman=${PODMAN:-podman}
tarball="$cache/debian-bookworm-minbase.tar"

if [ ! -s "$tarball" ]; then
  mkdir -p "$cache"
  root=$(mktemp -d "${TMPDIR:-/tmp}/browserdeck-rootfs.XXXXXX")
  trap 'rm -rf "$root"' EXIT
  debootstrap --variant=minbase --include=ca-certificates bookworm "$root" "$mirror"
  # The same archive set as Debian's own images: the release, its updates, and security.
  security=$(printf '%s' "$mirror" | sed 's#/debian/*$#/debian-security#')
  cat > "$root/etc/apt/sources.list" <<SOURCES
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb $security bookworm-security main
SOURCES
  # As debian:bookworm-slim does: no documentation, manual pages or translations in the image.
  cat > "$root/etc/dpkg/dpkg.cfg.d/slim" <<'SLIM'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
SLIM
  rm -rf "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/* \
    "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb \
    "$root"/var/log/*.log "$root"/tmp/*
  tar --numeric-owner -C "$root" -cf "$tarball.partial" .
  mv "$tarball.partial" "$tarball"
fi
$podman import --change 'CMD ["/bin/bash"]' "$tarball" "$tag"
