#!/usr/bin/env bash
# make verify-presets: Guava Hashing.consistentHash (Debian libguava-java) with a JDK
# (Debian openjdk-17-jdk-headless: javac + java).
# usage: run.sh OUT_DIR  -> OUT_DIR/<stem>.tsv for each configs.tsv row with system "guava".
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
out=${1:?usage: run.sh OUT_DIR}

for p in javac java; do
  command -v "$p" >/dev/null 2>&1 || { echo "guava/run.sh: missing program '$p' (apt package openjdk-17-jdk-headless)" >&2; exit 2; }
done
jar=/usr/share/java/guava.jar
[ -f "$jar" ] || { echo "guava/run.sh: missing $jar (apt package libguava-java)" >&2; exit 2; }
ver=$(dpkg-query -W -f='${Version}' libguava-java 2>/dev/null) || ver=unknown

mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
javac -nowarn -d "$tmp/classes" -cp "$jar" "$here/GuavaDriver.java" || { echo "guava/run.sh: javac failed" >&2; exit 1; }
mkdir "$tmp/out"
timeout 120 java -Xshare:auto -cp "$jar:$tmp/classes" GuavaDriver "$ver" "$here/../configs.tsv" "$repo/algorithms/presets/testdata/keys.txt" "$tmp/out"
mv "$tmp"/out/*.tsv "$out"/
