#!/usr/bin/python3
"""The plotting and report code names no algorithm: it reads registry.json.

Adding an algorithm is one folder plus one catalogue row; the report then
treats it by the facts its row declares (capabilities, parameters,
bounds_loads_of; plots/chdata.py) and styles it by plots/style.py. So no
Python file under plots/ quotes an algorithm's name as a string literal,
except:

  * plots/style.py (the fixed colours and markers of the known algorithms);
  * plots/report/article.py, the one place for the algorithms the seed
    articles name (their claims are about those algorithms);
  * the tests (*_test.py) and plots/testdata/ (fake results).

The names are those of results/reference/amd-epyc-2cpu/registry.json.
Python's ast decides what a string literal is: comments, docstrings and
other bare string statements are prose and do not count; every other
string constant (f-string parts too) that equals a name is an offender,
listed as path:line.

A name that is also an experiment's (chdata.EXPERIMENTS: "bounded_load" is
both) is allowed where the code means the experiment, which these places
alone say:

  * an element of the EXPERIMENTS list itself;
  * the experiment argument of ctx.exps.get / exps.get (first),
    csv_link and data_links (first), need (second on), mcell (second),
    load_experiment, select_run and list_runs (second), and the figure
    stem of style.save_figure (third);
  * a figure stem: the first element of a tuple in a FIGURES list, a key
    of a FIGURE_UNDER dict;
  * a guide item's key: the first element of the (key, text) tuple that a
    function named *_item returns.

Anywhere else (a comparison, algorithm=..., a dict key, an argument of any
other call) the literal reads as the algorithm and fails the test.

Run: /usr/bin/python3 plots/names_test.py
"""

import sys as _sys
_sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import ast  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import unittest  # noqa: E402

PLOTS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(PLOTS)
REGISTRY = os.path.join(ROOT, "results", "reference", "amd-epyc-2cpu",
                        "registry.json")

# Files that may quote names (relative to plots/, "/"-separated).
ALLOWED_FILES = {"style.py", "report/article.py"}

# Calls that take an experiment name: callee name -> positions of the
# experiment (or figure stem) argument; None = every position from 1 on.
EXPERIMENT_ARGS = {
    "csv_link": (0,),
    "data_links": (0,),
    "need": None,
    "mcell": (1,),
    "load_experiment": (1,),
    "select_run": (1,),
    "list_runs": (1,),
    "save_figure": (2,),
}


def algorithm_names(path=REGISTRY):
    with open(path, encoding="utf-8") as f:
        reg = json.load(f)
    return {a["name"] for a in reg.get("algorithms", []) if a.get("name")}


def experiment_names():
    """chdata.EXPERIMENTS, read from the source (no pandas needed)."""
    with open(os.path.join(PLOTS, "chdata.py"), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "EXPERIMENTS"
                for t in node.targets):
            return set(ast.literal_eval(node.value))
    raise AssertionError("chdata.py has no EXPERIMENTS list")


def _callee(call):
    f = call.func
    if isinstance(f, ast.Name):
        return f.id
    if isinstance(f, ast.Attribute):
        return f.attr
    return None


def _is_exps_get(call):
    """ctx.exps.get(...) or exps.get(...)."""
    f = call.func
    if not (isinstance(f, ast.Attribute) and f.attr == "get"):
        return False
    v = f.value
    return (isinstance(v, ast.Name) and v.id == "exps") or \
        (isinstance(v, ast.Attribute) and v.attr == "exps")


def _assigned_to(node, name):
    return isinstance(node, ast.Assign) and any(
        isinstance(t, ast.Name) and t.id == name for t in node.targets)


def experiment_uses(tree):
    """ids of the string constants that name an experiment by position."""
    ok = set()

    def mark(n):
        if isinstance(n, ast.Constant) and isinstance(n.value, str):
            ok.add(id(n))

    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            if _is_exps_get(node):
                if node.args:
                    mark(node.args[0])
                continue
            name = _callee(node)
            if name in EXPERIMENT_ARGS:
                pos = EXPERIMENT_ARGS[name]
                for i, a in enumerate(node.args):
                    if (pos is None and i >= 1) or (pos and i in pos):
                        mark(a)
        elif _assigned_to(node, "EXPERIMENTS") and \
                isinstance(node.value, (ast.List, ast.Tuple)):
            for e in node.value.elts:
                mark(e)
        elif _assigned_to(node, "FIGURES") and \
                isinstance(node.value, (ast.List, ast.Tuple)):
            for e in node.value.elts:
                if isinstance(e, ast.Tuple) and e.elts:
                    mark(e.elts[0])
        elif _assigned_to(node, "FIGURE_UNDER") and \
                isinstance(node.value, ast.Dict):
            for k in node.value.keys:
                mark(k)
        elif isinstance(node, ast.FunctionDef) and \
                node.name.endswith("_item"):
            for r in ast.walk(node):
                if isinstance(r, ast.Return) and \
                        isinstance(r.value, ast.Tuple) and \
                        len(r.value.elts) == 2:
                    mark(r.value.elts[0])
    return ok


