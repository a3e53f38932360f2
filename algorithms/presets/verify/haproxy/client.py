#!/usr/bin/python3
"""chbench verify-presets helper for the live HAProxy check (run by run.sh with /usr/bin/python3).

Subcommands:
  gen CONFIGS_TSV HAPROXY_CFG PLAN_JSON [--strict]
      write the haproxy.cfg for every configs.tsv row with system "haproxy" and a plan
      (stems, backend names, servers, header lines). --strict leaves out
      'option accept-invalid-http-request' (used to show that HAProxy rejects raw non-ASCII URIs).
  portcheck
      exit 2 with a one-line error if any of 127.0.0.1:21000..21050 already has a listener.
  wait PID
      wait (at most 10 s) until the front 127.0.0.1:21000 accepts connections; exit 2 if the
      HAProxy process PID died first.
  run PLAN_JSON KEYS_TXT OUT_DIR
      exactly one HTTP/1.1 request per key per config on one keep-alive connection to
      127.0.0.1:21000 (reconnecting if HAProxy closes it), 5 s socket timeout per request.
      The key is sent as raw bytes (UTF-8 as in keys.txt, no percent-encoding) in
      GET /<backend>?key=<key>. Reads X-Upstream (%si:%sp, set by the backend) and the body
      (dst:dst_port echoed by the server frontend); they must agree. Writes OUT_DIR/<stem>.tsv.

Only 127.0.0.1 is ever contacted.
"""
import json
import os
import re
import socket
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import verifylib as vl  # noqa: E402
from verifylib import HOST  # noqa: E402

FRONT_PORT = 21000
SERVER_PORTS = range(21001, 21051)

HASH_TYPES = {
    "": "consistent",
    "hash=sdbm,avalanche=0": "consistent sdbm",
    "hash=crc32,avalanche=0": "consistent crc32",
}


def die(code, msg):
    sys.stderr.write("haproxy/client.py: %s\n" % msg)
    sys.exit(code)


def parse_servers(col):
    out = []
    for s in col.split(","):
        m = re.fullmatch(r"(127\.0\.0\.1):(\d+)(?::(\d+))?", s)
        if not m:
            die(1, "server %r is not 127.0.0.1:PORT[:WEIGHT]" % s)
        port = int(m.group(2))
        if port not in SERVER_PORTS:
            die(1, "server port %d outside 21001..21050" % port)
        out.append({"addr": "%s:%d" % (m.group(1), port), "port": port,
                    "weight": int(m.group(3) or 1)})
    return out


def cmd_gen(configs, cfg_path, plan_path, strict):
    rows = vl.read_rows(configs, "haproxy")
    if not rows:
        die(1, 'no configs.tsv rows with system "haproxy"')
    accept = "" if strict else "    option accept-invalid-http-request\n"
    cfg = [
        "global",
        "    nbthread 1",
        "    noreuseport",
        "defaults",
        "    mode http",
        "    timeout connect 2s",
        "    timeout client 10s",
        "    timeout server 10s",
        "    timeout http-request 10s",
        "",
        "# The servers: one frontend answering its own address.",
        "frontend backends",
    ]
    cfg += ["    bind %s:%d" % (HOST, p) for p in SERVER_PORTS]
    cfg += [accept.rstrip("\n")] if accept else []
    cfg += ['    http-request return status 200 content-type text/plain lf-string "%[dst]:%[dst_port]"',
            "",
            "# The front: /<backend>?key=... goes to that backend.",
            "frontend front",
            "    bind %s:%d" % (HOST, FRONT_PORT)]
    cfg += [accept.rstrip("\n")] if accept else []
    plan = []
    for i, r in enumerate(rows, 1):
        cfg.append("    use_backend b%d if { path /b%d }" % (i, i))
    for i, r in enumerate(rows, 1):
        if r["options"] not in HASH_TYPES:
            die(1, "%s: unsupported options %r" % (r["stem"], r["options"]))
        ht = HASH_TYPES[r["options"]]
        servers = parse_servers(r["servers"])
        cfg += ["", "# %s" % r["stem"], "backend b%d" % i,
                "    balance url_param key", "    hash-type %s" % ht,
                "    http-response set-header X-Upstream %si:%sp"]
        cfg += ["    server s%d %s weight %d" % (j, s["addr"], s["weight"])
                for j, s in enumerate(servers, 1)]
        desc = ", ".join("s%d %s weight %d" % (j, s["addr"], s["weight"])
                         for j, s in enumerate(servers, 1))
        plan.append({"stem": r["stem"], "backend": "b%d" % i, "hash_type": ht,
                     "servers": [s["addr"] for s in servers], "desc": desc})
    with open(cfg_path, "w", encoding="utf-8") as f:
        f.write("\n".join(cfg) + "\n")
    with open(plan_path, "w", encoding="utf-8") as f:
        json.dump({"strict": strict, "configs": plan}, f)


