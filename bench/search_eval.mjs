// How well the site's search answers real queries: the labelled set bench/search-eval.json
// (error codes, pasted error lines, Chinese terms, partial words, a few natural queries, each
// copied from a public page and labelled with the corpus entries that explain it) run through
// the search page of a site kbc built, in Chromium.
//
//   node bench/search_eval.mjs --site DIR [--set bench/search-eval.json] [--json]
//        [--chromium /usr/bin/chromium]
//
// DIR is a built site folder (with en/ and zh/). It is served on 127.0.0.1; each language's
// search.html is opened once and every query of that language is asked in turn, through
// window.kbcSearch.query(text, {limit: 5}) when the page has it, else by setting the text of
// #q and reading the links of #search-results (entries/<id>.html).
//
// Prints one line per query (rank of the first expected entry in the top 5, or MISS, and the
// top 3 ids), then hit@1 and hit@5 overall, per kind and per language; the time from asking to
// having the results (each query but the first of each page: median and max); and the bytes
// the server sent (raw, and gzipped with zlib's default level) for the page, for the first
// query and in all. --json prints one JSON object instead. A benchmark, not a test: exits 0
// whatever the figures, 2 when the site folder is missing or the arguments are wrong.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.join(here, '..');
const usage = 'usage: node bench/search_eval.mjs --site DIR [--set bench/search-eval.json] [--json] ' +
  '[--chromium /usr/bin/chromium]';

