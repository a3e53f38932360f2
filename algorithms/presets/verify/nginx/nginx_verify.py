"""nginx_verify: run the real nginx `hash $arg_key consistent` on 127.0.0.1 and record
which upstream server each key goes to.

usage: /usr/bin/python3 nginx_verify.py CONFIGS_TSV KEYS SCRATCH VERSION_TEXT

One nginx process (master_process off, daemon off; pid, logs and temp dirs in SCRATCH):
  - one backend listener per server port used (127.0.0.1:20001..20050), answering
    `return 200 "127.0.0.1:$server_port"`;
  - a front on 127.0.0.1:20000 with one location /cfgN per configs.tsv row of system
    nginx, proxying to upstream upN { hash $arg_key consistent; server ... weight=W; }
    and adding the header X-Upstream: $upstream_addr.
The client sends exactly one keep-alive GET /cfgN?key=<raw key bytes> per key per config
(5 s socket timeout, no retry), checks X-Upstream == body == a server of that config,
and writes SCRATCH/out/<stem>.tsv. nginx is stopped by PID on every exit path.
Exit status 2: a port is busy or nginx is missing; 1: any other failure.
"""
import os
import signal
import socket
import subprocess
import sys
import time

HOST = "127.0.0.1"
FRONT_PORT = 20000
BACKEND_PORTS = range(20001, 20051)
TIMEOUT = 5.0


class PortBusy(Exception):
    pass