def cmd_portcheck():
    vl.require_free("haproxy/client.py", [FRONT_PORT] + list(SERVER_PORTS))


def cmd_wait(pid):
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            die(2, "haproxy (pid %d) exited during start-up" % pid)
        try:
            socket.create_connection((HOST, FRONT_PORT), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.05)
    die(2, "haproxy front %s:%d not reachable after 10 s" % (HOST, FRONT_PORT))


def cmd_run(plan_path, keys_path, out_dir, version):
    with open(plan_path, encoding="utf-8") as f:
        plan = json.load(f)
    keys = vl.read_keys(keys_path)
    strict = plan["strict"]
    conn = vl.HttpClient(FRONT_PORT, "HAProxy")
    rejected = []
    for c in plan["configs"]:
        valid = set(c["servers"])
        ht = c["hash_type"]
        header = ("%s, backend { balance url_param key; hash-type %s; servers (puid 1..N in this "
                 "order): %s } (plain 'hash-type consistent' = sdbm + avalanche; 16 x weight points "
                 "per server at full_hash(puid*4096+j); closest point wins, tie to the lower point); "
                 "over 127.0.0.1, one GET /%s?key=<key> per key with the key as raw UTF-8 bytes "
                 "(no percent-encoding; the frontends set 'option accept-invalid-http-request', "
                 "without which HAProxy answers 400 to a request line holding bytes >= 0x80); "
                 "server = X-Upstream (%%si:%%sp) = backend body; key<TAB>server"
                  % (version, ht, c["desc"], c["backend"]))
        lines = []
        for k in keys:
            target = b"/" + c["backend"].encode() + b"?key=" + k
            try:
                status, headers, body = conn.get(target)
            except (OSError, ValueError, IndexError) as e:
                conn.close()
                die(1, "%s: request for key %r failed: %s" % (c["stem"], k, e))
            if status != 200:
                if strict:
                    rejected.append((c["stem"], k, status))
                    continue
                die(1, "%s: key %r: HTTP %d" % (c["stem"], k, status))
            up = headers.get("x-upstream", "")
            got = body.decode("ascii", "replace")
            if up != got or up not in valid:
                die(1, "%s: key %r: X-Upstream %r, body %r, not one server" % (c["stem"], k, up, got))
            k.decode("utf-8")  # keys.txt is UTF-8
            lines.append(k + b"\t" + up.encode("ascii") + b"\n")
        if not strict:
            vl.write_tsv(os.path.join(out_dir, c["stem"] + ".tsv"), header, lines)
    conn.close()
    if strict:
        sys.stdout.write("%d requests rejected in strict mode\n" % len(rejected))
        for stem, k, status in rejected:
            sys.stdout.write("%s\t%s\tHTTP %d\n" % (stem, k.decode("utf-8"), status))


def main(argv):
    if len(argv) >= 4 and argv[0] == "gen":
        cmd_gen(argv[1], argv[2], argv[3], "--strict" in argv[4:])
    elif argv == ["portcheck"]:
        cmd_portcheck()
    elif len(argv) == 2 and argv[0] == "wait":
        cmd_wait(int(argv[1]))
    elif len(argv) == 5 and argv[0] == "run":
        cmd_run(argv[1], argv[2], argv[3], argv[4])
    else:
        die(1, "usage: see the docstring")


if __name__ == "__main__":
    main(sys.argv[1:])
