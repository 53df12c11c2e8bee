#!/usr/bin/env python3
"""Deterministic generator of ordinary, non-failing developer-tool log output.

This is a "benign corpus": no line reports a real failure, but a few percent
of lines carry error-ish words the way real successful logs do ("0 errors",
"Compiling thiserror v1.0.50", "found 0 vulnerabilities"). It is used to
catch error regexes that are too broad.

Usage: python3 bench/benign_corpus/dev.py OUTDIR

Writes pip.log, npm.log, compile.log, tests.log, git.log and ci.log, each
with 2,000-2,300 non-blank lines. Stdlib only, fixed seeds, no network: two
runs produce byte-identical files.
"""
import datetime
import os
import random
import re
import sys

SEED = 7301
LO, HI = 2000, 2300  # non-blank lines per file
MAX_BYTES = 300
TABS_OK = {"tests.log", "git.log", "ci.log"}  # go test and git status print tabs

ORGS = ["acme", "globex", "initech", "hooli", "northwind", "contoso",
        "umbrella-labs", "octo-org", "wayne-ent", "tyrell"]
PROJECTS = ["api", "web", "billing-service", "inventory", "auth-gateway",
            "data-pipeline", "dashboard", "cli-tools", "notifier",
            "search-indexer", "payments", "ledger", "scheduler", "edge-proxy",
            "docs-site", "mobile-bff", "reports"]
PEOPLE = [("Jane Doe", "jane@example.com"), ("Arjun Mehta", "arjun.mehta@example.org"),
          ("Li Wei", "li.wei@example.com"), ("Sofia Rossi", "sofia@rossi.dev"),
          ("Tomasz Nowak", "tnowak@example.net"), ("Amara Okafor", "amara.okafor@example.com"),
          ("dependabot[bot]", "49699333+dependabot[bot]@users.noreply.github.com"),
          ("Kenji Sato", "kenji@example.jp"), ("Maria Garcia", "mgarcia@example.com")]
B62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def hexs(r, n):
    return "%0*x" % (n, r.getrandbits(4 * n))


def b62(r, n):
    return "".join(r.choice(B62) for _ in range(n))


def root(r, org, proj):
    return r.choice([f"/home/runner/work/{proj}/{proj}", f"/builds/{org}/{proj}",
                     "/app", "/src", f"/workspace/{proj}", f"/home/dev/code/{proj}"])


def kb_str(kb):
    if kb >= 1000:
        return f"{kb / 1000:.1f} MB"
    return f"{int(kb)} kB"


def proj(r):
    return r.choice(ORGS), r.choice(PROJECTS)


# --------------------------------------------------------------------- pip

PY = [
    ("requests", "2.31.0", "p"), ("urllib3", "2.1.0", "p"), ("certifi", "2023.11.17", "p"),
    ("charset-normalizer", "3.3.2", "b"), ("idna", "3.6", "p"), ("numpy", "1.26.2", "b"),
    ("pandas", "2.1.4", "b"), ("python-dateutil", "2.8.2", "p"), ("pytz", "2023.3.post1", "p"),
    ("tzdata", "2023.4", "p"), ("six", "1.16.0", "p"), ("flask", "3.0.0", "p"),
    ("werkzeug", "3.0.1", "p"), ("jinja2", "3.1.2", "p"), ("markupsafe", "2.1.3", "b"),
    ("itsdangerous", "2.1.2", "p"), ("click", "8.1.7", "p"), ("blinker", "1.7.0", "p"),
    ("pytest", "7.4.3", "p"), ("pluggy", "1.3.0", "p"), ("iniconfig", "2.0.0", "p"),
    ("packaging", "23.2", "p"), ("exceptiongroup", "1.2.0", "p"), ("tomli", "2.0.1", "p"),
    ("attrs", "23.1.0", "p"), ("pydantic", "2.5.2", "p"), ("pydantic-core", "2.14.5", "b"),
    ("annotated-types", "0.6.0", "p"), ("typing-extensions", "4.9.0", "p"),
    ("fastapi", "0.105.0", "p"), ("starlette", "0.27.0", "p"), ("anyio", "4.1.0", "p"),
    ("sniffio", "1.3.0", "p"), ("uvicorn", "0.24.0.post1", "p"), ("h11", "0.14.0", "p"),
    ("httpx", "0.25.2", "p"), ("httpcore", "1.0.2", "p"), ("sqlalchemy", "2.0.23", "b"),
    ("greenlet", "3.0.2", "b"), ("alembic", "1.13.0", "p"), ("mako", "1.3.0", "p"),
    ("pyyaml", "6.0.1", "b"), ("rich", "13.7.0", "p"), ("pygments", "2.17.2", "p"),
    ("markdown-it-py", "3.0.0", "p"), ("mdurl", "0.1.2", "p"), ("boto3", "1.34.2", "p"),
    ("botocore", "1.34.2", "p"), ("s3transfer", "0.9.0", "p"), ("jmespath", "1.0.1", "p"),
    ("django", "5.0", "p"), ("asgiref", "3.7.2", "p"), ("sqlparse", "0.4.4", "p"),
    ("scipy", "1.11.4", "b"), ("matplotlib", "3.8.2", "b"), ("pillow", "10.1.0", "b"),
    ("pyparsing", "3.1.1", "p"), ("kiwisolver", "1.4.5", "b"), ("fonttools", "4.46.0", "b"),
    ("cycler", "0.12.1", "p"), ("contourpy", "1.2.0", "b"), ("wheel", "0.42.0", "p"),
    ("black", "23.12.0", "b"), ("mypy-extensions", "1.0.0", "p"), ("pathspec", "0.12.1", "p"),
    ("platformdirs", "4.1.0", "p"), ("coverage", "7.3.3", "b"), ("pytest-cov", "4.1.0", "p"),
    ("pytest-timeout", "2.2.0", "p"), ("pytest-rerunfailures", "13.0", "p"),
    ("async-timeout", "4.0.3", "p"), ("tenacity", "8.2.3", "p"), ("cryptography", "41.0.7", "b"),
    ("cffi", "1.16.0", "b"), ("pycparser", "2.21", "p"), ("psycopg2-binary", "2.9.9", "b"),
    ("redis", "5.0.1", "p"), ("celery", "5.3.6", "p"), ("kombu", "5.3.4", "p"),
    ("vine", "5.1.0", "p"), ("amqp", "5.2.0", "p"), ("billiard", "4.2.0", "p"),
    ("gunicorn", "21.2.0", "p"), ("docopt", "0.6.2", "s"), ("termcolor", "2.4.0", "p"),
    ("future", "0.18.3", "s"), ("jsmin", "3.0.1", "s"), ("sgmllib3k", "1.0.0", "s"),
    ("pyjwt", "2.8.0", "p"), ("orjson", "3.9.10", "b"), ("structlog", "23.2.0", "p"),
    ("python-dotenv", "1.0.0", "p"), ("filelock", "3.13.1", "p"), ("fsspec", "2023.12.2", "p"),
    ("tqdm", "4.66.1", "p"), ("protobuf", "4.25.1", "b"), ("grpcio", "1.60.0", "b"),
    ("lxml", "4.9.3", "b"), ("beautifulsoup4", "4.12.2", "p"), ("soupsieve", "2.5", "p"),
    ("mypy", "1.7.1", "b"), ("ruff", "0.1.8", "b"), ("isort", "5.13.2", "p"),
    ("flake8", "6.1.0", "p"), ("pyflakes", "3.1.0", "p"), ("pycodestyle", "2.11.1", "p"),
    ("mccabe", "0.7.0", "p"), ("cachetools", "5.3.2", "p"), ("google-auth", "2.25.2", "p"),
]
PYV = ["3.8", "3.9", "3.10", "3.11", "3.12"]
ROOT_WARNING = ("WARNING: Running pip as the 'root' user can result in broken permissions "
                "and conflicting behaviour with the system package manager. It is "
                "recommended to use a virtual environment instead: "
                "https://pip.pypa.io/warnings/venv")


def site_dir(r, py):
    return r.choice([f"/usr/local/lib/python{py}/site-packages",
                     f"./.venv/lib/python{py}/site-packages",
                     f"/opt/venv/lib/python{py}/site-packages",
                     f"/home/dev/.local/lib/python{py}/site-packages",
                     f"/opt/hostedtoolcache/Python/{py}.7/x64/lib/python{py}/site-packages"])


def wheel_name(n, v, kind, py):
    n = n.replace("-", "_")
    if kind == "b":
        t = "cp" + py.replace(".", "")
        return f"{n}-{v}-{t}-{t}-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"
    return f"{n}-{v}-py3-none-any.whl"


def pip_bar(r, kb):
    done = f"{kb / 1000:.1f}/{kb / 1000:.1f} MB" if kb >= 1000 else f"{kb:.1f}/{kb:.1f} kB"
    return f"     {'━' * 40} {done} {r.uniform(1.5, 60):.1f} MB/s eta 0:00:00"


def pip_tail(r, L, py):
    if r.random() < 0.35:
        L.append(ROOT_WARNING)
    if r.random() < 0.3:
        old = r.choice(["23.0.1", "23.2.1", "23.3.1", "24.0"])
        new = r.choice(["23.3.2", "24.0", "24.1.2", "24.2"])
        if old != new:
            L += ["", f"[notice] A new release of pip is available: {old} -> {new}",
                  "[notice] To update, run: pip install --upgrade pip"]


def pip_install(r):
    py = r.choice(PYV)
    site = site_dir(r, py)
    picks = r.sample(PY, r.randint(3, 9))
    req = r.random() < 0.55
    reqf = r.choice(["requirements.txt", "requirements-dev.txt", "requirements/base.txt",
                     "requirements/test.txt"])
    L = []
    if req:
        L.append(r.choice([f"$ pip install -r {reqf}", f"$ python -m pip install -r {reqf}",
                           f"$ pip install --no-cache-dir -r {reqf}",
                           f"$ python{py} -m pip install --upgrade -r {reqf}"]))
    else:
        L.append("$ pip install " + " ".join(n for n, _, _ in picks))
    if r.random() < 0.2:
        L.append(r.choice(["Looking in indexes: https://pypi.org/simple, https://download.pytorch.org/whl/cpu",
                           "Looking in indexes: https://pypi.org/simple, https://pypi.internal.example.com/simple",
                           "Looking in links: /wheels"]))
    new, sdists, sizes = [], [], {}
    line = 1
    for n, v, k in picks:
        line += r.randint(1, 3)
        if r.random() < 0.2:
            L.append(f"Requirement already satisfied: {n} in {site} ({v})")
            continue
        spec = r.choice([f"=={v}", f">={v.split('.')[0]}.0", f"~={v.rsplit('.', 1)[0]}", ""]) if req else ""
        src = f" (from -r {reqf} (line {line}))" if req else ""
        L.append(f"Collecting {n}{spec}{src}")
        cached = r.random() < 0.35
        verb = "Using cached" if cached else "Downloading"
        if k == "s":
            kb = r.uniform(5, 900)
            L.append(f"  {verb} {n}-{v}.tar.gz ({kb_str(kb)})")
            if r.random() < 0.5:
                L.append("  Preparing metadata (setup.py) ... done")
            else:
                L += ["  Installing build dependencies ... done",
                      "  Getting requirements to build wheel ... done",
                      "  Preparing metadata (pyproject.toml) ... done"]
            sdists.append((n, v))
        else:
            fn = wheel_name(n, v, k, py)
            kb = sizes[n] = r.uniform(2000, 40000) if k == "b" else r.uniform(8, 900)
            style = r.random()
            if style < 0.4:
                L.append(f"  {verb} {fn} ({kb_str(kb)})")
                if not cached and r.random() < 0.5:
                    L.append(pip_bar(r, kb))
            elif style < 0.7:
                L.append(f"  {verb} {fn}.metadata ({r.uniform(1.5, 9):.1f} kB)")
            else:
                L.append(f"  Obtaining dependency information for {n}{spec or '=='+v} from "
                         f"https://files.pythonhosted.org/packages/{hexs(r, 2)}/{hexs(r, 2)}/{hexs(r, 60)}/{fn}.metadata")
                L.append(f"  {verb} {fn}.metadata ({r.uniform(1.5, 9):.1f} kB)")
        new.append((n, v, k))
    if r.random() < 0.3:
        L.append(r.choice([
            f"Requirement already satisfied: exceptiongroup>=1.0.0rc8 in {site} (from pytest==7.4.3) (1.2.0)",
            f"Requirement already satisfied: exceptiongroup>=1.0.2 in {site} (from anyio<5,>=3.4.0->httpx) (1.2.0)",
            f"Requirement already satisfied: async-timeout>=4.0.2 in {site} (from redis==5.0.1) (4.0.3)",
            f"Collecting exceptiongroup>=1.0.0rc8 (from pytest)",
            f"Requirement already satisfied: pytest-timeout in {site} (2.2.0)"]))
    for _ in range(r.randint(0, 3)):
        n, v, _k = r.choice(PY)
        parent = r.choice(picks)
        L.append(f"Requirement already satisfied: {n}>={v.split('.')[0]}.0 in {site} "
                 f"(from {parent[0]}=={parent[1]}) ({v})")
    for n, v, k in new:
        if k != "s" and r.random() < 0.5:
            L.append(f"Downloading {wheel_name(n, v, k, py)} ({kb_str(sizes[n])})")
    if sdists:
        L.append("Building wheels for collected packages: " + ", ".join(n for n, _ in sdists))
        for n, v in sdists:
            how = r.choice(["setup.py", "pyproject.toml"])
            L.append(f"  Building wheel for {n} ({how}) ... done")
            L.append(f"  Created wheel for {n}: filename={n}-{v}-py3-none-any.whl "
                     f"size={r.randint(4000, 400000)} sha256={hexs(r, 64)}")
            L.append(f"  Stored in directory: /root/.cache/pip/wheels/{hexs(r, 2)}/{hexs(r, 2)}/{hexs(r, 2)}/{hexs(r, 56)}")
        L.append("Successfully built " + " ".join(n for n, _ in sdists))
    if not new:
        pip_tail(r, L, py)
        return L
    L.append("Installing collected packages: " + ", ".join(n for n, _, _ in new))
    if r.random() < 0.2:
        n, v, _k = new[-1]
        old = v.split(".")[0] + ".0.0"
        L += [f"  Attempting uninstall: {n}", f"    Found existing installation: {n} {old}",
              f"    Uninstalling {n}-{old}:", f"      Successfully uninstalled {n}-{old}"]
    L.append("Successfully installed " + " ".join(f"{n}-{v}" for n, v, _ in sorted(new)))
    pip_tail(r, L, py)
    return L


