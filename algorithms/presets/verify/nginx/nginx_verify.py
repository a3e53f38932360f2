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
import subprocess
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import verifylib as vl  # noqa: E402
from verifylib import HOST  # noqa: E402

FRONT_PORT = 20000
BACKEND_PORTS = range(20001, 20051)


def read_rows(path):
    rows = []
    for r in vl.read_rows(path, "nginx"):
        stem, preset, options = r["stem"], r["preset"], r["options"]
        if preset != "nginx" or options:
            raise SystemExit(f"nginx: {stem}: unexpected preset/options {preset!r} {options!r}")
        entries = []
        for item in r["servers"].split(","):
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


def main():
    configs, keys, scratch, version_text = vl.driver_args(__doc__)
    rows = read_rows(configs)
    vl.check_keys("nginx", keys, b"&% #\r\n\t\0", "cannot be sent verbatim in a query string")
    ports = sorted({p for _, entries in rows for _, p, _ in entries})
    vl.require_free("nginx", [FRONT_PORT] + ports)
    conf = write_conf(scratch, rows, ports)
    pidfile = os.path.join(scratch, "nginx.pid")
    errlog = os.path.join(scratch, "error.log")
    proc = None
    vl.exit_on_signals("nginx")
    try:
        proc = subprocess.Popen(["/usr/sbin/nginx", "-p", scratch, "-e", errlog, "-c", conf],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=open(os.path.join(scratch, "stderr.log"), "wb"))
        vl.record_pid(scratch, proc.pid)
        # nginx writes its pid file only after every listening socket is bound.
        deadline = time.monotonic() + 10
        while not os.path.exists(pidfile):
            if proc.poll() is not None or time.monotonic() > deadline:
                log = vl.read_text(errlog) + vl.read_text(os.path.join(scratch, "stderr.log"))
                code, msg = vl.start_failure("nginx", "nginx", log, "20000-20050")
                print(msg, file=sys.stderr)
                return code
            time.sleep(0.02)

        os.makedirs(os.path.join(scratch, "out"), exist_ok=True)
        client = vl.HttpClient(FRONT_PORT, "nginx")
        total = 0
        t0 = time.monotonic()
        for i, (stem, entries) in enumerate(rows):
            labels = {label for label, _, _ in entries}
            desc = ", ".join(f"{label}" + (f" weight={w}" if w != 1 else "") for label, _, w in entries)
            header = (f"{version_text}; upstream {{ hash $arg_key consistent; server {desc}; }} "
                      f"(160 points x weight per server, crc32 of the raw key); one GET /cfg?key=<key> per key "
                      f"through nginx on 127.0.0.1:{FRONT_PORT}; server = X-Upstream ($upstream_addr) = backend body; "
                      f"key\tserver")
            out_lines = []
            prefix = f"/cfg{i}?key=".encode()
            for k in keys:
                status, headers, body = client.get(prefix + k)
                total += 1
                up = headers.get("x-upstream", "")
                if status != 200 or up.encode("latin-1") != body or body.decode() not in labels:
                    raise SystemExit(f"nginx: {stem}: key {k!r}: status {status!r}, "
                                     f"X-Upstream {up!r}, body {body!r}")
                out_lines.append(k + b"\t" + body + b"\n")
            vl.write_tsv(os.path.join(scratch, "out", stem + ".tsv"), header, out_lines)
        client.close()
        if proc.poll() is not None:
            raise SystemExit("nginx: nginx exited during the run")
        print(f"nginx: {total} requests in {time.monotonic() - t0:.1f} s", file=sys.stderr)
        return 0
    except (IOError, ValueError, IndexError) as e:
        print(f"nginx: {e}", file=sys.stderr)
        return 1
    finally:
        vl.stop(proc)  # SIGTERM to nginx's own PID: fast shutdown


if __name__ == "__main__":
    sys.exit(main())
