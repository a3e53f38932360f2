"""The report's numbered questions, in report order.

A question's number ("Q<n>") comes from its place in QUESTIONS, so moving
a section renumbers every heading and cross-reference with it. Code refers
to a question by its name (the section module's name): q("presets") is
"Q9", q("cluster", "a") is "Q10a". The names also name the per-question
pages (<pages dir>/<name>.md)."""

QUESTIONS = ("lookup", "build", "memory", "disruption", "balance",
             "capabilities", "removal", "overprovision", "presets",
             "cluster", "replicas", "batching", "growth")


def q(name, part=""):
    """'Q<n><part>' of the named question (ValueError for an unknown
    name: a cross-reference never points at a question that is gone)."""
    return f"Q{QUESTIONS.index(name) + 1}{part}"