def pip_editable(r):
    org, p = proj(r)
    py = r.choice(PYV)
    v = f"0.{r.randint(1, 9)}.{r.randint(0, 20)}"
    L = [r.choice(["$ pip install -e .", "$ pip install -e '.[dev]'", "$ python -m pip install --editable ."]),
         f"Obtaining file://{root(r, org, p)}",
         "  Installing build dependencies ... done",
         "  Checking if build backend supports build_editable ... done",
         "  Getting requirements to build editable ... done",
         "  Preparing editable metadata (pyproject.toml) ... done"]
    site = site_dir(r, py)
    deps = r.sample(PY, r.randint(2, 6))
    for n, dv, _ in deps:
        L.append(f"Requirement already satisfied: {n}>={dv.split('.')[0]}.0 in {site} (from {p}=={v}) ({dv})")
    L += [f"Building wheels for collected packages: {p}",
          f"  Building editable for {p} (pyproject.toml) ... done",
          f"  Created wheel for {p}: filename={p.replace('-', '_')}-{v}-0.editable-py3-none-any.whl "
          f"size={r.randint(2500, 9000)} sha256={hexs(r, 64)}",
          f"  Stored in directory: /tmp/pip-ephem-wheel-cache-{b62(r, 8).lower()}/wheels/"
          f"{hexs(r, 2)}/{hexs(r, 2)}/{hexs(r, 2)}/{hexs(r, 56)}",
          f"Successfully built {p}", f"Installing collected packages: {p}"]
    if r.random() < 0.4:
        L += [f"  Attempting uninstall: {p}", f"    Found existing installation: {p} {v}",
              f"    Uninstalling {p}-{v}:", f"      Successfully uninstalled {p}-{v}"]
    L.append(f"Successfully installed {p}-{v}")
    pip_tail(r, L, py)
    return L


def pip_upgrade(r):
    py = r.choice(PYV)
    site = site_dir(r, py)
    old = r.choice(["22.3.1", "23.0.1", "23.2.1"])
    new = r.choice(["23.3.2", "24.0", "24.2"])
    L = ["$ python -m pip install --upgrade pip setuptools wheel",
         f"Requirement already satisfied: pip in {site} ({old})",
         f"Requirement already satisfied: setuptools in {site} (69.0.2)",
         "Collecting pip",
         f"  Downloading pip-{new}-py3-none-any.whl.metadata (3.{r.randint(4, 7)} kB)",
         "Collecting wheel",
         "  Using cached wheel-0.42.0-py3-none-any.whl.metadata (2.2 kB)",
         f"Downloading pip-{new}-py3-none-any.whl (2.{r.randint(1, 3)} MB)",
         "Using cached wheel-0.42.0-py3-none-any.whl (65 kB)",
         "Installing collected packages: wheel, pip",
         "  Attempting uninstall: pip",
         f"    Found existing installation: pip {old}",
         f"    Uninstalling pip-{old}:",
         f"      Successfully uninstalled pip-{old}",
         f"Successfully installed pip-{new} wheel-0.42.0"]
    if r.random() < 0.5:
        L.append(ROOT_WARNING)
    return L


def pip_list(r):
    pk = sorted(set((n, v) for n, v, _ in r.sample(PY, r.randint(8, 24))))
    if r.random() < 0.5:
        w = max(max(len(n) for n, _ in pk), 7)
        vw = max(max(len(v) for _, v in pk), 7)
        L = ["$ pip list", f"{'Package':<{w}} Version", "-" * w + " " + "-" * vw]
        L += [f"{n:<{w}} {v}" for n, v in pk]
    else:
        L = [r.choice(["$ pip freeze", "$ pip freeze --all", "$ python -m pip freeze"])]
        L += [f"{n}=={v}" for n, v in pk]
    if r.random() < 0.3:
        L += ["", "[notice] A new release of pip is available: 23.3.1 -> 24.0",
              "[notice] To update, run: pip install --upgrade pip"]
    return L


def pip_misc(r):
    py = r.choice(PYV)
    c = r.random()
    if c < 0.35:
        return ["$ pip check", "No broken requirements found."]
    if c < 0.6:
        return ["$ pip --version", f"pip {r.choice(['23.3.1', '24.0'])} from {site_dir(r, py)}/pip (python {py})"]
    if c < 0.8:
        return ["$ pip cache purge", f"Files removed: {r.randint(40, 2000)}"]
    n, v, _ = r.choice(PY)
    return [f"$ pip uninstall -y {n}", f"Found existing installation: {n} {v}",
            f"Uninstalling {n}-{v}:", f"  Successfully uninstalled {n}-{v}"]


# --------------------------------------------------------------------- npm

NPM = [("react", "18.2.0"), ("react-dom", "18.2.0"), ("scheduler", "0.23.0"),
       ("loose-envify", "1.4.0"), ("js-tokens", "4.0.0"), ("vite", "5.0.10"),
       ("esbuild", "0.19.10"), ("rollup", "4.9.1"), ("postcss", "8.4.32"), ("nanoid", "3.3.7"),
       ("picocolors", "1.0.0"), ("source-map-js", "1.0.2"), ("typescript", "5.3.3"),
       ("@types/node", "20.10.5"), ("@types/react", "18.2.45"), ("csstype", "3.1.3"),
       ("lodash", "4.17.21"), ("axios", "1.6.2"), ("follow-redirects", "1.15.3"),
       ("form-data", "4.0.0"), ("express", "4.18.2"), ("body-parser", "1.20.1"),
       ("debug", "4.3.4"), ("ms", "2.1.2"), ("chalk", "4.1.2"), ("commander", "11.1.0"),
       ("semver", "7.5.4"), ("lru-cache", "10.1.0"), ("error-stack-parser", "2.1.4"),
       ("stackframe", "1.3.4"), ("source-map-support", "0.5.21"), ("eslint", "8.56.0"),
       ("prettier", "3.1.1"), ("jest", "29.7.0"), ("vitest", "1.1.0"), ("zod", "3.22.4"),
       ("dotenv", "16.3.1"), ("next", "14.0.4"), ("tailwindcss", "3.4.0"),
       ("autoprefixer", "10.4.16"), ("webpack", "5.89.0"), ("webpack-cli", "5.1.4"),
       ("babel-loader", "9.1.3"), ("@babel/core", "7.23.6"), ("clsx", "2.0.0"),
       ("date-fns", "3.0.6"), ("uuid", "9.0.1"), ("http-errors", "2.0.0"),
       ("on-finished", "2.4.1"), ("statuses", "2.0.1"), ("ws", "8.15.1"), ("yargs", "17.7.2"),
       ("cross-env", "7.0.3"), ("concurrently", "8.2.2"), ("nodemon", "3.0.2"),
       ("ts-node", "10.9.2"), ("tslib", "2.6.2"), ("rxjs", "7.8.1"), ("@vitejs/plugin-react", "4.2.1")]
DEPRECATED = [
    ("inflight", "1.0.6", "This module is not supported, and leaks memory. Do not use it. Check out "
     "lru-cache if you want a good and tested way to coalesce async requests by a key value, which "
     "is much more comprehensive and powerful."),
    ("glob", "7.2.3", "Glob versions prior to v9 are no longer supported"),
    ("rimraf", "3.0.2", "Rimraf versions prior to v4 are no longer supported"),
    ("@humanwhocodes/config-array", "0.11.14", "Use @eslint/config-array instead"),
    ("@humanwhocodes/object-schema", "2.0.3", "Use @eslint/object-schema instead"),
    ("sourcemap-codec", "1.4.8", "Please use @jridgewell/sourcemap-codec instead"),
    ("abab", "2.0.6", "Use your platform's native atob() and btoa() methods instead"),
    ("domexception", "4.0.0", "Use your platform's native DOMException instead"),
    ("w3c-hr-time", "1.0.2", "Use your platform's native performance.now() and performance.timeOrigin."),
    ("request", "2.88.2", "request has been deprecated, see https://github.com/request/request/issues/3142"),
    ("har-validator", "5.1.5", "this library is no longer supported"),
    ("querystring", "0.2.0", "The querystring API is considered Legacy. new code should use the "
     "URLSearchParams API instead."),
    ("@babel/plugin-proposal-class-properties", "7.18.6", "This proposal has been merged to the "
     "ECMAScript standard and thus this plugin is no longer maintained. Please use "
     "@babel/plugin-transform-class-properties instead."),
]
NODE_APPS = ["app", "web", "frontend", "client", "admin-ui", "docs", "landing", "dashboard", "storefront"]


def npm_summary(r, L, verb_added=True):
    n = r.randint(40, 1500)
    t = r.choice([f"{r.randint(2, 59)}s", f"{r.randint(2, 59)}s", f"{r.randint(1, 3)}m"])
    c = r.random()
    if c >= 0.6 and c < 0.8:
        t = r.choice([f"{r.randint(300, 999)}ms", f"{r.randint(1, 4)}s"])
    if c < 0.6 and verb_added:
        L.append(f"added {n} packages, and audited {n + 1} packages in {t}")
    elif c < 0.8:
        L.append(f"up to date, audited {n} packages in {t}")
    else:
        L.append(f"added {r.randint(1, 9)} packages, removed {r.randint(1, 4)} packages, changed "
                 f"{r.randint(1, 12)} packages, and audited {n} packages in {t}")
    if r.random() < 0.8:
        L += ["", f"{r.randint(5, 200)} packages are looking for funding", "  run `npm fund` for details"]
    L += ["", "found 0 vulnerabilities"]


def npm_install(r):
    L = [r.choice(["$ npm ci", "$ npm install", "$ npm ci --no-audit --prefer-offline", "$ npm i"])]
    lower = r.random() < 0.7
    if r.random() < 0.5:
        for n, v, msg in r.sample(DEPRECATED, r.randint(1, 3)):
            L.append(f"npm {'warn' if lower else 'WARN'} deprecated {n}@{v}: {msg}")
    L.append("")
    npm_summary(r, L)
    return L


def npm_add(r):
    pk = r.sample(NPM, r.randint(1, 3))
    dev = r.random() < 0.5
    L = ["$ npm install " + ("--save-dev " if dev else "") + " ".join(f"{n}@{v}" for n, v in pk), ""]
    n = r.randint(1, 60)
    L.append(f"added {n} packages, and audited {r.randint(200, 1400)} packages in {r.randint(1, 20)}s")
    L += ["", f"{r.randint(5, 200)} packages are looking for funding", "  run `npm fund` for details",
          "", "found 0 vulnerabilities"]
    return L


def npm_http(r):
    L = ["$ npm ci --loglevel http"]
    for n, v in r.sample(NPM, r.randint(6, 16)):
        base = n.split("/")[-1]
        L.append(f"npm http fetch GET 200 https://registry.npmjs.org/{n}/-/{base}-{v}.tgz "
                 f"{r.randint(3, 400)}ms" + r.choice([" (cache hit)", " (cache revalidated)", ""]))
    L.append("")
    npm_summary(r, L)
    return L


def yarn_classic(r):
    L = ["$ yarn install --frozen-lockfile", "yarn install v1.22.19", "[1/4] Resolving packages..."]
    if r.random() < 0.25:
        L += ["success Already up-to-date.", f"Done in {r.uniform(0.2, 1.5):.2f}s."]
        return L
    L.append("[2/4] Fetching packages...")
    if r.random() < 0.4:
        L += ['info fsevents@2.3.3: The platform "linux" is incompatible with this module.',
              'info "fsevents@2.3.3" is an optional dependency and failed compatibility check. '
              'Excluding it from installation.']
    L += ["[3/4] Linking dependencies...", "[4/4] Building fresh packages..."]
    if r.random() < 0.5:
        L.append("success Saved lockfile.")
    L.append(f"Done in {r.uniform(3, 90):.2f}s.")
    return L


def yarn_berry(r):
    L = ["$ yarn install --immutable"]
    def ms():
        s = r.randint(0, 9)
        return f"{s}s {r.randint(1, 999)}ms" if s else f"{r.randint(1, 999)}ms"
    L += ["➤ YN0000: ┌ Resolution step", f"➤ YN0000: └ Completed in {ms()}",
          "➤ YN0000: ┌ Fetch step"]
    if r.random() < 0.6:
        L.append(f"➤ YN0013: │ {r.randint(1, 40)} packages were already cached, {r.randint(1, 300)} had to be fetched")
    L += [f"➤ YN0000: └ Completed in {ms()}", "➤ YN0000: ┌ Link step"]
    if r.random() < 0.4:
        L.append("➤ YN0007: │ esbuild@npm:0.19.10 must be built because it never has been before or the last one failed")
    L += [f"➤ YN0000: └ Completed in {ms()}", f"➤ YN0000: Done in {ms()}"]
    return L


def pnpm_install(r):
    L = ["$ pnpm install --frozen-lockfile", "Lockfile is up to date, resolution step is skipped"]
    n = r.randint(50, 900)
    L += [f"Progress: resolved 1, reused 0, downloaded 0, added 0", f"Packages: +{n}", "+" * 60]
    reused = r.randint(0, n)
    L.append(f"Progress: resolved {n}, reused {reused}, downloaded {n - reused}, added {n}, done")
    deps = r.sample(NPM, r.randint(2, 8))
    half = len(deps) // 2
    L += ["", "dependencies:"] + [f"+ {a} {b}" for a, b in deps[:half] or deps[:1]]
    if deps[half:]:
        L += ["", "devDependencies:"] + [f"+ {a} {b}" for a, b in deps[half:]]
    L += ["", f"Done in {r.uniform(1, 40):.1f}s"]
    return L


def script_header(r, app, script, cmd):
    v = f"{r.randint(0, 3)}.{r.randint(0, 12)}.{r.randint(0, 9)}"
    return ["", f"> {app}@{v} {script}", f"> {cmd}", ""]


