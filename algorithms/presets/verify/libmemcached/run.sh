#!/usr/bin/env bash
# run.sh OUT_DIR: run the real libmemcached (Debian libmemcached-dev 1.1.4) on every
# configs.tsv row whose system is "libmemcached" and write OUT_DIR/<stem>.tsv.
# No server is contacted: memcached_generate_hash() only consults the continuum.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/../lib.sh"
vl_start libmemcached "usage: $0 OUT_DIR" 1 1 "$@"

vl_need_prog gcc gcc
vl_need_file /usr/include/libmemcached-1.0/memcached.h libmemcached-dev
PKGVER=$(vl_pkg_version libmemcached-dev) || exit 2
LIBVER=$(vl_pkg_version libmemcached11 "?")

vl_scratch
gcc -O2 -Wall -Wextra -o "$SCRATCH/lmc_map" "$HERE/lmc_map.c" -lmemcached

VERSION_TEXT="libmemcached ${PKGVER%%-*} (Debian libmemcached-dev ${PKGVER}, libmemcached11 ${LIBVER})"
vl_map_rows libmemcached libmemcached_ketama=ketama libmemcached_weighted=weighted \
  libmemcached_default=default -- "$SCRATCH/lmc_map"
vl_publish "$SCRATCH/out"
