"""uhr_map: map keys to nodes with the real uhashring (Debian python3-uhashring).

usage: /usr/bin/python3 uhr_map.py default|ketama SERVERS VERSION_TEXT < keys > out

SERVERS is comma-separated host:port[:weight]. The node name is the host:port string
(uhashring never drops the port). Without any weight suffix the nodes are passed as a
list, HashRing(nodes=[...]); otherwise as a dict name -> weight (insertion-ordered).
Prints a '#' header line, then key<TAB>node per input line (HashRing.get_node).
"""
import sys

from uhashring import HashRing


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("default", "ketama"):
        sys.stderr.write("usage: uhr_map.py default|ketama SERVERS VERSION_TEXT < keys\n")
        return 2
    mode, servers, version_text = sys.argv[1:]
    names, weights, weighted = [], {}, False
    for item in servers.split(","):
        parts = item.split(":")
        if len(parts) == 3:
            weighted = True
            name, w = ":".join(parts[:2]), int(parts[2])
        elif len(parts) == 2:
            name, w = item, 1
        else:
            sys.stderr.write(f"uhr_map: bad server {item!r}\n")
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
              f"(dict size {len(rt._ring)}); lookup=get_node(); key\tserver\n")
    out.write(header.encode("utf-8"))
    for raw in sys.stdin.buffer:
        key = raw.rstrip(b"\n").decode("utf-8")
        node = ring.get_node(key)
        if node not in weights:
            sys.stderr.write(f"uhr_map: unexpected node {node!r}\n")
            return 1
        out.write(f"{key}\t{node}\n".encode("utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