def vite_build(r):
    app = r.choice(NODE_APPS)
    L = [r.choice(["$ npm run build", "$ pnpm build", "$ yarn build"])]
    L += script_header(r, app, "build", r.choice(["vite build", "tsc && vite build", "tsc -b && vite build"]))
    L += [f"vite v{r.choice(['4.5.1', '5.0.10', '5.2.8', '5.4.2'])} building for production...",
          "transforming...", f"✓ {r.randint(30, 2500)} modules transformed.",
          "rendering chunks...", "computing gzip size..."]
    files = [("dist/index.html", r.uniform(0.3, 1.2), r.uniform(0.2, 0.6))]
    for base in ["index"] + r.sample(["vendor", "react", "router", "charts", "editor", "utils", "ErrorBoundary", "Settings"], r.randint(0, 4)):
        for ext in (["css", "js"] if base == "index" else ["js"]):
            sz = r.uniform(0.5, 600)
            files.append((f"dist/assets/{base}-{b62(r, 8)}.{ext}", sz, sz * r.uniform(0.25, 0.4)))
    w = max(len(f) for f, _, _ in files) + 2
    for f, s, g in files:
        L.append(f"{f:<{w}}{s:>7.2f} kB │ gzip: {g:>6.2f} kB")
    L.append(f"✓ built in {r.uniform(0.8, 30):.2f}s")
    return L


def next_build(r):
    app = r.choice(NODE_APPS)
    L = ["$ npm run build"] + script_header(r, app, "build", "next build")
    L += [f"   ▲ Next.js {r.choice(['13.5.6', '14.0.4', '14.1.0', '14.2.5'])}"]
    if r.random() < 0.5:
        L.append("   - Environments: .env.production")
    L += ["", "   Creating an optimized production build ...", " ✓ Compiled successfully",
          " ✓ Linting and checking validity of types"]
    pages = ["/"] + r.sample(["/about", "/blog", "/blog/[slug]", "/pricing", "/login", "/settings",
                              "/dashboard", "/docs/[...slug]", "/api/health", "/api/auth/[...nextauth]",
                              "/contact", "/terms"], r.randint(2, 7)) + ["/_not-found"]
    L += [" ✓ Collecting page data", f" ✓ Generating static pages ({len(pages)}/{len(pages)})",
          " ✓ Collecting build traces", " ✓ Finalizing page optimization", "",
          "Route (app)                              Size     First Load JS"]
    shared = r.uniform(80, 95)
    for i, p in enumerate(pages):
        tree = "┌" if i == 0 else ("└" if i == len(pages) - 1 else "├")
        sym = "λ" if "api" in p or "[" in p else "○"
        if "api" in p:
            sz, fl = "0 B", "0 B"
        else:
            s = r.uniform(0.1, 30)
            sz = f"{s:.2f} kB" if s >= 1 else f"{int(s * 1000)} B"
            fl = f"{shared + s:.1f} kB"
        L.append(f"{tree} {sym} {p}".ljust(41) + f"{sz:<9}{fl:>11}")
    L += [f"+ First Load JS shared by all".ljust(41) + f"{shared:.1f} kB",
          f"  ├ chunks/{r.randint(100, 999)}-{hexs(r, 16)}.js".ljust(41) + f"{r.uniform(25, 30):.1f} kB",
          f"  ├ chunks/fd9d1056-{hexs(r, 16)}.js".ljust(41) + f"{r.uniform(50, 54):.1f} kB",
          "  └ other shared chunks (total)".ljust(41) + f"{r.uniform(1.5, 3):.2f} kB",
          "", "", "○  (Static)   prerendered as static content",
          "λ  (Dynamic)  server-rendered on demand using Node.js"]
    return L


def webpack_build(r):
    app = r.choice(NODE_APPS)
    L = ["$ npm run build"] + script_header(r, app, "build", "webpack --mode production")
    main = r.uniform(40, 900)
    L.append(f"asset main.{hexs(r, 20)}.js {main:.0f} KiB [emitted] [immutable] [minimized] (name: main) 1 related asset")
    for _ in range(r.randint(0, 3)):
        L.append(f"asset {r.randint(100, 999)}.{hexs(r, 20)}.js {r.uniform(1, 90):.1f} KiB [emitted] [immutable] [minimized]")
    L.append(f"asset index.html {r.randint(300, 900)} bytes [emitted]")
    L.append(f"runtime modules {r.uniform(1, 9):.2f} KiB {r.randint(3, 12)} modules")
    L.append(f"cacheable modules {r.uniform(100, 2000):.0f} KiB")
    for m in r.sample(["./src/index.js", "./src/App.jsx", "./src/api/client.js", "./src/utils/errors.js",
                       "./node_modules/react/index.js", "./node_modules/react-dom/client.js",
                       "./src/styles.css", "./src/components/Header.jsx"], r.randint(2, 5)):
        L.append(f"  {m} {r.uniform(0.2, 130):.1f} KiB [built] [code generated]")
    L.append(f"webpack 5.{r.randint(80, 94)}.0 compiled successfully in {r.randint(800, 40000)} ms")
    return L


def cra_build(r):
    app = r.choice(NODE_APPS)
    L = ["$ npm run build"] + script_header(r, app, "build", "react-scripts build")
    L += ["Creating an optimized production build...", "Compiled successfully.", "",
          "File sizes after gzip:", ""]
    L.append(f"  {r.uniform(40, 200):.2f} kB  build/static/js/main.{hexs(r, 8)}.js")
    for _ in range(r.randint(0, 2)):
        L.append(f"  {r.uniform(1, 5):.2f} kB   build/static/js/{r.randint(100, 999)}.{hexs(r, 8)}.chunk.js")
    L.append(f"  {r.uniform(0.4, 5):.2f} kB   build/static/css/main.{hexs(r, 8)}.css")
    L += ["", "The project was built assuming it is hosted at /.",
          "You can control this with the homepage field in your package.json.", "",
          "The build folder is ready to be deployed.", "You may serve it with a static server:", "",
          "  npm install -g serve", "  serve -s build", "",
          "Find out more about deployment here:", "", "  https://cra.link/deployment"]
    return L


def lint_scripts(r):
    app = r.choice(NODE_APPS)
    c = r.random()
    if c < 0.3:
        return ["$ npm run typecheck"] + script_header(r, app, "typecheck", "tsc --noEmit")
    if c < 0.55:
        return ["$ npm run lint"] + script_header(r, app, "lint", "eslint . --ext .ts,.tsx --max-warnings 0")
    if c < 0.75:
        return ["$ npm run lint"] + script_header(r, app, "lint", "next lint") + ["✔ No ESLint warnings or errors"]
    L = ["$ npm run format:check"] + script_header(r, app, "format:check", "prettier --check .")
    return L + ["Checking formatting...", "All matched files use Prettier code style!"]


def esbuild_rollup(r):
    app = r.choice(NODE_APPS)
    if r.random() < 0.5:
        L = ["$ npm run build"] + script_header(r, app, "build", "esbuild src/index.ts --bundle --minify --platform=node --outfile=dist/index.js")
        L += [f"  dist/index.js  {r.uniform(2, 900):.1f}kb", "", f"⚡ Done in {r.randint(5, 400)}ms"]
        return L
    L = ["$ npm run build"] + script_header(r, app, "build", "rollup -c")
    L += ["", "src/index.ts → dist/index.cjs, dist/index.mjs...",
          f"created dist/index.cjs, dist/index.mjs in {r.uniform(0.3, 9):.1f}s"]
    return L


# ----------------------------------------------------------------- compile

C_SRC = ["main", "util/strings", "util/hash", "net/socket", "net/http_client", "core/parser",
         "core/lexer", "core/buffer", "core/tokens", "core/error_codes", "io/file_reader", "io/writer",
         "crypto/sha256", "config/loader", "log/logger", "db/connection", "db/query",
         "server/router", "server/handler", "common/status", "cache/lru", "util/base64",
         "net/dns", "storage/page", "storage/btree", "util/format", "app/options",
         "json/value", "json/reader", "thread_pool", "timer", "cli/args"]
CMAKE_TARGETS = ["core", "net", "util", "app", "server", "tests", "bench", "proto", "storage"]


def cmake_configure(r, src, build, cxx=True):
    comp = r.choice([("GNU", "12.2.0", "/usr/bin/cc", "/usr/bin/c++"),
                     ("GNU", "11.4.0", "/usr/bin/cc", "/usr/bin/c++"),
                     ("GNU", "13.2.0", "/usr/bin/gcc-13", "/usr/bin/g++-13"),
                     ("Clang", "15.0.7", "/usr/bin/clang", "/usr/bin/clang++"),
                     ("Clang", "17.0.6", "/usr/lib/llvm-17/bin/clang", "/usr/lib/llvm-17/bin/clang++")])
    gen = r.choice(["Ninja", "Unix Makefiles"])
    L = [f"$ cmake -S {src} -B {build} -G \"{gen}\" -DCMAKE_BUILD_TYPE={r.choice(['Release', 'RelWithDebInfo', 'Debug'])}"]
    langs = [("C", comp[2])] + ([("CXX", comp[3])] if cxx else [])
    for lang, _ in langs:
        L.append(f"-- The {lang} compiler identification is {comp[0]} {comp[1]}")
    for lang, path in langs:
        L += [f"-- Detecting {lang} compiler ABI info", f"-- Detecting {lang} compiler ABI info - done",
              f"-- Check for working {lang} compiler: {path} - skipped",
              f"-- Detecting {lang} compile features", f"-- Detecting {lang} compile features - done"]
    if r.random() < 0.7:
        L += ["-- Performing Test CMAKE_HAVE_LIBC_PTHREAD", "-- Performing Test CMAKE_HAVE_LIBC_PTHREAD - Success",
              "-- Found Threads: TRUE"]
    finds = [
        '-- Found OpenSSL: /usr/lib/x86_64-linux-gnu/libcrypto.so (found version "3.0.11")',
        '-- Found ZLIB: /usr/lib/x86_64-linux-gnu/libz.so (found version "1.2.13")',
        '-- Found PkgConfig: /usr/bin/pkg-config (found version "1.8.1")',
        '-- Found CURL: /usr/lib/x86_64-linux-gnu/libcurl.so (found version "7.88.1")',
        '-- Found Python3: /usr/bin/python3.11 (found version "3.11.2") found components: Interpreter',
        '-- Found Boost: /usr/lib/x86_64-linux-gnu/cmake/Boost-1.74.0/BoostConfig.cmake (found version "1.74.0")',
        '-- Found GTest: /usr/lib/x86_64-linux-gnu/cmake/GTest/GTestConfig.cmake (found version "1.12.1")',
        '-- Found Protobuf: /usr/lib/x86_64-linux-gnu/libprotobuf.so (found version "3.21.12")',
        "-- Performing Test COMPILER_SUPPORTS_WERROR_FORMAT_SECURITY",
        "-- Performing Test COMPILER_SUPPORTS_WERROR_FORMAT_SECURITY - Success",
        "-- Looking for strerror_r",
        "-- Looking for strerror_r - found",
        "-- Using ccache: /usr/bin/ccache",
        "-- Enabling -Werror=return-type -Werror=format-security",
    ]
    for i in sorted(r.sample(range(len(finds)), r.randint(2, 5))):
        L.append(finds[i])
    a, b = r.uniform(0.2, 6), r.uniform(0.0, 0.3)
    L += [f"-- Configuring done ({a:.1f}s)", f"-- Generating done ({b:.1f}s)",
          f"-- Build files have been written to: {build}"]
    return L, gen


