#!/usr/bin/env bash
# fetch_ceph_base.sh DIR
# Unpacks Debian's ceph-base (crushtool, osdmaptool) into DIR without
# installing it: its maintainer scripts, which set up daemons' users and
# services, are never run (the project's CRUSH design notes). The tools link
# against libceph-common from ceph-common, which `make verify-presets`
# installs. Prints the directory of the tools (DIR/usr/bin).
# Exit status: 0 ok; 2 on a usage error or when the package cannot be
# downloaded.
set -euo pipefail
if [ $# -ne 1 ]; then echo "usage: $0 DIR" >&2; exit 2; fi
dir=$1
if [ ! -x "$dir/usr/bin/crushtool" ] || [ ! -x "$dir/usr/bin/osdmaptool" ]; then
  rm -rf "$dir"
  mkdir -p "$dir/deb"
  if ! (cd "$dir/deb" && apt-get download -qq ceph-base >/dev/null); then
    echo "ceph: apt-get download ceph-base failed (run apt-get update?)" >&2
    exit 2
  fi
  dpkg-deb -x "$dir"/deb/ceph-base_*.deb "$dir"
fi
echo "$dir/usr/bin"