def read_rows(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        lines = [l.rstrip("\n") for l in f if not l.startswith("#")]
    for line in lines[1:]:
        stem, system, preset, options, servers = line.split("\t")
        if system != "nginx":
            continue
        if preset != "nginx" or options:
            raise SystemExit(f"nginx: {stem}: unexpected preset/options {preset!r} {options!r}")
        entries = []
        for item in servers.split(","):
            parts = item.split(":")
            if len(parts) not in (2, 3) or parts[0] != HOST:
                raise SystemExit(f"nginx: {stem}: server {item!r} is not 127.0.0.1:port[:weight]")
            port = int(parts[1])
            if port not in BACKEND_PORTS:
                raise SystemExit(f"nginx: {stem}: port {port} outside 20001-20050")
            weight = int(parts[2]) if len(parts) == 3 else 1
            entries.append((f"{HOST}:{port}", port, weight))
        rows.append((stem, entries))
    return rows


def check_free(ports):
    for port in ports:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        # like the servers themselves: TIME_WAIT leftovers of a previous run do not count
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((HOST, port))
        except OSError as e:
            raise PortBusy(f"nginx: cannot bind {HOST}:{port}: {e.strerror}")
        finally:
            s.close()


def server_line(label, weight):
    return f"server {label}" + (f" weight={weight}" if weight != 1 else "") + ";"


def write_conf(scratch, rows, ports):
    for d in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        os.makedirs(os.path.join(scratch, "temp", d), exist_ok=True)
    t = os.path.join(scratch, "temp")
    out = [
        "master_process off;", "daemon off;", "worker_processes 1;",
        f"pid {scratch}/nginx.pid;", f"error_log {scratch}/error.log warn;",
        "events { worker_connections 256; }",
        "http {",
        "  access_log off;",
        f"  client_body_temp_path {t}/body; proxy_temp_path {t}/proxy;",
        f"  fastcgi_temp_path {t}/fastcgi; uwsgi_temp_path {t}/uwsgi; scgi_temp_path {t}/scgi;",
        "  keepalive_requests 1000000; keepalive_timeout 30s;",
        "  default_type text/plain;",
    ]
    for port in ports:
        out.append(f'  server {{ listen {HOST}:{port}; location / {{ return 200 "{HOST}:$server_port"; }} }}')
    for i, (stem, entries) in enumerate(rows):
        out.append(f"  upstream up{i} {{  # {stem}")
        out.append("    hash $arg_key consistent;")
        for label, _, weight in entries:
            out.append("    " + server_line(label, weight))
        out.append("  }")
    out.append(f"  server {{")
    out.append(f"    listen {HOST}:{FRONT_PORT};")
    out.append("    proxy_next_upstream off;")
    out.append(f"    proxy_connect_timeout 5s; proxy_read_timeout 5s; proxy_send_timeout 5s;")
    for i in range(len(rows)):
        out.append(f"    location = /cfg{i} {{ proxy_pass http://up{i}; add_header X-Upstream $upstream_addr always; }}")
    out.append("    location / { return 404; }")
    out.append("  }")
    out.append("}")
    path = os.path.join(scratch, "nginx.conf")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    return path


class Client:
    """A keep-alive HTTP/1.1 client over one socket; never resends a request."""

    def __init__(self):
        self.sock = None
        self.buf = b""

    def connect(self):
        self.close()
        self.sock = socket.create_connection((HOST, FRONT_PORT), timeout=TIMEOUT)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""

    def close(self):
        if self.sock:
            self.sock.close()
        self.sock = None

    def _fill(self):
        chunk = self.sock.recv(65536)
        if not chunk:
            raise IOError("connection closed by nginx before a full response")
        self.buf += chunk

    def get(self, path_bytes):
        if self.sock is None:
            self.connect()
        self.sock.sendall(b"GET " + path_bytes + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        while b"\r\n\r\n" not in self.buf:
            self._fill()
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        lines = head.split(b"\r\n")
        status = lines[0].split(b" ")[1]
        headers = {}
        for l in lines[1:]:
            k, _, v = l.partition(b":")
            headers[k.strip().lower()] = v.strip()
        n = int(headers.get(b"content-length", b"-1"))
        if n < 0:
            raise IOError("response without Content-Length")
        while len(self.buf) < n:
            self._fill()
        body, self.buf = self.buf[:n], self.buf[n:]
        if headers.get(b"connection", b"").lower() == b"close":
            self.close()
        return status, headers, body


def main():
    if len(sys.argv) != 5:
        sys.stderr.write(__doc__)
        return 2
    configs, keys_path, scratch, version_text = sys.argv[1:]
    rows = read_rows(configs)
    with open(keys_path, "rb") as f:
        keys = [l.rstrip(b"\n") for l in f]
    for k in keys:
        bad = set(k) & set(b"&% #\r\n\t\0")
        if bad or not k:
            raise SystemExit(f"nginx: key {k!r} cannot be sent verbatim in a query string "
                             f"(contains {bytes(sorted(bad))!r})")
    ports = sorted({p for _, entries in rows for _, p, _ in entries})
    try:
        check_free([FRONT_PORT] + ports)
    except PortBusy as e:
        print(e, file=sys.stderr)
        return 2
    conf = write_conf(scratch, rows, ports)
    pidfile = os.path.join(scratch, "nginx.pid")
    errlog = os.path.join(scratch, "error.log")
    proc = None

    def on_signal(signum, frame):
        raise SystemExit(f"nginx: interrupted by signal {signum}")

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        proc = subprocess.Popen(["/usr/sbin/nginx", "-p", scratch, "-e", errlog, "-c", conf],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=open(os.path.join(scratch, "stderr.log"), "wb"))
        with open(os.path.join(scratch, "server.pid"), "w") as f:
            f.write(f"{proc.pid}\n")
        # nginx writes its pid file only after every listening socket is bound.
        deadline = time.monotonic() + 10
        while not os.path.exists(pidfile):
            if proc.poll() is not None or time.monotonic() > deadline:
                log = open(errlog, errors="replace").read() if os.path.exists(errlog) else ""
                log += open(os.path.join(scratch, "stderr.log"), errors="replace").read()
                if "Address already in use" in log:
                    print("nginx: a port in 20000-20050 on 127.0.0.1 is already in use", file=sys.stderr)
                    return 2
                last = log.strip().splitlines()[-1] if log.strip() else "no log"
                print(f"nginx: nginx did not start: {last}", file=sys.stderr)
                return 1
            time.sleep(0.02)

        os.makedirs(os.path.join(scratch, "out"), exist_ok=True)
        client = Client()
        total = 0
        t0 = time.monotonic()
        for i, (stem, entries) in enumerate(rows):
            labels = {label for label, _, _ in entries}
            desc = ", ".join(f"{label}" + (f" weight={w}" if w != 1 else "") for label, _, w in entries)
            header = (f"# {version_text}; upstream {{ hash $arg_key consistent; server {desc}; }} "
                      f"(160 points x weight per server, crc32 of the raw key); one GET /cfg?key=<key> per key "
                      f"through nginx on 127.0.0.1:{FRONT_PORT}; server = X-Upstream ($upstream_addr) = backend body; "
                      f"key\tserver\n")
            out_lines = [header.encode("utf-8")]
            prefix = f"/cfg{i}?key=".encode()
            for k in keys:
                status, headers, body = client.get(prefix + k)
                total += 1
                up = headers.get(b"x-upstream", b"")
                if status != b"200" or up != body or body.decode() not in labels:
                    raise SystemExit(f"nginx: {stem}: key {k!r}: status {status!r}, "
                                     f"X-Upstream {up!r}, body {body!r}")
                out_lines.append(k + b"\t" + body + b"\n")
            with open(os.path.join(scratch, "out", stem + ".tsv"), "wb") as f:
                f.writelines(out_lines)
        client.close()
        if proc.poll() is not None:
            raise SystemExit("nginx: nginx exited during the run")
        print(f"nginx: {total} requests in {time.monotonic() - t0:.1f} s", file=sys.stderr)
        return 0
    except (IOError, socket.timeout) as e:
        print(f"nginx: {e}", file=sys.stderr)
        return 1
    finally:
        if proc is not None and proc.poll() is None:
            proc.terminate()  # SIGTERM to nginx's own PID: fast shutdown
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


if __name__ == "__main__":
    sys.exit(main())
