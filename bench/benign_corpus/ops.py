#!/usr/bin/env python3
"""Deterministic generator of ordinary, non-failing output of ops and ML tools.

The files it writes form a "benign corpus": logs of runs that all succeeded. An error regex
that matches one of these lines is too broad. About 3-6% of the lines carry error-ish words
the way real successful output does ("error_log ...", "RESTARTS", "failureThreshold: 3",
"0 errors"), and no line reports a real failure.

Every template here was written by hand from the tools' usual output formats. Stdlib only,
no network, one fixed seed per file, so two runs write byte-identical files.

Usage: python3 bench/benign_corpus/ops.py OUTDIR
Writes OUTDIR/docker.log, kubectl.log, gpu.log, ml.log, servers.log.
"""
import datetime
import os
import sys
import random

SEED = 20240105
MIN_LINES = 1100
MAX_LINES = 2400
MAX_BYTES = 300

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
HASH_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"

APPS = ["web", "api", "worker", "auth", "billing", "gateway", "frontend", "orders", "search",
        "notifier", "scheduler", "payments", "catalog", "inventory", "reports", "checkout"]
NAMESPACES = ["default", "prod", "staging", "platform", "data", "payments"]
REGISTRIES = ["ghcr.io/acme", "123456789012.dkr.ecr.us-east-1.amazonaws.com",
              "registry.gitlab.com/acme/platform", "docker.io/acmecorp", "quay.io/acme"]
TAGS = ["latest", "v1.4.2", "v2.0.0", "1.12.3", "sha-3f9a2c1", "main-8c1e4d2", "2024.01.05",
        "v0.9.17", "release-3.2", "stable"]


class Ctx:
    """Random source plus a clock that only moves forward."""

    def __init__(self, seed, start):
        self.r = random.Random(seed)
        self.t = start

    def tick(self, lo=0.001, hi=1.5):
        self.t += datetime.timedelta(seconds=self.r.uniform(lo, hi))
        return self.t

    def jump(self, lo=60, hi=7200):
        return self.tick(lo, hi)

    def hexs(self, n):
        return "".join(self.r.choice("0123456789abcdef") for _ in range(n))

    def sha(self):
        return "sha256:" + self.hexs(64)

    def word(self, n):
        return "".join(self.r.choice(HASH_ALPHABET) for _ in range(n))

    def pod(self, app):
        return "%s-%s-%s" % (app, self.word(self.r.choice([9, 10])), self.word(5))

    def ip(self, prefix="10"):
        r = self.r
        if prefix == "10":
            return "10.%d.%d.%d" % (r.randint(0, 3), r.randint(0, 255), r.randint(2, 254))
        if prefix == "172":
            return "172.%d.0.%d" % (r.randint(17, 31), r.randint(2, 20))
        if prefix == "pub":
            return r.choice(["203.0.113.%d", "198.51.100.%d", "192.0.2.%d"]) % r.randint(1, 254)
        return "192.168.%d.%d" % (r.randint(0, 9), r.randint(2, 254))

    def age(self):
        r = self.r
        k = r.randint(0, 5)
        if k == 0:
            return "%ds" % r.randint(5, 59)
        if k == 1:
            return "%dm" % r.randint(1, 59)
        if k == 2:
            return "%dm%ds" % (r.randint(1, 9), r.randint(1, 59))
        if k == 3:
            return "%dh" % r.randint(1, 23)
        if k == 4:
            return "%dd" % r.randint(1, 90)
        return "%dh%dm" % (r.randint(1, 7), r.randint(1, 59))

    def pick(self, seq, k):
        return self.r.sample(seq, k)


# ---------------------------------------------------------------------------------------------
# time formats (no locale: month and day names come from the lists above)