let options;
try {
  ({ values: options } = parseArgs({
    options: {
      site: { type: 'string' },
      set: { type: 'string', default: path.join(repo, 'bench', 'search-eval.json') },
      json: { type: 'boolean', default: false },
      chromium: { type: 'string', default: '/usr/bin/chromium' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (error) {
  console.error(`${error.message}\n${usage}`);
  process.exit(2);
}
if (options.help) {
  console.log(usage);
  process.exit(0);
}
if (!options.site) {
  console.error(usage);
  process.exit(2);
}
const site = path.resolve(options.site);
if (!fs.existsSync(path.join(site, 'en', 'search.html'))) {
  console.error(`${site} is not a built site: en/search.html is missing`);
  process.exit(2);
}

// playwright-core is installed in tests/browser/node_modules (npm ci there), as for
// tests/browser/run.mjs, which imports it by name; from bench/ its path is resolved first.
async function loadChromium() {
  const require = createRequire(path.join(repo, 'tests', 'browser', 'package.json'));
  const entry = require.resolve('playwright-core');
  const module = await import(pathToFileURL(path.join(path.dirname(entry), 'index.mjs')).href)
    .catch(() => import(pathToFileURL(entry).href));
  return module.chromium || module.default.chromium;
}

// ---- a static file server that counts what it sends ----

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

const gzipSizes = new Map();  // file -> gzipped size
function gzipSize(file, body) {
  if (!gzipSizes.has(file)) gzipSizes.set(file, zlib.gzipSync(body).length);
  return gzipSizes.get(file);
}

// Bytes sent since the last take(): {requests, raw, gzip, files: [path...]}.
const counter = {
  requests: 0, raw: 0, gzip: 0, files: [],
  add(pathname, raw, gzip) {
    this.requests++;
    this.raw += raw;
    this.gzip += gzip;
    this.files.push(pathname);
  },
  take() {
    const out = { requests: this.requests, raw: this.raw, gzip: this.gzip, files: this.files };
    this.requests = 0;
    this.raw = 0;
    this.gzip = 0;
    this.files = [];
    return out;
  },
};

function serve(root) {
  const server = http.createServer((request, response) => {
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    } catch {
      response.writeHead(400).end();
      return;
    }
    let file = path.join(root, pathname);
    if (file !== root && !file.startsWith(root + path.sep)) {
      response.writeHead(403).end();
      return;
    }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    if (!fs.existsSync(file) || !fs.statSync(file).isFile()) {
      response.writeHead(404, { 'content-type': TYPES['.txt'] }).end('Not found\n');
      return;
    }
    const body = fs.readFileSync(file);
    counter.add(pathname, body.length, gzipSize(file, body));
    const type = TYPES[path.extname(file).toLowerCase()] || 'application/octet-stream';
    // no-store: every load reaches the server (search.js keeps what it fetched in memory).
    response.writeHead(200, { 'content-type': type, 'content-length': body.length, 'cache-control': 'no-store' });
    response.end(body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve({
        origin: `http://127.0.0.1:${server.address().port}`,
        close: () => new Promise((done) => {
          server.closeAllConnections();
          server.close(() => done());
        }),
      });
    });
  });
}

// ---- asking the page ----

// The entry id of a result link: .../entries/<id>.html.
function idOfUrl(url) {
  const pathname = new URL(url, 'http://x/').pathname;
  const at = pathname.indexOf('/entries/');
  if (at < 0) return pathname;
  return decodeURIComponent(pathname.slice(at + '/entries/'.length).replace(/\.html$/, ''));
}

// Through the page's API: {ms, ids, total, fallback}.
async function askApi(page, query) {
  const out = await page.evaluate(async (text) => {
    const start = performance.now();
    const r = await window.kbcSearch.query(text, { limit: 5 });
    const ms = performance.now() - start;
    return { ms, total: r.total, fallback: r.fallback || null,
      results: r.results.map((x) => ({ id: x.id || null, url: x.url || null })) };
  }, query);
  return { ms: out.ms, total: out.total, fallback: out.fallback,
    ids: out.results.map((x) => x.id || idOfUrl(x.url)) };
}

// Through the form: clear #q, set the text, fire `input`, and wait until the status says how
// many results there are and their links are in #search-results (or it says there are none).
async function askForm(page, query) {
  const out = await page.evaluate(async (text) => {
    const input = document.getElementById('q');
    const list = document.getElementById('search-results');
    const form = input.form;
    const status = document.getElementById((form && form.getAttribute('data-status')) || 'search-status');
    const none = (form && form.getAttribute('data-no-results')) || '\u0000';
    input.value = '';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await new Promise((done) => setTimeout(done, 0));
    const start = performance.now();
    input.value = text;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    const ready = () => {
      const said = status ? status.textContent.trim() : '';
      if (list.querySelector('li a')) return !status || said !== '';
      return said !== '' && said.includes(none);
    };
    await new Promise((done) => {
      if (ready()) return done();
      const observer = new MutationObserver(() => {
        if (ready()) {
          observer.disconnect();
          done();
        }
      });
      observer.observe(document.body, { childList: true, subtree: true, characterData: true });
      setTimeout(() => {
        observer.disconnect();
        done();
      }, 10000);
    });
    const ms = performance.now() - start;
    const links = Array.from(list.querySelectorAll('li > a')).slice(0, 5).map((a) => a.href);
    return { ms, links, status: status ? status.textContent.trim() : '' };
  }, query);
  const count = /([\d,.\s]+)/.exec(out.status);
  return { ms: out.ms, ids: out.links.map(idOfUrl),
    total: count ? Number(count[1].replace(/[^\d]/g, '')) || out.links.length : out.links.length,
    fallback: null };
}

// ---- figures ----

function median(values) {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function rate(rows) {
  const n = rows.length;
  const at1 = rows.filter((r) => r.rank === 1).length;
  const at5 = rows.filter((r) => r.rank !== null).length;
  return { n, hit1: at1, hit5: at5, hit1_pct: n ? (100 * at1) / n : 0, hit5_pct: n ? (100 * at5) / n : 0 };
}

function groupBy(rows, key) {
  const out = {};
  for (const row of rows) (out[row[key]] ||= []).push(row);
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, rate(v)]));
}

const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
const pct = (r) => `${r.hit1}/${r.n} (${r.hit1_pct.toFixed(0)}%)`;
const pct5 = (r) => `${r.hit5}/${r.n} (${r.hit5_pct.toFixed(0)}%)`;

// ---- main ----

async function main() {
  const set = JSON.parse(fs.readFileSync(options.set, 'utf8'));
  const queries = set.queries;
  const langs = [...new Set(queries.map((q) => q.lang))];
  const server = await serve(site);
  const chromium = await loadChromium();
  const browser = await chromium.launch({ executablePath: options.chromium, headless: true, args: ['--no-sandbox'] });
  const rows = [];
  const bytes = {};
  const modes = {};
  try {
    for (const lang of langs) {
      if (!fs.existsSync(path.join(site, lang, 'search.html'))) {
        for (const q of queries.filter((x) => x.lang === lang)) {
          rows.push({ ...q, rank: null, top: [], ms: null, first: false, total: 0, error: `${lang}/search.html is missing` });
        }
        continue;
      }
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      context.setDefaultTimeout(30000);
      const page = await context.newPage();
      counter.take();
      await page.goto(`${server.origin}/${lang}/search.html`, { waitUntil: 'load' });
      const load = counter.take();
      const api = await page.evaluate(() => !!(window.kbcSearch && typeof window.kbcSearch.query === 'function'));
      modes[lang] = api ? 'kbcSearch.query' : '#q form';
      const ask = api ? askApi : askForm;
      let firstQuery = null;
      let queriesTotal = { requests: 0, raw: 0, gzip: 0 };
      let first = true;
      for (const q of queries.filter((x) => x.lang === lang)) {
        let got;
        let error = null;
        try {
          got = await ask(page, q.query);
        } catch (e) {
          got = { ms: null, ids: [], total: 0, fallback: null };
          error = String(e.message || e).split('\n')[0];
        }
        const sent = counter.take();
        if (first) firstQuery = sent;
        queriesTotal = { requests: queriesTotal.requests + sent.requests, raw: queriesTotal.raw + sent.raw,
          gzip: queriesTotal.gzip + sent.gzip };
        const top = got.ids.slice(0, 5);
        const at = top.findIndex((id) => q.expect.includes(id));
        rows.push({ ...q, rank: at < 0 ? null : at + 1, top, ms: got.ms, first, total: got.total,
          fallback: got.fallback, bytes: { raw: sent.raw, gzip: sent.gzip, requests: sent.requests }, error });
        first = false;
      }
      bytes[lang] = {
        page: { requests: load.requests, raw: load.raw, gzip: load.gzip },
        first_query: firstQuery && { requests: firstQuery.requests, raw: firstQuery.raw, gzip: firstQuery.gzip },
        queries: queriesTotal,
        total: { requests: load.requests + queriesTotal.requests, raw: load.raw + queriesTotal.raw,
          gzip: load.gzip + queriesTotal.gzip },
      };
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }

  const timed = rows.filter((r) => !r.first && r.ms !== null).map((r) => r.ms);
  const summary = {
    site,
    set: path.relative(process.cwd(), path.resolve(options.set)) || options.set,
    queries: rows.length,
    mode: modes,
    overall: rate(rows),
    by_kind: groupBy(rows, 'kind'),
    by_lang: groupBy(rows, 'lang'),
    latency_ms: { n: timed.length, median: median(timed), max: timed.length ? Math.max(...timed) : null,
      first_query: Object.fromEntries(rows.filter((r) => r.first).map((r) => [r.lang, r.ms])) },
    bytes,
  };

  if (options.json) {
    console.log(JSON.stringify({ summary, results: rows.map((r) => ({ query: r.query, lang: r.lang, kind: r.kind,
      expect: r.expect, rank: r.rank, top: r.top, total: r.total, fallback: r.fallback || null,
      ms: r.ms, bytes: r.bytes, error: r.error || undefined })) }, null, 2));
    return;
  }

  console.log(`search eval: ${rows.length} queries from ${summary.set} on ${site}`);
  console.log(`asked through: ${Object.entries(modes).map(([l, m]) => `${l} ${m}`).join(', ')}`);
  rows.forEach((r, i) => {
    const mark = r.rank === 1 ? 'hit@1' : r.rank ? `hit@5 rank ${r.rank}` : 'MISS';
    const text = r.query.length > 60 ? `${r.query.slice(0, 57)}...` : r.query;
    const ms = r.ms === null ? '' : ` ${r.ms.toFixed(1)} ms`;
    const top = r.top.slice(0, 3).join(', ') || '(none)';
    const extra = (r.fallback ? ` fallback: ${r.fallback}` : '') + (r.error ? ` ERROR: ${r.error}` : '');
    console.log(`${String(i + 1).padStart(3)} ${mark.padEnd(15)} ${r.kind.padEnd(12)} ${r.lang} ` +
      `${JSON.stringify(text)}${ms} -> ${top}${extra}`);
  });
  console.log('');
  console.log(`overall: hit@1 ${pct(summary.overall)}, hit@5 ${pct5(summary.overall)}`);
  for (const [name, groups] of [['kind', summary.by_kind], ['lang', summary.by_lang]]) {
    for (const [k, r] of Object.entries(groups)) {
      console.log(`  ${name} ${k.padEnd(13)} hit@1 ${pct(r).padEnd(12)} hit@5 ${pct5(r)}`);
    }
  }
  const l = summary.latency_ms;
  if (l.n) {
    console.log(`time from asking to results (${l.n} queries, the first of each page left out): ` +
      `median ${l.median.toFixed(1)} ms, max ${l.max.toFixed(1)} ms; first query: ` +
      Object.entries(l.first_query).map(([k, v]) => `${k} ${v === null ? '?' : v.toFixed(1)} ms`).join(', '));
  }
  for (const [lang, b] of Object.entries(bytes)) {
    const fq = b.first_query || { requests: 0, raw: 0, gzip: 0 };
    console.log(`bytes ${lang}: page ${kb(b.page.raw)} (gzip ${kb(b.page.gzip)}, ${b.page.requests} requests); ` +
      `first query ${kb(fq.raw)} (gzip ${kb(fq.gzip)}, ${fq.requests} requests); ` +
      `all ${queries.filter((q) => q.lang === lang).length} queries ${kb(b.queries.raw)} (gzip ${kb(b.queries.gzip)}, ` +
      `${b.queries.requests} requests); total ${kb(b.total.raw)} (gzip ${kb(b.total.gzip)})`);
  }
}

try {
  await main();
} catch (error) {
  console.error(`search eval failed: ${error.stack || error}`);
}
process.exit(0);
