"""The algorithms the seed articles name: the report's only fixed
algorithm names (besides style.py's colours).

Everything else in the report finds the algorithms it treats apart from
registry.json (chdata: bounded-load schemes and the algorithm each caps,
parameters, capabilities), so a new algorithm of the same kind is treated
the same way without an edit. The seed articles' claims, by contrast, are
about two named algorithms: reproducing a claim means reading those two
rows, whatever else the catalogue holds. plots/names_test.py lets this
module, and no other outside style.py and the tests, quote a name.
"""

# The baseline "hash mod N" of the seed articles: C1 (pages_4to5: share of
# pages that move on adding a fifth server) and C3 (keys200k_10to11: the
# same on 10 -> 11 nodes) quote its moved fraction, beside the ring's (C2,
# C3);
# the cache-cluster stampede (report/cluster/stampede.py) repeats the
# articles' comparison as extra database reads, modulo against the ring.
MODULO = "modulo"

# The consistent-hashing ring of the seed articles (virtual nodes; the
# vnodes count is each claim's setting): C2, C3 and C6 (its moved
# fraction), C4 and C5 (its balance), C6 and C7 (the busiest server after
# a join, the servers receiving a removed one's keys), and the reference
# the cache-cluster stampede compares every algorithm with (ring at 100
# vnodes when there).
RING = "ring"
