"""uhr: the real uhashring (Debian python3-uhashring) on a key list.

usage: /usr/bin/python3 uhr.py default|ketama SERVERS VERSION_TEXT [R] < keys > out

SERVERS is comma-separated host:port[:weight]. The node name is the host:port string
(uhashring never drops the port). Without any weight suffix the nodes are passed as a
list, HashRing(nodes=[...]); otherwise as a dict name -> weight (insertion-ordered).
Prints a '#' header line, then per input line:
  * without R: key<TAB>node (HashRing.get_node);
  * with R: key<TAB>node1<TAB>...<TAB>nodeR, HashRing.range(key, size=R, unique=True),
    the distinct nodes clockwise from the key's point (bisect_right), one lap
    (uhashring/ring.py range): the replica preference list.
"""
import sys

from uhashring import HashRing


def usage():
    sys.stderr.write("usage: uhr.py default|ketama SERVERS VERSION_TEXT [R] < keys\n")
    return 2


def parse_servers(servers):
    """(names in order, name -> weight, whether any weight was given), or None."""
    names, weights, weighted = [], {}, False
    for item in servers.split(","):
        parts = item.split(":")
        if len(parts) == 3:
            weighted = True
            name, w = ":".join(parts[:2]), int(parts[2])
        elif len(parts) == 2:
            name, w = item, 1
        else:
            sys.stderr.write(f"uhr: bad server {item!r}\n")
            return None
        names.append(name)
        weights[name] = w
    return names, weights, weighted


def main():
    args = sys.argv[1:]
    if len(args) not in (3, 4) or args[0] not in ("default", "ketama") or (
            len(args) == 4 and not args[3].isdigit()):
        return usage()
    mode, servers, version_text = args[:3]
    size = int(args[3]) if len(args) == 4 else None
    parsed = parse_servers(servers)
    if parsed is None:
        return 2
    names, weights, weighted = parsed

    nodes = {n: weights[n] for n in names} if weighted else list(names)
    kwargs = {"hash_fn": "ketama"} if mode == "ketama" else {}
    ring = HashRing(nodes=nodes, **kwargs)

    rt = ring.runtime
    desc = ", ".join(f"{n} weight={weights[n]} points={rt._distribution[n]}" for n in names)
    ctor = "HashRing(nodes=%s%s)" % (
        "dict name->weight" if weighted else "list",
        ", hash_fn='ketama'" if mode == "ketama" else "",
    )
    if size is None:
        what = "lookup=get_node(); key\tserver"
    else:
        what = (f"range(key, size={size}, unique=True) (distinct nodes clockwise from the "
                f"first point > the key hash, one lap); key\tnode\t...")
    out = sys.stdout.buffer
    out.write((f"# {version_text}; {ctor}; nodes in order [{desc}]; ring points="
               f"{len(rt._keys)} (dict size {len(rt._ring)}); {what}\n").encode("utf-8"))
    want = None if size is None else min(size, len(names))
    for raw in sys.stdin.buffer:
        key = raw.rstrip(b"\n").decode("utf-8")
        if size is None:
            found = [ring.get_node(key)]
        else:
            found = [conf["nodename"] for conf in ring.range(key, size=size, unique=True)]
        if (want is not None and len(found) != want) or any(n not in weights for n in found):
            sys.stderr.write(f"uhr: unexpected answer {found!r} for {key!r}\n")
            return 1
        out.write(("\t".join([key] + found) + "\n").encode("utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
