#!/usr/bin/python3
"""Generates a chbench report (Markdown) from a results directory.

Usage:
  /usr/bin/python3 plots/make_report.py --results DIR [--reference DIR]
      [--figures DIR] [--out REPORT.md] [--pages DIR] [--tier TIER]
      [--readme README.md]

--results DIR: the runs to report (DIR/<experiment>/<run_id>/ and
  DIR/registry.json; e.g. results/reference/<machine> or results/local).
--reference DIR: optional committed reference runs; tables then show the
  reference machine's value beside each of ours (column "· ref").
--pages DIR: where the per-question pages go (<name>.md for every question
  and the seed articles); default: beside --out, named after it in lower
  case (REPORT.md -> report/, REPORT-full.md -> report-full/). Pages this
  script wrote before and no longer writes are removed.
--readme PATH: rewrite only PATH's blocks between the headline markers and
  between the cluster markers (<!-- cluster:begin --> ... <!-- cluster:end
  -->: a summary of the cluster section); a block without its markers is
  skipped. Use it only when reporting the reference runs themselves.

The sections live in plots/report/ (one module per section; layout.py
decides what REPORT.md shows and what only the pages); numbers come from
summary.csv (medians with their order-statistic 95 % CI, or means with the
mean's CI) or data.csv. Missing experiments leave a one-line note.
"""

import sys as _sys
_sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import argparse  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402
from report import cluster, headline, layout  # noqa: E402


def write_atomic(path, text):
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    tmp = os.path.join(d, f".{os.path.basename(path)}.tmp{os.getpid()}")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def write_pages(pages_dir, pages):
    """Writes the pages ({file name: text}) and removes the generated pages
    of an earlier run that this one did not write (a file without the
    generated-file banner is never removed)."""
    os.makedirs(pages_dir, exist_ok=True)
    for name, text in pages.items():
        write_atomic(os.path.join(pages_dir, name), text)
    for name in sorted(os.listdir(pages_dir)):
        p = os.path.join(pages_dir, name)
        if name in pages or not name.endswith(".md") or not os.path.isfile(p):
            continue
        with open(p, encoding="utf-8") as f:
            head = f.read(2000)
        if layout.GENERATED in head:
            os.remove(p)
            print(f"chbench report: removed the stale page {p}")


def _has_block(text, begin, end):
    i, j = text.find(begin), text.find(end)
    return i >= 0 and j > i


def _replace_block(text, begin, end, block):
    """text with the part from begin to end (markers included) replaced by
    block (_has_block must hold)."""
    i, j = text.find(begin), text.find(end)
    return text[:i] + block + text[j + len(end):]


def update_readme(ctx, readme_path, report_path):
    """Rewrites README's headline block and its cluster block (the cluster
    section's summary); each is skipped without its markers (the cluster
    block also without cluster results)."""
    try:
        with open(readme_path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        print(f"chbench report: no {readme_path}; README not updated")
        return False
    new, done = text, []
    hb, he = headline.HEADLINE_BEGIN, headline.HEADLINE_END
    if _has_block(new, hb, he):
        new = _replace_block(new, hb, he, headline.block(ctx, readme_path,
                                                          report_path))
        done.append("headline")
    else:
        print(f"chbench report: no headline markers in {readme_path}; "
              "headline not updated")
    cb, ce = cluster.README_BEGIN, cluster.README_END
    if _has_block(new, cb, ce):
        blk = cluster.readme_block(ctx, readme_path, report_path)
        if blk is None:
            print("chbench report: no cluster results; README cluster "
                  "block not updated")
        else:
            new = _replace_block(new, cb, ce, blk)
            done.append("cluster")
    if new != text:
        write_atomic(readme_path, new)
    if done:
        print(f"chbench report: updated the {' and '.join(done)} "
              f"block{'s' if len(done) > 1 else ''} of {readme_path}")
    return bool(done)


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description="Generate a chbench report")
    ap.add_argument("--results", required=True, metavar="DIR",
                    help="results directory with the runs to report")
    ap.add_argument("--reference", default=None, metavar="DIR",
                    help="committed reference runs shown beside ours")
    ap.add_argument("--figures", default="plots/figures", metavar="DIR",
                    help="figures directory to link (make_figures.py --out)")
    ap.add_argument("--out", default="results/REPORT.md", metavar="PATH")
    ap.add_argument("--pages", default=None, metavar="DIR",
                    help="directory of the per-question pages (default: "
                    "beside --out, e.g. report/ for REPORT.md)")
    ap.add_argument("--tier", default=None,
                    help="use only runs of this tier (default: newest run)")
    ap.add_argument("--readme", default=None, metavar="PATH",
                    help="also rewrite PATH's blocks between "
                    f"'{headline.HEADLINE_BEGIN}' and "
                    f"'{headline.HEADLINE_END}' and between "
                    f"'{cluster.README_BEGIN}' and '{cluster.README_END}'")
    return ap.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    if args.reference and not os.path.isdir(args.reference):
        print(f"chbench report: no reference directory {args.reference}; "
              "reporting without it")
        args.reference = None
    rep = report.build_report(args)
    write_atomic(args.out, rep.text)
    write_pages(rep.pages_dir, rep.pages)
    print(f"chbench report: wrote {args.out} and {len(rep.pages)} pages in "
          f"{rep.pages_dir}")
    if args.readme and rep.ctx.exps:
        update_readme(rep.ctx, args.readme, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