def prose(tree):
    """ids of the bare string statements (docstrings and the like)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and \
                isinstance(node.value, ast.Constant) and \
                isinstance(node.value.value, str):
            out.add(id(node.value))
    return out


def quoted_names(source, names, experiments, path="<source>"):
    """[(line, name)] of the string literals in `source` that quote an
    algorithm name, outside prose and the experiment uses above."""
    tree = ast.parse(source, path)
    skip = prose(tree)
    exp_ok = experiment_uses(tree)
    out = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and
                isinstance(node.value, str)):
            continue
        v = node.value
        if v not in names or id(node) in skip:
            continue
        if v in experiments and id(node) in exp_ok:
            continue
        out.append((node.lineno, v))
    return sorted(out)


def scanned_files():
    """plots/ Python files (relative, "/"-separated) the rule applies to."""
    out = []
    for d, dirs, files in os.walk(PLOTS):
        dirs[:] = sorted(x for x in dirs
                         if x not in ("testdata", "__pycache__", "npm",
                                      "node_modules")
                         and not x.startswith("figures"))
        for f in sorted(files):
            if not f.endswith(".py") or f.endswith("_test.py"):
                continue
            rel = os.path.relpath(os.path.join(d, f), PLOTS).replace(
                os.sep, "/")
            if rel not in ALLOWED_FILES:
                out.append(rel)
    return out


def offenders():
    names = algorithm_names()
    experiments = experiment_names()
    bad = []
    for rel in scanned_files():
        with open(os.path.join(PLOTS, rel), encoding="utf-8") as f:
            src = f.read()
        for line, name in quoted_names(src, names, experiments, rel):
            bad.append(f"plots/{rel}:{line}: {name!r}")
    return bad


class NamesTest(unittest.TestCase):
    def test_rule_on_examples(self):
        names = {"ring", "modulo", "bounded_load"}
        exps = {"bounded_load", "lookup"}
        flagged = [
            'x = a == "ring"\n',
            'x = s[s["algorithm"] == "bounded_load"]\n',
            'f = dict(algorithm="modulo")\n',
            'd = {"ring": 1}\n',
            'c = style.algorithm_style("ring")\n',
            'r = replay_model("bounded_load")\n',
            'ok = "modulo" not in named\n',
            'y = f"{a}" + f"ring"\n',
            'b = ctx.exps.get("ring")\n',   # not an experiment
            'def f():\n    return ("ring", "text")\n',
        ]
        clean = [
            '"""ring and modulo in a docstring."""\n',
            'def f():\n    """The ring."""\n    return 1\n',
            '# a == "ring" in a comment\nx = 1\n',
            'b = ctx.exps.get("bounded_load")\n',
            'b = exps.get("bounded_load")\n',
            'l = ctx.csv_link("bounded_load") + ctx.data_links('
            '"bounded_load")\n',
            '(e,) = need(exps, "bounded_load")\n',
            'c = mcell(ctx, "bounded_load", "x", metric="m")\n',
            'style.save_figure(fig, out, "bounded_load", [m], leg)\n',
            'FIGURES = [("bounded_load", "caption", fig)]\n',
            'FIGURE_UNDER = {"bounded_load": "### Bounded load"}\n',
            'EXPERIMENTS = ["lookup", "bounded_load"]\n',
            'def bounded_item(ctx):\n    return ("bounded_load", "t")\n',
            'x = "rings" + "the ring\'s own"\n',
        ]
        for s in flagged:
            self.assertTrue(quoted_names(s, names, exps), s)
        for s in clean:
            self.assertEqual(quoted_names(s, names, exps), [], s)

    def test_names_come_from_the_registry(self):
        names = algorithm_names()
        self.assertGreater(len(names), 5)
        self.assertTrue(experiment_names() & names,
                        "no experiment shares an algorithm's name: the "
                        "experiment rule has nothing to do")

    def test_scope(self):
        files = scanned_files()
        self.assertIn("chdata.py", files)
        self.assertIn("report/balance.py", files)
        self.assertIn("report/cluster/cascade.py", files)
        self.assertIn("site/build.py", files)
        self.assertNotIn("style.py", files)
        self.assertNotIn("report/article.py", files)
        self.assertFalse([f for f in files if f.endswith("_test.py")
                          or f.startswith("testdata/")])

    def test_plots_quote_no_algorithm_name(self):
        bad = offenders()
        self.assertEqual(bad, [], "\n" + "\n".join(bad)
                         + "\nread the kind from registry.json (chdata: "
                         "has_capability, takes_parameter, "
                         "bounded_load_schemes, bounds_loads_of); a seed "
                         "article's algorithm comes from "
                         "plots/report/article.py")


if __name__ == "__main__":
    unittest.main(verbosity=2)
