"""twem_verify: run the real twemproxy (Debian nutcracker) on 127.0.0.1 and record which
backend each key goes to.

usage: /usr/bin/python3 twem_verify.py CONFIGS_TSV KEYS SCRATCH VERSION_TEXT
       /usr/bin/python3 twem_verify.py --backends PORT...   (internal: the fake memcacheds)

- Fake memcached backends (asyncio, one process) on 127.0.0.1:22001..22050 answer
  `get k` with VALUE k = "127.0.0.1:<their port>".
- One nutcracker (stats on 127.0.0.1:22100) with one pool per configs.tsv row of system
  twemproxy, listening on 127.0.0.1:22101, 22102, ...; `hash:` from the options column
  (hash=fnv1a_64 or hash=md5), distribution ketama, weights from the servers column.
  A production name host:11211[:W] at position j becomes the line
  `127.0.0.1:<22001+j>:W host`: the explicit ketama name `host` is exactly the name twemproxy
  derives for an unnamed `host:11211` line, so the ring is the production one while all
  traffic stays on 127.0.0.1. Servers that are already 127.0.0.1:2200x are written as plain
  unnamed `127.0.0.1:2200x:W` lines (ketama name host:port).
- The client sends exactly one `get <key>` per key per pool (5 s socket timeout, no retry)
  and maps the answering backend back to the servers column entry (minus the weight).
nutcracker and the backends are stopped by PID on every exit path.
Exit status 2: a port is busy; 1: any other failure.
"""
import asyncio
import os
import signal
import subprocess
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import verifylib as vl  # noqa: E402
from verifylib import HOST  # noqa: E402

BACKEND_BASE = 22001
BACKEND_PORTS = range(22001, 22051)
STATS_PORT = 22100
POOL_BASE = 22101
WINDOW = 32  # requests in flight per pool connection (each key is still sent once)


# ---------------------------------------------------------------- fake memcached backends
async def serve_backend(reader, writer, ident):
    try:
        while True:
            line = await reader.readline()
            if not line:
                break
            parts = line.rstrip(b"\r\n").split(b" ")
            if parts[0] == b"get" and len(parts) >= 2:
                out = []
                for key in parts[1:]:
                    out.append(b"VALUE %s 0 %d\r\n%s\r\n" % (key, len(ident), ident))
                out.append(b"END\r\n")
                writer.write(b"".join(out))
            else:
                writer.write(b"ERROR\r\n")
            await writer.drain()
    except (ConnectionError, asyncio.IncompleteReadError):
        pass
    finally:
        writer.close()


async def run_backends(ports):
    servers = []
    for port in ports:
        ident = f"{HOST}:{port}".encode()
        try:
            servers.append(await asyncio.start_server(
                lambda r, w, ident=ident: serve_backend(r, w, ident), HOST, port))
        except OSError as e:
            print(f"twemproxy: cannot bind {HOST}:{port}: {e.strerror}", file=sys.stderr)
            sys.exit(2)
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    # Run until the parent closes our stdin (or kills us by PID).
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)


# ---------------------------------------------------------------- configuration
def read_rows(path):
    rows = []
    for r in vl.read_rows(path, "twemproxy"):
        stem, preset, options, servers = r["stem"], r["preset"], r["options"], r["servers"]
        opts = dict(o.split("=", 1) for o in options.split(",") if o)
        hash_name = opts.pop("hash", "fnv1a_64")
        if preset != "twemproxy" or opts or hash_name not in ("fnv1a_64", "md5"):
            raise SystemExit(f"twemproxy: {stem}: unexpected preset/options {preset!r} {options!r}")
        pool = []  # (label, backend port, weight, explicit name or None)
        for j, item in enumerate(servers.split(",")):
            parts = item.split(":")
            if len(parts) not in (2, 3):
                raise SystemExit(f"twemproxy: {stem}: bad server {item!r}")
            host, port = parts[0], int(parts[1])
            weight = int(parts[2]) if len(parts) == 3 else 1
            label = f"{host}:{port}"
            if host == HOST:
                if port not in BACKEND_PORTS:
                    raise SystemExit(f"twemproxy: {stem}: {label} outside 22001-22050")
                pool.append((label, port, weight, None))
            else:
                if BACKEND_BASE + j not in BACKEND_PORTS:
                    raise SystemExit(f"twemproxy: {stem}: more than 50 servers")
                # twemproxy's own name for an unnamed line: host if port 11211, else host:port
                name = host if port == 11211 else label
                pool.append((label, BACKEND_BASE + j, weight, name))
        if len({p for _, p, _, _ in pool}) != len(pool):
            raise SystemExit(f"twemproxy: {stem}: two servers share a backend port")
        rows.append((stem, hash_name, pool))
    return rows


def server_line(port, weight, name):
    return f"{HOST}:{port}:{weight}" + (f" {name}" if name else "")


