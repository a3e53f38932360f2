#!/usr/bin/env bash
# Prints the name a reference run is filed under: the CPU model's words,
# lower-cased, without vendor noise, and the logical CPU count, e.g.
# "amd-epyc-2cpu" or "intel-xeon-platinum-8375c-2cpu".
set -euo pipefail
model=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo | head -n1)
slug=$(printf '%s' "${model:-unknown}" | tr 'A-Z' 'a-z' |
  sed -e 's/([^)]*)//g' -e 's/ cpu @.*//' -e 's/[0-9]*-core//g' \
      -e 's/processor//g' -e 's/[^a-z0-9]\{1,\}/-/g' -e 's/^-//' -e 's/-$//' |
  cut -c1-40 | sed 's/-$//')
echo "${slug}-$(nproc)cpu"