def iso_ms(t, z="Z"):
    return t.strftime("%Y-%m-%dT%H:%M:%S") + ".%03d" % (t.microsecond // 1000) + z


def ymd_hms(t):
    return t.strftime("%Y-%m-%d %H:%M:%S")


def ymd_hms_us(t):
    return t.strftime("%Y-%m-%d %H:%M:%S") + ".%06d" % t.microsecond


def clf(t):
    return "%02d/%s/%d:%s +0000" % (t.day, MONTHS[t.month - 1], t.year, t.strftime("%H:%M:%S"))


def ctime(t):
    return "%s %s %2d %s %d" % (DAYS[t.weekday()], MONTHS[t.month - 1], t.day,
                                t.strftime("%H:%M:%S"), t.year)


def table(header, rows, gap=3):
    widths = [len(h) for h in header]
    for row in rows:
        for i, v in enumerate(row):
            widths[i] = max(widths[i], len(v))
    out = []
    for row in [header] + rows:
        out.append((" " * gap).join(v.ljust(widths[i]) for i, v in enumerate(row)).rstrip())
    return out


def size_kb(r):
    return r.choice(["%.2fkB" % r.uniform(1, 900), "%.1fMB" % r.uniform(1, 90), "%dB" % r.randint(200, 999)])


# ---------------------------------------------------------------------------------------------
# docker.log

PY_PKGS = [("flask", "3.0.0"), ("gunicorn", "21.2.0"), ("requests", "2.31.0"), ("numpy", "1.26.2"),
           ("pydantic", "2.5.3"), ("SQLAlchemy", "2.0.23"), ("psycopg2-binary", "2.9.9"),
           ("redis", "5.0.1"), ("fastapi", "0.108.0"), ("uvicorn", "0.25.0"), ("celery", "5.3.6"),
           ("boto3", "1.34.11"), ("Jinja2", "3.1.2"), ("click", "8.1.7"), ("itsdangerous", "2.1.2"),
           ("Werkzeug", "3.0.1"), ("urllib3", "2.1.0"), ("certifi", "2023.11.17"), ("idna", "3.6"),
           ("charset-normalizer", "3.3.2"), ("blinker", "1.7.0"), ("MarkupSafe", "2.1.3"),
           ("python-dotenv", "1.0.0"), ("structlog", "23.2.0"), ("prometheus-client", "0.19.0")]
APT_PKGS = [("curl", "7.88.1-10+deb12u5"), ("ca-certificates", "20230311"), ("libpq5", "15.5-0+deb12u1"),
            ("git", "1:2.39.2-1.1"), ("tini", "0.19.0-1"), ("libcurl4", "7.88.1-10+deb12u5"),
            ("openssl", "3.0.11-1~deb12u2"), ("gcc", "4:12.2.0-3"), ("make", "4.3-4.1"),
            ("libssl3", "3.0.11-1~deb12u2"), ("netbase", "6.4"), ("tzdata", "2023c-5")]


def run_output(c, cmd):
    r = c.r
    lines = []
    if cmd.startswith("apt-get"):
        mirrors = ["http://deb.debian.org/debian", "http://deb.debian.org/debian-security"]
        n = 0
        for suite in ["bookworm InRelease [151 kB]", "bookworm-updates InRelease [55.4 kB]",
                      "bookworm-security InRelease [48.0 kB]", "bookworm/main amd64 Packages [8787 kB]",
                      "bookworm-updates/main amd64 Packages [12.7 kB]",
                      "bookworm-security/main amd64 Packages [134 kB]"]:
            n += 1
            m = mirrors[1] if "security" in suite else mirrors[0]
            lines.append("Get:%d %s %s" % (n, m, suite))
        lines.append("Fetched %s kB in %ds (%s kB/s)" % ("{:,}".format(r.randint(8900, 9300)), r.randint(1, 4),
                                                          "{:,}".format(r.randint(2000, 9000))))
        lines += ["Reading package lists...", "Reading package lists...", "Building dependency tree...",
                  "Reading state information..."]
        pk = c.pick(APT_PKGS, r.randint(2, 6))
        lines.append("The following NEW packages will be installed:")
        lines.append("  " + " ".join(p for p, _ in pk))
        lines.append("0 upgraded, %d newly installed, 0 to remove and 0 not upgraded." % len(pk))
        lines.append("Need to get %s kB of archives." % "{:,}".format(r.randint(300, 9000)))
        lines.append("After this operation, %.1f MB of additional disk space will be used." % r.uniform(1, 40))
        for p, v in pk:
            lines.append("Get:%d http://deb.debian.org/debian bookworm/main amd64 %s amd64 %s [%d kB]"
                         % (n + 1, p, v, r.randint(20, 900)))
            n += 1
        lines.append("debconf: delaying package configuration, since apt-utils is not installed")
        lines.append("Fetched %s kB in 0s (%s kB/s)" % ("{:,}".format(r.randint(300, 9000)),
                                                         "{:,}".format(r.randint(9000, 40000))))
        for p, v in pk:
            lines.append("Selecting previously unselected package %s:amd64." % p)
            lines.append("Unpacking %s:amd64 (%s) ..." % (p, v))
        for p, v in pk:
            lines.append("Setting up %s:amd64 (%s) ..." % (p, v))
        lines.append("Processing triggers for libc-bin (2.36-9+deb12u3) ...")
    elif cmd.startswith("pip"):
        pk = c.pick(PY_PKGS, r.randint(3, 8))
        for p, v in pk:
            lines.append("Collecting %s==%s (from -r requirements.txt (line %d))" % (p, v, r.randint(1, 20)))
            fn = p.lower().replace("-", "_")
            lines.append("  Downloading %s-%s-py3-none-any.whl (%d kB)" % (fn, v, r.randint(30, 900)))
        lines.append("Installing collected packages: " + ", ".join(p for p, _ in pk))
        lines.append("Successfully installed " + " ".join("%s-%s" % (p, v) for p, v in pk))
    elif cmd.startswith("npm ci") or cmd.startswith("npm install"):
        n = r.randint(150, 900)
        lines.append("added %d packages, and audited %d packages in %ds" % (n, n + 1, r.randint(4, 40)))
        lines.append("%d packages are looking for funding" % r.randint(20, 140))
        lines.append("  run `npm fund` for details")
        lines.append("found 0 vulnerabilities")
    elif cmd.startswith("npm run build"):
        lines.append("> app@%d.%d.%d build" % (r.randint(0, 3), r.randint(0, 20), r.randint(0, 9)))
        lines.append("> tsc -p tsconfig.json && vite build")
        lines.append("vite v5.0.%d building for production..." % r.randint(2, 12))
        lines.append("transforming...")
        lines.append("✓ %d modules transformed." % r.randint(40, 900))
        lines.append("rendering chunks...")
        lines.append("computing gzip size...")
        lines.append("dist/index.html                   0.46 kB │ gzip:  0.30 kB")
        lines.append("dist/assets/index-%s.js   %.2f kB │ gzip: %.2f kB" % (c.hexs(8), r.uniform(100, 400), r.uniform(30, 120)))
        lines.append("✓ built in %.2fs" % r.uniform(1, 9))
    elif cmd.startswith("go mod"):
        pass
    elif cmd.startswith("CGO_ENABLED"):
        pass
    elif cmd.startswith("addgroup") or cmd.startswith("useradd"):
        pass
    return lines


DOCKERFILES = {
    "python": [
        ("FROM", "python:3.11-slim"),
        ("ENV", "PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1"),
        ("WORKDIR", "/app"),
        ("RUN", "apt-get update && apt-get install -y --no-install-recommends curl libpq5 && rm -rf /var/lib/apt/lists/*"),
        ("COPY", "requirements.txt ."),
        ("RUN", "pip install --no-cache-dir -r requirements.txt"),
        ("COPY", ". ."),
        ("RUN", "useradd --create-home --uid 10001 app"),
        ("USER", "app"),
        ("EXPOSE", "8000"),
        ("HEALTHCHECK", "--interval=30s --timeout=3s --retries=3 CMD curl -fsS http://localhost:8000/health || exit 1"),
        ("CMD", '["gunicorn", "-b", "0.0.0.0:8000", "-w", "4", "app:app"]'),
    ],
    "node": [
        ("FROM", "node:20-alpine"),
        ("WORKDIR", "/usr/src/app"),
        ("COPY", "package*.json ./"),
        ("RUN", "npm ci"),
        ("COPY", ". ."),
        ("RUN", "npm run build"),
        ("ENV", "NODE_ENV=production PORT=3000"),
        ("EXPOSE", "3000"),
        ("HEALTHCHECK", "--interval=15s --timeout=5s --retries=5 CMD wget -qO- http://127.0.0.1:3000/healthz"),
        ("CMD", '["node", "dist/server.js"]'),
    ],
    "go": [
        ("FROM", "golang:1.21-bookworm AS build"),
        ("WORKDIR", "/src"),
        ("COPY", "go.mod go.sum ./"),
        ("RUN", "go mod download"),
        ("COPY", ". ."),
        ("RUN", "CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o /out/app ./cmd/app"),
        ("FROM", "gcr.io/distroless/static-debian12:nonroot"),
        ("COPY", "--from=build /out/app /app"),
        ("EXPOSE", "8080"),
        ("ENTRYPOINT", '["/app"]'),
    ],
}


def image_name(c):
    r = c.r
    return "%s/%s:%s" % (r.choice(REGISTRIES), r.choice(APPS), r.choice(TAGS))


def docker_classic(c):
    r = c.r
    lang = r.choice(sorted(DOCKERFILES))
    steps = DOCKERFILES[lang]
    app = r.choice(APPS)
    tag = r.choice(TAGS)
    out = ["$ docker build -t %s:%s ." % (app, tag),
           "Sending build context to Docker daemon  %s" % r.choice(["2.048kB", "14.85kB", "118.3kB", "1.536MB", "356.9kB", "4.61MB"])]
    n = len(steps)
    img = c.hexs(12)
    for i, (ins, arg) in enumerate(steps, 1):
        out.append("Step %d/%d : %s %s" % (i, n, ins, arg))
        if ins == "FROM":
            name = arg.split()[0]
            if r.random() < 0.5:
                out.append("%s: Pulling from %s" % (name.split(":")[1], "library/" + name.split(":")[0] if "/" not in name else name.split(":")[0]))
                for _ in range(r.randint(2, 5)):
                    out.append("%s: Pull complete" % c.hexs(12))
                out.append("Digest: " + c.sha())
                out.append("Status: Downloaded newer image for %s" % name)
            img = c.hexs(12)
            out.append(" ---> " + img)
            continue
        if ins in ("RUN",) or (ins in ("ENV", "WORKDIR", "EXPOSE", "CMD", "USER", "ENTRYPOINT", "HEALTHCHECK") and r.random() < 0.7):
            if r.random() < 0.25 and ins != "RUN":
                out.append(" ---> Using cache")
                img = c.hexs(12)
                out.append(" ---> " + img)
                continue
            cid = c.hexs(12)
            out.append(" ---> Running in " + cid)
            if ins == "RUN":
                out += run_output(c, arg)
            out.append("Removing intermediate container " + cid)
        img = c.hexs(12)
        out.append(" ---> " + img)
    out.append("Successfully built " + img)
    out.append("Successfully tagged %s:%s" % (app, tag))
    if r.random() < 0.5:
        out.append("Successfully tagged %s:latest" % app)
    return out


def docker_buildkit(c):
    r = c.r
    lang = r.choice(sorted(DOCKERFILES))
    steps = DOCKERFILES[lang]
    app = r.choice(APPS)
    tag = r.choice(TAGS)
    base = steps[0][1].split()[0]
    out = ["$ DOCKER_BUILDKIT=1 docker build --progress=plain -t %s:%s ." % (app, tag),
           '#0 building with "default" instance using docker driver',
           "#1 [internal] load build definition from Dockerfile",
           "#1 transferring dockerfile: %dB done" % r.randint(300, 1400),
           "#1 DONE 0.0s",
           "#2 [internal] load metadata for docker.io/library/%s" % base,
           "#2 DONE %.1fs" % r.uniform(0.4, 2.5),
           "#3 [internal] load .dockerignore",
           "#3 transferring context: %dB done" % r.randint(2, 200),
           "#3 DONE 0.0s"]
    build_steps = [(ins, a) for ins, a in steps if ins in ("FROM", "RUN", "COPY", "WORKDIR")]
    total = len(build_steps)
    num = 4
    dig = c.sha()
    out.append("#4 [1/%d] FROM docker.io/library/%s@%s" % (total, base, dig))
    out.append("#4 resolve docker.io/library/%s@%s done" % (base, dig))
    if r.random() < 0.5:
        out.append("#4 CACHED")
    else:
        for _ in range(r.randint(2, 4)):
            out.append("#4 sha256:%s %.2fMB / %.2fMB %.1fs done" % (c.hexs(64), 3.1, 3.1, r.uniform(0.1, 2)))
        out.append("#4 DONE %.1fs" % r.uniform(1, 9))
    out.append("#5 [internal] load build context")
    out.append("#5 transferring context: %s %.1fs done" % (size_kb(r), r.uniform(0, 0.9)))
    out.append("#5 DONE %.1fs" % r.uniform(0, 0.9))
    num = 6
    for i, (ins, arg) in enumerate(build_steps[1:], 2):
        out.append("#%d [%d/%d] %s %s" % (num, i, total, ins, arg))
        if ins == "RUN" and r.random() < 0.8:
            tt = r.uniform(0.1, 0.5)
            for line in run_output(c, arg):
                tt += r.uniform(0.001, 0.4)
                out.append(("#%d %.3f %s" % (num, tt, line)).rstrip())
            out.append("#%d DONE %.1fs" % (num, tt + r.uniform(0, 1)))
        elif r.random() < 0.4:
            out.append("#%d CACHED" % num)
        else:
            out.append("#%d DONE %.1fs" % (num, r.uniform(0, 0.4)))
        num += 1
    out.append("#%d exporting to image" % num)
    out.append("#%d exporting layers %.1fs done" % (num, r.uniform(0.1, 4)))
    out.append("#%d writing image %s done" % (num, c.sha()))
    out.append("#%d naming to docker.io/library/%s:%s done" % (num, app, tag))
    out.append("#%d DONE %.1fs" % (num, r.uniform(0.1, 4)))
    return out


def docker_pull(c):
    r = c.r
    repo, tags = r.choice([("nginx", ["1.25", "1.25-alpine", "stable", "latest"]),
                           ("postgres", ["16", "15.5", "16-alpine"]),
                           ("redis", ["7.2", "7.2-alpine", "latest"]),
                           ("python", ["3.11-slim", "3.12", "3.10-bookworm"]),
                           ("node", ["20-alpine", "18", "20.10.0"]),
                           ("busybox", ["1.36", "latest"]),
                           ("grafana/grafana", ["10.2.3", "latest"]),
                           ("prom/prometheus", ["v2.48.1"]),
                           ("bitnami/kafka", ["3.6", "3.6.1"])])
    tag = r.choice(tags)
    name = repo if "/" in repo else "library/" + repo
    out = []
    if tag == "latest" and r.random() < 0.5:
        out.append("$ docker pull %s" % repo)
        out.append("Using default tag: latest")
    else:
        out.append("$ docker pull %s:%s" % (repo, tag))
    out.append("%s: Pulling from %s" % (tag, name))
    layers = [c.hexs(12) for _ in range(r.randint(2, 7))]
    fresh = []
    for l in layers:
        if r.random() < 0.25:
            out.append("%s: Already exists" % l)
        else:
            out.append("%s: Pulling fs layer" % l)
            fresh.append(l)
    for l in fresh:
        if r.random() < 0.6:
            out.append("%s: Verifying Checksum" % l)
        out.append("%s: Download complete" % l)
    for l in fresh:
        out.append("%s: Pull complete" % l)
    out.append("Digest: " + c.sha())
    if not fresh:
        out.append("Status: Image is up to date for %s:%s" % (repo, tag))
    else:
        out.append("Status: Downloaded newer image for %s:%s" % (repo, tag))
    out.append("docker.io/%s:%s" % (name, tag))
    return out


def compose_service_line(c, svc):
    r = c.r
    t = c.tick(0.01, 3)
    if svc == "db":
        return r.choice([
            "%s UTC [1] LOG:  database system is ready to accept connections" % ymd_hms(t),
            "%s UTC [1] LOG:  listening on IPv4 address \"0.0.0.0\", port 5432" % ymd_hms(t),
            "%s UTC [%d] LOG:  checkpoint starting: time" % (ymd_hms(t), r.randint(26, 30)),
            "%s UTC [%d] LOG:  database system was shut down at %s UTC" % (ymd_hms(t), r.randint(26, 30), ymd_hms(t - datetime.timedelta(minutes=3))),
            "PostgreSQL Database directory appears to contain a database; Skipping initialization",
        ])
    if svc == "redis" or svc == "cache":
        return "1:M %02d %s %d %s.%03d * %s" % (t.day, MONTHS[t.month - 1], t.year, t.strftime("%H:%M:%S"), r.randint(0, 999),
                                               r.choice(["Ready to accept connections tcp", "Server initialized",
                                                         "Running mode=standalone, port=6379.",
                                                         "DB loaded from disk: 0.000 seconds"]))
    if svc in ("api", "backend"):
        return r.choice([
            "listening on :%d" % r.choice([8080, 8000, 3000]),
            "INFO:     Application startup complete.",
            "INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)",
            'INFO:     %s:%d - "GET /health HTTP/1.1" 200 OK' % (c.ip("172"), r.randint(30000, 60000)),
            'INFO:     %s:%d - "GET /api/v1/items?page=%d HTTP/1.1" 200 OK' % (c.ip("172"), r.randint(30000, 60000), r.randint(1, 9)),
            'INFO:     %s:%d - "GET /api/errors/summary HTTP/1.1" 200 OK' % (c.ip("172"), r.randint(30000, 60000)),
            "connected to postgres at db:5432 (pool size %d)" % r.choice([5, 10, 20]),
            "connected to redis at cache:6379",
        ])
    if svc == "web" or svc == "frontend":
        return r.choice([
            "/docker-entrypoint.sh: Configuration complete; ready for start up",
            "%s [notice] 1#1: start worker processes" % t.strftime("%Y/%m/%d %H:%M:%S"),
            '%s - - [%s] "GET / HTTP/1.1" 200 %d "-" "curl/8.5.0" "-"' % (c.ip("172"), clf(t), r.randint(500, 4000)),
            '%s - - [%s] "GET /static/app.js HTTP/1.1" 304 0 "-" "Mozilla/5.0" "-"' % (c.ip("172"), clf(t)),
        ])
    return r.choice([
        "[%s: INFO/MainProcess] Connected to redis://cache:6379/0" % ymd_hms(t),
        "[%s: INFO/MainProcess] celery@%s ready." % (ymd_hms(t), c.hexs(12)),
        "[%s: INFO/MainProcess] Task app.tasks.send_report[%s-%s] succeeded in %.3fs: None" % (ymd_hms(t), c.hexs(8), c.hexs(4), r.uniform(0.01, 3)),
        "[%s: INFO/MainProcess] mingle: all alone" % ymd_hms(t),
    ])


def docker_compose_up(c):
    r = c.r
    proj = r.choice(["app", "shop", "stack", "platform", "demo"])
    svcs = ["db"] + c.pick(["api", "web", "worker", "cache"], r.randint(1, 4))
    out = ["$ docker compose up" + r.choice(["", " --build", " --remove-orphans"])]
    total = len(svcs) + 1
    out.append("[+] Running %d/%d" % (total, total))
    out.append(" ✔ Network %s_default  %s" % (proj, r.choice(["Created", "Created"])))
    if r.random() < 0.5:
        out.append(' ✔ Volume "%s_pgdata"  Created' % proj)
    for s in svcs:
        out.append(" ✔ Container %s-%s-1  %s" % (proj, s, r.choice(["Created", "Started", "Recreated", "Running"])))
    names = ["%s-1" % s for s in svcs]
    out.append("Attaching to " + ", ".join(names))
    w = max(len(n) for n in names)
    for _ in range(r.randint(6, 18)):
        s = r.choice(svcs)
        out.append("%s  | %s" % (("%s-1" % s).ljust(w), compose_service_line(c, s)))
    return out


def docker_compose_config(c):
    r = c.r
    app = r.choice(APPS)
    return ["$ docker compose config",
            "name: %s" % r.choice(["app", "shop", "stack"]),
            "services:",
            "  %s:" % app,
            "    build:",
            "      context: /home/ci/src/%s" % app,
            "      dockerfile: Dockerfile",
            "    healthcheck:",
            "      test:",
            "        - CMD",
            "        - curl",
            "        - -fsS",
            "        - http://localhost:8080/health",
            "      timeout: %ds" % r.choice([3, 5, 10]),
            "      interval: 10s",
            "      retries: %d" % r.choice([3, 5]),
            "    networks:",
            "      default: null",
            "    ports:",
            "      - mode: ingress",
            "        target: 8080",
            '        published: "8080"',
            "        protocol: tcp",
            "    restart: %s" % r.choice(["unless-stopped", "on-failure", "always"]),
            "networks:",
            "  default:",
            "    name: app_default"]


def docker_ps(c):
    r = c.r
    rows = []
    for _ in range(r.randint(2, 7)):
        img = r.choice(["nginx:1.25-alpine", "postgres:16", "redis:7.2-alpine", "%s:%s" % (r.choice(APPS), r.choice(TAGS)),
                        "grafana/grafana:10.2.3", "prom/prometheus:v2.48.1"])
        cmd = r.choice(['"/docker-entrypoint.…"', '"docker-entrypoint.s…"', '"gunicorn -b 0.0.0.…"', '"/bin/sh -c ./run.sh"',
                        '"/run.sh"', '"node dist/server.js"'])
        created = r.choice(["About a minute ago", "%d minutes ago" % r.randint(2, 59), "%d hours ago" % r.randint(2, 23),
                            "%d days ago" % r.randint(2, 30)])
        status = r.choice(["Up %d minutes" % r.randint(2, 59), "Up %d hours" % r.randint(2, 23),
                           "Up %d hours (healthy)" % r.randint(2, 23), "Up About an hour", "Up %d days (healthy)" % r.randint(2, 9)])
        port = r.choice(["0.0.0.0:8080->8080/tcp, :::8080->8080/tcp", "5432/tcp", "6379/tcp", "0.0.0.0:80->80/tcp", "3000/tcp", ""])
        rows.append([c.hexs(12), img, cmd, created, status, port, "%s-%s-1" % (r.choice(["app", "shop"]), r.choice(APPS))])
    out = ["$ docker ps"] + table(["CONTAINER ID", "IMAGE", "COMMAND", "CREATED", "STATUS", "PORTS", "NAMES"], rows)
    if r.random() < 0.4:
        out.append("$ docker images")
        rows = [[r.choice(APPS), r.choice(TAGS), c.hexs(12), r.choice(["2 minutes ago", "3 hours ago", "5 days ago"]),
                 "%dMB" % r.randint(20, 900)] for _ in range(r.randint(2, 5))]
        out += table(["REPOSITORY", "TAG", "IMAGE ID", "CREATED", "SIZE"], rows)
    return out


def docker_run(c):
    r = c.r
    app = r.choice(APPS)
    port = r.choice([8080, 8000, 3000])
    pol = r.choice(["unless-stopped", "on-failure:5", "always"])
    out = ["$ docker run -d --name %s --restart %s -p %d:%d %s" % (app, pol, port, port, image_name(c)), c.hexs(64)]
    if r.random() < 0.6:
        out.append("$ docker inspect --format '{{json .HostConfig.RestartPolicy}}' %s" % app)
        if pol.startswith("on-failure"):
            out.append('{"Name":"on-failure","MaximumRetryCount":5}')
        else:
            out.append('{"Name":"%s","MaximumRetryCount":0}' % pol)
    if r.random() < 0.6:
        out.append("$ docker inspect --format '{{.State.Health.Status}} {{.State.Health.FailingStreak}}' %s" % app)
        out.append("healthy 0")
    return out


def docker_push(c):
    r = c.r
    img = image_name(c)
    repo, tag = img.rsplit(":", 1)
    out = ["$ docker push " + img, "The push refers to repository [%s]" % repo]
    for _ in range(r.randint(3, 7)):
        out.append("%s: %s" % (c.hexs(12), r.choice(["Pushed", "Layer already exists", "Mounted from library/python", "Layer already exists"])))
    out.append("%s: digest: %s size: %d" % (tag, c.sha(), r.randint(1200, 3000)))
    return out


# ---------------------------------------------------------------------------------------------
# kubectl.log

NODE_NAMES = ["ip-10-0-%d-%d.ec2.internal", "gke-prod-pool-1-%s-%s", "aks-nodepool1-%d-vmss00000%d", "worker-%d"]


def nodes(c, n):
    r = c.r
    style = r.randint(0, 3)
    out = []
    for i in range(n):
        if style == 0:
            out.append("ip-10-0-%d-%d.ec2.internal" % (r.randint(0, 63), r.randint(2, 254)))
        elif style == 1:
            out.append("gke-prod-pool-1-%s-%s" % (c.hexs(8), c.word(4)))
        elif style == 2:
            out.append("aks-nodepool1-%d-vmss%06d" % (r.randint(10000000, 99999999), i))
        else:
            out.append("worker-%d" % (i + 1))
    return out


def kube_get_pods(c):
    r = c.r
    ns = r.choice(NAMESPACES)
    wide = r.random() < 0.35
    cmd = "$ kubectl get pods -n %s" % ns + (" -o wide" if wide else "")
    rows = []
    nds = nodes(c, 3)
    for app in c.pick(APPS, r.randint(2, 5)):
        reps = r.randint(1, 4)
        rs = c.word(r.choice([9, 10]))
        for _ in range(reps):
            cont = r.choice([1, 1, 2])
            row = ["%s-%s-%s" % (app, rs, c.word(5)), "%d/%d" % (cont, cont), "Running", "0", c.age()]
            if wide:
                row += [c.ip(), r.choice(nds), "<none>", "<none>"]
            rows.append(row)
    if r.random() < 0.4:
        job = r.choice(["db-migrate", "backup", "report-gen", "cleanup"])
        row = ["%s-%d-%s" % (job, r.randint(28400000, 28499999), c.word(5)), "0/1", "Completed", "0", c.age()]
        if wide:
            row += [c.ip(), r.choice(nds), "<none>", "<none>"]
        rows.append(row)
    hdr = ["NAME", "READY", "STATUS", "RESTARTS", "AGE"]
    if wide:
        hdr += ["IP", "NODE", "NOMINATED NODE", "READINESS GATES"]
    return [cmd] + table(hdr, rows)


def kube_get_deploy(c):
    r = c.r
    rows = []
    for app in c.pick(APPS, r.randint(2, 6)):
        n = r.randint(1, 6)
        rows.append([app, "%d/%d" % (n, n), str(n), str(n), c.age()])
    return ["$ kubectl get deployments -n %s" % r.choice(NAMESPACES)] + table(["NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"], rows)


def kube_get_svc(c):
    r = c.r
    rows = [["kubernetes", "ClusterIP", "10.96.0.1", "<none>", "443/TCP", "%dd" % r.randint(30, 400)]]
    for app in c.pick(APPS, r.randint(2, 5)):
        t = r.choice(["ClusterIP", "ClusterIP", "LoadBalancer", "NodePort"])
        ext = "<none>"
        port = "%d/TCP" % r.choice([80, 8080, 8000, 3000, 9090])
        if t == "LoadBalancer":
            ext = r.choice([c.ip("pub"), "a%s-%d.us-east-1.elb.amazonaws.com" % (c.hexs(16), r.randint(100000000, 999999999))])
            port = "80:%d/TCP,443:%d/TCP" % (r.randint(30000, 32767), r.randint(30000, 32767))
        elif t == "NodePort":
            port = "%d:%d/TCP" % (r.choice([80, 8080]), r.randint(30000, 32767))
        rows.append([app, t, "10.%d.%d.%d" % (r.choice([96, 100, 43]), r.randint(0, 255), r.randint(1, 254)), ext, port, c.age()])
    return ["$ kubectl get svc"] + table(["NAME", "TYPE", "CLUSTER-IP", "EXTERNAL-IP", "PORT(S)", "AGE"], rows)


def kube_get_nodes(c):
    r = c.r
    ver = r.choice(["v1.27.8-eks-8cb36c9", "v1.28.3-gke.1203001", "v1.28.5", "v1.29.0", "v1.27.7"])
    rows = []
    for i, n in enumerate(nodes(c, r.randint(2, 6))):
        role = "control-plane" if (i == 0 and "worker" in n) else "<none>"
        rows.append([n, "Ready", role, "%dd" % r.randint(1, 200), ver])
    return ["$ kubectl get nodes"] + table(["NAME", "STATUS", "ROLES", "AGE", "VERSION"], rows)


def kube_get_ingress(c):
    r = c.r
    rows = []
    for app in c.pick(APPS, r.randint(1, 3)):
        rows.append([app, r.choice(["nginx", "alb", "traefik"]), "%s.%s" % (app, r.choice(["example.com", "acme.io", "internal.acme.net"])),
                     c.ip("pub"), r.choice(["80", "80, 443"]), c.age()])
    return ["$ kubectl get ingress"] + table(["NAME", "CLASS", "HOSTS", "ADDRESS", "PORTS", "AGE"], rows)


def kube_apply(c):
    r = c.r
    app = r.choice(APPS)
    out = ["$ kubectl apply -f %s" % r.choice(["k8s/", "deploy/%s.yaml" % app, "manifests/", "overlays/prod/"])]
    kinds = [("deployment.apps", app), ("service", app), ("configmap", app + "-config"), ("secret", app + "-env"),
             ("horizontalpodautoscaler.autoscaling", app), ("ingress.networking.k8s.io", app),
             ("serviceaccount", app), ("poddisruptionbudget.policy", app + "-pdb"), ("cronjob.batch", app + "-cleanup")]
    for k, n in c.pick(kinds, r.randint(2, 6)):
        out.append("%s/%s %s" % (k, n, r.choice(["configured", "unchanged", "unchanged", "created"])))
    return out


def kube_rollout(c):
    r = c.r
    app = r.choice(APPS)
    n = r.randint(2, 5)
    out = ["$ kubectl rollout status deployment/%s --timeout=%ds" % (app, r.choice([120, 300, 600]))]
    for i in range(r.randint(0, n - 1), n):
        out.append('Waiting for deployment "%s" rollout to finish: %d of %d updated replicas are available...' % (app, i, n))
    out.append('deployment "%s" successfully rolled out' % app)
    return out


def kube_describe(c):
    r = c.r
    app = r.choice(APPS)
    ns = r.choice(NAMESPACES)
    pod = c.pod(app)
    node = nodes(c, 1)[0]
    img = image_name(c)
    ip = c.ip()
    t = c.jump()
    port = r.choice([8080, 8000, 3000])
    rs = pod.rsplit("-", 1)[0]
    kaa = "kube-api-access-" + c.word(5)
    out = ["$ kubectl describe pod %s -n %s" % (pod, ns),
           "Name:             " + pod,
           "Namespace:        " + ns,
           "Priority:         0",
           "Service Account:  " + r.choice(["default", app]),
           "Node:             %s/%s" % (node, c.ip()),
           "Start Time:       %s, %02d %s %d %s +0000" % (DAYS[t.weekday()], t.day, MONTHS[t.month - 1], t.year, t.strftime("%H:%M:%S")),
           "Labels:           app=" + app,
           "                  pod-template-hash=" + rs.rsplit("-", 1)[1],
           "Annotations:      <none>",
           "Status:           Running",
           "IP:               " + ip,
           "IPs:",
           "  IP:           " + ip,
           "Controlled By:  ReplicaSet/" + rs,
           "Containers:",
           "  %s:" % app,
           "    Container ID:   containerd://" + c.hexs(64),
           "    Image:          " + img,
           "    Image ID:       %s@%s" % (img.rsplit(":", 1)[0], c.sha()),
           "    Port:           %d/TCP" % port,
           "    Host Port:      0/TCP",
           "    State:          Running",
           "      Started:      %s, %02d %s %d %s +0000" % (DAYS[t.weekday()], t.day, MONTHS[t.month - 1], t.year, (t + datetime.timedelta(seconds=4)).strftime("%H:%M:%S")),
           "    Ready:          True",
           "    Restart Count:  0",
           "    Limits:",
           "      memory:  %dMi" % r.choice([256, 512, 1024]),
           "    Requests:",
           "      cpu:        %dm" % r.choice([100, 250, 500]),
           "      memory:     %dMi" % r.choice([128, 256, 512]),
           "    Liveness:     http-get http://:%d/healthz delay=10s timeout=1s period=10s #success=1 #failure=3" % port,
           "    Readiness:    http-get http://:%d/ready delay=5s timeout=1s period=5s #success=1 #failure=3" % port,
           "    Environment:",
           "      LOG_LEVEL:  info",
           "      PORT:       %d" % port,
           "    Mounts:",
           "      /var/run/secrets/kubernetes.io/serviceaccount from %s (ro)" % kaa,
           "Conditions:",
           "  Type              Status",
           "  Initialized       True",
           "  Ready             True",
           "  ContainersReady   True",
           "  PodScheduled      True",
           "Volumes:",
           "  %s:" % kaa,
           "    Type:                    Projected (a volume that contains injected data from multiple sources)",
           "    TokenExpirationSeconds:  3607",
           "    ConfigMapName:           kube-root-ca.crt",
           "    ConfigMapOptional:       <nil>",
           "    DownwardAPI:             true",
           "QoS Class:                   Burstable",
           "Node-Selectors:              <none>",
           "Tolerations:                 node.kubernetes.io/not-ready:NoExecute op=Exists for 300s",
           "                             node.kubernetes.io/unreachable:NoExecute op=Exists for 300s",
           "Events:",
           "  Type    Reason     Age   From               Message",
           "  ----    ------     ----  ----               -------"]
    a = r.randint(20, 59)
    pulled = "%.3fs" % r.uniform(0.3, 9)
    ev = [("Scheduled", "default-scheduler", "Successfully assigned %s/%s to %s" % (ns, pod, node)),
          ("Pulling", "kubelet", 'Pulling image "%s"' % img),
          ("Pulled", "kubelet", 'Successfully pulled image "%s" in %s (%s including waiting)' % (img, pulled, pulled)),
          ("Created", "kubelet", "Created container " + app),
          ("Started", "kubelet", "Started container " + app)]
    if r.random() < 0.4:
        ev[1:3] = [("Pulled", "kubelet", 'Container image "%s" already present on machine' % img)]
    for reason, frm, msg in ev:
        out.append("  Normal  %s%s%ds   %s%s" % (reason.ljust(11), "", a, frm.ljust(19), msg))
    return out


def kube_yaml(c):
    r = c.r
    app = r.choice(APPS)
    if r.random() < 0.5:
        port = r.choice([8080, 8000])
        return ["$ kubectl get deployment %s -o yaml | yq '.spec.template.spec'" % app,
                "containers:",
                "  - image: " + image_name(c),
                "    imagePullPolicy: IfNotPresent",
                "    livenessProbe:",
                "      failureThreshold: 3",
                "      httpGet:",
                "        path: /healthz",
                "        port: %d" % port,
                "        scheme: HTTP",
                "      initialDelaySeconds: 10",
                "      periodSeconds: 10",
                "      successThreshold: 1",
                "      timeoutSeconds: %d" % r.choice([1, 5, 30]),
                "    name: " + app,
                "    ports:",
                "      - containerPort: %d" % port,
                "        protocol: TCP",
                "    resources:",
                "      requests:",
                "        cpu: 250m",
                "        memory: 256Mi",
                "    terminationMessagePath: /dev/termination-log",
                "    terminationMessagePolicy: File",
                "dnsPolicy: ClusterFirst",
                "restartPolicy: Always",
                "schedulerName: default-scheduler",
                "terminationGracePeriodSeconds: 30"]
    return ["$ kubectl get cronjob %s-cleanup -o yaml | yq '.spec'" % app,
            "concurrencyPolicy: Forbid",
            "failedJobsHistoryLimit: 1",
            "jobTemplate:",
            "  spec:",
            "    backoffLimit: %d" % r.choice([2, 4, 6]),
            "    template:",
            "      spec:",
            "        containers:",
            "          - args:",
            "              - --older-than=%dd" % r.choice([7, 14, 30]),
            "            image: " + image_name(c),
            "            name: cleanup",
            "        restartPolicy: OnFailure",
            'schedule: "%d %d * * *"' % (r.randint(0, 59), r.randint(0, 23)),
            "successfulJobsHistoryLimit: 3",
            "suspend: false"]


def helm(c):
    r = c.r
    app = r.choice(APPS)
    ns = r.choice(NAMESPACES)
    rev = r.randint(1, 40)
    t = c.jump()
    chart = r.choice(["./charts/%s" % app, "bitnami/redis", "bitnami/postgresql", "ingress-nginx/ingress-nginx", "prometheus-community/kube-prometheus-stack"])
    out = ["$ helm upgrade --install %s %s -n %s --wait --timeout 5m0s%s" % (app, chart, ns, r.choice(["", " --atomic", " -f values-prod.yaml"]))]
    if rev > 1:
        out.append('Release "%s" has been upgraded. Happy Helming!' % app)
    out += ["NAME: " + app,
            "LAST DEPLOYED: " + ctime(t),
            "NAMESPACE: " + ns,
            "STATUS: deployed",
            "REVISION: %d" % rev,
            "TEST SUITE: None"]
    if r.random() < 0.6:
        out += ["NOTES:",
                "1. Get the application URL by running these commands:",
                '  export POD_NAME=$(kubectl get pods --namespace %s -l "app.kubernetes.io/name=%s" -o jsonpath="{.items[0].metadata.name}")' % (ns, app),
                "  echo \"Visit http://127.0.0.1:8080 to use your application\"",
                "  kubectl --namespace %s port-forward $POD_NAME 8080:80" % ns]
    if r.random() < 0.4:
        out.append("$ helm list -n " + ns)
        rows = [[app, ns, str(rev), "%s.%06d +0000 UTC" % (ymd_hms(t), t.microsecond), "deployed", "%s-%d.%d.%d" % (app, 0, r.randint(1, 9), r.randint(0, 9)), "%d.%d.%d" % (1, r.randint(0, 9), r.randint(0, 9))]]
        out += table(["NAME", "NAMESPACE", "REVISION", "UPDATED", "STATUS", "CHART", "APP VERSION"], rows, gap=1)
    return out


TF_RES = [("aws_s3_bucket", "logs"), ("aws_s3_bucket", "assets"), ("aws_iam_role", "app"), ("aws_iam_role_policy_attachment", "app_ecr"),
          ("aws_security_group", "web"), ("aws_instance", "bastion"), ("aws_db_instance", "main"), ("aws_route53_record", "api"),
          ("aws_cloudwatch_log_group", "app"), ("aws_sqs_queue", "jobs"), ("google_storage_bucket", "artifacts"),
          ("kubernetes_namespace", "apps"), ("aws_ecr_repository", "api"), ("random_id", "suffix")]


def tf_id(c, typ, name):
    r = c.r
    if typ == "aws_instance":
        return "i-0" + c.hexs(16)
    if typ == "aws_security_group":
        return "sg-0" + c.hexs(16)
    if typ == "aws_iam_role_policy_attachment":
        return "%s-role-%s" % (name, c.hexs(20))
    if typ == "random_id":
        return c.hexs(8)
    if typ == "aws_route53_record":
        return "Z%s_api.example.com_A" % c.hexs(12).upper()
    if typ == "aws_sqs_queue":
        return "https://sqs.us-east-1.amazonaws.com/123456789012/" + name
    return "acme-%s-%s" % (name, c.hexs(6))


def terraform(c):
    r = c.r
    out = []
    if r.random() < 0.5:
        out += ["$ terraform init",
                "Initializing the backend...",
                "Successfully configured the backend \"s3\"! Terraform will automatically",
                "use this backend unless the backend configuration changes.",
                "Initializing provider plugins..."]
        for prov, ver in c.pick([("hashicorp/aws", "5.31.0"), ("hashicorp/random", "3.6.0"), ("hashicorp/kubernetes", "2.24.0"),
                                 ("hashicorp/google", "5.10.0"), ("hashicorp/helm", "2.12.1")], r.randint(1, 3)):
            out.append('- Finding %s versions matching "~> %s"...' % (prov, ver.rsplit(".", 1)[0]))
            out.append("- Installing %s v%s..." % (prov, ver))
            out.append("- Installed %s v%s (signed by HashiCorp)" % (prov, ver))
        out += ["Terraform has created a lock file .terraform.lock.hcl to record the provider",
                "selections it made above. Include this file in your version control repository",
                "so that Terraform can guarantee to make the same selections by default when",
                'you run "terraform init" in the future.',
                "Terraform has been successfully initialized!",
                'You may now begin working with Terraform. Try running "terraform plan" to see',
                "any changes that are required for your infrastructure. All Terraform commands",
                "should now work."]
    res = c.pick(TF_RES, r.randint(2, 6))
    add = res[:r.randint(1, len(res))]
    chg = [x for x in res if x not in add][:r.randint(0, 2)]
    ids = {x: tf_id(c, *x) for x in res}
    apply = r.random() < 0.6
    out.append("$ terraform " + ("apply -auto-approve" if apply else "plan -out=tfplan"))
    for x in chg:
        out.append("%s.%s: Refreshing state... [id=%s]" % (x[0], x[1], ids[x]))
    out += ["Terraform used the selected providers to generate the following execution",
            "plan. Resource actions are indicated with the following symbols:",
            "  + create"]
    if chg:
        out.append("  ~ update in-place")
    out.append("Terraform will perform the following actions:")
    for x in add:
        out.append("  # %s.%s will be created" % x)
        out.append('  + resource "%s" "%s" {' % x)
        out.append("      + arn                         = (known after apply)")
        if x[0].endswith("bucket"):
            out.append('      + bucket                      = "acme-%s"' % x[1])
            out.append("      + force_destroy               = false")
        out.append("      + id                          = (known after apply)")
        out.append("      + tags_all                    = {")
        out.append('          + "Environment" = "%s"' % r.choice(["prod", "staging"]))
        out.append('          + "ManagedBy"   = "terraform"')
        out.append("        }")
        out.append("    }")
    for x in chg:
        out.append("  # %s.%s will be updated in-place" % x)
        out.append('  ~ resource "%s" "%s" {' % x)
        out.append('        id                          = "%s"' % ids[x])
        out.append('      ~ tags                        = {')
        out.append('          ~ "Version" = "%d" -> "%d"' % (r.randint(1, 9), r.randint(10, 19)))
        out.append("        }")
        out.append("        # (%d unchanged attributes hidden)" % r.randint(3, 20))
        out.append("    }")
    out.append("Plan: %d to add, %d to change, 0 to destroy." % (len(add), len(chg)))
    if not apply:
        out += ["Saved the plan to: tfplan",
                "To perform exactly these actions, run the following command to apply:",
                '    terraform apply "tfplan"']
        return out
    for x in chg:
        out.append("%s.%s: Modifying... [id=%s]" % (x[0], x[1], ids[x]))
        out.append("%s.%s: Modifications complete after %ds [id=%s]" % (x[0], x[1], r.randint(1, 6), ids[x]))
    for x in add:
        out.append("%s.%s: Creating..." % x)
        secs = r.choice([0, 1, 2, 3, 5, 14, 37])
        for e in range(10, secs, 10):
            out.append("%s.%s: Still creating... [%ds elapsed]" % (x[0], x[1], e))
        out.append("%s.%s: Creation complete after %ds [id=%s]" % (x[0], x[1], secs, ids[x]))
    out.append("Apply complete! Resources: %d added, %d changed, 0 destroyed." % (len(add), len(chg)))
    out.append("Outputs:")
    for x in add[:2]:
        out.append('%s_%s = "%s"' % (x[1], "id", ids[x]))
    return out


# ---------------------------------------------------------------------------------------------
# gpu.log

GPUS = [("NVIDIA A100-SXM4-80GB", 81920, 400, "0"), ("NVIDIA A100-SXM4-40GB", 40960, 400, "0"),
        ("NVIDIA H100 80GB HBM3", 81559, 700, "0"), ("Tesla V100-SXM2-32GB", 32768, 300, "0"),
        ("Tesla T4", 15360, 70, "0"), ("NVIDIA A10G", 23028, 300, "0"), ("NVIDIA L4", 23034, 72, "0"),
        ("NVIDIA GeForce RTX 4090", 24564, 450, "Off"), ("NVIDIA GeForce RTX 3090", 24576, 350, "N/A"),
        ("NVIDIA RTX A6000", 49140, 300, "Off")]
GPU_INFO = {  # compute capability, SMs, cores/SM, clock MHz, bus width
    "NVIDIA A100-SXM4-80GB": ("8.0", 108, 64, 1410, 5120), "NVIDIA A100-SXM4-40GB": ("8.0", 108, 64, 1410, 5120),
    "NVIDIA H100 80GB HBM3": ("9.0", 132, 128, 1980, 5120), "Tesla V100-SXM2-32GB": ("7.0", 80, 64, 1530, 4096),
    "Tesla T4": ("7.5", 40, 64, 1590, 256), "NVIDIA A10G": ("8.6", 80, 128, 1710, 384), "NVIDIA L4": ("8.9", 58, 128, 2040, 192),
    "NVIDIA GeForce RTX 4090": ("8.9", 128, 128, 2520, 384), "NVIDIA GeForce RTX 3090": ("8.6", 82, 128, 1695, 384),
    "NVIDIA RTX A6000": ("8.6", 84, 128, 1800, 384)}
DRIVERS = [("535.129.03", "12.2"), ("535.104.05", "12.2"), ("545.23.08", "12.3"), ("525.85.12", "12.0"), ("550.54.15", "12.4")]
TORCH = [("2.1.0+cu121", "12.1", "8902", "2.1.0"), ("2.1.2+cu118", "11.8", "8700", "2.1.0"), ("2.2.0+cu121", "12.1", "8902", "2.2.0"),
         ("2.0.1+cu117", "11.7", "8500", "2.0.0"), ("2.3.0+cu121", "12.1", "8907", "2.3.0")]


def gpu_pick(c):
    g = c.r.choice(GPUS)
    n = c.r.choice([1, 1, 2, 4, 8]) if "GeForce" not in g[0] else c.r.choice([1, 2])
    return g, n


def cell(left, right, w):
    inner = " " + left
    return inner + " " * (w - len(inner) - len(right) - 1) + right + " "


def smi_row(a, b, d):
    return "|" + cell(*a, 41) + "|" + cell(*b, 22) + "|" + cell(*d, 22) + "|"


def full_row(left, right=""):
    left = " " + left
    return "|" + left + " " * (87 - len(left) - len(right) - 1) + right + " |"


def nvidia_smi(c):
    r = c.r
    (name, mem, cap, ecc), n = gpu_pick(c)
    drv, cuda = r.choice(DRIVERS)
    t = c.jump()
    busy = r.random() < 0.6
    out = ["$ nvidia-smi", ctime(t),
           "+" + "-" * 87 + "+",
           full_row("NVIDIA-SMI %s" % drv.ljust(22) + "Driver Version: %s" % drv.ljust(14) + "CUDA Version: %s" % cuda),
           "|" + "-" * 41 + "+" + "-" * 22 + "+" + "-" * 22 + "+",
           smi_row(("GPU  Name", "Persistence-M"), ("Bus-Id        Disp.A", ""), ("", "Volatile Uncorr. ECC")),
           smi_row(("Fan  Temp   Perf", "Pwr:Usage/Cap"), ("", "Memory-Usage"), ("GPU-Util  Compute M.", "")),
           smi_row(("", ""), ("", ""), ("", "MIG M.")),
           "|" + "=" * 41 + "+" + "=" * 22 + "+" + "=" * 22 + "|"]
    procs = []
    for i in range(n):
        used = r.randint(mem // 3, mem - 1200) if busy else r.randint(0, 6)
        util = r.randint(55, 100) if busy else 0
        fan = "N/A" if "GeForce" not in name and "A6000" not in name else "%d%%" % r.randint(30, 75)
        temp = r.randint(45, 74) if busy else r.randint(27, 40)
        pw = r.randint(int(cap * 0.5), int(cap * 0.95)) if busy else r.randint(9, int(cap * 0.2) + 10)
        bus = "00000000:%02X:00.0" % r.choice([7, 10, 0x46, 0x4E, 0x88, 0x8E, 0xB7, 0xBD, 1, 0x3B])
        out.append(smi_row(("%3d  %s" % (i, name), "On" if "GeForce" not in name else "Off"), ("%s Off" % bus, ""), ("", ecc)))
        out.append(smi_row(("%-4s %3dC    P%d" % (fan, temp, 0 if busy else r.choice([0, 8])), "%dW / %dW" % (pw, cap)),
                           ("", "%dMiB / %dMiB" % (used, mem)), ("%5d%%" % util, "Default")))
        out.append(smi_row(("", ""), ("", ""), ("", "Disabled" if "A100" in name or "H100" in name else "N/A")))
        out.append("+" + "-" * 41 + "+" + "-" * 22 + "+" + "-" * 22 + "+")
        if busy:
            procs.append((i, r.randint(1000, 99999), used - r.randint(0, 500)))
    out += ["+" + "-" * 87 + "+",
            full_row("Processes:"),
            full_row(" GPU   GI   CI        PID   Type   Process name", "GPU Memory"),
            full_row("       ID   ID", "Usage     "),
            "|" + "=" * 87 + "|"]
    if not procs:
        out.append(full_row(" No running processes found"))
    pname = r.choice(["python", "/usr/bin/python3", "/opt/conda/bin/python", "python3 -m vllm.entrypoints.openai.api_server"[:40], "torchrun"])
    for g, pid, m in procs:
        out.append(full_row("%4d   N/A  N/A  %9d      C   %s" % (g, pid, pname), "%dMiB" % m))
    out.append("+" + "-" * 87 + "+")
    return out


def smi_list(c):
    (name, _, _, _), n = gpu_pick(c)
    out = ["$ nvidia-smi -L"]
    for i in range(n):
        u = "GPU-%s-%s-%s-%s-%s" % (c.hexs(8), c.hexs(4), c.hexs(4), c.hexs(4), c.hexs(12))
        out.append("GPU %d: %s (UUID: %s)" % (i, name, u))
    return out


def smi_query(c):
    r = c.r
    (name, mem, cap, _), n = gpu_pick(c)
    drv, _ = r.choice(DRIVERS)
    if r.random() < 0.5:
        out = ["$ nvidia-smi --query-gpu=index,name,driver_version,memory.total,memory.used,utilization.gpu,temperature.gpu --format=csv",
               "index, name, driver_version, memory.total [MiB], memory.used [MiB], utilization.gpu [%], temperature.gpu"]
        for i in range(n):
            out.append("%d, %s, %s, %d MiB, %d MiB, %d %%, %d" % (i, name, drv, mem, r.randint(0, mem // 2), r.randint(0, 100), r.randint(28, 70)))
        return out
    out = ["$ nvidia-smi --query-gpu=index,ecc.errors.uncorrected.volatile.total,ecc.errors.corrected.volatile.total --format=csv,noheader",
           ]
    for i in range(n):
        out.append("%d, 0, 0" % i)
    return out


def smi_q_ecc(c):
    r = c.r
    (name, mem, cap, _), n = gpu_pick(c)
    drv, cuda = r.choice(DRIVERS)
    t = c.jump()
    out = ["$ nvidia-smi -q -d ECC,PAGE_RETIREMENT,ROW_REMAPPER -i 0",
           "==============NVSMI LOG==============",
           "Timestamp                                 : " + ctime(t),
           "Driver Version                            : " + drv,
           "CUDA Version                              : " + cuda,
           "Attached GPUs                             : %d" % n,
           "GPU 00000000:%02X:00.0" % r.choice([7, 0x10, 0x46]),
           "    ECC Mode",
           "        Current                           : Enabled",
           "        Pending                           : Enabled",
           "    ECC Errors",
           "        Volatile",
           "            SRAM Correctable              : 0",
           "            SRAM Uncorrectable            : 0",
           "            DRAM Correctable              : 0",
           "            DRAM Uncorrectable            : 0",
           "        Aggregate",
           "            SRAM Correctable              : 0",
           "            SRAM Uncorrectable            : 0",
           "            DRAM Correctable              : 0",
           "            DRAM Uncorrectable            : 0",
           "    Retired Pages",
           "        Single Bit ECC                    : N/A",
           "        Double Bit ECC                    : N/A",
           "        Pending Page Blacklist            : N/A",
           "    Remapped Rows",
           "        Correctable Error                 : 0",
           "        Uncorrectable Error               : 0",
           "        Pending                           : No",
           "        Remapping Failure Occurred        : No",
           "        Bank Remap Availability Histogram",
           "            Max                           : %d bank(s)" % r.choice([640, 2560]),
           "            High                          : 0 bank(s)",
           "            Partial                       : 0 bank(s)",
           "            Low                           : 0 bank(s)",
           "            None                          : 0 bank(s)"]
    return out


def nvcc(c):
    r = c.r
    v = r.choice([("12.2", "12.2.140", "Tue_Aug_15_22:02:13_PDT_2023", "33191640_0", "2023"),
                  ("12.1", "12.1.105", "Tue_Feb__7_19:32:13_PST_2023", "32415258_0", "2023"),
                  ("11.8", "11.8.89", "Wed_Sep_21_10:33:58_PDT_2022", "31833905_0", "2022"),
                  ("12.3", "12.3.107", "Wed_Nov_22_10:17:15_PST_2023", "33567101_0", "2023"),
                  ("12.4", "12.4.131", "Thu_Mar_28_02:18:24_PDT_2024", "34097967_0", "2024")])
    return ["$ nvcc --version",
            "nvcc: NVIDIA (R) Cuda compiler driver",
            "Copyright (c) 2005-%s NVIDIA Corporation" % v[4],
            "Built on " + v[2],
            "Cuda compilation tools, release %s, V%s" % (v[0], v[1]),
            "Build cuda_%s.r%s/compiler.%s" % (v[0], v[0], v[3])]


def device_query(c):
    r = c.r
    (name, mem, cap, ecc), n = gpu_pick(c)
    n = min(n, 2)
    drv, cuda = r.choice(DRIVERS)
    cc, sms, cpsm, clk, bus = GPU_INFO[name]
    out = ["$ ./deviceQuery", "./deviceQuery Starting...",
           " CUDA Device Query (Runtime API) version (CUDART static linking)",
           "Detected %d CUDA Capable device(s)" % n]
    for i in range(n):
        mb = mem - r.randint(100, 900)
        out += ['Device %d: "%s"' % (i, name),
                "  CUDA Driver Version / Runtime Version          %s / %s" % (cuda, cuda),
                "  CUDA Capability Major/Minor version number:    " + cc,
                "  Total amount of global memory:                 %d MBytes (%d bytes)" % (mb, mb * 1048576),
                "  (%03d) Multiprocessors, (%03d) CUDA Cores/MP:    %d CUDA Cores" % (sms, cpsm, sms * cpsm),
                "  GPU Max Clock rate:                            %d MHz (%.2f GHz)" % (clk, clk / 1000.0),
                "  Memory Clock rate:                             %d Mhz" % r.choice([1215, 1593, 2619, 5001, 10501]),
                "  Memory Bus Width:                              %d-bit" % bus,
                "  L2 Cache Size:                                 %d bytes" % r.choice([41943040, 52428800, 6291456, 4194304]),
                "  Maximum Texture Dimension Size (x,y,z)         1D=(131072), 2D=(131072, 65536), 3D=(16384, 16384, 16384)",
                "  Total amount of constant memory:               65536 bytes",
                "  Total amount of shared memory per block:       49152 bytes",
                "  Total shared memory per multiprocessor:        %d bytes" % r.choice([167936, 233472, 102400]),
                "  Total number of registers available per block: 65536",
                "  Warp size:                                     32",
                "  Maximum number of threads per multiprocessor:  %d" % r.choice([2048, 1536]),
                "  Maximum number of threads per block:           1024",
                "  Max dimension size of a thread block (x,y,z): (1024, 1024, 64)",
                "  Max dimension size of a grid size    (x,y,z): (2147483647, 65535, 65535)",
                "  Maximum memory pitch:                          2147483647 bytes",
                "  Texture alignment:                             512 bytes",
                "  Concurrent copy and kernel execution:          Yes with %d copy engine(s)" % r.choice([2, 3, 5]),
                "  Run time limit on kernels:                     No",
                "  Integrated GPU sharing Host Memory:            No",
                "  Support host page-locked memory mapping:       Yes",
                "  Alignment requirement for Surfaces:            Yes",
                "  Device has ECC support:                        %s" % ("Enabled" if ecc == "0" else "Disabled"),
                "  Device supports Unified Addressing (UVA):      Yes",
                "  Device supports Managed Memory:                Yes",
                "  Device supports Compute Preemption:            Yes",
                "  Supports Cooperative Kernel Launch:            Yes",
                "  Supports MultiDevice Co-op Kernel Launch:      Yes",
                "  Device PCI Domain ID / Bus ID / location ID:   0 / %d / 0" % r.choice([7, 16, 70, 136]),
                "  Compute Mode:",
                "     < Default (multiple host threads can use ::cudaSetDevice() with device simultaneously) >"]
    if n > 1:
        out.append("> Peer access from %s (GPU0) -> %s (GPU1) : Yes" % (name, name))
        out.append("> Peer access from %s (GPU1) -> %s (GPU0) : Yes" % (name, name))
    out.append("deviceQuery, CUDA Driver = CUDART, CUDA Driver Version = %s, CUDA Runtime Version = %s, NumDevs = %d" % (cuda, cuda, n))
    out.append("Result = PASS")
    return out


def torch_prints(c):
    r = c.r
    (name, mem, _, _), n = gpu_pick(c)
    tv, cu, cudnn, _ = r.choice(TORCH)
    k = r.randint(0, 3)
    if k == 0:
        return ['$ python -c "import torch; print(torch.__version__, torch.cuda.is_available(), torch.cuda.device_count(), torch.cuda.get_device_name(0))"',
                "%s True %d %s" % (tv, n, name)]
    if k == 1:
        return ['$ python -c "import torch; print(torch.version.cuda); print(torch.backends.cudnn.version())"', cu, cudnn,
                '$ python -c "import torch; print(torch.backends.cudnn.enabled, torch.cuda.get_device_capability())"',
                "True (%s, %s)" % tuple(GPU_INFO[name][0].split("."))]
    if k == 2:
        out = ["$ python check_gpu.py",
               "torch: %s" % tv,
               "CUDA available: True",
               "CUDA version: %s" % cu,
               "cuDNN version: %s" % cudnn,
               "device count: %d" % n]
        for i in range(n):
            out.append("  cuda:%d %s, %.1f GiB total, capability %s" % (i, name, mem / 1024.0, GPU_INFO[name][0]))
        out.append("matmul check on cuda:0: max abs diff %.2e, no errors found" % r.uniform(1e-7, 9e-6))
        return out
    return ['$ python -c "import tensorflow as tf; print(tf.config.list_physical_devices(\'GPU\'))"',
            "[" + ", ".join("PhysicalDevice(name='/physical_device:GPU:%d', device_type='GPU')" % i for i in range(min(n, 2))) + "]",
            '$ python -c "import jax; print(jax.devices())"',
            "[" + ", ".join("cuda(id=%d)" % i for i in range(min(n, 4))) + "]"]


def collect_env(c):
    r = c.r
    (name, mem, _, _), n = gpu_pick(c)
    tv, cu, cudnn, triton = r.choice(TORCH)
    drv, cuda = r.choice(DRIVERS)
    os_, gcc, glibc, kern = r.choice([("Ubuntu 22.04.3 LTS (x86_64)", "(Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0", "2.35", "5.15.0-91-generic"),
                                      ("Ubuntu 20.04.6 LTS (x86_64)", "(Ubuntu 9.4.0-1ubuntu1~20.04.2) 9.4.0", "2.31", "5.4.0-167-generic"),
                                      ("Debian GNU/Linux 12 (bookworm) (x86_64)", "(Debian 12.2.0-14) 12.2.0", "2.36", "6.1.0-17-amd64")])
    py = r.choice(["3.10.12 (main, Nov 20 2023, 15:14:05) [GCC 11.4.0]", "3.11.7 (main, Dec  8 2023, 18:56:58) [GCC 11.4.0]",
                   "3.9.18 (main, Sep 11 2023, 13:41:44)  [GCC 11.2.0]"])
    cpu = r.choice([("AMD EPYC 7763 64-Core Processor", "AuthenticAMD", 64), ("Intel(R) Xeon(R) Platinum 8480+", "GenuineIntel", 56),
                    ("Intel(R) Xeon(R) Platinum 8275CL CPU @ 3.00GHz", "GenuineIntel", 24)])
    gl = "GPU models and configuration: " + ("GPU 0: %s" % name)
    out = ["$ python -m torch.utils.collect_env",
           "Collecting environment information...",
           "PyTorch version: " + tv,
           "Is debug build: False",
           "CUDA used to build PyTorch: " + cu,
           "ROCM used to build PyTorch: N/A",
           "OS: " + os_,
           "GCC version: " + gcc,
           "Clang version: Could not collect",
           "CMake version: version 3.%d.%d" % (r.randint(22, 28), r.randint(0, 9)),
           "Libc version: glibc-" + glibc,
           "Python version: %s (64-bit runtime)" % py,
           "Python platform: Linux-%s-x86_64-with-glibc%s" % (kern, glibc),
           "Is CUDA available: True",
           "CUDA runtime version: %s.%d" % (cuda, r.randint(40, 140)),
           "CUDA_MODULE_LOADING set to: LAZY"]
    if n == 1:
        out.append(gl)
    else:
        out.append("GPU models and configuration:")
        for i in range(n):
            out.append("GPU %d: %s" % (i, name))
    out += ["Nvidia driver version: " + drv,
            "cuDNN version: Probably one of the following:",
            "/usr/lib/x86_64-linux-gnu/libcudnn.so.%s.%s.%s" % (cudnn[0], cudnn[1], cudnn[2:].lstrip("0") or "0"),
            "/usr/lib/x86_64-linux-gnu/libcudnn_ops_infer.so.%s.%s.%s" % (cudnn[0], cudnn[1], cudnn[2:].lstrip("0") or "0"),
            "HIP runtime version: N/A",
            "MIOpen runtime version: N/A",
            "Is XNNPACK available: True",
            "CPU:",
            "Architecture:                       x86_64",
            "CPU op-mode(s):                     32-bit, 64-bit",
            "Address sizes:                      48 bits physical, 48 bits virtual",
            "Byte Order:                         Little Endian",
            "CPU(s):                             %d" % (cpu[2] * 2),
            "On-line CPU(s) list:                0-%d" % (cpu[2] * 2 - 1),
            "Vendor ID:                          " + cpu[1],
            "Model name:                         " + cpu[0],
            "Thread(s) per core:                 2",
            "Core(s) per socket:                 %d" % cpu[2],
            "Socket(s):                          1",
            "Virtualization:                     " + ("AMD-V" if "AMD" in cpu[1] else "VT-x"),
            "L1d cache:                          %d MiB (%d instances)" % (cpu[2] // 16 or 1, cpu[2]),
            "L2 cache:                           %d MiB (%d instances)" % (cpu[2] // 2, cpu[2]),
            "NUMA node(s):                       1",
            "NUMA node0 CPU(s):                  0-%d" % (cpu[2] * 2 - 1),
            "Vulnerability Itlb multihit:        Not affected",
            "Vulnerability L1tf:                 Not affected",
            "Vulnerability Meltdown:             Not affected",
            "Vulnerability Spec store bypass:    Mitigation; Speculative Store Bypass disabled via prctl",
            "Vulnerability Spectre v1:           Mitigation; usercopy/swapgs barriers and __user pointer sanitization",
            "Vulnerability Srbds:                Not affected",
            "Versions of relevant libraries:",
            "[pip3] numpy==1.%d.%d" % (r.randint(24, 26), r.randint(0, 4)),
            "[pip3] torch==" + tv,
            "[pip3] torchvision==0.%d.%d" % (r.randint(15, 18), r.randint(0, 2)),
            "[pip3] triton==" + triton]
    if r.random() < 0.4:
        out.append("[conda] numpy                     1.26.2                   pypi_0    pypi")
        out.append("[conda] torch                     %s                   pypi_0    pypi" % tv)
    return out


def gpu_burn(c):
    r = c.r
    (name, mem, _, _), n = gpu_pick(c)
    secs = r.choice([30, 60, 120])
    out = ["$ ./gpu_burn %d" % secs, "Using compare file: compare.ptx", "Burning for %d seconds." % secs]
    for i in range(n):
        out.append("GPU %d: %s (UUID: GPU-%s-%s-%s-%s-%s)" % (i, name, c.hexs(8), c.hexs(4), c.hexs(4), c.hexs(4), c.hexs(12)))
    out.append("Initialized device %d with %d MB of memory (%d MB available, using %d MB of it), using FLOATS" % (0, mem, mem - 600, int((mem - 600) * 0.9)))
    for k in range(1, r.randint(3, 6)):
        pct = min(100.0, k * 100.0 / 4)
        out.append("%.1f%%  proc'd: %s   errors: %s   temps: %s" % (
            pct, " - ".join("%d (%d Gflop/s)" % (r.randint(1000, 90000), r.randint(9000, 60000)) for _ in range(min(n, 2))),
            " - ".join("0" for _ in range(min(n, 2))), " - ".join("%d C" % r.randint(50, 78) for _ in range(min(n, 2)))))
    out.append("Killing processes with SIGTERM (soft kill)")
    out.append("done")
    out.append("Tested %d GPUs:" % n)
    for i in range(n):
        out.append("\tGPU %d: OK" % i)
    return out


def compute_sanitizer(c):
    r = c.r
    prog = r.choice(["./vectorAdd", "./matrixMul", "./reduction", "./build/bin/test_kernels"])
    out = ["$ compute-sanitizer --tool memcheck %s" % prog, "========= COMPUTE-SANITIZER"]
    if "vectorAdd" in prog:
        ne = r.choice([50000, 100000])
        out += ["[Vector addition of %d elements]" % ne, "Copy input data from the host memory to the CUDA device",
                "CUDA kernel launch with %d blocks of 256 threads" % ((ne + 255) // 256),
                "Copy output data from the CUDA device to the host memory", "Test PASSED", "Done"]
    else:
        out += ["%s: all %d checks passed" % (prog.rsplit("/", 1)[1], r.randint(4, 40))]
    out.append("========= ERROR SUMMARY: 0 errors")
    return out


def dcgm_diag(c):
    r = c.r
    out = ["$ dcgmi diag -r 1",
           "Successfully ran diagnostic for group.",
           "+---------------------------+------------------------------------------------+",
           "| Diagnostic                | Result                                         |",
           "+===========================+================================================+",
           "|-----  Metadata  ----------+------------------------------------------------|",
           "| DCGM Version              | 3.%d.%d                                          |" % (r.randint(1, 3), r.randint(0, 9)),
           "| Driver Version Detected   | %s|" % r.choice(DRIVERS)[0].ljust(47),
           "| GPU Device IDs Detected   | 20b2                                           |",
           "|-----  Deployment  --------+------------------------------------------------|"]
    for chk in ["Denylist", "NVML Library", "CUDA Main Library", "Permissions and OS Blocks", "Persistence Mode",
                "Environment Variables", "Page Retirement/Row Remap", "Graphics Processes", "Inforom"]:
        out.append("| %s| Pass                                           |" % chk.ljust(26))
    out.append("+---------------------------+------------------------------------------------+")
    return out


# ---------------------------------------------------------------------------------------------
# ml.log

MODELS = ["meta-llama/Llama-2-7b-hf", "mistralai/Mistral-7B-Instruct-v0.2", "bert-base-uncased", "distilbert-base-uncased",
          "roberta-base", "google/flan-t5-base", "gpt2", "microsoft/phi-2", "Qwen/Qwen1.5-7B-Chat", "EleutherAI/pythia-1.4b"]


def tf_startup(c):
    r = c.r
    (name, mem, _, _), n = gpu_pick(c)
    cc = GPU_INFO[name][0]
    out = ["$ python train_%s.py" % r.choice(["mnist", "cifar", "resnet", "classifier", "tabular"])]

    def L(lvl, src, msg):
        t = c.tick(0.0001, 0.4)
        return "%s: %s %s] %s" % (ymd_hms_us(t), lvl, src, msg)

    out.append(L("I", "tensorflow/core/util/port.cc:113", "oneDNN custom operations are on. You may see slightly different numerical results due to floating-point round-off errors from different computation orders. To turn them off, set the environment variable `TF_ENABLE_ONEDNN_OPTS=0`."))
    out.append(L("I", "tensorflow/core/platform/cpu_feature_guard.cc:182", "This TensorFlow binary is optimized to use available CPU instructions in performance-critical operations."))
    out.append("To enable the following instructions: %s, in other operations, rebuild TensorFlow with the appropriate compiler flags." % r.choice(["AVX2 FMA", "AVX2 AVX512F AVX512_VNNI FMA", "AVX2 AVX_VNNI FMA"]))
    if r.random() < 0.4:
        for lib in ["libcudart.so.11.0", "libcuda.so.1", "libcublas.so.11", "libcufft.so.10", "libcurand.so.10", "libcusolver.so.11", "libcusparse.so.11", "libcudnn.so.8"]:
            out.append(L("I", "tensorflow/stream_executor/platform/default/dso_loader.cc:53", "Successfully opened dynamic library " + lib))
    else:
        out.append(L("I", "tensorflow/stream_executor/platform/default/dso_loader.cc:53", "Successfully opened dynamic library libcudart.so.12"))
    for i in range(min(n, 4)):
        out.append(L("I", "tensorflow/core/common_runtime/gpu/gpu_device.cc:1886",
                     "Created device /job:localhost/replica:0/task:0/device:GPU:%d with %d MB memory:  -> device: %d, name: %s, pci bus id: 0000:%02x:00.0, compute capability: %s"
                     % (i, mem - r.randint(2000, 3500), i, name, [7, 16, 70, 136][i], cc)))
    if r.random() < 0.6:
        out.append(L("I", "external/local_xla/xla/service/service.cc:168", "XLA service 0x%s initialized for platform CUDA (this does not guarantee that XLA will be used). Devices:" % c.hexs(12)))
        out.append(L("I", "external/local_xla/xla/service/service.cc:176", "  StreamExecutor device (0): %s, Compute Capability %s" % (name, cc)))
        out.append(L("I", "external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:454", "Loaded cuDNN version %d" % r.choice([8600, 8700, 8906])))
        out.append(L("I", "./tensorflow/compiler/jit/device_compiler.h:186", "Compiled cluster using XLA!  This line is logged at most once for the lifetime of the process."))
    return out


def keras_summary(c):
    r = c.r
    layers = [("flatten (Flatten)", "(None, 784)", 0), ("dense (Dense)", "(None, 128)", 100480), ("dropout (Dropout)", "(None, 128)", 0),
              ("dense_1 (Dense)", "(None, 10)", 1290)]
    if r.random() < 0.5:
        layers = [("conv2d (Conv2D)", "(None, 30, 30, 32)", 896), ("max_pooling2d (MaxPooling2D)", "(None, 15, 15, 32)", 0),
                  ("conv2d_1 (Conv2D)", "(None, 13, 13, 64)", 18496), ("max_pooling2d_1 (MaxPooling2D)", "(None, 6, 6, 64)", 0),
                  ("flatten (Flatten)", "(None, 2304)", 0), ("dense (Dense)", "(None, 64)", 147520), ("dense_1 (Dense)", "(None, 10)", 650)]
    total = sum(p for _, _, p in layers)
    out = ['Model: "sequential"', "_" * 65, " Layer (type)                Output Shape              Param #", "=" * 65]
    for a, b, p in layers:
        out.append((" %-27s %-25s %d" % (a, b, p)))
    out += ["=" * 65,
            "Total params: %d (%.2f KB)" % (total, total * 4 / 1024.0),
            "Trainable params: %d (%.2f KB)" % (total, total * 4 / 1024.0),
            "Non-trainable params: 0 (0.00 Byte)",
            "_" * 65]
    return out


def keras_fit(c):
    r = c.r
    out = keras_summary(c) if r.random() < 0.6 else []
    epochs = r.randint(3, 12)
    steps = r.choice([938, 1875, 469, 782, 391, 1563])
    loss, acc = r.uniform(0.3, 0.7), r.uniform(0.75, 0.88)
    keras3 = r.random() < 0.35
    if r.random() < 0.3:
        mae = r.uniform(0.2, 0.5)
        for e in range(1, epochs + 1):
            loss *= r.uniform(0.6, 0.9)
            mae *= r.uniform(0.8, 0.95)
            out.append("Epoch %d/%d" % (e, epochs))
            out.append("%d/%d [==============================] - %ds %dms/step - loss: %.4f - mean_absolute_error: %.4f - val_loss: %.4f - val_mean_absolute_error: %.4f"
                       % (steps, steps, r.randint(1, 9), r.randint(1, 9), loss, mae, loss * 1.1, mae * 1.05))
        out.append("Test MAE: %.4f" % (mae * 1.05))
        return out
    for e in range(1, epochs + 1):
        loss *= r.uniform(0.6, 0.9)
        acc = min(0.995, acc + (1 - acc) * r.uniform(0.1, 0.35))
        vl, va = loss * r.uniform(1.0, 1.3), acc - r.uniform(0, 0.02)
        out.append("Epoch %d/%d" % (e, epochs))
        secs = r.randint(2, 30)
        ms = max(1, secs * 1000 // steps)
        if keras3:
            out.append("%d/%d ━━━━━━━━━━━━━━━━━━━━ %ds %dms/step - accuracy: %.4f - loss: %.4f - val_accuracy: %.4f - val_loss: %.4f"
                       % (steps, steps, secs, ms, acc, loss, va, vl))
        else:
            out.append("%d/%d [==============================] - %ds %dms/step - loss: %.4f - accuracy: %.4f - val_loss: %.4f - val_accuracy: %.4f"
                       % (steps, steps, secs, ms, loss, acc, vl, va))
    out.append("313/313 [==============================] - 1s 3ms/step - loss: %.4f - accuracy: %.4f" % (loss * 1.1, acc - 0.005))
    out.append("Test accuracy: %.4f" % (acc - 0.005))
    return out


def torch_loop(c):
    r = c.r
    epochs = r.randint(2, 6)
    total_epochs = r.choice([epochs, 10, 20, 50])
    steps = r.choice([600, 469, 782, 1000])
    every = r.choice([100, 200])
    loss = r.uniform(0.8, 2.3)
    out = ["$ python train.py --epochs %d --batch-size %d --lr %s" % (total_epochs, r.choice([32, 64, 128]), r.choice(["1e-3", "3e-4", "0.01"])),
           "Using device: cuda:0",
           "Validated %d training samples: 0 errors, 0 skipped" % r.choice([60000, 50000, 25000, 120000]) if r.random() < 0.4 else
           "Train samples: %d, val samples: %d" % (r.choice([60000, 50000]), r.choice([10000, 5000]))]
    style = r.randint(0, 1)
    for e in range(1, epochs + 1):
        if style == 0:
            for s in range(every, steps + 1, every):
                loss *= r.uniform(0.85, 0.99)
                out.append("Epoch [%d/%d], Step [%d/%d], Loss: %.4f" % (e, total_epochs, s, steps, loss))
        else:
            secs = r.randint(20, 90)
            out.append("train: 100%%|██████████| %d/%d [%02d:%02d<00:00, %.1fit/s]" % (steps, steps, secs // 60, secs % 60, steps / float(secs)))
            vs = steps // 6
            vsec = r.randint(2, 9)
            out.append("eval: 100%%|██████████| %d/%d [00:%02d<00:00, %.1fit/s]" % (vs, vs, vsec, vs / float(vsec)))
            loss *= r.uniform(0.6, 0.9)
        out.append("Epoch %d: train_loss=%.4f val_loss=%.4f val_acc=%.4f lr=%.2e" % (e, loss, loss * r.uniform(1, 1.2), 1 - loss / 4, r.uniform(1e-5, 1e-3)))
        if r.random() < 0.5:
            out.append("Saved checkpoint to checkpoints/epoch_%03d.pt" % e)
    out.append("Training finished in %dm %ds, best val_acc=%.4f" % (r.randint(1, 59), r.randint(0, 59), 1 - loss / 4))
    return out


def hf_download(c):
    r = c.r
    out = []
    files = [("(…)okenizer_config.json", "%.2fk" % r.uniform(0.3, 2)), ("(…)lve/main/config.json", "%d" % r.randint(500, 900)),
             ("vocab.txt", "232k"), ("tokenizer.json", "%.2fM" % r.uniform(0.4, 2)), ("(…)cial_tokens_map.json", "%d" % r.randint(100, 500)),
             ("model.safetensors", "%dM" % r.randint(250, 990)), ("(…)neration_config.json", "%d" % r.randint(100, 200))]
    for f, s in files[:r.randint(3, 7)]:
        sec = r.randint(0, 6)
        out.append("Downloading %s: 100%%|██████████| %s/%s [00:%02d<00:00, %.1f%s]" % (f, s, s, sec, r.uniform(1, 120), r.choice(["MB/s", "kB/s"])))
    return out


def hf_trainer(c):
    r = c.r
    model = r.choice(MODELS)
    out = ["$ python run_%s.py --model_name_or_path %s --output_dir ./out" % (r.choice(["glue", "clm", "summarization", "classification"]), model)]
    out += hf_download(c)
    if "7b" in model.lower() or "7B" in model:
        out.append("Loading checkpoint shards: 100%%|██████████| 2/2 [00:0%d<00:00,  %.2fs/it]" % (r.randint(2, 9), r.uniform(1, 4)))
    n = r.choice([25000, 67349, 8551, 120000, 3668])
    sec = max(1, n // r.randint(3000, 9000))
    out.append("Map: 100%%|██████████| %d/%d [00:%02d<00:00, %.2f examples/s]" % (n, n, min(sec, 59), n / float(sec)))
    bs = r.choice([8, 16, 32])
    ga = r.choice([1, 2, 4])
    ep = r.choice([1, 2, 3])
    steps = n * ep // (bs * ga)
    out += ["***** Running training *****",
            "  Num examples = {:,}".format(n),
            "  Num Epochs = %d" % ep,
            "  Instantaneous batch size per device = %d" % bs,
            "  Total train batch size (w. parallel, distributed & accumulation) = %d" % (bs * ga),
            "  Gradient Accumulation steps = %d" % ga,
            "  Total optimization steps = {:,}".format(steps),
            "  Number of trainable parameters = {:,}".format(r.choice([109483778, 66955010, 124645632, 6738415616, 2779683840]))]
    loss = r.uniform(1.5, 3.0)
    lr0 = 5e-5
    for s in range(r.choice([10, 50, 100]), min(steps, 1500) + 1, r.choice([100, 250, 500])):
        loss *= r.uniform(0.88, 0.99)
        out.append("{'loss': %.4f, 'learning_rate': %.1e, 'epoch': %.2f}" % (loss, lr0 * (1 - s / float(steps)), s * ep / float(steps)))
        if s % 500 == 0:
            out.append("Saving model checkpoint to ./out/checkpoint-%d" % s)
            out.append("Configuration saved in ./out/checkpoint-%d/config.json" % s)
            out.append("Model weights saved in ./out/checkpoint-%d/model.safetensors" % s)
    out.append("***** Running Evaluation *****")
    out.append("  Num examples = %d" % r.choice([872, 1000, 5000, 408]))
    out.append("  Batch size = %d" % (bs * 2))
    out.append("{'eval_loss': %.4f, 'eval_accuracy': %.4f, 'eval_runtime': %.3f, 'eval_samples_per_second': %.3f, 'eval_steps_per_second': %.3f, 'epoch': %.1f}"
               % (loss * 1.1, r.uniform(0.8, 0.95), r.uniform(2, 40), r.uniform(50, 900), r.uniform(5, 60), float(ep)))
    out.append("Training completed. Do not forget to share your model on huggingface.co/models =)")
    rt = r.uniform(100, 9000)
    out.append("{'train_runtime': %.4f, 'train_samples_per_second': %.3f, 'train_steps_per_second': %.3f, 'train_loss': %.4f, 'epoch': %.1f}"
               % (rt, n * ep / rt, steps / rt, loss * 1.2, float(ep)))
    out.append("Saving model checkpoint to ./out")
    return out


def vllm_serve(c):
    r = c.r
    model = r.choice([m for m in MODELS if "/" in m])
    (name, mem, _, _), n = gpu_pick(c)
    tp = r.choice([1, 1, 2])
    out = ["$ python -m vllm.entrypoints.openai.api_server --model %s --tensor-parallel-size %d" % (model, tp)]

    def V(src, msg):
        t = c.tick(0.01, 3)
        return "INFO %02d-%02d %s %s] %s" % (t.month, t.day, t.strftime("%H:%M:%S"), src, msg)

    out.append(V("api_server.py:727", "args: Namespace(host=None, port=8000, model='%s', max_model_len=None, gpu_memory_utilization=0.9)" % model))
    out.append(V("llm_engine.py:79", "Initializing an LLM engine with config: model='%s', dtype=torch.float16, max_seq_len=%d, tensor_parallel_size=%d, seed=0)" % (model, r.choice([4096, 8192, 32768]), tp)))
    out.append(V("weight_utils.py:163", "Using model weights format ['*.safetensors']"))
    out.append(V("model_runner.py:104", "Loading model weights took %.4f GB" % r.uniform(2, 15)))
    out.append(V("gpu_executor.py:94", "# GPU blocks: %d, # CPU blocks: %d" % (r.randint(2000, 30000), r.choice([512, 2048]))))
    out.append(V("model_runner.py:791", "Capturing the model for CUDA graphs. This may lead to unexpected consequences if the model is not static."))
    out.append(V("model_runner.py:867", "Graph capturing finished in %d secs." % r.randint(4, 30)))
    out.append(V("serving_chat.py:260", "Using default chat template"))
    out += ["INFO:     Started server process [%d]" % r.randint(100, 9000),
            "INFO:     Waiting for application startup.",
            "INFO:     Application startup complete.",
            "INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)"]
    for _ in range(r.randint(3, 9)):
        if r.random() < 0.4:
            out.append(V("metrics.py:334", "Avg prompt throughput: %.1f tokens/s, Avg generation throughput: %.1f tokens/s, Running: %d reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: %.1f%%, CPU KV cache usage: 0.0%%"
                         % (r.uniform(0, 400), r.uniform(10, 900), r.randint(0, 12), r.uniform(0, 30))))
        else:
            path = r.choice(["/v1/completions", "/v1/chat/completions", "/v1/models", "/health", "/metrics"])
            meth = "GET" if path in ("/v1/models", "/health", "/metrics") else "POST"
            out.append('INFO:     %s:%d - "%s %s HTTP/1.1" 200 OK' % (c.ip(), r.randint(30000, 65000), meth, path))
    return out


def lightning(c):
    r = c.r
    (name, mem, _, _), n = gpu_pick(c)
    dev = min(n, r.choice([1, 2, 4]))
    out = ["$ python train_lightning.py trainer.max_epochs=%d trainer.devices=%d" % (r.randint(3, 8), dev),
           "Using 16bit Automatic Mixed Precision (AMP)" if r.random() < 0.5 else "Trainer already configured with model summary callbacks: [<class 'lightning.pytorch.callbacks.rich_model_summary.RichModelSummary'>]. Skipping setting a default `ModelSummary` callback.",
           "GPU available: True (cuda), used: True",
           "TPU available: False, using: 0 TPU cores",
           "IPU available: False, using: 0 IPUs",
           "HPU available: False, using: 0 HPUs"]
    if dev > 1:
        for i in range(dev):
            out.append("Initializing distributed: GLOBAL_RANK: %d, MEMBER: %d/%d" % (i, i + 1, dev))
        out.append("distributed_backend=nccl")
        out.append("All distributed processes registered. Starting with %d processes" % dev)
    out.append("LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [%s]" % ",".join(str(i) for i in range(n)))
    mods = r.choice([[("model", "ResNet", "11.2 M"), ("criterion", "CrossEntropyLoss", "0")],
                     [("encoder", "Encoder", "4.2 M"), ("decoder", "Decoder", "3.9 M"), ("loss_fn", "MSELoss", "0")],
                     [("backbone", "ViT", "85.8 M"), ("head", "Linear", "7.7 K"), ("train_acc", "MulticlassAccuracy", "0"), ("val_acc", "MulticlassAccuracy", "0")]])
    out.append("  | Name      | Type               | Params")
    out.append("-" * 47)
    for i, (a, b, p) in enumerate(mods):
        out.append("%d | %-9s | %-18s | %s" % (i, a, b, p))
    out.append("-" * 47)
    tot = mods[0][2]
    out += ["%-10sTrainable params" % tot, "0         Non-trainable params", "%-10sTotal params" % tot,
            "%-10.3fTotal estimated model params size (MB)" % r.uniform(10, 400)]
    steps = r.choice([782, 391, 1563, 250])
    loss = r.uniform(1, 2.3)
    ep = r.randint(2, 6)
    for e in range(ep):
        loss *= r.uniform(0.6, 0.9)
        secs = r.randint(15, 80)
        out.append("Epoch %d: 100%%|██████████| %d/%d [00:%02d<00:00, %.2fit/s, v_num=%d, train_loss=%.3f, val_loss=%.3f]"
                   % (e, steps, steps, min(secs, 59), steps / float(secs), r.randint(0, 12), loss, loss * 1.08))
    out.append("`Trainer.fit` stopped: `max_epochs=%d` reached." % ep)
    if r.random() < 0.5:
        out.append("Testing DataLoader 0: 100%%|██████████| %d/%d [00:0%d<00:00, %.2fit/s]" % (79, 79, r.randint(2, 9), r.uniform(10, 40)))
        out.append("test_acc: %.4f  test_loss: %.4f" % (r.uniform(0.85, 0.97), loss * 1.1))
    return out


def xgboost(c):
    r = c.r
    metric = r.choice(["logloss", "error", "rmse", "auc"])
    out = ["$ python train_xgb.py --n-estimators %d --max-depth %d" % (r.choice([100, 200, 500]), r.randint(3, 10))]
    a, b = r.uniform(0.2, 0.6), r.uniform(0.2, 0.6)
    n = r.randint(8, 16)
    step = r.choice([1, 10, 25])
    for i in range(n):
        if metric == "auc":
            a, b = min(0.999, a + (1 - a) * 0.2 + 0.3), min(0.999, b + (1 - b) * 0.15 + 0.3)
        else:
            a *= r.uniform(0.8, 0.97)
            b *= r.uniform(0.85, 0.99)
        out.append("[%d]\tvalidation_0-%s:%.5f\tvalidation_1-%s:%.5f" % (i * step, metric, a, metric, b))
    out.append("best iteration: %d, best score: %.5f" % ((n - 1) * step, b))
    out.append("model saved to models/xgb-%s.json" % c.hexs(7))
    return out


def ml_misc(c):
    r = c.r
    k = r.randint(0, 3)
    if k == 0:
        return ["$ python prepare_data.py --input data/raw --output data/processed",
                "Reading %d shards from data/raw" % r.randint(4, 64),
                "Checking dataset integrity... no errors found",
                "Wrote %s rows to data/processed/train.parquet (%.1f MB)" % ("{:,}".format(r.randint(10000, 900000)), r.uniform(5, 900)),
                "Wrote %s rows to data/processed/val.parquet (%.1f MB)" % ("{:,}".format(r.randint(1000, 90000)), r.uniform(1, 90))]
    if k == 1:
        ws = r.choice([2, 4, 8])
        return ["$ torchrun --nproc_per_node=%d train.py" % ws,
                "[rank0]: init_process_group backend=nccl world_size=%d timeout=0:30:00" % ws,
                "NCCL version 2.18.%d+cuda12.1" % r.randint(1, 6),
                "[rank0]: model has %s parameters" % "{:,}".format(r.randint(10 ** 7, 10 ** 9)),
                "[rank0]: step 100 | loss %.4f | %.1f samples/s" % (r.uniform(1, 3), r.uniform(100, 3000))]
    if k == 2 and r.random() < 0.4:
        return ["$ python baseline_sklearn.py",
                "Coefficients: [%.2f %.2f %.2f]" % (r.uniform(-900, 900), r.uniform(-900, 900), r.uniform(-900, 900)),
                "Mean squared error: %.2f" % r.uniform(100, 4000),
                "Coefficient of determination: %.2f" % r.uniform(0.3, 0.9),
                "Cross-validation accuracy: %.3f (+/- %.3f)" % (r.uniform(0.8, 0.97), r.uniform(0.005, 0.03))]
    if k == 2:
        return ["wandb: Currently logged in as: ml-team. Use `wandb login --relogin` to force relogin",
                "wandb: Tracking run with wandb version 0.16.%d" % r.randint(0, 3),
                "wandb: Run data is saved locally in /home/ci/wandb/run-%s-%s" % (c.t.strftime("%Y%m%d_%H%M%S"), c.word(8)),
                "wandb: Syncing run %s-%s-%d" % (r.choice(["amber", "misty", "solar", "lunar", "brisk"]), r.choice(["wave", "field", "river", "pine"]), r.randint(1, 300)),
                "wandb: View run at https://wandb.ai/acme/%s/runs/%s" % (r.choice(["llm", "vision", "tabular"]), c.word(8))]
    return ["$ python eval.py --checkpoint out/best.pt",
            "Loaded checkpoint out/best.pt (epoch %d)" % r.randint(3, 40),
            "eval: 100%%|██████████| %d/%d [00:%02d<00:00, %.2fit/s]" % (157, 157, r.randint(3, 30), r.uniform(5, 50)),
            "accuracy=%.4f precision=%.4f recall=%.4f f1=%.4f" % tuple(r.uniform(0.8, 0.98) for _ in range(4)),
            "error rate: %.2f%% (%d/%d), within tolerance" % (r.uniform(1, 9), r.randint(100, 900), 10000)]


# ---------------------------------------------------------------------------------------------
# servers.log

SPRING_BANNER = [r"  .   ____          _            __ _ _",
                 r" /\\ / ___'_ __ _ _(_)_ __  __ _ \ \ \ \ ",
                 r"( ( )\___ | '_ | '_| | '_ \/ _` | \ \ \ \ ",
                 r" \\/  ___)| |_)| | | | | || (_| |  ) ) ) )",
                 r"  '  |____| .__|_| |_|_| |_\__, | / / / /",
                 r" =========|_|==============|___/=/_/_/_/"]


def spring(c):
    r = c.r
    ver = r.choice(["3.2.1", "3.1.6", "3.2.0", "2.7.18", "3.0.13"])
    app = r.choice(["Demo", "Order", "Billing", "Inventory", "Gateway", "Catalog"]) + "Application"
    pkg = r.choice(["c.e.demo", "c.a.orders", "c.a.billing", "i.a.inventory", "c.a.gateway"])
    pid = r.randint(1, 99999)
    port = r.choice([8080, 8081, 9000])
    out = list(SPRING_BANNER) + [" :: Spring Boot ::                (v%s)" % ver]

    def S(logger, msg, thread="main"):
        t = c.tick(0.001, 0.4)
        return "%s  INFO %d --- [%s] %-40s : %s" % (iso_ms(t), pid, thread.rjust(15), logger, msg)

    out.append(S("%s.%s" % (pkg, app), "Starting %s v0.0.1-SNAPSHOT using Java %s with PID %d (/app/app.jar started by app in /app)" % (app, r.choice(["17.0.9", "21.0.1", "17.0.8.1"]), pid)))
    out.append(S("%s.%s" % (pkg, app), 'No active profile set, falling back to 1 default profile: "default"' if r.random() < 0.5 else 'The following 1 profile is active: "%s"' % r.choice(["prod", "staging", "docker"])))
    if r.random() < 0.6:
        out.append(S(".s.d.r.c.RepositoryConfigurationDelegate", "Bootstrapping Spring Data JPA repositories in DEFAULT mode."))
        out.append(S(".s.d.r.c.RepositoryConfigurationDelegate", "Finished Spring Data repository scanning in %d ms. Found %d JPA repository interfaces." % (r.randint(20, 200), r.randint(1, 9))))
    out.append(S("o.s.b.w.embedded.tomcat.TomcatWebServer", "Tomcat initialized with port %d (http)" % port))
    out.append(S("o.apache.catalina.core.StandardService", "Starting service [Tomcat]"))
    out.append(S("o.apache.catalina.core.StandardEngine", "Starting Servlet engine: [Apache Tomcat/10.1.%d]" % r.randint(13, 18)))
    out.append(S("o.a.c.c.C.[Tomcat].[localhost].[/]", "Initializing Spring embedded WebApplicationContext"))
    out.append(S("w.s.c.ServletWebServerApplicationContext", "Root WebApplicationContext: initialization completed in %d ms" % r.randint(400, 3000)))
    if r.random() < 0.6:
        out.append(S("com.zaxxer.hikari.HikariDataSource", "HikariPool-1 - Starting..."))
        out.append(S("com.zaxxer.hikari.pool.HikariPool", "HikariPool-1 - Added connection org.postgresql.jdbc.PgConnection@%s" % c.hexs(8)))
        out.append(S("com.zaxxer.hikari.HikariDataSource", "HikariPool-1 - Start completed."))
        out.append(S("o.hibernate.jpa.internal.util.LogHelper", "HHH000204: Processing PersistenceUnitInfo [name: default]"))
        out.append(S("org.hibernate.Version", "HHH000412: Hibernate ORM core version 6.4.%d.Final" % r.randint(0, 4)))
        out.append(S("j.LocalContainerEntityManagerFactoryBean", "Initialized JPA EntityManagerFactory for persistence unit 'default'"))
    out.append(S("o.s.b.a.e.web.EndpointLinksResolver", "Exposing %d endpoint(s) beneath base path '/actuator'" % r.randint(1, 4)))
    out.append(S("o.s.b.w.embedded.tomcat.TomcatWebServer", "Tomcat started on port %d (http) with context path ''" % port))
    st = r.uniform(1.5, 12)
    out.append(S("%s.%s" % (pkg, app), "Started %s in %.2f seconds (process running for %.1f)" % (app, st, st + r.uniform(0.3, 1.5))))
    for _ in range(r.randint(0, 3)):
        out.append(S("o.a.c.c.C.[Tomcat].[localhost].[/]", "Initializing Spring DispatcherServlet 'dispatcherServlet'", "nio-%d-exec-1" % port))
        out.append(S("o.s.web.servlet.DispatcherServlet", "Completed initialization in %d ms" % r.randint(1, 4), "nio-%d-exec-1" % port))
        break
    return out


def access_path(c):
    r = c.r
    return r.choice(["/", "/health", "/healthz", "/api/v1/users/%d" % r.randint(1, 9999), "/api/v1/orders?page=%d" % r.randint(1, 40),
                     "/static/css/main.%s.css" % c.hexs(8), "/static/js/app.%s.js" % c.hexs(8), "/login", "/metrics",
                     "/api/v1/items/%d" % r.randint(1, 500), "/api/errors/summary", "/docs", "/openapi.json"])


def uvicorn(c):
    r = c.r
    out = []
    if r.random() < 0.5:
        pid = r.randint(1, 10)
        ver = r.choice(["21.2.0", "20.1.0", "22.0.0"])

        def G(p, msg):
            t = c.tick(0.001, 0.3)
            return "[%s +0000] [%d] [INFO] %s" % (ymd_hms(t), p, msg)

        out.append("$ gunicorn app.main:app -k uvicorn.workers.UvicornWorker -w %d -b 0.0.0.0:8000 --timeout 30" % 4)
        out.append(G(pid, "Starting gunicorn %s" % ver))
        out.append(G(pid, "Listening at: http://0.0.0.0:8000 (%d)" % pid))
        out.append(G(pid, "Using worker: uvicorn.workers.UvicornWorker"))
        wp = []
        for _ in range(r.randint(2, 4)):
            w = pid + r.randint(5, 40)
            wp.append(w)
            out.append(G(pid, "Booting worker with pid: %d" % w))
        for w in wp:
            out.append(G(w, "Started server process [%d]" % w))
            out.append(G(w, "Waiting for application startup."))
            out.append(G(w, "Application startup complete."))
    else:
        out.append("$ uvicorn app.main:app --host 0.0.0.0 --port 8000")
        out += ["INFO:     Started server process [%d]" % r.randint(1, 9000), "INFO:     Waiting for application startup.",
                "INFO:     Application startup complete.", "INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)"]
    for _ in range(r.randint(4, 14)):
        p = access_path(c)
        m = "POST" if p == "/login" else "GET"
        code = r.choice(["200 OK", "200 OK", "200 OK", "201 Created", "204 No Content", "304 Not Modified", "307 Temporary Redirect"])
        if m == "GET" and code.startswith("201"):
            code = "200 OK"
        out.append('INFO:     %s:%d - "%s %s HTTP/1.1" %s' % (r.choice(["127.0.0.1", c.ip(), c.ip("172")]), r.randint(30000, 65000), m, p, code))
    return out


def nextjs(c):
    r = c.r
    ver = r.choice(["14.1.0", "14.0.4", "13.5.6", "14.2.3"])
    out = ["$ npm run dev", "> web@0.1.0 dev", "> next dev",
           "   ▲ Next.js %s" % ver,
           "   - Local:        http://localhost:3000"]
    if r.random() < 0.5:
        out.append("   - Network:      http://%s:3000" % c.ip("192"))
    if r.random() < 0.5:
        out.append("   - Environments: .env.local")
    out.append(" ✓ Ready in %.1fs" % r.uniform(1, 5))
    for pg in c.pick(["/", "/page", "/dashboard", "/api/health", "/login", "/settings", "/blog/[slug]", "/favicon.ico"], r.randint(2, 6)):
        if r.random() < 0.5:
            out.append(" ○ Compiling %s ..." % pg)
        ms = r.randint(80, 4000)
        out.append(" ✓ Compiled %s in %s (%d modules)" % (pg, ("%dms" % ms) if ms < 1000 else ("%.1fs" % (ms / 1000.0)), r.randint(40, 1200)))
        if r.random() < 0.6:
            out.append(" GET %s 200 in %dms" % (pg.replace("/[slug]", "/hello-world").replace("/page", "/"), r.randint(5, 2000)))
    return out


UA = ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Safari/605.1.15",
      "Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0", "curl/8.5.0", "kube-probe/1.28",
      "Prometheus/2.48.1", "python-requests/2.31.0", "Go-http-client/1.1"]


def nginx_access(c):
    r = c.r
    out = []
    if r.random() < 0.3:
        t = c.tick()
        ts = t.strftime("%Y/%m/%d %H:%M:%S")
        out += ["/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration",
                "/docker-entrypoint.sh: Looking for shell scripts in /docker-entrypoint.d/",
                "/docker-entrypoint.sh: Launching /docker-entrypoint.d/10-listen-on-ipv6-by-default.sh",
                "10-listen-on-ipv6-by-default.sh: info: Getting the checksum of /etc/nginx/conf.d/default.conf",
                "10-listen-on-ipv6-by-default.sh: info: Enabled listen on IPv6 in /etc/nginx/conf.d/default.conf",
                "/docker-entrypoint.sh: Launching /docker-entrypoint.d/20-envsubst-on-templates.sh",
                "/docker-entrypoint.sh: Configuration complete; ready for start up",
                '%s [notice] 1#1: using the "epoll" event method' % ts,
                "%s [notice] 1#1: nginx/1.25.%d" % (ts, r.randint(2, 4)),
                "%s [notice] 1#1: built by gcc 12.2.0 (Debian 12.2.0-14)" % ts,
                "%s [notice] 1#1: OS: Linux 5.15.0-%d-generic" % (ts, r.randint(80, 99)),
                "%s [notice] 1#1: getrlimit(RLIMIT_NOFILE): 1048576:1048576" % ts,
                "%s [notice] 1#1: start worker processes" % ts]
        for i in range(r.randint(2, 4)):
            out.append("%s [notice] 1#1: start worker process %d" % (ts, 29 + i))
    for _ in range(r.randint(8, 25)):
        t = c.tick(0.01, 20)
        k = r.random()
        if k < 0.05:
            p, code, size = r.choice(["/favicon.ico", "/robots.txt"]), 404, 153
        elif k < 0.15:
            p, code, size = r.choice(["/docs", "/admin", "/blog"]), 301, 169
        elif k < 0.3:
            p, code, size = access_path(c), 304, 0
        else:
            p, code, size = access_path(c), 200, r.randint(100, 90000)
        m = "POST" if p == "/login" and code == 200 else "GET"
        ref = r.choice(["-", "-", "https://example.com/", "https://www.google.com/"])
        out.append('%s - - [%s] "%s %s HTTP/1.1" %d %d "%s" "%s"' % (c.ip("pub"), clf(t), m, p, code, size, ref, r.choice(UA)))
    return out


def nginx_conf(c):
    r = c.r
    return ["$ nginx -t",
            "nginx: the configuration file /etc/nginx/nginx.conf syntax is ok",
            "nginx: configuration file /etc/nginx/nginx.conf test is successful",
            "$ nginx -T | head -20",
            "# configuration file /etc/nginx/nginx.conf:",
            "user  nginx;",
            "worker_processes  auto;",
            "error_log  /var/log/nginx/error.log %s;" % r.choice(["notice", "warn"]),
            "pid        /var/run/nginx.pid;",
            "events {",
            "    worker_connections  1024;",
            "}",
            "http {",
            "    include       /etc/nginx/mime.types;",
            "    default_type  application/octet-stream;",
            "    access_log  /var/log/nginx/access.log  main;",
            "    sendfile        on;",
            "    keepalive_timeout  %d;" % r.choice([65, 75, 30]),
            "    proxy_read_timeout %ds;" % r.choice([60, 120]),
            "    include /etc/nginx/conf.d/*.conf;",
            "}"]


def curl_v(c):
    r = c.r
    host = r.choice(["localhost:8080", "api.example.com", "127.0.0.1:8000", "web.internal.acme.net"])
    p = r.choice(["/health", "/api/v1/status", "/readyz", "/api/errors/summary"])
    ip = "127.0.0.1" if host.startswith(("localhost", "127")) else c.ip()
    return ["$ curl -sv http://%s%s" % (host, p),
            "*   Trying %s:%s..." % (ip, host.split(":")[1] if ":" in host else "80"),
            "* Connected to %s (%s) port %s" % (host.split(":")[0], ip, host.split(":")[1] if ":" in host else "80"),
            "> GET %s HTTP/1.1" % p,
            "> Host: " + host,
            "> User-Agent: curl/8.5.0",
            "> Accept: */*",
            "< HTTP/1.1 200 OK",
            "< Content-Type: application/json",
            "< Content-Length: %d" % r.randint(15, 200),
            "< Connection: keep-alive",
            "< Keep-Alive: timeout=5",
            "* Connection #0 to host %s left intact" % host.split(":")[0],
            '{"status":"ok","errors":0,"uptime_seconds":%d}' % r.randint(10, 900000) if "errors" in p else '{"status":"UP"}']


def postgres(c):
    r = c.r
    ver = r.choice([("16.1", "16.1-1.pgdg120+1"), ("15.5", "15.5-1.pgdg120+1"), ("14.10", "14.10-1.pgdg120+1")])

    def P(pid, msg):
        t = c.tick(0.001, 0.5)
        return "%s.%03d UTC [%d] LOG:  %s" % (ymd_hms(t), t.microsecond // 1000, pid, msg)

    out = []
    if r.random() < 0.6:
        out.append("PostgreSQL Database directory appears to contain a database; Skipping initialization")
        out.append(P(1, "starting PostgreSQL %s (Debian %s) on x86_64-pc-linux-gnu, compiled by gcc (Debian 12.2.0-14) 12.2.0, 64-bit" % ver))
        out.append(P(1, 'listening on IPv4 address "0.0.0.0", port 5432'))
        out.append(P(1, 'listening on IPv6 address "::", port 5432'))
        out.append(P(1, 'listening on Unix socket "/var/run/postgresql/.s.PGSQL.5432"'))
        w = r.randint(26, 30)
        t0 = c.t - datetime.timedelta(minutes=r.randint(1, 300))
        out.append(P(w, "database system was shut down at %s UTC" % ymd_hms(t0)))
        out.append(P(1, "database system is ready to accept connections"))
    for _ in range(r.randint(1, 3)):
        c.jump(300, 900)
        cp = r.randint(26, 30)
        b = r.randint(3, 9000)
        wr, sy = r.uniform(0.1, 60), r.uniform(0.001, 0.05)
        out.append(P(cp, "checkpoint starting: time"))
        out.append(P(cp, "checkpoint complete: wrote %d buffers (%.1f%%); 0 WAL file(s) added, 0 removed, %d recycled; write=%.3f s, sync=%.3f s, total=%.3f s; sync files=%d, longest=0.00%d s, average=0.001 s; distance=%d kB, estimate=%d kB"
                     % (b, b / 163.84, r.randint(0, 3), wr, sy, wr + sy + r.uniform(0.001, 0.05), r.randint(2, 90), r.randint(1, 9), b * 8, b * 8 + r.randint(0, 900))))
    return out


def redis(c):
    r = c.r
    ver = r.choice(["7.2.3", "7.2.4", "7.0.15", "6.2.14"])

    def R(pid, role, ch, msg):
        t = c.tick(0.0005, 0.05)
        return "%d:%s %02d %s %d %s.%03d %s %s" % (pid, role, t.day, MONTHS[t.month - 1], t.year, t.strftime("%H:%M:%S"), t.microsecond // 1000, ch, msg)

    out = [R(1, "C", "*", "oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo"),
           R(1, "C", "*", "Redis version=%s, bits=64, commit=00000000, modified=0, pid=1, just started" % ver),
           R(1, "C", "*", "Configuration loaded"),
           R(1, "M", "*", "monotonic clock: POSIX clock_gettime"),
           R(1, "M", "*", "Running mode=standalone, port=6379."),
           R(1, "M", "*", "Server initialized")]
    if r.random() < 0.6:
        keys = r.randint(0, 90000)
        out += [R(1, "M", "*", "Loading RDB produced by version %s" % ver),
                R(1, "M", "*", "RDB age %d seconds" % r.randint(2, 9000)),
                R(1, "M", "*", "RDB memory usage when created %.2f Mb" % r.uniform(0.8, 400)),
                R(1, "M", "*", "Done loading RDB, keys loaded: %d, keys expired: 0." % keys),
                R(1, "M", "*", "DB loaded from disk: %.3f seconds" % r.uniform(0, 2))]
    out.append(R(1, "M", "*", "Ready to accept connections tcp"))
    for _ in range(r.randint(1, 3)):
        c.jump(60, 3600)
        ch = r.randint(20, 99)
        out += [R(1, "M", "*", "%d changes in %d seconds. Saving..." % (r.choice([1, 100, 10000]), r.choice([3600, 300, 60]))),
                R(1, "M", "*", "Background saving started by pid %d" % ch),
                R(ch, "C", "*", "DB saved on disk"),
                R(ch, "C", "*", "Fork CoW for RDB: current %d MB, peak %d MB, average %d MB" % (0, r.randint(0, 2), 0)),
                R(1, "M", "*", "Background saving terminated with success")]
    return out


def kafka(c):
    r = c.r

    def K(msg, cls):
        t = c.tick(0.001, 0.3)
        return "[%s,%03d] INFO %s (%s)" % (ymd_hms(t), t.microsecond // 1000, msg, cls)

    bid = r.randint(0, 3)
    out = [K("Registered kafka:type=kafka.Log4jController MBean", "kafka.utils.Log4jControllerRegistration$")]
    if r.random() < 0.6:
        out.append(K("KafkaConfig values:", "kafka.server.KafkaConfig"))
        cfg = ["advertised.listeners = PLAINTEXT://kafka-%d:9092" % bid, "auto.create.topics.enable = true", "broker.id = %d" % bid,
               "connections.max.idle.ms = 600000", "controlled.shutdown.enable = true", "controlled.shutdown.max.retries = 3",
               "controlled.shutdown.retry.backoff.ms = 5000", "default.replication.factor = %d" % r.choice([1, 3]),
               "group.initial.rebalance.delay.ms = 3000", "log.dirs = /var/lib/kafka/data", "log.retention.check.interval.ms = 300000",
               "log.retention.hours = %d" % r.choice([168, 72, 24]), "log.segment.bytes = 1073741824", "num.partitions = %d" % r.choice([1, 3, 6]),
               "offsets.topic.replication.factor = %d" % r.choice([1, 3]), "replica.socket.timeout.ms = 30000",
               "request.timeout.ms = 30000", "unclean.leader.election.enable = false", "zookeeper.session.timeout.ms = 18000"]
        for x in cfg:
            if r.random() < 0.75:
                out.append("\t" + x)
    out.append(K("starting", "kafka.server.KafkaServer"))
    out.append(K("Connecting to zookeeper on zookeeper:2181", "kafka.server.KafkaServer"))
    out.append(K("[ZooKeeperClient Kafka server] Connected.", "kafka.zookeeper.ZooKeeperClient"))
    out.append(K("Loading logs from log dirs ArraySeq(/var/lib/kafka/data)", "kafka.log.LogManager"))
    out.append(K("Loaded %d logs in %dms." % (r.randint(0, 80), r.randint(5, 900)), "kafka.log.LogManager"))
    out.append(K("Awaiting socket connections on 0.0.0.0:9092.", "kafka.network.DataPlaneAcceptor"))
    out.append(K("[KafkaServer id=%d] started" % bid, "kafka.server.KafkaServer"))
    for _ in range(r.randint(1, 4)):
        topic = r.choice(["orders", "payments", "events", "clicks", "audit"])
        p = r.randint(0, 5)
        out.append(K("Created log for partition %s-%d in /var/lib/kafka/data/%s-%d with properties {}" % (topic, p, topic, p), "kafka.log.LogManager"))
        out.append(K("[Partition %s-%d broker=%d] Log loaded for partition %s-%d with initial high watermark 0" % (topic, p, bid, topic, p), "kafka.cluster.Partition"))
    if r.random() < 0.5:
        g = r.choice(["order-service", "analytics", "billing-consumer"])
        out.append(K("[GroupCoordinator %d]: Preparing to rebalance group %s in state PreparingRebalance with old generation 0 (__consumer_offsets-%d) (reason: Adding new member)" % (bid, g, r.randint(0, 49)), "kafka.coordinator.group.GroupCoordinator"))
        out.append(K("[GroupCoordinator %d]: Stabilized group %s generation 1 (__consumer_offsets-%d) with 1 members" % (bid, g, r.randint(0, 49)), "kafka.coordinator.group.GroupCoordinator"))
    return out


def elastic(c):
    r = c.r
    node = "es%02d" % r.randint(1, 3)
    ver = r.choice(["8.11.3", "8.12.0", "7.17.16"])

    def E(logger, msg):
        t = c.tick(0.01, 0.8)
        return '{"@timestamp":"%s", "log.level": "INFO", "message":"%s", "log.logger":"%s","elasticsearch.node.name":"%s"}' % (iso_ms(t), msg, logger, node)

    out = [E("org.elasticsearch.node.Node", "version[%s], pid[%d], build[docker/%s], OS[Linux/5.15.0/amd64]" % (ver, r.randint(7, 90), c.hexs(10))),
           E("org.elasticsearch.node.Node", "JVM home [/usr/share/elasticsearch/jdk], using bundled JDK [true]"),
           E("org.elasticsearch.plugins.PluginsService", "loaded module [x-pack-security]"),
           E("org.elasticsearch.plugins.PluginsService", "loaded module [repository-s3]"),
           E("org.elasticsearch.env.NodeEnvironment", "using [1] data paths, mounts [[/ (overlay)]], net usable_space [%dgb]" % r.randint(20, 900)),
           E("org.elasticsearch.transport.TransportService", "publish_address {%s:9300}, bound_addresses {[::]:9300}" % c.ip("172")),
           E("org.elasticsearch.http.AbstractHttpServerTransport", "publish_address {%s:9200}, bound_addresses {[::]:9200}" % c.ip("172")),
           E("org.elasticsearch.node.Node", "started {%s}{%s}" % (node, c.word(22))),
           E("org.elasticsearch.cluster.routing.allocation.AllocationService", "current.health=\\\"GREEN\\\" previous.health=\\\"YELLOW\\\" reason=\\\"shards started [[logs-%s][0]]\\\"" % c.t.strftime("%Y.%m.%d"))]
    return out


def mongo(c):
    r = c.r

    def M(comp, ident, ctx, msg, attr):
        t = c.tick(0.001, 0.3)
        return '{"t":{"$date":"%s"},"s":"I",  "c":"%s", "id":%d,   "ctx":"%s","msg":"%s","attr":%s}' % (iso_ms(t, "+00:00"), comp, ident, ctx, msg, attr)

    out = [M("NETWORK", 4915701, "main", "Initialized wire specification", '{"spec":{"incomingExternalClient":{"minWireVersion":0,"maxWireVersion":21}}}'),
           M("CONTROL", 4615611, "initandlisten", "MongoDB starting", '{"pid":1,"port":27017,"dbPath":"/data/db","architecture":"64-bit","host":"%s"}' % c.hexs(12)),
           M("CONTROL", 23403, "initandlisten", "Build Info", '{"buildInfo":{"version":"%s","gitVersion":"%s"}}' % (r.choice(["7.0.4", "6.0.12"]), c.hexs(40))),
           M("STORAGE", 22315, "initandlisten", "Opening WiredTiger", '{"config":"create,cache_size=%dM,session_max=33000"}' % r.randint(256, 8000)),
           M("STORAGE", 4795906, "initandlisten", "WiredTiger opened", '{"durationMillis":%d}' % r.randint(100, 2000)),
           M("NETWORK", 23015, "listener", "Listening on", '{"address":"0.0.0.0"}'),
           M("NETWORK", 23016, "listener", "Waiting for connections", '{"port":27017,"ssl":"off"}')]
    for _ in range(r.randint(1, 4)):
        n = r.randint(1, 40)
        out.append(M("NETWORK", 22943, "listener", "Connection accepted", '{"remote":"%s:%d","connectionId":%d,"connectionCount":%d}' % (c.ip("172"), r.randint(30000, 60000), n, r.randint(1, 12))))
    return out


def iplink(c):
    r = c.r
    out = ["$ ip -s link show eth0",
           "2: eth0@if%d: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP mode DEFAULT group default" % r.randint(5, 90),
           "    link/ether 02:42:ac:%02x:00:%02x brd ff:ff:ff:ff:ff:ff link-netnsid 0" % (r.randint(16, 31), r.randint(2, 20)),
           "    RX:  bytes packets errors dropped  missed   mcast",
           "    %10d %7d      0       0       0       0" % (r.randint(10 ** 6, 10 ** 9), r.randint(1000, 900000)),
           "    TX:  bytes packets errors dropped carrier collsns",
           "    %10d %7d      0       0       0       0" % (r.randint(10 ** 6, 10 ** 9), r.randint(1000, 900000))]
    return out


# ---------------------------------------------------------------------------------------------

FILES = [
    ("docker.log", 1, datetime.datetime(2024, 1, 8, 9, 12, 3),
     [(docker_classic, 3), (docker_buildkit, 3), (docker_pull, 4), (docker_compose_up, 4), (docker_ps, 3), (docker_push, 2),
      (docker_compose_config, 3), (docker_run, 4)]),
    ("kubectl.log", 2, datetime.datetime(2024, 2, 12, 14, 2, 41),
     [(kube_get_pods, 5), (kube_get_deploy, 3), (kube_get_svc, 2), (kube_get_nodes, 2), (kube_get_ingress, 1), (kube_apply, 4),
      (kube_rollout, 3), (kube_describe, 2), (kube_yaml, 1), (helm, 3), (terraform, 3)]),
    ("gpu.log", 3, datetime.datetime(2024, 3, 1, 10, 0, 0),
     [(nvidia_smi, 5), (smi_list, 3), (smi_query, 2), (smi_q_ecc, 1), (nvcc, 3), (device_query, 1), (torch_prints, 5),
      (collect_env, 2), (dcgm_diag, 1), (gpu_burn, 1), (compute_sanitizer, 1)]),
    ("ml.log", 4, datetime.datetime(2024, 3, 1, 10, 0, 0),
     [(tf_startup, 3), (keras_fit, 3), (torch_loop, 3), (hf_trainer, 3), (vllm_serve, 3), (lightning, 3), (ml_misc, 3), (xgboost, 2)]),
    ("servers.log", 5, datetime.datetime(2024, 1, 5, 10, 0, 0),
     [(spring, 3), (uvicorn, 4), (nextjs, 3), (nginx_access, 5), (nginx_conf, 1), (curl_v, 2), (postgres, 3), (redis, 3),
      (kafka, 2), (elastic, 2), (mongo, 2), (iplink, 1)]),
]


def build(seed, start, gens):
    c = Ctx(SEED * 10 + seed, start)
    target = c.r.randint(1900, 2200)
    funcs = [g for g, _ in gens]
    weights = [w for _, w in gens]
    out = []
    while len(out) < target:
        c.jump(20, 5400)
        block = c.r.choices(funcs, weights)[0](c)
        block = [l.rstrip() for l in block if l.strip()]
        if len(out) + len(block) > MAX_LINES:
            if len(out) >= MIN_LINES:
                break
            continue
        out.extend(block)
    for l in out:
        if len(l.encode("utf-8")) > MAX_BYTES or "\r" in l or "\n" in l:
            raise SystemExit("bad line (%d bytes): %r" % (len(l.encode("utf-8")), l))
    return out


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: ops.py OUTDIR\n")
        return 2
    outdir = argv[1]
    os.makedirs(outdir, exist_ok=True)
    for name, seed, start, gens in FILES:
        lines = build(seed, start, gens)
        with open(os.path.join(outdir, name), "w", encoding="utf-8", newline="\n") as f:
            f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
