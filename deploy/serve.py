"""Serve the app to a lecture hall: N Streamlit processes behind HAProxy, one command.

    python deploy/serve.py                      # one process per core, hall on port 8080
    python deploy/serve.py --processes 2 --port 8080 --bind 0.0.0.0

Streamlit keeps each student's session (controls, step, uploaded CSV) in the
memory of the process that holds the student's websocket, so every request of
one browser must reach the same process. HAProxy (Debian package ``haproxy``)
does that with **cookie affinity**: its first answer to a browser sets the
cookie ``mp_server`` naming a process, and every later request of that browser
(static files, the websocket on ``/_stcore/stream``, a CSV upload on
``/_stcore/upload_file``, a reconnect after a wifi drop) carries it back. Unlike
affinity by client address, a hall of students behind one NAT address is still
spread over the processes. New browsers are spread round-robin over the
processes whose health check (``GET /_stcore/health`` every 2 s) passes; a
process that stops answering is taken out until it answers again.

A hall session (issue 68: the lecturer drives, students follow and answer polls)
is shared by every process, so it lives in Debian's ``redis-server``, started
here before the Streamlit processes (loopback, port ``--redis-port``, its
append-only file with ``appendfsync always`` in the hall's log folder: a
restarted server resumes every session with no acknowledged answer lost) and
handed to each process as ``MP_HALL_REDIS``. ``--no-redis`` serves a hall from
one process's memory instead (``--processes 1`` only). With Redis, a small
process of its own (``hall/version_app.py``, on a Unix socket in a folder of its
own) answers the students' version polls (``GET /hall/version``, each phone every
second), so that they cost the Streamlit processes nothing; HAProxy falls back to
the Streamlit processes, which serve the same route, when it is down. Every
process started here ends with this one, even when it is killed (the
parent-death signal).

The Streamlit processes listen on loopback only (ports ``--first-port`` and
up); the hall reaches the balancer on ``--bind:--port``. Put TLS in front of it
(or add a ``crt`` to the ``bind`` line) for a public address. Ctrl+C stops
everything. ``--config-only`` prints the HAProxy configuration and exits.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import errno
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from hall.config import REDIS_ENV  # noqa: E402
from hall.redis_server import RedisServer, popen_with_parent, redis_binary  # noqa: E402
from hall.version_route import PATH as VERSION_PATH  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from warmup import (  # noqa: E402,F401  (the deploy tests read them here)
    PHONE_AGENT,
    WARM_EVERY_DATASET,
    progress_bar,
    warm_targets,
    warm_up,
)

#: Name of the affinity cookie HAProxy sets.
COOKIE = "mp_server"
HEALTH = "/_stcore/health"
START_TIMEOUT = 90.0
#: The hall's redis-server listens on 127.0.0.1 here unless --redis-port says otherwise.
REDIS_PORT = 6390
#: Content types the balancer gzips: the page, Streamlit's JavaScript and style sheets, the
#: plotly.js bundle, JSON and SVG icons. Fonts (woff2) and images are compressed already;
#: the websocket is a tunnel and is never touched.
COMPRESSED_TYPES = ("text/html", "text/css", "text/javascript", "application/javascript",
                    "application/json", "image/svg+xml", "text/plain")


def haproxy_config(ports, *, bind: str = "0.0.0.0", port: int = 8080,
                   max_upload_mb: int = 6, stats_port: int | None = None,
                   version_socket: str | Path | None = None) -> str:
    """The HAProxy configuration for Streamlit processes on 127.0.0.1:``ports`` (and
    the version route's own process on the Unix socket ``version_socket``, if given)."""
    if not ports:
        raise ValueError("Give at least one Streamlit port to balance.")
    servers = "\n".join(
        f"    server app{i} 127.0.0.1:{p} cookie app{i} check inter 2s fall 3 rise 2"
        for i, p in enumerate(ports, 1))
    version_rule = version_backend = ""
    if version_socket is not None:
        version_rule = f"\n    use_backend version if {{ path {VERSION_PATH} }}"
        backups = "\n".join(f"    server app{i} 127.0.0.1:{p} check inter 2s backup"
                             for i, p in enumerate(ports, 1))
        version_backend = f"""
backend version
    # students' version polls: the version process, or any Streamlit process while it is down
    balance roundrobin
    server version unix@{version_socket} check inter 2s fall 2 rise 1
{backups}
"""
    stats = "" if stats_port is None else f"""
frontend stats
    bind 127.0.0.1:{stats_port}
    stats enable
    stats uri /
    stats refresh 5s
"""
    return f"""# Generated by deploy/serve.py: {len(ports)} Streamlit process(es) behind one address.
global
    maxconn 4096
    log stdout format raw local0 warning

defaults
    mode http
    log global
    option httplog
    timeout connect 5s
    # a page load or an upload; the websocket itself is a tunnel (below)
    timeout client 60s
    timeout server 60s
    timeout http-request 30s
    # a student's websocket stays open for the whole lecture
    timeout tunnel 4h
    timeout client-fin 10s

frontend hall
    bind {bind}:{port}
    # a CSV upload is at most {max_upload_mb} MB (Streamlit refuses more itself)
    http-request deny deny_status 413 if {{ req.body_size gt {(max_upload_mb + 1) * 1024 * 1024} }}{version_rule}
    default_backend streamlit

backend streamlit
    balance roundrobin
    # cookie affinity: the websocket, the upload and every reconnect of one browser reach
    # the process that holds its session; a dead process's students are re-dispatched
    cookie {COOKIE} insert indirect nocache httponly attr "SameSite=Lax"
    option redispatch
    option httpchk GET {HEALTH}
    http-check expect status 200
    # text is gzipped here (HAProxy's libslz), once per answer, not by the Python processes:
    # Streamlit sends its own JavaScript (3.1 MB on a first visit) uncompressed, expecting a
    # proxy in front to do it, and gzips the plotly.js bundle in its event loop, the loop
    # that serves every student's websocket; "offload" asks the processes for plain text
    compression algo gzip
    compression type {" ".join(COMPRESSED_TYPES)}
    compression offload
{servers}
{version_backend}{stats}"""


#: The TCP port numbers a server can listen on.
PORT_RANGE = (1, 65535)


def port_problem(value, name: str = "port") -> str | None:
    """Why ``value`` is not a TCP port number, or None when it is one."""
    lo, hi = PORT_RANGE
    if isinstance(value, bool) or not isinstance(value, int):
        return f"{name} must be a port number (an integer), got {value!r}."
    if not lo <= value <= hi:
        return f"{name} must be a port number between {lo} and {hi}, got {value}."
    return None


#: Environment variable that hands the address students open to the app
#: (pages.common.address.HALL_ENV reads it; the classroom link and its QR code use it).
HALL_ENV = "MP_HALL_URL"


def lan_address(bind: str) -> str | None:
    """This machine's address on the hall's network for a balancer bound to ``bind``:
    ``bind`` itself when it names one address, else the address of the interface that
    routes outwards (a UDP socket's connect sends nothing), or None when only loopback."""
    if bind not in ("0.0.0.0", "::", ""):
        return bind
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: never reached, only routed
            ip = s.getsockname()[0]
    except OSError:
        return None
    return None if ip.startswith("127.") or ip == "0.0.0.0" else ip


def public_url(bind: str, port: int) -> str | None:
    """``http://<this machine's address on the hall's network>:<port>``, or None."""
    host = lan_address(bind)
    if host is None:
        return None
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def _port_arg(text: str) -> int:
    """argparse type of a port option: an integer in :data:`PORT_RANGE`."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    problem = port_problem(value, "it")
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return value


def port_in_use(port: int, host: str = "127.0.0.1") -> bool:
    """Whether another process listens on ``host:port`` (a bind there fails)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        # as servers do: a port whose last connection is in TIME_WAIT is free
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError as exc:
            # another error (an address not on this machine, say) is the server's to report
            return exc.errno == errno.EADDRINUSE
    return False


def _healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{HEALTH}", timeout=1) as r:
            return r.read().strip() == b"ok"
    except OSError:
        return False


class Hall:
    """N Streamlit processes and HAProxy in front of them, as this process's children.

    Use as a context manager; ``url`` is the balancer's address. ``pids()`` lists the
    Streamlit processes (for memory and CPU figures). With ``redis_port`` a redis-server
    for the hall session starts first (its files in ``log_dir/redis``), every Streamlit
    process gets its address as ``MP_HALL_REDIS``, and it stops last. The fault drills of
    the load test: :meth:`kill_process`, :meth:`restart_process`, :meth:`restart_redis`.
    """

    def __init__(self, processes: int = 2, *, port: int = 8080, first_port: int = 8501,
                 bind: str = "127.0.0.1", log_dir: Path | None = None, haproxy: str = "haproxy",
                 server_options=(), stats_port: int | None = None, warm=False,
                 progress=None, public: str | None = None, redis_port: int | None = None):
        if processes < 1:
            raise ValueError("processes must be at least 1.")
        named = [(port, "port"), (first_port, "first_port")]
        named += [] if stats_port is None else [(stats_port, "stats_port")]
        named += [] if redis_port is None else [(redis_port, "redis_port")]
        for value, name in named:
            if port_problem(value, name):
                raise ValueError(port_problem(value, name))
        if port_problem(first_port + processes - 1):
            raise ValueError(f"{processes} processes from first_port {first_port} need ports up "
                             f"to {first_port + processes - 1}, beyond {PORT_RANGE[1]}: choose "
                             "a lower first_port.")
        self.ports = [first_port + i for i in range(processes)]
        if port in self.ports:
            raise ValueError(f"The balancer port {port} is one of the Streamlit ports "
                             f"{self.ports}: choose another --port or --first-port.")
        others = [(port, "balancer port", "--port")]
        others += [] if stats_port is None else [(stats_port, "status page port", "--stats-port")]
        if redis_port is not None:
            clash = [(n, o) for p, n, o in others if p == redis_port]
            if redis_port in self.ports:
                clash.append(("Streamlit ports", "--first-port"))
            if clash:
                raise ValueError(f"The Redis port {redis_port} is also the hall's "
                                 f"{clash[0][0]}: choose another --redis-port or "
                                 f"{clash[0][1]}.")
        self.port, self.bind = port, bind
        self.redis_port = redis_port
        self.redis: RedisServer | None = None
        # Debian installs it in /usr/sbin, which is not on every user's PATH
        self.haproxy = (shutil.which(haproxy) or shutil.which(haproxy, path="/usr/sbin:/sbin")
                        or haproxy)
        self.server_options = list(server_options)
        #: the address students open, handed to every Streamlit process (HALL_ENV)
        self.public = public
        self.stats_port = stats_port
        #: False, True (:func:`warm_up`'s views) or a list of (url path, query, phone) views
        self.warm, self.progress = warm, progress
        self.warm_problems: list[str] = []
        self.warm_seconds = 0.0
        # a folder of our own, removed on a clean exit only: after a failed start the
        # error message points at its logs
        self._tmp = None if log_dir else tempfile.mkdtemp(prefix="mp-hall-")
        self._keep_logs = False
        self.log_dir = Path(log_dir or self._tmp)
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.procs: list[subprocess.Popen] = []
        self.balancer: subprocess.Popen | None = None
        #: the version route's own process (with Redis only: it reads the shared store)
        self.version: subprocess.Popen | None = None
        self._socket_dir: str | None = None
        self._logs = []

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.bind in ("0.0.0.0", "::") else self.bind
        return f"http://{host}:{self.port}"

    def pids(self) -> list[int]:
        return [p.pid for p in self.procs]

    @property
    def redis_url(self) -> str | None:
        """The hall store's address the Streamlit processes get (None: no Redis)."""
        return None if self.redis is None else self.redis.url

    def _spawn(self, cmd, name, env=None, append=False):
        log = open(self.log_dir / f"{name}.log", "ab" if append else "wb")
        self._logs.append(log)
        # a killed serve.py (SIGKILL, the OOM killer) leaves no process behind, whichever
        # thread starts the process (a restart from a load test's helper thread included)
        return popen_with_parent(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                                 env=None if env is None else {**os.environ, **env})

    def _streamlit_env(self) -> dict | None:
        env = {HALL_ENV: self.public} if self.public else {}
        if self.redis is not None:
            env[REDIS_ENV] = self.redis.url
        return env or None

    def _spawn_streamlit(self, i: int, append=False) -> subprocess.Popen:
        """Start Streamlit process ``i`` (1-based) on its port."""
        # app.py with the hall's version route beside it (deploy/hall_app.py)
        cmd = [sys.executable, "-m", "streamlit", "run", "deploy/hall_app.py",
               "--server.address", "127.0.0.1", "--server.port", str(self.ports[i - 1]),
               "--server.headless", "true", "--browser.gatherUsageStats", "false"]
        for opt in self.server_options:
            key, _, value = opt.partition("=")
            cmd += [f"--{key}", value]
        return self._spawn(cmd, f"streamlit{i}", env=self._streamlit_env(), append=append)

    @property
    def version_socket(self) -> Path | None:
        """The Unix socket of the version route's own process (None: no such process)."""
        return None if self._socket_dir is None else Path(self._socket_dir) / "version.sock"

    def _spawn_version(self) -> subprocess.Popen:
        """Start the version route's own process (``hall/version_app.py``) on a Unix
        socket: a path of its own, short enough for a socket's address."""
        self._socket_dir = tempfile.mkdtemp(prefix="mp-hall-v-")
        cmd = [sys.executable, "-m", "uvicorn", "hall.version_app:app",
               "--uds", str(self.version_socket), "--log-level", "warning", "--no-access-log"]
        return self._spawn(cmd, "version", env=self._streamlit_env())

    def kill_process(self, i: int) -> None:
        """SIGKILL Streamlit process ``i`` (1-based), as a crash would; its students'
        browsers reconnect through the balancer to another process."""
        proc = self.procs[i - 1]
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)

    def restart_process(self, i: int, timeout: float = START_TIMEOUT) -> None:
        """Start Streamlit process ``i`` again (after :meth:`kill_process`) and wait until it
        answers its health check (the balancer takes it back by itself)."""
        self.kill_process(i)
        self.procs[i - 1] = self._spawn_streamlit(i, append=True)
        deadline = time.monotonic() + timeout
        while not _healthy(self.ports[i - 1]):
            if self.procs[i - 1].poll() is not None:
                raise RuntimeError(self._exited_early(self.procs[i - 1]))
            if time.monotonic() > deadline:
                raise RuntimeError(f"Streamlit process {i} did not answer within {timeout:.0f} s")
            time.sleep(0.2)

    def restart_redis(self, *, kill: bool = True) -> None:
        """Stop the hall's redis-server (``kill``: SIGKILL, as a crash would) and start it
        again on the same port and folder: it reloads its append-only file."""
        if self.redis is None:
            raise RuntimeError("this hall runs without Redis")
        self.redis.restart(kill=kill)

    def __enter__(self) -> Hall:
        if not Path(self.haproxy).exists():
            raise RuntimeError("HAProxy is not installed: apt-get install haproxy "
                               "(Debian/Ubuntu), then run this again.")
        if self.redis_port is not None and redis_binary() is None:
            raise RuntimeError("redis-server is not installed: apt-get install redis-server "
                               "(Debian/Ubuntu), or serve the hall from one process with "
                               "--processes 1 --no-redis.")
        try:
            self._check_ports_free()
        except RuntimeError:
            self.__exit__()  # nothing started, no log to keep
            raise
        try:
            if self.redis_port is not None:  # the store first: a page may read it at once
                self.redis = RedisServer(self.redis_port, self.log_dir / "redis").start()
            for i in range(1, len(self.ports) + 1):
                self.procs.append(self._spawn_streamlit(i))
            if self.redis is not None:
                self.version = self._spawn_version()
            deadline = time.monotonic() + START_TIMEOUT
            waiting = set(self.ports)
            while waiting or (self.version is not None and not self.version_socket.exists()):
                for proc in self.procs:
                    if proc.poll() is not None:
                        raise RuntimeError(self._exited_early(proc))
                waiting = {p for p in waiting if not _healthy(p)}
                if self.version is not None and self.version.poll() is not None:
                    raise RuntimeError("The hall's version process (hall/version_app.py) "
                                       f"exited while starting; see {self.log_dir}/version.log")
                if time.monotonic() > deadline:
                    late = (f"Streamlit on ports {sorted(waiting)} did not answer {HEALTH}"
                            if waiting else "The hall's version process did not open its socket")
                    raise RuntimeError(f"{late} within {START_TIMEOUT:.0f} s; see {self.log_dir}")
                time.sleep(0.3)
            if self.warm:  # before the balancer opens: no student meets a cold process
                t0 = time.monotonic()
                views = None if self.warm is True else list(self.warm)
                # in a thread of its own: the caller may be inside an event loop (a load test)
                with concurrent.futures.ThreadPoolExecutor(1) as pool:
                    self.warm_problems = pool.submit(
                        asyncio.run, warm_up(self.ports, views, self.progress)).result()
                self.warm_seconds = time.monotonic() - t0
            cfg = self.log_dir / "haproxy.cfg"
            cfg.write_text(haproxy_config(self.ports, bind=self.bind, port=self.port,
                                          stats_port=self.stats_port,
                                          version_socket=self.version_socket),
                           encoding="utf-8")
            check = subprocess.run([self.haproxy, "-c", "-q", "-f", str(cfg)],
                                   capture_output=True, text=True)
            if check.returncode != 0:
                raise RuntimeError(f"HAProxy refused its configuration:\n{check.stderr}")
            self.balancer = self._spawn([self.haproxy, "-db", "-f", str(cfg)], "haproxy")
            while not self._balancer_up():
                if self.balancer.poll() is not None:
                    raise RuntimeError("HAProxy exited: "
                                       + (self.log_dir / "haproxy.log").read_text(errors="replace"))
                if time.monotonic() > deadline:
                    raise RuntimeError(f"HAProxy did not answer on {self.url} in time")
                time.sleep(0.2)
        except BaseException:
            self._keep_logs = True
            self.__exit__()
            raise
        return self

    def _check_ports_free(self) -> None:
        """Refuse to start when a port of the hall is taken (say which, and what to pass)."""
        taken = [(p, f"Streamlit process {i}", "--first-port")
                 for i, p in enumerate(self.ports, 1) if port_in_use(p)]
        if port_in_use(self.port, self.bind):
            taken.append((self.port, f"the balancer ({self.bind})", "--port"))
        if self.stats_port is not None and port_in_use(self.stats_port):
            taken.append((self.stats_port, "the status page", "--stats-port"))
        if self.redis_port is not None and port_in_use(self.redis_port):
            taken.append((self.redis_port, "the hall's redis-server", "--redis-port"))
        if taken:
            what = "; ".join(f"port {p} (for {who})" for p, who, _ in taken)
            options = sorted({opt for _, _, opt in taken})
            raise RuntimeError(f"Already in use by another process: {what}. Stop that process "
                               f"or choose another {' / '.join(options)}.")

    def _exited_early(self, proc) -> str:
        """The error for a Streamlit process that exited while starting: its port, and the
        end of its log (the log stays where the message says)."""
        i = self.procs.index(proc) + 1
        port = self.ports[i - 1]
        log = self.log_dir / f"streamlit{i}.log"
        with contextlib.suppress(OSError):
            self._logs[i - 1].flush()
        tail = log.read_text(errors="replace").strip().splitlines()[-5:] if log.exists() else []
        if any("already in use" in line or f"Port {port} is not available" in line
               for line in tail):
            cause = (f"port {port} is already in use by another process; stop it or choose "
                     "another --first-port")
        elif tail:
            cause = "its log ends:\n    " + "\n    ".join(tail)
        else:
            cause = "its log is empty"
        return (f"Streamlit process {i} (port {port}) exited while starting (exit code "
                f"{proc.returncode}): {cause}. Logs kept in {self.log_dir}")

    def _balancer_up(self) -> bool:
        try:
            with urllib.request.urlopen(self.url + HEALTH, timeout=1) as r:
                return r.status == 200
        except OSError:
            return False

    def __exit__(self, *exc):
        started = ([self.balancer] if self.balancer else []) + self.procs
        started += [self.version] if self.version else []
        for proc in started:
            if proc.poll() is None:
                proc.terminate()
        for proc in started:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        if self.redis is not None:  # last: the processes may write to it until they end
            self.redis.stop()
        if self._socket_dir is not None:
            shutil.rmtree(self._socket_dir, ignore_errors=True)
        for log in self._logs:
            log.close()
        self._logs = []
        if self._tmp is not None and not self._keep_logs:
            shutil.rmtree(self._tmp, ignore_errors=True)

    def logs(self) -> str:
        return "\n".join(f"--- {p.name}\n{p.read_text(errors='replace')[-3000:]}"
                         for p in sorted(self.log_dir.glob("*.log")))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1,
                        help="Streamlit processes (default: one per core)")
    parser.add_argument("--port", type=_port_arg, default=8080,
                        help="the hall's port (default 8080)")
    parser.add_argument("--bind", default="0.0.0.0",
                        help="address the balancer listens on (default 0.0.0.0: the whole LAN)")
    parser.add_argument("--first-port", type=_port_arg, default=8501,
                        help="first loopback port of the Streamlit processes (default 8501)")
    parser.add_argument("--stats-port", type=_port_arg, default=None,
                        help="also serve HAProxy's status page on 127.0.0.1:PORT")
    parser.add_argument("--no-warm", action="store_true",
                        help="open the hall at once, without drawing every page and data set "
                             "in each process first")
    parser.add_argument("--redis-port", type=_port_arg, default=REDIS_PORT,
                        help="loopback port of the hall's redis-server, which every Streamlit "
                             f"process shares (default {REDIS_PORT})")
    parser.add_argument("--no-redis", action="store_true",
                        help="no redis-server: the hall lives in the memory of the one "
                             "Streamlit process (with --processes 1 only)")
    parser.add_argument("--public-url", default=None,
                        help="the address students open, for the classroom links and QR codes "
                             "(default: http://<this machine's address on the network>:PORT)")
    parser.add_argument("--config-only", action="store_true",
                        help="print the HAProxy configuration and exit")
    args = parser.parse_args(argv)
    if args.processes < 1:
        parser.error("--processes must be at least 1")
    if args.no_redis and args.processes > 1:
        parser.error(f"--no-redis keeps the hall in one process's memory, so the other "
                     f"{args.processes - 1} process(es) would not see it: add --processes 1, "
                     "or leave out --no-redis")
    ports = [args.first_port + i for i in range(args.processes)]
    if ports[-1] > PORT_RANGE[1]:
        parser.error(f"--first-port {args.first_port} with {args.processes} processes needs "
                     f"ports up to {ports[-1]}, beyond {PORT_RANGE[1]}: choose a lower "
                     "--first-port")
    if args.config_only:  # the version process's socket is made at start: a placeholder
        socket_path = None if args.no_redis else "/tmp/mp-hall-v-XXXXXX/version.sock"
        print(haproxy_config(ports, bind=args.bind, port=args.port, stats_port=args.stats_port,
                             version_socket=socket_path))
        return 0
    public = args.public_url or public_url(args.bind, args.port)
    if args.public_url and not args.public_url.startswith(("http://", "https://")):
        parser.error(f"--public-url {args.public_url!r}: give an http:// or https:// address")
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    redis_port = None if args.no_redis else args.redis_port
    print(("" if redis_port is None else f"Starting redis-server on 127.0.0.1:{redis_port}, ")
          + f"{args.processes} Streamlit process(es) on 127.0.0.1:{ports[0]}-{ports[-1]} "
          "and HAProxy ...", flush=True)
    try:
        with Hall(args.processes, port=args.port, first_port=args.first_port, bind=args.bind,
                  stats_port=args.stats_port, warm=not args.no_warm,
                  progress=progress_bar, public=public, redis_port=redis_port) as hall:
            if hall.warm:
                print(f"Warmed up in {hall.warm_seconds:.0f} s: every page (wide and on a phone), "
                      "and the eigenvalue page on every bundled data set, drawn once in each "
                      "process.", flush=True)
            for problem in hall.warm_problems:
                print(f"warning: warm-up: {problem}", file=sys.stderr)
            where = (f"{public.rstrip('/')}/" if public
                     else f"http://<this machine's address>:{args.port}/")
            print(f"Ready: students open {where} (here: {hall.url}/); the classroom links and "
                  f"QR codes use that address. Logs in {hall.log_dir}. Ctrl+C stops.",
                  flush=True)
            watched = hall.procs + [hall.balancer] + ([hall.redis.proc] if hall.redis else [])
            while all(p.poll() is None for p in watched):
                time.sleep(1)
            print("A process stopped; shutting down. Logs:\n" + hall.logs(), file=sys.stderr)
            return 1
    except KeyboardInterrupt:
        print("Stopped.")
        return 0
    except (RuntimeError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