def write_conf(scratch, rows):
    out = []
    for i, (stem, hash_name, pool) in enumerate(rows):
        out += [f"p{i}:  # {stem}",
                f"  listen: {HOST}:{POOL_BASE + i}",
                f"  hash: {hash_name}",
                "  distribution: ketama",
                "  timeout: 5000",
                "  auto_eject_hosts: false",
                "  preconnect: false",
                "  server_connections: 1",
                "  servers:"]
        out += [f"   - {server_line(p, w, n)}" for _, p, w, n in pool]
    path = os.path.join(scratch, "nutcracker.yml")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    return path


# ---------------------------------------------------------------- client
class Conn(vl.Conn):
    def __init__(self, port):
        super().__init__(port, "nutcracker")
        self.connect()

    def read_get(self, key):
        line = self.read_until(b"\r\n")
        head = line.split(b" ")
        if len(head) != 4 or head[0] != b"VALUE" or head[1] != key:
            raise IOError(f"unexpected reply {line!r} for key {key!r}")
        data = self.read_n(int(head[3]))
        if self.read_n(2) != b"\r\n" or self.read_until(b"\r\n") != b"END":
            raise IOError(f"malformed reply for key {key!r}")
        return data


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "--backends":
        # stopped by the driver (stdin closed, then SIGTERM by PID); a Ctrl-C to the process
        # group must not print a KeyboardInterrupt traceback
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        asyncio.run(run_backends([int(p) for p in sys.argv[2:]]))
        return 0
    configs, keys, scratch, version_text = vl.driver_args(__doc__)
    rows = read_rows(configs)
    vl.check_keys("twemproxy", keys, b" \r\n\t\0", "is not a valid memcached key", max_len=250)
    backend_ports = sorted({p for _, _, pool in rows for _, p, _, _ in pool})
    pool_ports = [POOL_BASE + i for i in range(len(rows))]
    vl.require_free("twemproxy", backend_ports + [STATS_PORT] + pool_ports)
    conf = write_conf(scratch, rows)
    vl.exit_on_signals("twemproxy")
    backends = nut = None
    try:
        backends = subprocess.Popen([sys.executable, "-I", "-B", os.path.abspath(__file__), "--backends"]
                                    + [str(p) for p in backend_ports],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        vl.record_pid(scratch, backends.pid)
        if backends.stdout.readline() != b"ready\n":
            backends.wait(timeout=5)
            return 2 if backends.returncode == 2 else 1
        nut = subprocess.Popen(["/usr/sbin/nutcracker", "-c", conf,
                                "-p", os.path.join(scratch, "nutcracker.pid"),
                                "-o", os.path.join(scratch, "nutcracker.log"),
                                "-s", str(STATS_PORT), "-a", HOST, "-v", "4"],
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.STDOUT)
        vl.record_pid(scratch, nut.pid)
        deadline = time.monotonic() + 10
        for port in [STATS_PORT] + pool_ports:
            if not vl.wait_listening(port, nut, deadline):
                log = vl.read_text(os.path.join(scratch, "nutcracker.log"))
                code, msg = vl.start_failure("twemproxy", "nutcracker", log, "22100-22150")
                print(msg, file=sys.stderr)
                return code

        os.makedirs(os.path.join(scratch, "out"), exist_ok=True)
        total = 0
        t0 = time.monotonic()
        for i, (stem, hash_name, pool) in enumerate(rows):
            by_ident = {f"{HOST}:{p}".encode(): label.encode() for label, p, _, _ in pool}
            desc = ", ".join(server_line(p, w, n) for _, p, w, n in pool)
            header = (f"{version_text}; pool {{hash: {hash_name}, distribution: ketama, servers "
                      f"(host:port:weight [name]): {desc}}}; one get per key through nutcracker on "
                      f"{HOST}:{POOL_BASE + i} to fake memcached backends on {HOST}")
            if any(n for _, _, _, n in pool):
                header += ("; each named backend stands for the production line host:11211:W "
                           "(same ketama name host), printed as host:11211")
            out_lines = []
            conn = Conn(POOL_BASE + i)
            sent = 0
            for j, k in enumerate(keys):
                # keep up to WINDOW requests in flight; each key is sent exactly once
                while sent < len(keys) and sent < j + WINDOW:
                    conn.sock.sendall(b"get " + keys[sent] + b"\r\n")
                    sent += 1
                ident = conn.read_get(k)
                total += 1
                if ident not in by_ident:
                    raise SystemExit(f"twemproxy: {stem}: key {k!r} answered by {ident!r}")
                out_lines.append(k + b"\t" + by_ident[ident] + b"\n")
            conn.close()
            vl.write_tsv(os.path.join(scratch, "out", stem + ".tsv"), header + "; key\tserver", out_lines)
        if nut.poll() is not None or backends.poll() is not None:
            raise SystemExit("twemproxy: a server exited during the run")
        print(f"twemproxy: {total} gets in {time.monotonic() - t0:.1f} s", file=sys.stderr)
        return 0
    except (IOError, ValueError, IndexError) as e:
        print(f"twemproxy: {e}", file=sys.stderr)
        return 1
    finally:
        vl.stop(nut)
        if backends is not None:
            try:
                backends.stdin.close()
            except OSError:
                pass
        vl.stop(backends)


if __name__ == "__main__":
    sys.exit(main())
