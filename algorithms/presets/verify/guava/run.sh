#!/usr/bin/env bash
# make verify-presets: Guava Hashing.consistentHash (Debian libguava-java) with a JDK
# (Debian openjdk-17-jdk-headless: javac + java).
# usage: run.sh OUT_DIR  -> OUT_DIR/<stem>.tsv for each configs.tsv row with system "guava".
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/../lib.sh"
vl_start guava "usage: $0 OUT_DIR" 1 1 "$@"

vl_need_prog javac openjdk-17-jdk-headless
vl_need_prog java openjdk-17-jdk-headless
vl_need_prog timeout coreutils
jar=/usr/share/java/guava.jar
vl_need_file "$jar" libguava-java
ver=$(vl_pkg_version libguava-java unknown)

vl_scratch
javac -nowarn -d "$SCRATCH/classes" -cp "$jar" "$HERE/GuavaDriver.java" || vl_die 1 "javac failed"
mkdir "$SCRATCH/out"
vl_run_driver timeout 120 java -Xshare:auto -cp "$jar:$SCRATCH/classes" GuavaDriver "$ver" "$CONFIGS" "$KEYS" "$SCRATCH/out"
vl_publish "$SCRATCH/out"