def cmake_build(r):
    org, p = proj(r)
    src = root(r, org, p)
    build = src + "/build"
    L, gen = cmake_configure(r, src, build)
    targets = r.sample(CMAKE_TARGETS, r.randint(1, 3))
    objs = []
    for t in targets:
        for s in r.sample(C_SRC, r.randint(3, 9)):
            objs.append(("CXX", f"src/CMakeFiles/{t}.dir/{s}.cpp.o", t))
    L.append(f"$ cmake --build {build} --parallel {r.choice([2, 4, 8, 16])}")
    if gen == "Ninja":
        total = len(objs) + len(targets)
        i = 0
        for lang, o, t in objs:
            i += 1
            L.append(f"[{i}/{total}] Building {lang} object {o}")
            if i in (len(objs) // 2, len(objs)):
                pass
        for t in targets:
            i += 1
            kind = r.choice([f"Linking CXX static library src/lib{t}.a", f"Linking CXX executable bin/{t}",
                             f"Linking CXX shared library src/lib{t}.so"])
            L.append(f"[{i}/{total}] {kind}")
    else:
        done = 0
        total = len(objs) + len(targets)
        for t in targets:
            if r.random() < 0.5:
                L.append(f"Consolidate compiler generated dependencies of target {t}")
            tobjs = [o for o in objs if o[2] == t]
            for lang, o, _ in tobjs:
                done += 1
                L.append(f"[{100 * done // total:3d}%] Building {lang} object {o}")
            done += 1
            pct = 100 * done // total
            L.append(f"[{pct:3d}%] Linking CXX {r.choice(['static library lib' + t + '.a', 'executable ' + t])}")
            L.append(f"[{pct:3d}%] Built target {t}")
    return L


def gcc_make(r):
    org, p = proj(r)
    cc = r.choice(["gcc", "cc", "clang", "g++", "clang++"])
    cxx = cc.endswith("++")
    ext = "cpp" if cxx else "c"
    std = r.choice(["-std=c++17", "-std=c++20"]) if cxx else r.choice(["-std=c11", "-std=gnu99", "-std=c17"])
    flags = [std, r.choice(["-O2", "-O3", "-O0 -g", "-Os"]), "-Wall", "-Wextra"]
    if r.random() < 0.35:
        flags.append(r.choice(["-Werror=format-security", "-Werror=implicit-function-declaration",
                               "-Werror=return-type"]))
    flags += r.sample(["-Wpedantic", "-fstack-protector-strong", "-D_FORTIFY_SOURCE=2", "-fPIC", "-pipe",
                       "-Wshadow", "-DNDEBUG", "-fno-omit-frame-pointer", "-pthread"], r.randint(1, 4))
    fl = " ".join(flags)
    L = ["$ make -j" + str(r.choice([2, 4, 8]))]
    sub = r.random() < 0.4
    if sub:
        L.append(f"make[1]: Entering directory '{root(r, org, p)}/src'")
    objs = []
    for s in r.sample(C_SRC, r.randint(4, 12)):
        o = "build/" + s.replace("/", "_") + ".o"
        objs.append(o)
        L.append(f"{cc} {fl} -Iinclude -I../third_party -c src/{s}.{ext} -o {o}")
    libs = " ".join(r.sample(["-lssl", "-lcrypto", "-lz", "-lpthread", "-lm", "-ldl", "-lcurl"], r.randint(1, 3)))
    out = r.choice(["bin/" + p, p, "build/" + p])
    link = f"{cc} -o {out} " + " ".join(objs) + f" {libs}"
    if len(link) > 260:
        link = f"{cc} -o {out} build/*.o {libs}"
    L.append(link)
    if sub:
        L.append(f"make[1]: Leaving directory '{root(r, org, p)}/src'")
    if r.random() < 0.3:
        L.append(f"make: Nothing to be done for 'all'.")
    return L


def autotools(r):
    L = ["$ ./configure --prefix=/usr/local"]
    checks = ["checking for a BSD-compatible install... /usr/bin/install -c",
              "checking whether build environment is sane... yes",
              "checking for a thread-safe mkdir -p... /usr/bin/mkdir -p",
              "checking for gawk... no", "checking for mawk... mawk",
              "checking whether make sets $(MAKE)... yes", "checking for gcc... gcc",
              "checking whether the C compiler works... yes",
              "checking for C compiler default output file name... a.out",
              "checking for suffix of executables...", "checking whether we are cross compiling... no",
              "checking for suffix of object files... o",
              "checking whether the compiler supports GNU C... yes",
              "checking for stdio.h... yes", "checking for stdlib.h... yes", "checking for string.h... yes",
              "checking for unistd.h... yes", "checking for sys/types.h... yes",
              "checking for strerror... yes", "checking for strerror_r... yes",
              "checking whether strerror_r returns char *... yes",
              "checking for library containing clock_gettime... none required",
              "checking for pthread_create in -lpthread... yes", "checking for zlib.h... yes",
              "checking for inflate in -lz... yes", "checking for pkg-config... /usr/bin/pkg-config",
              "checking pkg-config is at least version 0.9.0... yes",
              "checking for OPENSSL... yes", "checking size of long... 8"]
    idx = sorted(r.sample(range(len(checks)), r.randint(12, 22)))
    L += [checks[i] for i in idx]
    L += ["checking that generated files are newer than configure... done",
          "configure: creating ./config.status", "config.status: creating Makefile",
          "config.status: creating src/Makefile", "config.status: creating config.h",
          "config.status: executing depfiles commands"]
    return L


CRATES = [("proc-macro2", "1.0.70"), ("unicode-ident", "1.0.12"), ("quote", "1.0.33"), ("syn", "2.0.41"),
          ("serde", "1.0.193"), ("serde_derive", "1.0.193"), ("serde_json", "1.0.108"), ("itoa", "1.0.10"),
          ("ryu", "1.0.16"), ("libc", "0.2.151"), ("cfg-if", "1.0.0"), ("autocfg", "1.1.0"),
          ("once_cell", "1.19.0"), ("memchr", "2.6.4"), ("log", "0.4.20"), ("thiserror", "1.0.50"),
          ("thiserror-impl", "1.0.50"), ("anyhow", "1.0.76"), ("tokio", "1.35.1"), ("tokio-macros", "2.2.0"),
          ("mio", "0.8.10"), ("pin-project-lite", "0.2.13"), ("bytes", "1.5.0"), ("futures-core", "0.3.29"),
          ("clap", "4.4.11"), ("clap_builder", "4.4.11"), ("clap_derive", "4.4.7"), ("clap_lex", "0.6.0"),
          ("strsim", "0.10.0"), ("anstyle", "1.0.4"), ("regex", "1.10.2"), ("regex-syntax", "0.8.2"),
          ("regex-automata", "0.4.3"), ("aho-corasick", "1.1.2"), ("tracing", "0.1.40"),
          ("tracing-core", "0.1.32"), ("tracing-subscriber", "0.3.18"), ("smallvec", "1.11.2"),
          ("hashbrown", "0.14.3"), ("indexmap", "2.1.0"), ("equivalent", "1.0.1"), ("rand", "0.8.5"),
          ("rand_core", "0.6.4"), ("getrandom", "0.2.11"), ("hyper", "1.1.0"), ("http", "1.0.0"),
          ("url", "2.5.0"), ("percent-encoding", "2.3.1"), ("chrono", "0.4.31"), ("num-traits", "0.2.17"),
          ("parking_lot", "0.12.1"), ("lock_api", "0.4.11"), ("scopeguard", "1.2.0"), ("socket2", "0.5.5"),
          ("either", "1.9.0"), ("itertools", "0.12.0"), ("displaydoc", "0.2.4"), ("eyre", "0.6.11")]


def cargo_build(r):
    org, p = proj(r)
    release = r.random() < 0.5
    check = r.random() < 0.2
    L = ["$ cargo " + ("check" if check else "build" + (" --release" if release else "")) + r.choice(["", " --locked", " --all-targets"])]
    crates = r.sample(CRATES, r.randint(6, 30))
    if r.random() < 0.4:
        L.append("    Updating crates.io index")
        dl = r.sample(crates, min(len(crates), r.randint(2, 8)))
        for n, v in dl:
            L.append(f"  Downloaded {n} v{v}")
        L.append(f"  Downloaded {len(dl)} crates ({r.uniform(0.2, 9):.1f} MB) in {r.uniform(0.3, 5):.2f}s")
    verb = "    Checking" if check else "   Compiling"
    for n, v in crates:
        L.append(f"{verb} {n} v{v}")
    L.append(f"{verb} {p} v0.{r.randint(1, 9)}.{r.randint(0, 9)} ({root(r, org, p)})")
    secs = f"{r.uniform(0.5, 180):.2f}s"
    prof = "release" if release and not check else "dev"
    tags = "[optimized]" if prof == "release" else "[unoptimized + debuginfo]"
    if r.random() < 0.5:
        L.append(f"    Finished {prof} {tags} target(s) in {secs}")
    else:
        L.append(f"    Finished `{prof}` profile {tags} target(s) in {secs}")
    return L


GO_MODS = [("github.com/spf13/cobra", "v1.8.0"), ("github.com/spf13/pflag", "v1.0.5"),
           ("github.com/inconshreveable/mousetrap", "v1.1.0"), ("golang.org/x/sys", "v0.15.0"),
           ("golang.org/x/net", "v0.19.0"), ("golang.org/x/text", "v0.14.0"), ("golang.org/x/sync", "v0.5.0"),
           ("github.com/pkg/errors", "v0.9.1"), ("github.com/go-chi/chi/v5", "v5.0.11"),
           ("github.com/jackc/pgx/v5", "v5.5.1"), ("github.com/rs/zerolog", "v1.31.0"),
           ("google.golang.org/grpc", "v1.60.1"), ("google.golang.org/protobuf", "v1.31.0"),
           ("github.com/stretchr/testify", "v1.8.4"), ("github.com/davecgh/go-spew", "v1.1.1"),
           ("github.com/pmezard/go-difflib", "v1.0.0"), ("gopkg.in/yaml.v3", "v3.0.1"),
           ("github.com/google/uuid", "v1.5.0"), ("go.uber.org/zap", "v1.26.0"),
           ("go.uber.org/multierr", "v1.11.0"), ("github.com/hashicorp/go-multierror", "v1.1.1"),
           ("github.com/prometheus/client_golang", "v1.18.0"), ("github.com/cenkalti/backoff/v4", "v4.2.1"),
           ("github.com/mattn/go-isatty", "v0.0.20"), ("github.com/redis/go-redis/v9", "v9.3.1")]
GO_PKGS = ["cmd/server", "cmd/worker", "internal/config", "internal/handler", "internal/store",
           "internal/middleware", "internal/auth", "internal/apierrors", "pkg/log", "pkg/retry",
           "pkg/version", "internal/queue", "internal/metrics", "internal/cache"]


def go_build(r):
    org, p = proj(r)
    mod = f"github.com/{org}/{p}"
    L = []
    if r.random() < 0.5:
        L.append("$ go mod download")
        L += [f"go: downloading {m} {v}" for m, v in r.sample(GO_MODS, r.randint(2, 10))]
    verbose = r.random() < 0.6
    L.append(f"$ go build {'-v ' if verbose else ''}-o bin/{p} ./...")
    if verbose:
        L += [f"{mod}/{pk}" for pk in r.sample(GO_PKGS, r.randint(3, 9))]
    if r.random() < 0.4:
        L.append("$ go vet ./...")
    if r.random() < 0.3:
        L += ["$ go version", f"go version go1.{r.randint(20, 22)}.{r.randint(0, 9)} linux/amd64"]
    return L


def mvn_line(s=""):
    return ("[INFO] " + s) if s else "[INFO]"


def maven_build(r):
    org, p = proj(r)
    v = r.choice(["1.0-SNAPSHOT", "0.3.1-SNAPSHOT", "2.4.0", "1.12.0-SNAPSHOT"])
    L = [r.choice(["$ mvn -B package", "$ mvn -B -DskipTests package", "$ ./mvnw -B verify -DskipTests",
                   "$ mvn -B clean install -DskipTests"]), mvn_line("Scanning for projects...")]
    if r.random() < 0.4:
        for a in r.sample(["org/apache/maven/plugins/maven-surefire-plugin/3.2.2/maven-surefire-plugin-3.2.2.pom",
                           "org/apache/maven/plugins/maven-compiler-plugin/3.11.0/maven-compiler-plugin-3.11.0.jar",
                           "com/google/errorprone/error_prone_annotations/2.23.0/error_prone_annotations-2.23.0.pom",
                           "com/google/guava/guava/32.1.3-jre/guava-32.1.3-jre.jar",
                           "org/slf4j/slf4j-api/2.0.9/slf4j-api-2.0.9.jar",
                           "com/fasterxml/jackson/core/jackson-databind/2.16.0/jackson-databind-2.16.0.jar"], r.randint(1, 3)):
            url = f"https://repo.maven.apache.org/maven2/{a}"
            L.append(f"[INFO] Downloading from central: {url}")
            L.append(f"[INFO] Downloaded from central: {url} ({r.uniform(1, 900):.1f} kB at {r.randint(100, 9000)} kB/s)")
    art = f"com.{org.replace('-', '')}:{p}"
    L += [mvn_line(), mvn_line(f"{'-' * 20}< {art} >{'-' * 20}"), mvn_line(f"Building {p} {v}"),
          mvn_line("  from pom.xml"), mvn_line("--------------------------------[ jar ]---------------------------------"),
          mvn_line(), mvn_line(f"--- resources:3.3.1:resources (default-resources) @ {p} ---"),
          mvn_line(f"Copying {r.randint(1, 12)} resources from src/main/resources to target/classes"),
          mvn_line(), mvn_line(f"--- compiler:3.11.0:compile (default-compile) @ {p} ---"),
          mvn_line("Changes detected - recompiling the module! :source"),
          mvn_line(f"Compiling {r.randint(5, 400)} source files with javac [debug release 17] to target/classes"),
          mvn_line(), mvn_line(f"--- surefire:3.2.2:test (default-test) @ {p} ---"),
          mvn_line("Tests are skipped."), mvn_line(),
          mvn_line(f"--- jar:3.3.0:jar (default-jar) @ {p} ---"),
          mvn_line(f"Building jar: {root(r, org, p)}/target/{p}-{v}.jar"),
          mvn_line("-" * 72), mvn_line("BUILD SUCCESS"), mvn_line("-" * 72),
          mvn_line(f"Total time:  {r.uniform(2, 120):.3f} s"),
          mvn_line(f"Finished at: 2024-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}T{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}Z"),
          mvn_line("-" * 72)]
    return L


def gradle_build(r):
    mods = r.sample(["app", "core", "api", "lib", "service", "common"], r.randint(1, 3))
    L = [r.choice(["$ ./gradlew build", "$ ./gradlew build -x test", "$ ./gradlew assemble", "$ gradle build --no-daemon"])]
    if r.random() < 0.4:
        L += [f"Downloading https://services.gradle.org/distributions/gradle-8.{r.randint(2, 7)}-bin.zip",
              "............10%.............20%.............30%.............40%.............50%"
              ".............60%.............70%.............80%.............90%.............100%", "",
              "Welcome to Gradle 8.5!", ""]
    if r.random() < 0.5:
        L.append("Starting a Gradle Daemon (subsequent builds will be faster)")
    n = 0
    for m in mods:
        for t, suffix in [("compileJava", ""), ("processResources", r.choice(["", " NO-SOURCE"])),
                          ("classes", ""), ("jar", ""), ("compileTestJava", r.choice(["", " UP-TO-DATE"])),
                          ("test", r.choice(["", " UP-TO-DATE", " FROM-CACHE"])), ("check", ""), ("build", "")]:
            L.append(f"> Task :{m}:{t}{suffix}")
            n += 1
    if r.random() < 0.3:
        L += ["", "Deprecated Gradle features were used in this build, making it incompatible with Gradle 9.0.", "",
              "You can use '--warning-mode all' to show the individual deprecation warnings and determine if they come from your own scripts or plugins.", "",
              "For more on this, please refer to https://docs.gradle.org/8.5/userguide/command_line_interface.html#sec:command_line_warnings in the Gradle documentation."]
    ex = r.randint(1, n)
    L += ["", f"BUILD SUCCESSFUL in {r.randint(2, 200)}s", f"{n} actionable tasks: {ex} executed, {n - ex} up-to-date"]
    return L


def dotnet_build(r):
    org, p = proj(r)
    name = "".join(w.capitalize() for w in p.split("-"))
    projs = [name] + r.sample([name + ".Core", name + ".Data", name + ".Tests", name + ".Contracts"], r.randint(0, 2))
    base = r.choice(["/src", f"/home/runner/work/{p}/{p}", f"D:\\a\\{p}\\{p}"])
    sep = "\\" if base.startswith("D:") else "/"
    L = [r.choice(["$ dotnet build -c Release", "$ dotnet build --no-restore", "$ dotnet publish -c Release -o out"]),
         f"MSBuild version 17.{r.randint(7, 9)}.{r.randint(1, 9)}+{hexs(r, 9)} for .NET",
         "  Determining projects to restore..."]
    if r.random() < 0.4:
        L.append("  All projects are up-to-date for restore.")
    else:
        for pr in projs:
            L.append(f"  Restored {base}{sep}{pr}{sep}{pr}.csproj (in {r.randint(80, 3000)} ms).")
    for pr in projs:
        L.append(f"  {pr} -> {base}{sep}{pr}{sep}bin{sep}Release{sep}net8.0{sep}{pr}.dll")
    L += ["", "Build succeeded.", "    0 Warning(s)", "    0 Error(s)", "",
          f"Time Elapsed 00:00:{r.randint(1, 59):02d}.{r.randint(0, 99):02d}"]
    return L


def tsc_javac(r):
    c = r.random()
    if c < 0.4:
        return [r.choice(["$ npx tsc --noEmit", "$ npx tsc -p tsconfig.build.json", "$ tsc -b"])]
    if c < 0.7:
        return ["$ javac -d out -Xlint:all --release 17 $(find src/main/java -name '*.java')"]
    return [r.choice(["$ rustc --version", "$ gcc --version"]),
            r.choice(["rustc 1.74.1 (a28077b28 2023-12-04)", "gcc (Debian 12.2.0-14) 12.2.0"])]


# ------------------------------------------------------------------- tests

PY_TESTS = ["test_create_user", "test_list_users", "test_delete_user", "test_error_handling",
            "test_timeout_is_respected", "test_rejects_empty_name", "test_invalid_input_returns_400",
            "test_parse_empty", "test_parse_nested", "test_roundtrip", "test_retry_on_failure",
            "test_cache_hit", "test_cache_miss", "test_login", "test_logout", "test_refresh_token",
            "test_pagination", "test_sorting", "test_unicode", "test_not_found_returns_404",
            "test_healthcheck", "test_migrations", "test_config_defaults", "test_serialize",
            "test_logs_request_id", "test_handles_connection_reset", "test_slugify",
            "test_order_total", "test_discount_applied", "test_export_csv", "test_import_csv",
            "test_password_hashing", "test_email_normalized", "test_permissions", "test_search",
            "test_date_range", "test_default_locale", "test_upload_image", "test_render_template",
            "test_signup_flow", "test_webhook_signature", "test_settings_page", "test_admin_list",
            "test_feature_flag_off", "test_feature_flag_on", "test_batch_insert", "test_dedupe"]
PY_FILES = ["tests/test_api.py", "tests/test_models.py", "tests/test_utils.py", "tests/test_errors.py",
            "tests/test_auth.py", "tests/test_cli.py", "tests/unit/test_parser.py",
            "tests/unit/test_config.py", "tests/integration/test_db.py", "tests/test_retry.py",
            "tests/test_views.py", "tests/test_serializers.py", "tests/test_orders.py",
            "tests/test_billing.py", "tests/test_search.py", "tests/test_export.py", "tests/test_forms.py",
            "tests/unit/test_dates.py", "tests/unit/test_money.py", "tests/integration/test_api_flow.py",
            "tests/test_templates.py", "tests/test_permissions.py", "tests/test_signals.py"]


def pad80(left, right):
    return left + " " * max(1, 80 - len(left) - len(right)) + right


def banner(text, ch="="):
    return f" {text} ".center(80, ch) if text else ch * 80


def pytest_run(r):
    org, p = proj(r)
    py = r.choice(PYV)
    files = r.sample(PY_FILES, r.randint(2, 7))
    counts = [r.randint(2, 30) for _ in files]
    verbose = r.random() < 0.35
    if verbose:
        counts = [min(c, 12) for c in counts]
    total = sum(counts)
    L = [r.choice(["$ pytest", "$ python -m pytest -q", "$ pytest -v", "$ pytest --cov=app tests/"])]
    L += [banner("test session starts"),
          f"platform linux -- Python {py}.{r.randint(1, 9)}, pytest-{r.choice(['7.4.3', '7.4.4', '8.0.0', '8.2.2'])}, pluggy-1.{r.randint(3, 5)}.0",
          f"rootdir: {root(r, org, p)}", r.choice(["configfile: pyproject.toml", "configfile: pytest.ini", "configfile: setup.cfg"])]
    plugins = r.sample(["cov-4.1.0", "anyio-4.1.0", "timeout-2.2.0", "xdist-3.5.0", "asyncio-0.23.2",
                        "mock-3.12.0", "django-4.7.0", "randomly-3.15.0", "env-1.1.3",
                        "benchmark-4.0.0", "httpx-0.28.0", "Faker-22.0.0"], r.randint(0, 3))
    if plugins:
        L.append("plugins: " + ", ".join(plugins))
    if "timeout-2.2.0" in plugins and r.random() < 0.4:
        L += [f"timeout: {r.choice([10, 30, 60, 300])}.0s", "timeout method: signal", "timeout func_only: False"]
    skipped = r.choice([0, 0, 0, r.randint(1, 3)])
    L += [f"collected {total} items", ""]
    done = 0
    for f, c in zip(files, counts):
        if verbose:
            for name in r.sample(PY_TESTS, c) if c <= len(PY_TESTS) else PY_TESTS[:c]:
                done += 1
                L.append(pad80(f"{f}::{name} PASSED", f"[{100 * done // total:3d}%]"))
        else:
            done += c
            L.append(pad80(f"{f} {'.' * c}", f"[{100 * done // total:3d}%]"))
    L.append("")
    if "cov-4.1.0" in plugins:
        L += [f"---------- coverage: platform linux, python {py}.7-final-0 -----------",
              "Name                     Stmts   Miss  Cover", "-" * 44]
        ts = tm = 0
        for m in r.sample(["app/__init__.py", "app/api.py", "app/models.py", "app/errors.py", "app/db.py",
                           "app/config.py", "app/cli.py", "app/utils.py"], r.randint(3, 7)):
            s = r.randint(2, 300)
            mi = r.randint(0, s // 5)
            ts += s
            tm += mi
            L.append(f"{m:<24} {s:>5}  {mi:>5}  {100 * (s - mi) // s:>4}%")
        L += ["-" * 44, f"{'TOTAL':<24} {ts:>5}  {tm:>5}  {100 * (ts - tm) // ts:>4}%", ""]
    summ = f"{total - skipped} passed" + (f", {skipped} skipped" if skipped else "")
    L.append(banner(f"{summ} in {r.uniform(0.1, 90):.2f}s"))
    return L


def unittest_run(r):
    n = r.randint(5, 300)
    L = [r.choice(["$ python -m unittest discover -s tests", "$ python manage.py test"])]
    if "manage" in L[0]:
        L += ["Found %d test(s)." % n, "Creating test database for alias 'default'...",
              "System check identified no issues (0 silenced)."]
    L += ["." * min(n, 70), "-" * 70, f"Ran {n} tests in {r.uniform(0.01, 40):.3f}s", "", "OK"]
    if "manage" in L[0]:
        L.append("Destroying test database for alias 'default'...")
    return L


JS_TESTS = ["src/utils/format.test.ts", "src/components/Button.test.tsx", "src/api/client.test.ts",
            "src/hooks/useFetch.test.ts", "src/lib/errors.test.ts", "src/store/cart.test.ts",
            "src/pages/Home.test.tsx", "src/lib/parse.test.ts", "src/lib/retry.test.ts",
            "src/components/ErrorBoundary.test.tsx", "test/server.test.js", "test/routes.test.js",
            "src/components/Navbar.test.tsx", "src/components/Modal.test.tsx", "src/utils/dates.test.ts",
            "src/utils/money.test.ts", "src/store/user.test.ts", "src/lib/slug.test.ts", "src/lib/query.test.ts",
            "src/pages/Checkout.test.tsx", "src/hooks/useDebounce.test.ts", "test/auth.test.js"]
JS_CASES = ["renders without crashing", "formats currency", "handles error state", "retries on timeout",
            "returns cached value", "shows loading spinner", "calls onClick handler", "parses ISO dates",
            "rejects invalid payload", "matches snapshot", "throws on missing config", "renders the title",
            "sorts by name", "filters by status", "adds item to cart", "removes item from cart",
            "debounces input", "navigates to details", "uses default props", "computes totals",
            "toggles the menu", "persists to localStorage", "builds the query string", "escapes html"]


def jest_run(r):
    files = r.sample(JS_TESTS, r.randint(2, 8))
    L = [r.choice(["$ npm test", "$ npx jest --ci", "$ yarn test --coverage=false"])]
    if L[0] == "$ npm test":
        L += script_header(r, r.choice(NODE_APPS), "test", "jest")
    total = 0
    verbose = r.random() < 0.25
    for f in files:
        t = f" ({r.uniform(1, 9):.3f} s)" if r.random() < 0.3 else ""
        L.append(f" PASS  {f}{t}")
        k = r.randint(1, 8)
        total += k
        if verbose:
            for c in r.sample(JS_CASES, min(k, len(JS_CASES))):
                L.append(f"    ✓ {c} ({r.randint(1, 80)} ms)")
    snaps = r.randint(0, 5)
    L += ["", f"Test Suites: {len(files)} passed, {len(files)} total", f"Tests:       {total} passed, {total} total",
          f"Snapshots:   {snaps} passed, {snaps} total" if snaps else "Snapshots:   0 total",
          f"Time:        {r.uniform(0.5, 40):.3f} s", "Ran all test suites."]
    return L


def vitest_run(r):
    org, p = proj(r)
    files = r.sample(JS_TESTS, r.randint(2, 8))
    L = ["$ npx vitest run", "", f" RUN  v{r.choice(['1.1.0', '1.6.0', '2.0.5'])} {root(r, org, p)}", ""]
    total = 0
    for f in files:
        k = r.randint(1, 20)
        total += k
        L.append(f" ✓ {f}  ({k} tests) {r.randint(2, 400)}ms")
    L += ["", f" Test Files  {len(files)} passed ({len(files)})", f"      Tests  {total} passed ({total})",
          f"   Start at  {r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}",
          f"   Duration  {r.uniform(0.4, 9):.2f}s (transform {r.randint(20, 900)}ms, setup 0ms, collect "
          f"{r.randint(20, 900)}ms, tests {r.randint(5, 900)}ms, environment 0ms, prepare {r.randint(50, 900)}ms)"]
    return L


def mocha_rspec(r):
    n = r.randint(5, 200)
    if r.random() < 0.5:
        L = ["$ npx mocha", ""]
        for s in r.sample(["UserService", "Router", "config", "parseArgs", "RateLimiter"], r.randint(1, 3)):
            L.append(f"  {s}")
            for c in r.sample(JS_CASES, r.randint(1, 4)):
                L.append(f"    ✔ {c}" + (f" ({r.randint(40, 300)}ms)" if r.random() < 0.2 else ""))
            L.append("")
        L += ["", f"  {n} passing ({r.randint(1, 900)}ms)"]
        return L
    L = ["$ bundle exec rspec", "." * min(n, 80), "",
         f"Finished in {r.uniform(0.1, 60):.2f} seconds (files took {r.uniform(0.3, 4):.2f} seconds to load)",
         f"{n} examples, 0 failures", "", f"Randomized with seed {r.randint(1000, 65535)}"]
    return L


GO_TESTS = ["TestParse", "TestParseEmpty", "TestHandlerOK", "TestErrorWrapping", "TestRetryBackoff",
            "TestGracefulShutdown", "TestStoreGet", "TestStorePut", "TestConfigDefaults", "TestMiddlewareAuth",
            "TestRouter", "TestListUsers", "TestCreateOrder", "TestEncodeJSON", "TestDecodeJSON",
            "TestQueuePushPop", "TestCacheEviction", "TestVersionString", "TestSlugify", "TestPagination"]


def go_test(r):
    org, p = proj(r)
    mod = f"github.com/{org}/{p}"
    L = [r.choice(["$ go test ./...", "$ go test -race ./...", "$ go test -cover ./...", "$ go test -v ./internal/...",
                   "$ go test -v -count=1 ./..."])]
    pkgs = r.sample(GO_PKGS, r.randint(3, 9))
    for pk in pkgs:
        if pk.startswith("cmd/") or pk == "pkg/version":
            L.append(f"?   \t{mod}/{pk}\t[no test files]")
            continue
        if "-v" in L[0]:
            for t in r.sample(GO_TESTS, r.randint(1, 6)):
                L += [f"=== RUN   {t}", f"--- PASS: {t} ({r.uniform(0, 0.5):.2f}s)"]
            L.append("PASS")
        tail = r.choice([f"{r.uniform(0.002, 3):.3f}s", "(cached)"])
        if "-cover" in L[0]:
            tail += f"\tcoverage: {r.uniform(40, 100):.1f}% of statements"
        L.append(f"ok  \t{mod}/{pk}\t{tail}")
    return L


RUST_TESTS = ["parser::tests::parses_empty", "parser::tests::parses_nested", "error::tests::display_is_stable",
              "config::tests::defaults", "store::tests::roundtrip", "cli::tests::help_flag",
              "retry::tests::gives_up_after_max_attempts", "tests::it_works", "lexer::tests::idents",
              "lexer::tests::numbers", "lexer::tests::strings", "ast::tests::pretty_print",
              "store::tests::compaction", "cli::tests::version_flag", "format::tests::widths",
              "config::tests::env_override", "path::tests::normalize", "hash::tests::stable"]


def cargo_test(r):
    org, p = proj(r)
    L = ["$ cargo test", f"   Compiling {p} v0.{r.randint(1, 9)}.0 ({root(r, org, p)})",
         f"    Finished test [unoptimized + debuginfo] target(s) in {r.uniform(0.5, 60):.2f}s",
         f"     Running unittests src/lib.rs (target/debug/deps/{p.replace('-', '_')}-{hexs(r, 16)})", ""]
    tests = sorted(r.sample(RUST_TESTS, r.randint(3, 16)))
    L.append(f"running {len(tests)} tests")
    for t in tests:
        L.append(f"test {t} ... ok")
    L += ["", f"test result: ok. {len(tests)} passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in {r.uniform(0, 2):.2f}s"]
    if r.random() < 0.6:
        return L
    L += ["", f"   Doc-tests {p.replace('-', '_')}", ""]
    d = r.randint(0, 3)
    L.append(f"running {d} tests")
    for i in range(d):
        L.append(f"test src/lib.rs - {r.choice(['parse', 'Config', 'Client::new'])} (line {r.randint(10, 400)}) ... ok")
    L += ["", f"test result: ok. {d} passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in {r.uniform(0, 2):.2f}s"]
    return L


def ctest_run(r):
    org, p = proj(r)
    n = r.randint(3, 24)
    names = [f"{r.choice(['unit', 'test', 'it'])}_{r.choice(C_SRC).split('/')[-1]}" for _ in range(n)]
    L = [r.choice(["$ ctest --output-on-failure", "$ ctest -j8", "$ ctest --test-dir build"]),
         f"Test project {root(r, org, p)}/build"]
    w = len(str(n))
    for i, nm in enumerate(names, 1):
        L.append(f"      Start {i:>{w}}: {nm}")
        left = f"{i:>{w}}/{n} Test #{i:>{w}}: {nm} "
        L.append(left + "." * max(3, 50 - len(left)) + f"   Passed    {r.uniform(0, 3):.2f} sec")
    L += ["", f"100% tests passed, 0 tests failed out of {n}", "",
          f"Total Test time (real) = {r.uniform(0.1, 60):7.2f} sec"]
    return L


def surefire_run(r):
    org, p = proj(r)
    pkg = f"com.{org.replace('-', '')}.{p.replace('-', '')}"
    classes = r.sample(["ParserTest", "UserServiceTest", "ErrorMapperTest", "ConfigTest", "RepositoryIT",
                        "ControllerTest", "RetryPolicyTest", "JsonCodecTest"], r.randint(1, 5))
    L = ["$ mvn -B test", mvn_line("-" * 55), mvn_line(" T E S T S"), mvn_line("-" * 55)]
    tot = 0
    for c in classes:
        k = r.randint(1, 30)
        tot += k
        L += [mvn_line(f"Running {pkg}.{c}"),
              mvn_line(f"Tests run: {k}, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: {r.uniform(0, 5):.3f} s -- in {pkg}.{c}")]
    L += [mvn_line(), mvn_line("Results:"), mvn_line(), mvn_line(f"Tests run: {tot}, Failures: 0, Errors: 0, Skipped: 0"),
          mvn_line(), mvn_line("-" * 72), mvn_line("BUILD SUCCESS"), mvn_line("-" * 72),
          mvn_line(f"Total time:  {r.uniform(2, 90):.3f} s"), mvn_line("-" * 72)]
    return L


def junit_xml(r):
    org, p = proj(r)
    cls = f"com.{org.replace('-', '')}.{r.choice(['ParserTest', 'ApiTest', 'StoreTest'])}"
    cases = r.sample(PY_TESTS, r.randint(2, 6))
    L = ["$ cat build/test-results/test/TEST-" + cls + ".xml", '<?xml version="1.0" encoding="UTF-8"?>',
         f'<testsuite name="{cls}" tests="{len(cases)}" skipped="0" failures="0" errors="0" '
         f'timestamp="2024-0{r.randint(1, 9)}-1{r.randint(0, 9)}T1{r.randint(0, 9)}:2{r.randint(0, 9)}:0{r.randint(0, 9)}" '
         f'hostname="runner" time="{r.uniform(0, 3):.3f}">', "  <properties/>"]
    for c in cases:
        L.append(f'  <testcase name="{c}" classname="{cls}" time="{r.uniform(0, 0.5):.3f}"/>')
    L += ["  <system-out><![CDATA[]]></system-out>", "  <system-err><![CDATA[]]></system-err>", "</testsuite>"]
    return L


def valgrind_run(r):
    pid = r.randint(1000, 99999)
    pre = f"=={pid}=="
    n = r.randint(100, 90000)
    L = [f"$ valgrind --leak-check=full ./build/{r.choice(['test_runner', 'unit_tests', 'app'])}",
         f"{pre} Memcheck, a memory error detector",
         f"{pre} Copyright (C) 2002-2022, and GNU GPL'd, by Julian Seward et al.",
         f"{pre} Using Valgrind-3.{r.choice([19, 20, 21])}.0 and LibVEX; rerun with -h for copyright info",
         f"{pre} Command: ./build/test_runner", pre]
    L += [f"[==========] Running {r.randint(3, 40)} tests from {r.randint(1, 6)} test suites.",
          "[  PASSED  ] all tests."] if r.random() < 0.5 else []
    L += [pre, f"{pre} HEAP SUMMARY:", f"{pre}     in use at exit: 0 bytes in 0 blocks",
          f"{pre}   total heap usage: {n:,} allocs, {n:,} frees, {n * r.randint(20, 400):,} bytes allocated",
          pre, f"{pre} All heap blocks were freed -- no leaks are possible", pre,
          f"{pre} For lists of detected and suppressed errors, rerun with: -s",
          f"{pre} ERROR SUMMARY: 0 errors from 0 contexts (suppressed: 0 from 0)"]
    return L


def gtest_phpunit(r):
    if r.random() < 0.5:
        suites = r.sample(["StringUtil", "Parser", "ErrorCodes", "LruCache", "ThreadPool", "Json", "Base64",
                           "Tokenizer", "RingBuffer", "UrlParse", "Matrix", "Scheduler"], r.randint(1, 4))
        L = ["$ ./build/unit_tests", "[==========] Running tests."]
        tot = 0
        for s in suites:
            tests = r.sample(["Empty", "Basic", "Unicode", "Overflow", "RejectsBadInput", "Roundtrip",
                              "LargeInput", "Concurrent", "Reset", "CopyCtor", "MoveAssign", "Equality"], r.randint(1, 6))
            tot += len(tests)
            L.append(f"[----------] {len(tests)} tests from {s}Test")
            for t in tests:
                L += [f"[ RUN      ] {s}Test.{t}", f"[       OK ] {s}Test.{t} ({r.randint(0, 40)} ms)"]
            L.append(f"[----------] {len(tests)} tests from {s}Test ({r.randint(0, 90)} ms total)")
        L += ["", f"[==========] {tot} tests from {len(suites)} test suites ran. ({r.randint(1, 300)} ms total)",
              f"[  PASSED  ] {tot} tests."]
        return L
    n = r.randint(5, 200)
    return ["$ vendor/bin/phpunit", f"PHPUnit 10.5.{r.randint(1, 9)} by Sebastian Bergmann and contributors.", "",
            f"Runtime:       PHP 8.{r.randint(1, 3)}.{r.randint(0, 9)}", "",
            "." * min(n, 63) + f" {min(n, 63)} / {n} ({100 * min(n, 63) // n}%)", "",
            f"Time: 00:0{r.randint(0, 9)}.{r.randint(100, 999)}, Memory: {r.randint(8, 60)}.00 MB", "",
            f"OK ({n} tests, {n * r.randint(1, 4)} assertions)"]


# --------------------------------------------------------------------- git

COMMIT_MSGS = ["Fix typo in README", "Add retry with exponential backoff", "Handle timeout errors gracefully",
               "Bump lodash from 4.17.20 to 4.17.21", "Refactor config loading", "Add tests for error paths",
               "Update CI to Node 20", "Remove unused imports", "Improve logging around startup",
               "Add pagination to /users endpoint", "Fix flaky test in store", "Document the release process",
               "Upgrade to Go 1.21", "Use structured logging", "Split parser into lexer and parser",
               "Add healthcheck endpoint", "Cache compiled templates", "Rename ErrNotFound to ErrMissing",
               "Merge pull request #412 from acme/feature/search", "chore(deps): bump actions/checkout from 3 to 4",
               "feat: add dark mode toggle", "fix: handle empty response body", "docs: clarify install steps"]
GIT_FILES = ["src/app.py", "README.md", "src/server/router.go", "internal/apierrors/errors.go",
             "package.json", "package-lock.json", "src/components/Header.tsx", ".github/workflows/ci.yml",
             "Cargo.toml", "src/lib.rs", "src/main.rs", "docs/index.md", "Makefile", "go.mod", "go.sum",
             "tests/test_errors.py", "src/utils/retry.ts", "CHANGELOG.md", "Dockerfile"]
BRANCHES = ["feature/search", "feature/dark-mode", "fix/login-redirect", "chore/deps", "release/1.4",
            "refactor/config", "fix/error-messages", "docs/readme", "feat/rate-limit"]


def remote_url(r, org, p):
    return r.choice([f"git@github.com:{org}/{p}.git", f"https://github.com/{org}/{p}.git",
                     f"https://gitlab.com/{org}/{p}.git"])


def git_progress(r, total, remote=True):
    delta = r.randint(0, total // 2)
    comp = r.randint(1, total)
    pre = "remote: " if remote else ""
    return [f"{pre}Enumerating objects: {total}, done.",
            f"{pre}Counting objects: 100% ({total}/{total}), done.",
            f"{pre}Compressing objects: 100% ({comp}/{comp}), done.",
            f"{pre}Total {total} (delta {delta}), reused {r.randint(0, total)} (delta {r.randint(0, delta)}), pack-reused {r.randint(0, total)}"], delta


def git_clone(r):
    org, p = proj(r)
    total = r.randint(10, 90000)
    url = remote_url(r, org, p)
    depth = r.random() < 0.3
    L = [f"$ git clone {'--depth 1 ' if depth else ''}{url}", f"Cloning into '{p}'..."]
    prog, delta = git_progress(r, total)
    L += prog
    mib = r.uniform(0.01, 300)
    L.append(f"Receiving objects: 100% ({total}/{total}), {mib:.2f} MiB | {r.uniform(1, 60):.2f} MiB/s, done.")
    if delta:
        L.append(f"Resolving deltas: 100% ({delta}/{delta}), done.")
    return L


def diffstat(r):
    files = r.sample(GIT_FILES, r.randint(1, 6))
    w = max(len(f) for f in files)
    L, ins, dels = [], 0, 0
    for f in files:
        a, d = r.randint(0, 60), r.randint(0, 30)
        if a + d == 0:
            a = 1
        ins += a
        dels += d
        bar = "+" * min(a, 30) + "-" * min(d, 20)
        L.append(f" {f:<{w}} | {a + d:>3} {bar}")
    s = f" {len(files)} file{'s' if len(files) > 1 else ''} changed"
    if ins:
        s += f", {ins} insertion{'s' if ins > 1 else ''}(+)"
    if dels:
        s += f", {dels} deletion{'s' if dels > 1 else ''}(-)"
    L.append(s)
    if r.random() < 0.3:
        L.append(f" create mode 100644 {r.choice(GIT_FILES)}")
    return L


def git_pull(r):
    org, p = proj(r)
    br = r.choice(["main", "master", "develop"])
    L = [r.choice(["$ git pull", f"$ git pull origin {br}", "$ git pull --ff-only"])]
    if r.random() < 0.3:
        return L + ["Already up to date."]
    a, b = hexs(r, 7), hexs(r, 7)
    prog, _ = git_progress(r, r.randint(3, 200))
    L += prog[:3] + [prog[3]]
    u = r.randint(3, 60)
    L += [f"Unpacking objects: 100% ({u}/{u}), {r.uniform(1, 999):.2f} KiB | {r.uniform(0.2, 9):.2f} MiB/s, done."]
    host = r.choice(["github.com", "gitlab.com"])
    L += [f"From {host}:{org}/{p}", f" * branch            {br}       -> FETCH_HEAD",
          f"   {a}..{b}  {br}       -> origin/{br}", f"Updating {a}..{b}", "Fast-forward"]
    L += diffstat(r)
    return L


def git_fetch(r):
    org, p = proj(r)
    L = [r.choice(["$ git fetch", "$ git fetch --all --prune", "$ git fetch origin"])]
    if r.random() < 0.2:
        return L
    prog, _ = git_progress(r, r.randint(3, 500))
    L += prog
    u = r.randint(3, 60)
    L.append(f"Unpacking objects: 100% ({u}/{u}), {r.uniform(1, 900):.2f} KiB | {r.uniform(0.5, 9):.2f} MiB/s, done.")
    L.append(f"From github.com:{org}/{p}")
    for br in r.sample(["main", "develop"] + BRANCHES, r.randint(1, 4)):
        c = r.random()
        if c < 0.6:
            L.append(f"   {hexs(r, 7)}..{hexs(r, 7)}  {br:<17} -> origin/{br}")
        elif c < 0.85:
            L.append(f" * [new branch]      {br:<17} -> origin/{br}")
        else:
            L.append(f" - [deleted]         (none)     -> origin/{br}")
    if r.random() < 0.3:
        t = f"v{r.randint(0, 3)}.{r.randint(0, 20)}.{r.randint(0, 9)}"
        L.append(f" * [new tag]         {t:<17} -> {t}")
    return L


def git_push(r):
    org, p = proj(r)
    new = r.random() < 0.35
    br = r.choice(BRANCHES) if new else r.choice(["main", "develop"] + BRANCHES)
    L = [f"$ git push{' -u origin ' + br if new else ''}"]
    total = r.randint(3, 40)
    comp = r.randint(1, total)
    d = r.randint(0, comp)
    L += [f"Enumerating objects: {total}, done.", f"Counting objects: 100% ({total}/{total}), done.",
          f"Delta compression using up to {r.choice([2, 4, 8, 10, 12, 16])} threads",
          f"Compressing objects: 100% ({comp}/{comp}), done.",
          f"Writing objects: 100% ({comp}/{comp}), {r.uniform(0.3, 900):.2f} KiB | {r.uniform(0.3, 20):.2f} MiB/s, done.",
          f"Total {comp} (delta {d}), reused 0 (delta 0), pack-reused 0"]
    if d:
        L.append(f"remote: Resolving deltas: 100% ({d}/{d}), completed with {r.randint(1, d)} local objects.")
    if new:
        L += ["remote:", f"remote: Create a pull request for '{br}' on GitHub by visiting:",
              f"remote:      https://github.com/{org}/{p}/pull/new/{br}", "remote:"]
    L.append(f"To github.com:{org}/{p}.git")
    if new:
        L += [f" * [new branch]      {br} -> {br}", f"branch '{br}' set up to track 'origin/{br}'."]
    else:
        L.append(f"   {hexs(r, 7)}..{hexs(r, 7)}  {br} -> {br}")
    return L


def git_log(r):
    L = [r.choice(["$ git log --oneline -n 10", "$ git log -3", "$ git log --oneline --graph -5"])]
    n = r.randint(3, 10)
    if "--oneline" in L[0]:
        for i in range(n):
            ref = " (HEAD -> main, origin/main, origin/HEAD)" if i == 0 else (f" (tag: v1.{r.randint(0, 9)}.{r.randint(0, 9)})" if r.random() < 0.1 else "")
            g = "* " if "graph" in L[0] else ""
            L.append(f"{g}{hexs(r, 7)}{ref} {r.choice(COMMIT_MSGS)}")
        return L
    for i in range(3):
        name, mail = r.choice(PEOPLE)
        ref = " (HEAD -> main, origin/main)" if i == 0 else ""
        dt = datetime.datetime(2024, r.randint(1, 12), r.randint(1, 28), r.randint(0, 23), r.randint(0, 59), r.randint(0, 59))
        L += [f"commit {hexs(r, 40)}{ref}", f"Author: {name} <{mail}>",
              f"Date:   {dt.strftime('%a %b %d %H:%M:%S %Y')} {r.choice(['+0000', '+0100', '+0200', '-0500', '+0530', '+0900'])}",
              "", f"    {r.choice(COMMIT_MSGS)}", ""]
    return L


def git_status(r):
    br = r.choice(["main", "develop"] + BRANCHES)
    L = ["$ git status", f"On branch {br}"]
    if r.random() < 0.5:
        L += [f"Your branch is up to date with 'origin/{br}'.", "", "nothing to commit, working tree clean"]
        return L
    L += [f"Your branch is ahead of 'origin/{br}' by {r.randint(1, 5)} commit{'s' if r.random() < 0.5 else ''}.",
          "  (use \"git push\" to publish your local commits)", "",
          "Changes not staged for commit:", '  (use "git add <file>..." to update what will be committed)',
          '  (use "git restore <file>..." to discard changes in working directory)']
    for f in r.sample(GIT_FILES, r.randint(1, 4)):
        L.append(f"\tmodified:   {f}")
    L += ["", 'no changes added to commit (use "git add" and/or "git commit -a")']
    return L


def git_branch_ops(r):
    c = r.random()
    br = r.choice(BRANCHES)
    if c < 0.25:
        return [f"$ git checkout -b {br}", f"Switched to a new branch '{br}'"]
    if c < 0.45:
        return [f"$ git switch {br}", f"Switched to branch '{br}'", f"Your branch is up to date with 'origin/{br}'."]
    if c < 0.6:
        return [f"$ git rebase origin/main", f"Successfully rebased and updated refs/heads/{br}."]
    if c < 0.8:
        L = [f"$ git merge --no-ff {br}", "Merge made by the 'ort' strategy."]
        return L + diffstat(r)
    if c < 0.9:
        return ["$ git checkout main", "Switched to branch 'main'", "Your branch is up to date with 'origin/main'.",
                f"$ git branch -d {br}", f"Deleted branch {br} (was {hexs(r, 7)})."]
    return ["$ git stash", f"Saved working directory and index state WIP on {br}: {hexs(r, 7)} {r.choice(COMMIT_MSGS)}",
            "$ git stash pop", f"Dropped refs/stash@{{0}} ({hexs(r, 40)})"]


def git_commit(r):
    br = r.choice(["main"] + BRANCHES)
    msg = r.choice(COMMIT_MSGS)
    L = [f"$ git add -A", f"$ git commit -m \"{msg}\"", f"[{br} {hexs(r, 7)}] {msg}"]
    L += diffstat(r)
    if r.random() < 0.3:
        t = f"v{r.randint(0, 3)}.{r.randint(0, 20)}.{r.randint(0, 9)}"
        L += [f"$ git tag -a {t} -m \"Release {t}\"", f"$ git push origin {t}",
              f"To github.com:{r.choice(ORGS)}/{r.choice(PROJECTS)}.git", f" * [new tag]         {t} -> {t}"]
    return L


def git_submodule(r):
    org, p = proj(r)
    sub = r.choice(["third_party/googletest", "vendor/fmt", "deps/libuv", "docs/theme"])
    L = ["$ git submodule update --init --recursive",
         f"Submodule '{sub}' (https://github.com/{org}/{sub.split('/')[-1]}.git) registered for path '{sub}'",
         f"Cloning into '/home/dev/code/{p}/{sub}'..."]
    L.append(f"Submodule path '{sub}': checked out '{hexs(r, 40)}'")
    return L


# ---------------------------------------------------------------------- ci

APT = [("curl", "7.88.1-10+deb12u5", 315), ("libcurl4", "7.88.1-10+deb12u5", 390), ("git", "1:2.39.2-1.1", 7260),
       ("git-man", "1:2.39.2-1.1", 2049), ("liberror-perl", "0.17029-2", 29), ("libgpg-error0", "1.46-1", 73),
       ("ca-certificates", "20230311", 153), ("openssl", "3.0.11-1~deb12u2", 1414), ("libssl3", "3.0.11-1~deb12u2", 2018),
       ("make", "4.3-4.1", 396), ("gcc-12", "12.2.0-14", 19341), ("g++-12", "12.2.0-14", 10680),
       ("libc6-dev", "2.36-9+deb12u4", 1903), ("patch", "2.7.6-7", 128), ("xz-utils", "5.4.1-0.2", 472),
       ("unzip", "6.0-28", 166), ("zip", "3.0-13", 230), ("jq", "1.6-2.1", 135), ("libjq1", "1.6-2.1", 135),
       ("libonig5", "6.9.8-1", 188), ("python3-pip", "23.0.1+dfsg-1", 1325), ("python3-venv", "3.11.2-1+b1", 1200),
       ("wget", "1.21.3-1+b2", 984), ("gnupg", "2.2.40-1.1", 846), ("dirmngr", "2.2.40-1.1", 792),
       ("less", "590-2.1~deb12u1", 132), ("openssh-client", "1:9.2p1-2+deb12u2", 991), ("libexpat1", "2.5.0-1", 99),
       ("perl", "5.36.0-7+deb12u1", 239), ("rsync", "3.2.7-1", 417), ("tzdata", "2024a-0+deb12u1", 255),
       ("locales", "2.36-9+deb12u4", 3900), ("libsqlite3-0", "3.40.1-2", 837), ("postgresql-client-15", "15.5-0+deb12u1", 1722),
       ("netbase", "6.4", 12), ("procps", "2:4.0.2-3", 709), ("libnghttp2-14", "1.52.0-1+deb12u1", 72),
       ("libssh2-1", "1.10.0-3+b1", 179), ("libpsl5", "0.21.2-1", 58), ("publicsuffix", "20230209.2326-1", 126),
       ("build-essential", "12.9", 7), ("pkg-config", "1.8.1-1", 13), ("cmake", "3.25.1-1", 4300)]


def apt_update(r):
    L = [r.choice(["$ apt-get update", "$ sudo apt-get update"])]
    if r.random() < 0.5:
        dist = "bookworm"
        srcs = [("http://deb.debian.org/debian", f"{dist} InRelease", 151),
                ("http://deb.debian.org/debian", f"{dist}-updates InRelease", 55.4),
                ("http://deb.debian.org/debian-security", f"{dist}-security InRelease", 48.0),
                ("http://deb.debian.org/debian", f"{dist}/main amd64 Packages", 8787),
                ("http://deb.debian.org/debian", f"{dist}-updates/main amd64 Packages", 12.7),
                ("http://deb.debian.org/debian-security", f"{dist}-security/main amd64 Packages", 134)]
        tot = 0
        for i, (u, what, kb) in enumerate(srcs, 1):
            tot += kb
            L.append(f"Get:{i} {u} {what} [{kb:g} kB]")
        L.append(f"Fetched {int(tot)} kB in {r.randint(1, 9)}s ({int(tot / r.uniform(1, 5))} kB/s)")
        L.append("Reading package lists...")
    else:
        srcs = ["http://azure.archive.ubuntu.com/ubuntu jammy InRelease",
                "http://azure.archive.ubuntu.com/ubuntu jammy-updates InRelease",
                "http://azure.archive.ubuntu.com/ubuntu jammy-backports InRelease",
                "http://security.ubuntu.com/ubuntu jammy-security InRelease",
                "https://packages.microsoft.com/ubuntu/22.04/prod jammy InRelease"]
        for i, s in enumerate(srcs, 1):
            if r.random() < 0.6:
                L.append(f"Hit:{i} {s}")
            else:
                L.append(f"Get:{i} {s} [{r.choice([110, 119, 109, 3632])} kB]")
        L += [f"Fetched {r.randint(100, 9000)} kB in {r.randint(1, 5)}s ({r.randint(300, 5000)} kB/s)",
              "Reading package lists...", "Building dependency tree...", "Reading state information...",
              r.choice(["All packages are up to date.", f"{r.randint(2, 40)} packages can be upgraded. Run 'apt list --upgradable' to see them."])]
    return L


def apt_install(r):
    pk = r.sample(APT, r.randint(2, 9))
    have = {n for n, _, _ in pk}
    for trigger, deps in (("git", ("git-man", "liberror-perl")), ("gnupg", ("dirmngr", "libgpg-error0"))):
        if trigger in have:
            pk += [t for t in APT if t[0] in deps and t[0] not in have]
    names = [n for n, _, _ in pk]
    asked = names[: max(1, len(names) // 2)]
    L = [f"$ apt-get install -y --no-install-recommends {' '.join(asked)}", "Reading package lists...",
         "Building dependency tree...", "Reading state information..."]
    extra = names[len(asked):]
    if extra:
        L += ["The following additional packages will be installed:", "  " + " ".join(extra)]
    if r.random() < 0.3:
        L += ["Suggested packages:", "  " + " ".join(r.sample(["git-daemon-run", "git-doc", "git-email", "gitk", "libcurl4-doc", "make-doc", "zip"], 3))]
    L += ["The following NEW packages will be installed:", "  " + " ".join(sorted(names)),
          f"0 upgraded, {len(names)} newly installed, 0 to remove and {r.randint(0, 40)} not upgraded."]
    tot = sum(k for _, _, k in pk)
    L += [f"Need to get {tot:,} kB of archives.",
          f"After this operation, {tot * r.uniform(2, 4) / 1000:.1f} MB of additional disk space will be used."]
    for i, (n, v, k) in enumerate(pk, 1):
        L.append(f"Get:{i} http://deb.debian.org/debian bookworm/main amd64 {n} amd64 {v} [{k} kB]")
    if r.random() < 0.5:
        L.append("debconf: delaying package configuration, since apt-utils is not installed")
    L.append(f"Fetched {tot:,} kB in {r.randint(0, 5)}s ({tot / r.uniform(1, 5) / 1000:.1f} MB/s)")
    db = r.randint(4000, 30000)
    for i, (n, v, k) in enumerate(pk):
        L.append(f"Selecting previously unselected package {n}.")
        if i == 0:
            L.append(f"(Reading database ... {db} files and directories currently installed.)")
        vv = v.split(":")[-1]
        L.append(f"Preparing to unpack .../{i:02d}-{n}_{vv}_amd64.deb ...")
        L.append(f"Unpacking {n} ({v}) ...")
    for n, v, _ in pk:
        L.append(f"Setting up {n} ({v}) ...")
    trig = r.sample(["man-db (2.11.2-2)", "libc-bin (2.36-9+deb12u4)", "ca-certificates (20230311)"], r.randint(1, 2))
    for t in trig:
        L.append(f"Processing triggers for {t} ...")
        if t.startswith("ca-"):
            L += ["Updating certificates in /etc/ssl/certs...", "0 added, 0 removed; done.",
                  "Running hooks in /etc/ca-certificates/update.d...", "done."]
    return L


class Clock:
    def __init__(self, r):
        self.r = r
        self.t = datetime.datetime(2024, r.randint(1, 12), r.randint(1, 28), r.randint(0, 23), r.randint(0, 59), r.randint(0, 59))

    def stamp(self, slow=False):
        self.t += datetime.timedelta(microseconds=self.r.randint(0, 3_000_000 if slow else 40_000))
        return self.t.strftime("%Y-%m-%dT%H:%M:%S") + f".{self.t.microsecond:06d}{self.r.randint(0, 9)}Z"


def gh_step_body(r, kind):
    if kind == "node":
        return r.choice([npm_install, lambda q: npm_install(q), vite_build, jest_run, lint_scripts, vitest_run])(r)
    if kind == "python":
        return r.choice([pip_install, pytest_run, pip_upgrade])(r)
    if kind == "go":
        return r.choice([go_build, go_test])(r)
    if kind == "rust":
        return r.choice([cargo_build, cargo_test])(r)
    return r.choice([maven_build, gradle_build, surefire_run])(r)


def gh_actions(r):
    org, p = proj(r)
    ck = Clock(r)
    out = []

    def emit(lines, slow=False):
        for l in lines:
            out.append(f"{ck.stamp(slow)} {l}" if l else ck.stamp(slow))

    kind = r.choice(["node", "python", "go", "rust", "java"])
    setup = {"node": ("actions/setup-node@v4", "node-version", r.choice(["18.x", "20.x", "22.x"])),
             "python": ("actions/setup-python@v5", "python-version", r.choice(["3.10", "3.11", "3.12"])),
             "go": ("actions/setup-go@v5", "go-version", r.choice(["1.21", "1.22"])),
             "rust": ("dtolnay/rust-toolchain@stable", "toolchain", "stable"),
             "java": ("actions/setup-java@v4", "java-version", r.choice(["17", "21"]))}[kind]
    job = r.choice(["build", "test", "lint", "ci", "build-and-test"])
    ws = f"/home/runner/work/{p}/{p}"
    sha = hexs(r, 40)
    emit([f"Current runner version: '2.{r.randint(310, 320)}.{r.randint(0, 2)}'", "##[group]Operating System", "Ubuntu",
          "22.04.4", "LTS", "##[endgroup]", "##[group]Runner Image", "Image: ubuntu-22.04",
          f"Version: 2024{r.randint(1, 12):02d}{r.randint(1, 28):02d}.1.0", "##[endgroup]",
          "##[group]GITHUB_TOKEN Permissions", "Contents: read", "Metadata: read", "##[endgroup]",
          "Secret source: Actions", "Prepare workflow directory", "Prepare all required actions",
          "Getting action download info",
          f"Download action repository 'actions/checkout@v4' (SHA:{hexs(r, 40)})",
          f"Download action repository '{setup[0]}' (SHA:{hexs(r, 40)})",
          f"Complete job name: {job}"])
    emit(["##[group]Run actions/checkout@v4", "with:", f"  repository: {org}/{p}", "  token: ***",
          "  ssh-strict: true", "  persist-credentials: true", "  clean: true", "  fetch-depth: 1",
          "  lfs: false", "  submodules: false", "  set-safe-directory: true", "##[endgroup]",
          f"Syncing repository: {org}/{p}", "##[group]Getting Git version info",
          f"Working directory is '{ws}'", "[command]/usr/bin/git version", "git version 2.43.0", "##[endgroup]",
          f"[command]/usr/bin/git config --global --add safe.directory {ws}",
          f"Deleting the contents of '{ws}'", "##[group]Initializing the repository",
          f"[command]/usr/bin/git init {ws}", f"Initialized empty Git repository in {ws}/.git/",
          f"[command]/usr/bin/git remote add origin https://github.com/{org}/{p}", "##[endgroup]",
          "##[group]Fetching the repository",
          f"[command]/usr/bin/git -c protocol.version=2 fetch --no-tags --prune --no-recurse-submodules --depth=1 origin +{sha}:refs/remotes/origin/main",
          f"From https://github.com/{org}/{p}", f" * [new ref]         {sha} -> origin/main", "##[endgroup]",
          "##[group]Checking out the ref",
          "[command]/usr/bin/git checkout --progress --force -B main refs/remotes/origin/main",
          "Switched to a new branch 'main'", "branch 'main' set up to track 'origin/main'.", "##[endgroup]",
          "[command]/usr/bin/git log -1 --format='%H'", f"'{sha}'"], slow=True)
    emit([f"##[group]Run {setup[0]}", "with:", f"  {setup[1]}: {setup[2]}", "##[endgroup]"])
    if kind == "node":
        emit([f"Found in cache @ /opt/hostedtoolcache/node/{setup[2][:2]}.{r.randint(0, 15)}.{r.randint(0, 9)}/x64",
              "##[group]Environment details", f"node: v{setup[2][:2]}.{r.randint(0, 15)}.{r.randint(0, 9)}",
              f"npm: 10.{r.randint(1, 8)}.{r.randint(0, 3)}", "yarn: 1.22.22", "##[endgroup]"])
    elif kind == "python":
        emit([f"Successfully set up CPython ({setup[2]}.{r.randint(1, 9)})"])
    else:
        emit([f"Setup {kind} version {setup[2]} from cache", "Added to the path"])
    if r.random() < 0.7:
        key = f"Linux-{kind}-{hexs(r, 64)}"
        cpath = {"node": "~/.npm", "python": "~/.cache/pip", "go": "~/go/pkg/mod", "rust": "~/.cargo/registry",
                 "java": "~/.m2/repository"}[kind]
        emit(["##[group]Run actions/cache@v4", "with:", f"  path: {cpath}", f"  key: {key}",
              "  enableCrossOsArchive: false", "  fail-on-cache-miss: false", "  lookup-only: false",
              "  save-always: false", "##[endgroup]"])
        if r.random() < 0.6:
            emit([f"Cache Size: ~{r.randint(5, 900)} MB ({r.randint(10**6, 10**9)} B)",
                  "[command]/usr/bin/tar -xf /home/runner/work/_temp/cache.tzst -P -C " + ws + " --use-compress-program unzstd",
                  "Cache restored successfully", f"Cache restored from key: {key}"], slow=True)
        else:
            emit([f"Cache not found for input keys: {key}"])
    for _ in range(r.randint(1, 2)):
        body = gh_step_body(r, kind)
        cmd = body[0][2:] if body and body[0].startswith("$ ") else "make"
        body = body[1:] if body and body[0].startswith("$ ") else body
        env = ["env:", "  CI: true"] if r.random() < 0.4 else []
        if env and kind == "python" and r.random() < 0.5:
            env.append("  PYTEST_ADDOPTS: --timeout=120")
        emit([f"##[group]Run {cmd}", cmd, "shell: /usr/bin/bash -e {0}"] + env + ["##[endgroup]"])
        emit(body, slow=r.random() < 0.3)
    if kind in ("python", "node", "go") and r.random() < 0.4:
        ts = f"{ck.t.strftime('%Y-%m-%d %H:%M:%S')},{r.randint(100, 999)}"
        emit(["##[group]Run codecov/codecov-action@v4", "with:",
              f"  files: {'./coverage.xml' if kind == 'python' else './coverage/lcov.info'}",
              "  fail_ci_if_error: true", "  token: ***", "##[endgroup]", "==> linux OS detected",
              "https://cli.codecov.io/latest/linux/codecov.SHA256SUM",
              "==> SHASUM file signed by key id 806bb28aed779869",
              f"==> Uploader SHASUM verified ({hexs(r, 64)}  codecov)", "==> Running version latest",
              "==> Running command '/home/runner/work/_actions/codecov/codecov-action/v4/dist/codecov create-commit'",
              f"info - {ts} -- ci service found: github-actions",
              f"info - {ts} -- Process Commit creating complete",
              f"info - {ts} -- Found 1 coverage files to report",
              f"info - {ts} -- Process Upload complete"])
    if r.random() < 0.6:
        nfiles = r.randint(1, 400)
        size = r.randint(2000, 90_000_000)
        aid = r.randint(10**8, 2 * 10**9)
        name = r.choice(["dist", "coverage", "test-results", "build-output", "wheels"])
        emit([f"##[group]Run actions/upload-artifact@v4", "with:", f"  name: {name}", f"  path: {name}/",
              f"  if-no-files-found: {r.choice(['error', 'error', 'warn'])}", f"  retention-days: {r.choice([1, 5, 7, 30])}",
              "  compression-level: 6", "  overwrite: false", "##[endgroup]",
              f"With the provided path, there will be {nfiles} file{'s' if nfiles > 1 else ''} uploaded",
              "Artifact name is valid!", "Root directory input is valid!",
              "Beginning upload of artifact content to blob storage", f"Uploaded bytes {size}",
              "Finished uploading artifact content to blob storage!",
              f"SHA256 hash of uploaded artifact zip is {hexs(r, 64)}", "Finalizing artifact upload",
              f"Artifact {name}.zip successfully finalized. Artifact ID {aid}",
              f"Artifact {name} has been successfully uploaded! Final size is {size} bytes. Artifact ID is {aid}",
              f"Artifact download URL: https://github.com/{org}/{p}/actions/runs/{r.randint(10**9, 9 * 10**9)}/artifacts/{aid}"])
    emit(["Post job cleanup.", "[command]/usr/bin/git version", "git version 2.43.0",
          f"[command]/usr/bin/git config --local --name-only --get-regexp core\\.sshCommand",
          "[command]/usr/bin/git submodule foreach --recursive sh -c \"git config --local --name-only --get-regexp 'core\\.sshCommand' && git config --local --unset-all 'core.sshCommand' || :\"",
          "Cleaning up orphan processes"])
    return out


def gitlab_job(r):
    org, p = proj(r)
    img = r.choice(["node:20-alpine", "python:3.11-slim", "golang:1.21", "rust:1.74", "debian:bookworm",
                    "maven:3.9-eclipse-temurin-17"])
    sha = hexs(r, 8)
    L = [f"Running with gitlab-runner 16.{r.randint(3, 11)}.{r.randint(0, 2)} ({hexs(r, 8)})",
         f"  on {r.choice(['docker-runner', 'shared-runner', 'k8s-runner'])}-{r.randint(1, 9)} {b62(r, 8)}, system ID: s_{hexs(r, 12)}",
         'Preparing the "docker" executor', f"Using Docker executor with image {img} ...",
         f"Pulling docker image {img} ...",
         f"Using docker image sha256:{hexs(r, 64)} for {img} with digest {img.split(':')[0]}@sha256:{hexs(r, 64)} ...",
         "Preparing environment",
         f"Running on runner-{b62(r, 8).lower()}-project-{r.randint(10, 9999)}-concurrent-0 via runner-{hexs(r, 6)}...",
         "Getting source from Git repository", f"Fetching changes with git depth set to {r.choice([20, 50])}...",
         f"Initialized empty Git repository in /builds/{org}/{p}/.git/", "Created fresh repository.",
         f"Checking out {sha} as detached HEAD (ref is {r.choice(['main', 'develop'] + BRANCHES)})...",
         "Skipping Git submodules setup"]
    if r.random() < 0.5:
        L += ["Restoring cache", f"Checking cache for {r.choice(['default', 'node-modules', 'pip'])}-protected...",
              "Downloading cache from https://storage.googleapis.com/gitlab-com-runners-cache/project/cache.zip",
              "Successfully extracted cache"]
    L += ['Executing "step_script" stage of the job script',
          f"Using docker image sha256:{hexs(r, 64)} for {img} ..."]
    if img.startswith("debian"):
        L += apt_update(r) + apt_install(r)
    maker = {"node": r.choice([npm_install, vite_build, jest_run, yarn_classic]),
             "pyth": r.choice([pip_install, pytest_run]), "gola": r.choice([go_build, go_test]),
             "rust": r.choice([cargo_build, cargo_test]), "debi": r.choice([gcc_make, ctest_run, cmake_build]),
             "mave": r.choice([maven_build, surefire_run])}[img[:4]]
    L += maker(r)
    if r.random() < 0.5:
        L += ["Saving cache for successful job", "Creating cache default-protected...",
              f"node_modules/: found {r.randint(100, 50000)} matching artifact files and directories",
              "Uploading cache.zip to https://storage.googleapis.com/gitlab-com-runners-cache/project/cache.zip",
              "Created cache"]
    if r.random() < 0.5:
        L += ["Uploading artifacts for successful job", "Uploading artifacts...",
              f"dist/: found {r.randint(3, 400)} matching artifact files and directories",
              f'Uploading artifacts as "archive" to coordinator... 201 Created  id={r.randint(10**8, 10**9)} responseStatus=201 Created token={b62(r, 8)}']
    L += ["Cleaning up project directory and file based variables", "Job succeeded"]
    return L


def apt_run(r):
    L = apt_update(r)
    if r.random() < 0.8:
        L += apt_install(r)
    return L


def docker_build(r):
    img = r.choice(["python:3.11-slim", "node:20-alpine", "golang:1.21-alpine", "debian:bookworm-slim"])
    org, p = proj(r)
    L = [f"$ docker build -t ghcr.io/{org}/{p}:{hexs(r, 7)} ."]
    L += ["#0 building with \"default\" instance using docker driver", "",
          "#1 [internal] load build definition from Dockerfile", f"#1 transferring dockerfile: {r.randint(300, 2000)}B done",
          "#1 DONE 0.0s", "", f"#2 [internal] load metadata for docker.io/library/{img}",
          f"#2 DONE {r.uniform(0.3, 2):.1f}s", "", "#3 [internal] load .dockerignore",
          "#3 transferring context: 2B done", "#3 DONE 0.0s", ""]
    steps = ["WORKDIR /app", "COPY package*.json requirements*.txt ./", "RUN make deps", "COPY . .", "RUN make build"]
    for i, s in enumerate(steps, 4):
        L.append(f"#{i} [{i - 3}/{len(steps)}] {s}")
        if r.random() < 0.4:
            L.append(f"#{i} CACHED")
        else:
            L.append(f"#{i} DONE {r.uniform(0, 40):.1f}s")
        L.append("")
    n = len(steps) + 4
    L += [f"#{n} exporting to image", f"#{n} exporting layers {r.uniform(0.1, 5):.1f}s done",
          f"#{n} writing image sha256:{hexs(r, 64)} done",
          f"#{n} naming to ghcr.io/{org}/{p}:latest done", f"#{n} DONE {r.uniform(0.1, 5):.1f}s"]
    return L


# ------------------------------------------------------------------ driver

FILES = [
    ("pip.log", [(6, pip_install), (1, pip_editable), (1, pip_upgrade), (2, pip_list), (1, pip_misc)]),
    ("npm.log", [(4, npm_install), (1, npm_add), (1, npm_http), (2, yarn_classic), (1, yarn_berry),
                 (1, pnpm_install), (2, vite_build), (1, next_build), (1, webpack_build), (1, cra_build),
                 (2, lint_scripts), (1, esbuild_rollup)]),
    ("compile.log", [(3, cmake_build), (2, gcc_make), (1, autotools), (3, cargo_build), (2, go_build),
                     (2, maven_build), (2, gradle_build), (2, dotnet_build), (1, tsc_javac)]),
    ("tests.log", [(4, pytest_run), (2, unittest_run), (2, jest_run), (2.5, vitest_run), (1, mocha_rspec),
                   (3, go_test), (1.0, cargo_test), (1, ctest_run), (0.5, surefire_run), (0.4, junit_xml),
                   (0.4, valgrind_run), (2, gtest_phpunit)]),
    ("git.log", [(2, git_clone), (3, git_pull), (2, git_fetch), (3, git_push), (2, git_log), (2, git_status),
                 (3, git_branch_ops), (2, git_commit), (1, git_submodule)]),
    ("ci.log", [(3, gh_actions), (2.5, gitlab_job), (2.5, apt_run), (1, docker_build)]),
]


def nonblank(lines):
    return sum(1 for l in lines if l.strip())


# Lines with error-ish words. A file is accepted when 3.5-6% of its non-blank
# lines match; otherwise the next seed in a fixed sequence is tried.
ERRISH = re.compile(r"(?i)err|fail|fatal|exception|panic|timeout|vulnerab|abort|crash|denied|traceback")
ERRISH_LO, ERRISH_HI = 0.035, 0.06


def errish_share(lines):
    body = [l for l in lines if l.strip()]
    return sum(1 for l in body if ERRISH.search(l)) / len(body)


def build_one(r, makers):
    weights = [w for w, _ in makers]
    funcs = [f for _, f in makers]
    out, n = [], 0
    while n < LO:
        f = r.choices(funcs, weights)[0]
        lines = [l.rstrip() for l in f(r)]
        while lines and not lines[-1]:
            lines.pop()
        k = nonblank(lines)
        if k == 0 or n + k > HI:
            continue
        if out:
            out.append("")
        out.extend(lines)
        n += k
    return out


def build(idx, makers):
    for attempt in range(1000):
        out = build_one(random.Random(SEED * 1_000_000 + idx * 10_000 + attempt), makers)
        if ERRISH_LO <= errish_share(out) <= ERRISH_HI:
            return out
    raise SystemExit(f"no seed gives an error-ish share in range for file {idx}")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: dev.py OUTDIR")
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    for idx, (name, makers) in enumerate(FILES):
        lines = build(idx, makers)
        for i, l in enumerate(lines, 1):
            b = l.encode("utf-8")
            if len(b) > MAX_BYTES:
                raise SystemExit(f"{name}:{i}: line is {len(b)} bytes")
            if "\t" in l and name not in TABS_OK:
                raise SystemExit(f"{name}:{i}: tab")
            if "\r" in l:
                raise SystemExit(f"{name}:{i}: CR")
        with open(os.path.join(outdir, name), "w", encoding="utf-8", newline="\n") as fh:
            fh.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
