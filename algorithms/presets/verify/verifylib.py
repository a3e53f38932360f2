"""verifylib: shared by the Python drivers of make verify-presets (nginx/nginx_verify.py,
twemproxy/twem_verify.py, haproxy/client.py). They run under /usr/bin/python3 -I -B and
import it by path:

    sys.dont_write_bytecode = True
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import verifylib

Only 127.0.0.1 is ever contacted.
"""
import os
import signal
import socket
import subprocess
import sys
import time

HOST = "127.0.0.1"
TIMEOUT = 5.0  # seconds per request; nothing is ever resent


def read_rows(path, system):
    """configs.tsv rows (dicts keyed by the header) whose system column is SYSTEM."""
    rows, header = [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            if header is None:
                header = fields
                continue
            r = dict(zip(header, fields + [""] * (len(header) - len(fields))))
            if r["system"] == system:
                rows.append(r)
    return rows


def read_keys(path):
    """keys.txt as a list of byte strings (one per line, without the newline)."""
    with open(path, "rb") as f:
        keys = f.read().split(b"\n")
    if keys and keys[-1] == b"":
        keys.pop()
    return keys


def driver_args(doc):
    """argv CONFIGS_TSV KEYS SCRATCH VERSION_TEXT -> (configs path, keys (bytes list), scratch,
    version text); exit 2 with DOC on a wrong argument count."""
    if len(sys.argv) != 5:
        sys.stderr.write(doc)
        raise SystemExit(2)
    configs, keys_path, scratch, version_text = sys.argv[1:]
    return configs, read_keys(keys_path), scratch, version_text


def check_keys(prefix, keys, forbidden, what, max_len=None):
    """Exit if a key is empty, longer than MAX_LEN or holds a byte of FORBIDDEN."""
    for k in keys:
        bad = set(k) & set(forbidden)
        if bad or not k or (max_len is not None and len(k) > max_len):
            raise SystemExit(f"{prefix}: key {k!r} {what} (contains {bytes(sorted(bad))!r})")


def require_free(prefix, ports):
    """Exit 2 with one line 'PREFIX: cannot bind ...' if a port is busy."""
    busy = busy_port(ports)
    if busy:
        print(f"{prefix}: {busy}", file=sys.stderr)
        raise SystemExit(2)


def busy_port(ports):
    """None if every 127.0.0.1 port can be bound, else 'cannot bind 127.0.0.1:P: reason'."""
    for port in ports:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        # like the servers themselves: TIME_WAIT leftovers of a previous run do not count
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((HOST, port))
        except OSError as e:
            return f"cannot bind {HOST}:{port}: {e.strerror}"
        finally:
            s.close()
    return None


def exit_on_signals(prefix):
    """SIGTERM/SIGINT raise SystemExit, so that `finally:` stops the servers."""
    def on_signal(signum, frame):
        raise SystemExit(f"{prefix}: interrupted by signal {signum}")
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)


def record_pid(scratch, pid):
    """Append PID to SCRATCH/server.pids, the run.sh backstop (stopped by PID on exit)."""
    with open(os.path.join(scratch, "server.pids"), "a") as f:
        f.write(f"{pid}\n")


def stop(proc):
    """SIGTERM to the process's own PID, SIGKILL after 5 s."""
    if proc is not None and proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def wait_listening(port, proc, deadline):
    """True once 127.0.0.1:PORT accepts a connection; False if PROC exits or at DEADLINE."""
    while True:
        if proc.poll() is not None:
            return False
        try:
            socket.create_connection((HOST, port), timeout=1).close()
            return True
        except OSError:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)


def start_failure(prefix, what, log, ports):
    """Report a server that did not start: (exit code, one-line message)."""
    if "Address already in use" in log:
        return 2, f"{prefix}: a port in {ports} on {HOST} is already in use"
    last = log.strip().splitlines()[-1] if log.strip() else "no log"
    return 1, f"{prefix}: {what} did not start: {last}"


def read_text(path):
    return open(path, errors="replace").read() if os.path.exists(path) else ""


def write_tsv(path, header, lines):
    """HEADER (str, without '# ' and newline) and byte LINES (each ending in a newline) to
    PATH, written under a temporary name and renamed (no partial file)."""
    tmp = path + ".part"
    with open(tmp, "wb") as f:
        f.write(("# " + header + "\n").encode("utf-8"))
        f.writelines(lines)
    os.replace(tmp, path)


class Conn:
    """One TCP connection to 127.0.0.1:PORT with a read buffer."""

    def __init__(self, port, who):
        self.port, self.who = port, who
        self.sock, self.buf = None, b""

    def connect(self):
        self.close()
        self.sock = socket.create_connection((HOST, self.port), timeout=TIMEOUT)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def close(self):
        if self.sock is not None:
            self.sock.close()
        self.sock, self.buf = None, b""

    def _fill(self):
        chunk = self.sock.recv(65536)
        if not chunk:
            raise IOError(f"connection closed by {self.who}")
        self.buf += chunk

    def read_until(self, marker):
        """Bytes up to MARKER (consumed, not returned)."""
        while marker not in self.buf:
            self._fill()
        out, self.buf = self.buf.split(marker, 1)
        return out

    def read_n(self, n):
        while len(self.buf) < n:
            self._fill()
        out, self.buf = self.buf[:n], self.buf[n:]
        return out


class HttpClient(Conn):
    """A keep-alive HTTP/1.1 client; reconnects if the server closes; never resends."""

    def get(self, target):
        """GET TARGET (raw bytes). Returns (status int, headers {lower-case str: str}, body bytes)."""
        if self.sock is None:
            self.connect()
        self.sock.sendall(b"GET " + target + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        head = self.read_until(b"\r\n\r\n").decode("latin-1").split("\r\n")
        status = int(head[0].split(" ")[1])
        headers = {}
        for h in head[1:]:
            k, _, v = h.partition(":")
            headers[k.strip().lower()] = v.strip()
        n = int(headers.get("content-length", "-1"))
        if n < 0:
            raise IOError("response without Content-Length")
        body = self.read_n(n)
        if headers.get("connection", "").lower() == "close":
            self.close()
        return status, headers, body
