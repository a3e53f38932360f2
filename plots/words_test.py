#!/usr/bin/python3
"""The tree speaks of the project as it is, and only of what it contains.

Scans every tracked source and documentation file (git ls-files) for words
that point outside the tree or into its history, and lists each offender
as path:line:

  * development-history labels: "wave", "wave-2", WAVE2 ...;
  * issue, review and finding numbers: "issue 9", "review-2d0d944",
    "finding 13";
  * documents that are not in the repository: SCHEMA.md, absolute /work/
    paths, ../shared/ paths.

Say the current fact instead, and cite the public source (paper, upstream
repository@commit, package version) or a file in this repository.

Not scanned: generated files (results/REPORT*.md and their pages
results/report*/, the results site results/site*/ with the chart library
it copies, results/reference/, plots/figures*/) and data
(fuzz/corpus/, and the non-code files under testdata/): their text comes
from code, from the real systems or from fuzzing, and the code that writes
them is scanned.

Run: /usr/bin/python3 plots/words_test.py
"""

import sys as _sys
_sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import os  # noqa: E402
import re  # noqa: E402
import subprocess  # noqa: E402
import unittest  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SELF = os.path.relpath(os.path.abspath(__file__), ROOT).replace(os.sep, "/")

PATTERNS = [
    ("history label", re.compile(r"\bwave(?:[-_ ]?\d+)?\b", re.I)),
    ("issue number", re.compile(r"\bissues?\s+#?\d+", re.I)),
    ("review name", re.compile(r"\breview-[0-9a-f]{6,}\b", re.I)),
    ("finding number", re.compile(r"\bfindings?\s+#?\d+", re.I)),
    ("file outside the repository", re.compile(r"\bSCHEMA\.md\b")),
    ("absolute path outside the repository",
     re.compile(r"(?<![\w.~-])/work/")),
    ("path outside the repository", re.compile(r"\.\./shared\b")),
]

GENERATED = re.compile(r"^(results/REPORT[^/]*\.md|results/report[^/]*/|"
                       r"results/site[^/]*/|results/reference/|"
                       r"plots/figures[^/]*/)")
CORPORA = re.compile(r"(^|/)corpus/")
TESTDATA = re.compile(r"(^|/)testdata/")
CODE = re.compile(r"\.(py|cc|h|sh)$")


def tracked_files():
    """Tracked files to scan, or None when ROOT is not a git checkout."""
    try:
        out = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"],
                             capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    files = []
    for p in out.decode("utf-8", "replace").split("\0"):
        if not p or p == SELF or GENERATED.search(p):
            continue
        if CORPORA.search(p) or (TESTDATA.search(p) and not CODE.search(p)):
            continue
        files.append(p)
    return files


def offenders(files):
    """['path:line: [what] text'] for every line that matches a pattern."""
    out = []
    for p in files:
        try:
            with open(os.path.join(ROOT, p), encoding="utf-8") as f:
                lines = f.read().splitlines()
        except (OSError, UnicodeDecodeError):
            continue  # binary or unreadable: not prose
        for i, line in enumerate(lines, 1):
            for what, rx in PATTERNS:
                if rx.search(line):
                    out.append(f"{p}:{i}: [{what}] {line.strip()[:120]}")
    return out


class WordsTest(unittest.TestCase):
    def test_patterns_catch_what_they_should(self):
        bad = ["the wave-2 algorithms", "WAVE2 = {}", "# Wave 2 (issue 9)",
               "review-2d0d944, finding 13", "see plan/SCHEMA.md",
               "/work/shared/seeds/", "../shared/design/presets.md"]
        good = ["a waveform", "ids issued so far", "fuzz findings in:",
                "marzer/tomlplusplus#190", "results/README.md",
                "cmake --build build/work/x"]
        for s in bad:
            self.assertTrue(any(rx.search(s) for _, rx in PATTERNS), s)
        for s in good:
            self.assertFalse(any(rx.search(s) for _, rx in PATTERNS), s)

    def test_tree_has_no_history_words_or_outside_references(self):
        files = tracked_files()
        if files is None:
            self.skipTest("not a git checkout")
        self.assertGreater(len(files), 50)
        bad = offenders(files)
        self.assertEqual(bad, [], "\n" + "\n".join(bad))


if __name__ == "__main__":
    unittest.main(verbosity=2)
