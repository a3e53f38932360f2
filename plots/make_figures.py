#!/usr/bin/python3
"""Draws every chbench figure (PNG + SVG) from the results tree.

Usage:
  /usr/bin/python3 plots/make_figures.py --results DIR --out DIR
      [--tier TIER] [--strict] [--only STEM] [--jobs N]

A thin driver: each report section module owns its figures (FIGURES:
stem, caption, drawing function; report/figures.py collects them in
report order, report/draw.py holds the shared drawing helpers), and this
script runs them. Points are medians with the 95 % CI of the median as
error bars or bands (no bar where there is no interval: n < 6 or
n_eff = 1); noisy cells are drawn with hollow markers. The cluster figures
draw means over seeds with the Student-t 95 % interval of the mean
(cascades: the seeds' min–max), as the section's tables do.
A figure whose experiment is missing is skipped with a message. A figure
that fails is reported and skipped; --strict turns that into exit status 1
(the test uses it). Files are written atomically by style.save_figure.
"""

import sys as _sys
_sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import argparse  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
import traceback  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import style  # noqa: E402  (selects Agg first)
import chdata  # noqa: E402
from report.draw import Skip  # noqa: E402
from report.figures import DRAW  # noqa: E402

plt = style.plt

# stem -> drawing function, in report order (report.figures.FIGURES).
FIGURE_FUNCS = DRAW


def _draw(job):
    """Draws one figure; returns (stem, status, text) where status is
    "wrote", "skipped" or "failed" (text: the first path, the reason or the
    traceback). Runs in a worker process (or inline with --jobs 1)."""
    stem, exps, out = job
    try:
        paths = FIGURE_FUNCS[stem](exps, out)
        return stem, "wrote", paths[0]
    except Skip as s:
        return stem, "skipped", str(s)
    except Exception:  # noqa: BLE001 (one broken figure must not stop
        # the others; --strict reports it)
        plt.close("all")
        return stem, "failed", traceback.format_exc()


# The data every worker reads, set before the pool forks (a fork shares it
# instead of pickling the frames for every figure).
_EXPS = None


def _draw_forked(args):
    stem, out = args
    return _draw((stem, _EXPS, out))


def main(argv=None):
    global _EXPS
    ap = argparse.ArgumentParser(description="Draw chbench figures")
    ap.add_argument("--results", default="results")
    ap.add_argument("--out", default="plots/figures")
    ap.add_argument("--tier", default=None,
                    help="use only runs of this tier (default: newest run)")
    ap.add_argument("--only", action="append", default=None,
                    help="draw only this figure stem (repeatable)")
    ap.add_argument("--strict", action="store_true",
                    help="exit 1 if any figure fails (missing data is not "
                    "a failure)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="figures drawn in parallel processes (default: the "
                    "number of CPUs); the output does not depend on it")
    args = ap.parse_args(argv)
    if args.jobs < 1:
        ap.error(f"--jobs must be >= 1, got {args.jobs}")
    if args.only:
        unknown = sorted(set(args.only) - set(FIGURE_FUNCS))
        if unknown:
            ap.error(f"unknown figure {unknown[0]!r}; valid figures: "
                     + ", ".join(FIGURE_FUNCS))
    exps = chdata.load_all(args.results, args.tier)
    os.makedirs(args.out, exist_ok=True)
    stems = [s for s in FIGURE_FUNCS if not args.only or s in args.only]
    jobs = min(args.jobs, len(stems))
    if jobs > 1:
        import multiprocessing
        _EXPS = exps
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(jobs) as pool:
            results = pool.map(_draw_forked, [(s, args.out) for s in stems],
                               chunksize=1)
    else:
        results = [_draw((s, exps, args.out)) for s in stems]
    failed = 0
    for stem, status, text in results:
        if status == "wrote":
            print(f"chbench plots: wrote {text}")
        elif status == "skipped":
            print(f"chbench plots: skipped {stem}: {text}")
        else:
            failed += 1
            print(f"chbench plots: FAILED {stem}:\n{text}", file=sys.stderr,
                  end="")
    return 1 if (failed and args.strict) else 0


if __name__ == "__main__":
    sys.exit(main())
