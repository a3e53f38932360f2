"""uhr_range: replica preference lists with the real uhashring (Debian python3-uhashring).

usage: /usr/bin/python3 uhr_range.py default|ketama SERVERS R VERSION_TEXT < keys > out

SERVERS as in uhr_map.py (host:port[:weight], comma-separated; a list without weights, else
an insertion-ordered dict name -> weight). Prints a '#' header line, then per input line
key<TAB>node1<TAB>...<TAB>nodeR: HashRing.range(key, size=R, unique=True), the distinct
nodes clockwise from the key's point (bisect_right), one lap (uhashring/ring.py range).
"""
import sys

from uhashring import HashRing


def main():
    if len(sys.argv) != 5 or sys.argv[1] not in ("default", "ketama") or not sys.argv[3].isdigit():
        sys.stderr.write("usage: uhr_range.py default|ketama SERVERS R VERSION_TEXT < keys\n")
        return 2
    mode, servers, size, version_text = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    names, weights, weighted = [], {}, False
    for item in servers.split(","):
        parts = item.split(":")
        if len(parts) == 3:
            weighted = True
            name, w = ":".join(parts[:2]), int(parts[2])
        elif len(parts) == 2:
            name, w = item, 1
        else:
            sys.stderr.write(f"uhr_range: bad server {item!r}\n")
            return 2
        names.append(name)
        weights[name] = w

    nodes = {n: weights[n] for n in names} if weighted else list(names)
    kwargs = {"hash_fn": "ketama"} if mode == "ketama" else {}
    ring = HashRing(nodes=nodes, **kwargs)

    rt = ring.runtime
    desc = ", ".join(f"{n} weight={weights[n]} points={rt._distribution[n]}" for n in names)
    ctor = "HashRing(nodes=%s%s)" % (
        "dict name->weight" if weighted else "list",
        ", hash_fn='ketama'" if mode == "ketama" else "",
    )
    out = sys.stdout.buffer
    header = (f"# {version_text}; {ctor}; nodes in order [{desc}]; ring points={len(rt._keys)} "
              f"(dict size {len(rt._ring)}); range(key, size={size}, unique=True) (distinct "
              f"nodes clockwise from the first point > the key hash, one lap); "
              f"key\tnode\t...\n")
    out.write(header.encode("utf-8"))
    want = min(size, len(names))
    for raw in sys.stdin.buffer:
        key = raw.rstrip(b"\n").decode("utf-8")
        found = [conf["nodename"] for conf in ring.range(key, size=size, unique=True)]
        if len(found) != want or any(n not in weights for n in found):
            sys.stderr.write(f"uhr_range: unexpected range {found!r} for {key!r}\n")
            return 1
        out.write(("\t".join([key] + found) + "\n").encode("utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
