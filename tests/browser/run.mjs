// Browser tests for the site `kbc build` writes: search (English and Chinese) and its
// scoring, the paste box against `kbc match`, the language switch, untranslated notes, console
// errors, accessibility (axe-core, light and dark, desktop and phone width, keyboard focus),
// screenshots, narrow screens, the language redirect, the tokenizer cases shared with the C++
// unit test, and search speed.
//
//   node tests/browser/run.mjs --site <out>/site --screenshots <dir>
//        [--site-untranslated <fixture site>] [--site-backtracking <fixture site>]
//        [--chromium /usr/bin/chromium]
//        [--kbc build/kbc --root <knowledge base of --site>
//         [--root-untranslated <knowledge base of --site-untranslated>]]
//
// With --kbc and --root, the paste box's answers are compared with `kbc match --root`, run
// once per entry of the site; without them those tests fail.
//
// Prints "ok N - name" / "not ok N - name" lines and exits 1 if any test failed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

// ---- options ----

const usage = 'usage: node tests/browser/run.mjs --site <site dir> --screenshots <dir> ' +
  '[--site-untranslated <site dir>] [--site-backtracking <site dir>] [--chromium <executable>] ' +
  '[--kbc <kbc> --root <knowledge base> [--root-untranslated <knowledge base>]]';
let options;
try {
  ({ values: options } = parseArgs({
    options: {
      site: { type: 'string' },
      screenshots: { type: 'string' },
      'site-untranslated': { type: 'string' },
      'site-backtracking': { type: 'string' },
      chromium: { type: 'string', default: '/usr/bin/chromium' },
      kbc: { type: 'string' },
      root: { type: 'string' },
      'root-untranslated': { type: 'string' },
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
const untranslatedSite = options['site-untranslated'] ? path.resolve(options['site-untranslated']) : null;
const backtrackingSite = options['site-backtracking'] ? path.resolve(options['site-backtracking']) : null;
const screenshots = path.resolve(options.screenshots || path.join(os.tmpdir(), 'kbc-screenshots'));
for (const dir of [site, untranslatedSite, backtrackingSite].filter(Boolean)) {
  if (!fs.existsSync(path.join(dir, 'en', 'index.html'))) {
    console.error(`${dir} is not a built site: en/index.html is missing`);
    process.exit(2);
  }
}

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\u{20000}-\u{2fa1f}]/u;
const strings = {
  en: readJson(path.join(here, '../../templates/strings/en.json')),
  zh: readJson(path.join(here, '../../templates/strings/zh.json')),
};

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

// ---- a static file server ----

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};

// Serves `root` at `prefix` (a sub-path such as /docs/kb/, or /).
function serve(root, prefix = '/') {
  const server = http.createServer((request, response) => {
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    } catch {
      response.writeHead(400).end();
      return;
    }
    if (!pathname.startsWith(prefix)) {
      response.writeHead(404, { 'content-type': TYPES['.txt'] }).end('Not found\n');
      return;
    }
    pathname = pathname.slice(prefix.length - 1);
    let file = path.join(root, pathname);
    if (file !== root && !file.startsWith(root + path.sep)) {
      response.writeHead(403).end();
      return;
    }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    if (!fs.existsSync(file) || !fs.statSync(file).isFile()) {
      // A page under en/ or zh/ gets that language's 404 page, any other the site's own
      // 404.html (what GitHub Pages serves for every missing page), with the 404 status.
      const lang = pathname.split('/')[1];
      const notFound = lang === 'en' || lang === 'zh' ? path.join(root, lang, '404.html') : path.join(root, '404.html');
      const isPage = pathname.endsWith('/') || pathname.endsWith('.html');
      if (isPage && fs.existsSync(notFound)) {
        response.writeHead(404, { 'content-type': TYPES['.html'] }).end(fs.readFileSync(notFound));
      } else {
        response.writeHead(404, { 'content-type': TYPES['.txt'] }).end('Not found\n');
      }
      return;
    }
    const type = TYPES[path.extname(file).toLowerCase()] || 'application/octet-stream';
    response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
    fs.createReadStream(file).pipe(response);
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

// ---- the tiny test runner ----

let count = 0;
let failed = 0;

async function test(name, fn, timeoutMs = 60000) {
  const number = ++count;
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([fn(), timeout]);
    console.log(`ok ${number} - ${name}`);
  } catch (error) {
    failed++;
    console.log(`not ok ${number} - ${name}`);
    const text = error instanceof assert.AssertionError ? error.message : error.stack || String(error);
    for (const line of text.split('\n')) console.log(`  # ${line}`);
  } finally {
    clearTimeout(timer);
  }
}

function note(text) {
  for (const line of String(text).split('\n')) console.log(`# ${line}`);
}

// ---- browser helpers ----

let browser;
const problems = [];  // console errors and page errors, on every page of every context
const visited = new Set();

async function newContext(contextOptions = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...contextOptions });
  context.setDefaultTimeout(15000);
  context.on('page', watch);
  return context;
}

function watch(page) {
  page.on('console', (message) => {
    if (message.type() === 'error') {
      problems.push(`console error on ${page.url()}: ${message.text()} (${message.location().url || '?'})`);
    } else if (message.type() === 'warning') {
      note(`console warning on ${page.url()}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`page error on ${page.url()}: ${error.message}`));
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.add(frame.url());
  });
}

// Runs fn(page, context) in a fresh context, always closing it.
async function withPage(contextOptions, fn) {
  const context = await newContext(contextOptions);
  try {
    return await fn(await context.newPage(), context);
  } finally {
    await context.close();
  }
}

// Types like a user, one key at a time.
async function typeQuery(page, text) {
  const input = page.locator('#q');
  await input.click();
  await input.fill('');
  await input.pressSequentially(text, { delay: 5 });
}

// Waits until a search result links to `href` (absolute) and returns its position.
async function waitForResult(page, href) {
  try {
    const handle = await page.waitForFunction((target) => {
      const links = [...document.querySelectorAll('#search-results a')];
      const at = links.findIndex((a) => a.href === target);
      return at >= 0 ? at + 1 : 0;
    }, href, { timeout: 10000 });
    return (await handle.jsonValue()) - 1;
  } catch {
    const shown = await page.evaluate(() => ({
      status: document.getElementById('search-status')?.textContent,
      links: [...document.querySelectorAll('#search-results a')].slice(0, 5).map((a) => a.href),
    }));
    assert.fail(`no search result links to ${href}; status "${shown.status}", first results ${JSON.stringify(shown.links)}`);
  }
}

// Runs axe-core on the page; returns every violation as lines
async function axeCheck(page, label) {
  await page.addScriptTag({ path: axePath });
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${(n.failureSummary || '').replace(/\s+/g, ' ')}`),
    }));
  });
  // Every violation counts, whatever its impact (minor and moderate ones too).
  return violations.map((v) => `${label} [${v.impact}] ${v.id}: ${v.help}\n    ${v.nodes.join('\n    ')}`);
}

// ---- facts about the site, read from disk ----

// A language's split search index (search/meta.json, t<k>.json, d<k>.json) read whole:
// {meta, terms (term -> [df, doc, weight, ...]), docs, and for the helpers below words and
// word_postings (single words, sorted) and grams (CJK pairs), postings without df}.
function index(root, lang) {
  const dir = path.join(root, lang, 'search');
  const meta = readJson(path.join(dir, 'meta.json'));
  const terms = {};
  meta.shards.forEach((_, k) => Object.assign(terms, readJson(path.join(dir, `t${k}.json`))));
  const docs = [];
  for (let k = 0; k * meta.doc_chunk < meta.docs; k++) docs.push(...readJson(path.join(dir, `d${k}.json`)));
  const words = Object.keys(terms).filter((t) => !CJK.test(t) && !t.includes(' ')).sort();
  const grams = {};
  for (const t of Object.keys(terms)) if (CJK.test(t)) grams[t] = terms[t].slice(1);
  return { meta, terms, docs, words, word_postings: words.map((w) => terms[w].slice(1)), grams };
}

function entryPages(root, lang) {
  const base = path.join(root, lang, 'entries');
  const pages = [];
  const walk = (dir) => {
    for (const item of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, item.name);
      if (item.isDirectory()) walk(full);
      else if (item.name.endsWith('.html')) pages.push(path.relative(path.join(root, lang), full).split(path.sep).join('/'));
    }
  };
  if (fs.existsSync(base)) walk(base);
  return pages.sort();
}

// Documents containing every one of `tokens` exactly (a lower bound of what search finds).
function docsWithAll(idx, tokens) {
  let docs = null;
  for (const token of tokens) {
    const at = idx.words.indexOf(token);
    const postings = CJK.test(token) ? idx.grams[token] || [] : at >= 0 ? idx.word_postings[at] : [];
    const these = new Set(postings.filter((_, i) => i % 2 === 0));
    docs = docs ? new Set([...docs].filter((d) => these.has(d))) : these;
  }
  return docs || new Set();
}

function asciiTokens(text) {
  return (text.match(/[A-Za-z0-9]+/g) || []).map((w) => w.toLowerCase());
}

// Two consecutive words of the title, the pair that the fewest documents share.
function titleQuery(idx, doc) {
  const title = idx.docs[doc][1];
  const chunks = title.split(/\s+/).filter((chunk) => /[A-Za-z0-9]{2}/.test(chunk));
  let best = null;
  for (let i = 0; i + 1 < chunks.length || (i === 0 && chunks.length === 1); i++) {
    const text = chunks.slice(i, i + 2).join(' ');
    const tokens = asciiTokens(text);
    const score = [docsWithAll(idx, tokens).size, -tokens.join('').length];
    if (!best || score[0] < best.score[0] || (score[0] === best.score[0] && score[1] < best.score[1])) {
      best = { text, score };
    }
  }
  return best ? best.text : title;
}

// The entry with the most content (largest page) among the first 200, for screenshots and axe.
function richestEntry(root) {
  const en = new Set(entryPages(root, 'en'));
  const both = entryPages(root, 'zh').filter((p) => en.has(p)).slice(0, 200);
  assert.ok(both.length > 0, 'the site has no entry pages in both languages');
  const size = (p) => fs.statSync(path.join(root, 'en', p)).size + fs.statSync(path.join(root, 'zh', p)).size;
  return both.reduce((a, b) => (size(b) > size(a) ? b : a));
}

// ---- the paste box and kbc match ----

// kbc match's regex plans, in a cache of this run's own: made by the first call, read by the
// next hundreds (a third of the time each; the cache never changes what matches, as the
// suite's tests of it check).
let matchCache = null;

// `kbc match --json` over `text` with every hit (the signature as TEXT, a log on stdin).
function kbcMatch(root, text, { stdin = false } = {}) {
  assert.ok(options.kbc && root, 'the paste-box tests compare with kbc match: pass --kbc <kbc> --root <knowledge base>');
  if (!matchCache) {
    matchCache = fs.mkdtempSync(path.join(os.tmpdir(), 'kbc-match-cache-'));
    process.on('exit', () => fs.rmSync(matchCache, { recursive: true, force: true }));
  }
  const args = ['match', '--json', '--top', '1000000', '--root', root];
  const run = spawnSync(options.kbc, stdin ? [...args, '-'] : [...args, '--', text],
    { input: stdin ? text : '', encoding: 'utf8', maxBuffer: 1 << 28,
      env: { ...process.env, XDG_CACHE_HOME: matchCache } });
  if (run.error) throw run.error;
  assert.ok(run.status === 0 || run.status === 1, `kbc match exited ${run.status}: ${run.stderr}`);
  return JSON.parse(run.stdout).hits;
}

// A hit of either side as one comparable line: id, score, line, match in code points, by.
function cliHitLine(h) {
  return `${h.id} ${JSON.stringify(h.score)} line ${h.line} [${h.match.begin},${h.match.end}) ${h.match.by}`;
}

// In the page: window.kbcMatch over the page's match.json, as lines like cliHitLine's.
async function pageMatchLines(page, texts) {
  return page.evaluate(async (all) => {
    const url = document.querySelector('form.paste-form').getAttribute('data-match');
    const data = await (await fetch(url)).json();
    const cp = (s) => [...s].length;
    const lines = [];
    for (const text of all) {
      lines.push((await window.kbcMatch.match(data, text)).map((h) =>
        `${h.id} ${JSON.stringify(h.score)} line ${h.line} [${cp(h.text.slice(0, h.begin))},${cp(h.text.slice(0, h.end))}) ${h.by}`));
    }
    return lines;
  }, texts);
}

// Pastes `text` into the box, submits (button or Ctrl+Enter) and waits for the answer; returns
// the status and, per result shown, its link, link text and matched line.
async function paste(page, text, { keyboard = false } = {}) {
  const box = page.locator('#paste-text');
  await page.evaluate(() => { document.getElementById('paste-status').textContent = ''; });
  await box.fill(text);
  if (keyboard) {
    await box.focus();
    await page.keyboard.press('Control+Enter');
  } else {
    await page.locator('form.paste-form button[type="submit"]').click();
  }
  await page.waitForFunction(() => {
    const status = document.getElementById('paste-status').textContent;
    return status !== '' && status !== document.querySelector('form.paste-form').getAttribute('data-loading');
  });
  return page.evaluate(() => ({
    status: document.getElementById('paste-status').textContent,
    results: [...document.querySelectorAll('#paste-results li')].map((li) => ({
      href: li.querySelector('a').href,
      title: li.querySelector('a').textContent,
      line: li.querySelector('p').textContent,
    })),
  }));
}

// The entry id of a result link (…/<lang>/entries/<id>.html).
function idOfLink(href) {
  const match = /\/(?:en|zh)\/entries\/(.+)\.html$/.exec(new URL(href).pathname);
  return match ? match[1] : null;
}

// A log made of the entries' signatures and the kinds of lines real logs hold around them.
function logOf(signatures) {
  const lines = ['INFO starting job 42', ''];
  signatures.forEach((sig, i) => {
    const kind = i % 5;
    if (kind === 0) lines.push(sig);
    else if (kind === 1) lines.push(`2024-06-01 12:00:0${i % 10} ERROR ${sig}`);
    else if (kind === 2) lines.push(`  ${sig.toUpperCase()}\r`);
    else if (kind === 3 && i % 2) lines.push(`${sig} (while running step ${i}) 😀`);
    // Without its error words, an INFO line that both kbc match and the page skip.
    else if (kind === 3) lines.push(`12:00:0${i % 10} INFO ${sig.replace(/error|exception|fail|fatal/gi, '')}`);
    else lines.push(`warning: ${sig.slice(0, Math.max(8, Math.floor(sig.length / 2)))}`);
    if (i % 3 === 0) lines.push('Traceback (most recent call last):');
  });
  lines.push(signatures[0] || '', 'done');
  return lines.join('\n');
}

// ---- main ----

const main = await serve(site);
const extra = untranslatedSite ? await serve(untranslatedSite) : null;
const at = (rel, origin = main.origin) => `${origin}/${rel}`;
fs.mkdirSync(screenshots, { recursive: true });

note(`site ${site} served at ${main.origin}`);
if (extra) note(`untranslated fixture ${untranslatedSite} served at ${extra.origin}`);

const enIndex = index(site, 'en');
const zhIndex = index(site, 'zh');
const showcase = richestEntry(site);  // e.g. entries/cuda/x.html
const enQuery = titleQuery(enIndex, 0);
const domainPage = `domains/${enIndex.docs[0][4]}.html`;
// Every type of page of a language: [type, path under the language, query to type or null].
const pageTypes = (lang) => [['home', 'index.html', null], ['search', 'search.html', lang === 'en' ? enQuery : (zhQuery || titleQuery(zhIndex, 0))],
  ['entry', showcase, null], ['domain', domainPage, null], ['404', '404.html', null]];
let zhQuery = null;  // found by test b, reused by the accessibility tests
// A zh entry page with an untranslated note: in the site, else in the fixture site.
const untranslated = (() => {
  for (const [root, server] of [[site, main], [untranslatedSite, extra]]) {
    if (!root) continue;
    const rel = entryPages(root, 'zh')
      .find((p) => fs.readFileSync(path.join(root, 'zh', p), 'utf8').includes('class="fallback-mark"'));
    if (rel) return { root, origin: server.origin, rel };
  }
  return null;
})();

try {
  browser = await chromium.launch({ executablePath: options.chromium, headless: true, args: ['--no-sandbox'] });
  note(`chromium ${browser.version()}`);

  await test('i. window.kbcSearch.tokenize gives the tokens of every case in tokenizer-cases.json', async () => {
    const cases = readJson(path.join(here, 'tokenizer-cases.json'));
    assert.ok(cases.length >= 12, 'at least 12 cases');
    await withPage({}, async (page) => {
      await page.goto(at('en/index.html'));
      const got = await page.evaluate((texts) => texts.map((t) => window.kbcSearch.tokenize(t)), cases.map((c) => c.text));
      const wrong = cases
        .map((c, i) => ({ text: c.text, expected: c.tokens, got: got[i] }))
        .filter((c) => JSON.stringify(c.expected) !== JSON.stringify(c.got));
      assert.deepEqual(wrong, [], `${wrong.length} of ${cases.length} cases differ`);
    });
  });

  await test(`a. English home page: typing "${enQuery}" finds ${enIndex.docs[0][3]} and the result opens it`, async () => {
    const [url, , , id] = enIndex.docs[0];
    const target = at(`en/${url}`);
    await withPage({}, async (page) => {
      await page.goto(at('en/index.html'));
      await typeQuery(page, enQuery);
      const position = await waitForResult(page, target);
      const status = await page.locator('#search-status').textContent();
      assert.match(status, /\d/, `the status "${status}" gives the number of results`);
      await page.locator('#search-results a').nth(position).click();
      await page.waitForURL(target);
      assert.equal(await page.locator('.breadcrumbs [aria-current="page"]').textContent(), id);
      assert.equal(await page.locator('html').getAttribute('lang'), 'en');
    });
  });

  await test('a2. search page: no-results message, cleared query clears results, ?q= kept in the URL', async () => {
    await withPage({}, async (page) => {
      await page.goto(at('en/search.html'));
      await typeQuery(page, 'zzqxjv qqzzxv');
      await page.waitForFunction(() => document.getElementById('search-status').textContent !== '');
      const form = page.locator('main form.search');
      assert.equal(await page.locator('#search-status').textContent(), await form.getAttribute('data-no-results'));
      assert.equal(await page.locator('#search-results li').count(), 0);
      assert.equal(new URL(page.url()).searchParams.get('q'), 'zzqxjv qqzzxv');
      await typeQuery(page, enQuery);
      await page.waitForFunction(() => document.querySelectorAll('#search-results li').length > 0);
      const shown = await page.locator('#search-results li').count();
      const label = await form.getAttribute(shown === 1 ? 'data-results-one' : 'data-results-other');
      assert.ok(shown <= 10, `at most 10 results shown at first, got ${shown}`);
      const status = await page.locator('#search-status').textContent();
      const pattern = new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('\\{n\\}', '\\d+')}$`);
      assert.match(status, pattern);
      await page.locator('#q').fill('');
      await page.waitForFunction(() => document.getElementById('search-status').textContent === '');
      assert.equal(await page.locator('#search-results li').count(), 0);
      assert.equal(new URL(page.url()).searchParams.get('q'), null);
      // Submitting shows the results in place, without loading another page.
      await page.locator('#q').fill(enQuery);
      await page.evaluate(() => { window.notReloaded = true; });
      await page.locator('#q').press('Enter');
      await page.waitForFunction(() => document.querySelectorAll('#search-results li').length > 0);
      assert.equal(await page.evaluate(() => window.notReloaded), true, 'submitting reloaded the page');
    });
  });

  await test('b. Chinese search page finds an entry by 4 Chinese characters of its root cause', async () => {
    await withPage({}, async (page) => {
      let found = null;
      for (const [url, , , id] of zhIndex.docs.slice(0, 50)) {
        await page.goto(at(`zh/${url}`));
        const text = await page.evaluate(() => {
          const section = document.getElementById('root-cause')?.closest('section');
          return [...(section?.querySelectorAll('.prose') || [])]
            .filter((p) => !(p.closest('[lang]')?.getAttribute('lang') || '').startsWith('en'))
            .map((p) => p.textContent).join('\n');
        });
        // Of all 4-character CJK windows, the one the fewest documents share.
        const chars = [...text];
        let best = null;
        for (let i = 0; i + 4 <= chars.length; i++) {
          const window4 = chars.slice(i, i + 4);
          if (!window4.every((c) => CJK.test(c))) continue;
          const grams = [0, 1, 2].map((k) => window4[k] + window4[k + 1]);
          const shared = docsWithAll(zhIndex, grams).size;
          if (shared > 0 && (!best || shared < best.shared)) best = { q: window4.join(''), shared };
        }
        if (best) {
          found = { url, id, q: best.q };
          break;
        }
      }
      assert.ok(found, 'no zh entry page (of the first 50) has 4 consecutive Chinese characters in a translated root cause');
      zhQuery = found.q;
      note(`query "${found.q}" for ${found.id}`);
      const target = at(`zh/${found.url}`);
      await page.goto(at('zh/search.html'));
      await typeQuery(page, found.q);
      const position = await waitForResult(page, target);
      assert.equal(new URL(page.url()).searchParams.get('q'), found.q, 'the search page keeps ?q= in its URL');
      // Opening the search page with ?q= shows the same results.
      await page.goto(at(`zh/search.html?q=${encodeURIComponent(found.q)}`));
      await waitForResult(page, target);
      assert.equal(await page.locator('#q').inputValue(), found.q);
      await page.locator('#search-results a').nth(position).click();
      await page.waitForURL(target);
      assert.equal(await page.locator('html').getAttribute('lang'), 'zh-CN');
    });
  });

  await test('c. the language switch of an entry page leads to the same entry in the other language, both ways', async () => {
    // Prefer an id of three segments, the deepest path.
    const pages = entryPages(site, 'en');
    const rel = pages.reduce((a, b) => (b.split('/').length > a.split('/').length ? b : a), pages[0]);
    await withPage({}, async (page) => {
      await page.goto(at(`en/${rel}`));
      await page.locator('a.lang-switch').click();
      await page.waitForURL(at(`zh/${rel}`));
      assert.equal(await page.locator('html').getAttribute('lang'), 'zh-CN');
      await page.locator('a.lang-switch').click();
      await page.waitForURL(at(`en/${rel}`));
      assert.equal(await page.locator('html').getAttribute('lang'), 'en');
      for (const [lang, other] of [['en', 'zh-CN'], ['zh', 'en']]) {
        await page.goto(at(`${lang}/index.html`));
        assert.equal(await page.locator('a.lang-switch').getAttribute('hreflang'), other);
      }
    });
  });

  await test('d. a page with no Chinese says so once, is noindex and in English; a partly translated page marks each text shown in English', async () => {
    assert.ok(untranslated, 'no zh entry page is partly untranslated; pass --site-untranslated <site built from tests/browser/fixtures>');
    assert.ok(options.kbc && options['root-untranslated'], 'needs --kbc and --root-untranslated');
    // The fixture's entry with every Chinese key taken out, built into a site of its own.
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kbc-untranslated-'));
    const entry = path.join('entries', 'cuda', 'driver-version-insufficient.yaml');
    fs.mkdirSync(path.join(work, 'kb', 'entries', 'cuda'), { recursive: true });
    const lines = fs.readFileSync(path.join(options['root-untranslated'], entry), 'utf8').split('\n');
    const kept = [];
    for (let i = 0; i < lines.length; i++) {
      if (/^[a-z_]+_zh:/.test(lines[i])) {
        while (i + 1 < lines.length && /^[ -]/.test(lines[i + 1])) i++;  // and its block
        continue;
      }
      kept.push(lines[i]);
    }
    fs.writeFileSync(path.join(work, 'kb', entry), kept.join('\n'));
    const built = spawnSync(options.kbc, ['build', '--root', path.join(work, 'kb'), '--out', path.join(work, 'out'), '--base-url', 'https://kb.example/'], { encoding: 'utf8' });
    assert.equal(built.status, 0, built.stderr);
    const server = await serve(path.join(work, 'out', 'site'));
    try {
      await withPage({}, async (page) => {
        await page.goto(at('zh/entries/cuda/driver-version-insufficient.html', server.origin));
        const notes = page.locator('.untranslated-note');
        assert.equal(await notes.count(), 1, 'one notice for the page');
        assert.ok(await notes.first().isVisible());
        assert.equal((await notes.first().textContent()).trim(), strings.zh.page_not_translated);
        assert.ok((await notes.first().evaluate((el) => el.closest('[lang]').getAttribute('lang'))).startsWith('zh'));
        assert.equal(await page.locator('.fallback-mark').count(), 0, 'no marks on a page that is all English');
        assert.equal(await page.locator('h1').evaluate((el) => el.closest('[lang]').getAttribute('lang')), 'en');
        assert.equal(await page.locator('meta[name="robots"]').getAttribute('content'), 'noindex');
        assert.equal(await page.locator('link[rel="canonical"]').getAttribute('href'), 'https://kb.example/en/entries/cuda/driver-version-insufficient.html');
        assert.equal(JSON.parse(await page.locator('script[type="application/ld+json"]').textContent()).inLanguage, 'en');
      });
      const sitemap = fs.readFileSync(path.join(work, 'out', 'site', 'sitemap.xml'), 'utf8');
      assert.ok(!sitemap.includes('<loc>https://kb.example/zh/entries/'), 'the page is not in the sitemap');
      assert.ok(sitemap.includes('<loc>https://kb.example/en/entries/cuda/driver-version-insufficient.html</loc>'));
    } finally {
      await server.close();
      fs.rmSync(work, { recursive: true, force: true });
    }
    // The fixture itself: a Chinese title and dead ends, the rest in English, each text marked.
    const { origin, rel } = untranslated;
    note(`page ${untranslated.root}/zh/${rel}`);
    await withPage({}, async (page) => {
      await page.goto(at(`zh/${rel}`, origin));
      assert.equal(await page.locator('.untranslated-note').count(), 0);
      assert.equal(await page.locator('meta[name="robots"]').count(), 0, 'a translated page is indexed');
      const marks = page.locator('.fallback-mark');
      const n = await marks.count();
      assert.ok(n > 0, 'the texts shown in English are marked');
      for (let i = 0; i < n; i++) {
        const mark = marks.nth(i);
        assert.ok(await mark.isVisible(), `mark ${i + 1} is visible`);
        assert.equal((await mark.textContent()).trim(), strings.zh.in_base_language);
        const text = await mark.evaluate((el) => {
          // The English text is the mark's container (a .prose block) or a sibling marked lang="en".
          const holder = el.closest('.prose[lang="en"]') || [...el.parentElement.children].find((c) => c !== el && c.getAttribute('lang') === 'en');
          return holder ? holder.textContent.replace(el.textContent, '').trim() : '';
        });
        assert.ok(text !== '', `mark ${i + 1} goes with a text marked lang="en"`);
      }
      note(`${n} mark(s) checked`);
    });
  });

  for (const lang of ['en', 'zh']) {
    for (const scheme of ['light', 'dark']) {
      await test(`f. axe-core: no violation, ${lang} ${scheme} (home, search with results, entry, domain, 404${lang === 'zh' ? ', untranslated entry' : ''})`, async () => {
        const query = lang === 'en' ? enQuery : zhQuery || titleQuery(zhIndex, 0);
        const found = [];
        await withPage({}, async (page) => {
          await page.emulateMedia({ colorScheme: scheme });
          const pages = [['index.html', null], ['search.html', query], [showcase, null], [domainPage, null], ['404.html', null]];
          if (lang === 'zh' && untranslated) pages.push([untranslated.rel, null, untranslated.origin]);
          for (const [rel, q, origin] of pages) {
            await page.goto(at(`${lang}/${rel}`, origin));
            if (q) {
              await typeQuery(page, q);
              await page.waitForFunction(() => document.querySelectorAll('#search-results li').length > 0);
            }
            found.push(...await axeCheck(page, `${lang}/${rel}`));
          }
        });
        assert.deepEqual(found, [], `${found.length} violation(s):\n${found.join('\n')}`);
      }, 120000);
    }
  }

  await test('f2. axe-core at phone width (390 px): no violation on an entry page, en and zh', async () => {
    const found = [];
    await withPage({ viewport: { width: 390, height: 844 } }, async (page) => {
      for (const lang of ['en', 'zh']) {
        await page.goto(at(`${lang}/${showcase}`));
        found.push(...await axeCheck(page, `${lang}/${showcase} at 390 px`));
      }
    });
    assert.deepEqual(found, [], `${found.length} violation(s):\n${found.join('\n')}`);
  }, 120000);

  await test('f3. colour contrast of every badge, note and muted text variant, light and dark', async () => {
    // The data may not use every tier or rate, so a sample of each class is added to an
    // entry page and checked with axe-core's color-contrast rule.
    const found = [];
    await withPage({}, async (page) => {
      for (const scheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto(at(`en/${showcase}`));
        await page.evaluate(() => {
          const sample = document.createElement('section');
          sample.id = 'contrast-sample';
          sample.innerHTML = [
            '<p><span class="tier tier-ai_generated">AI-generated</span> <span class="tier tier-human_reviewed">Human-reviewed</span>',
            ' <span class="tier tier-verified">Verified</span> <span class="rate">85%</span>',
            ' <span class="rate rate-success">95% success</span> <span class="rate rate-fail">30% fail</span></p>',
            '<p class="untranslated-note">Not yet translated.</p><p>Text <span class="fallback-mark">English</span></p>',
            '<ul class="tags"><li>tag</li></ul><p class="aliases">Also <code>alias</code></p>',
            '<div class="at-a-glance"><p>Try <a class="jump" href="#">details</a></p></div>',
            '<ul class="search-results"><li><a href="#"><mark>cuda</mark> x</a> <span class="result-meta"><span class="result-domain">cuda</span></span><p><mark>cuda</mark> y</p></li></ul>',
            '<ul class="related"><li><span class="unavailable">missing/entry</span> <span class="detail">detail</span></li></ul>',
            '<p class="formats"><a href="#">JSON record</a></p><p>Text with <code>inline code</code> and <a href="#">a link</a>.</p>',
            '<pre class="how"><code>code block</code></pre><ul class="entry-list"><li><a href="#">t</a> <time>2025-01-01</time></li></ul>',
            '<ul class="domain-list"><li><a href="#">cuda</a> <span class="count">12</span></li></ul>',
            '<ul class="totals"><li><span class="number">12</span> entries</li></ul>',
          ].join('');
          document.querySelector('main').appendChild(sample);
        });
        await page.addScriptTag({ path: axePath });
        const violations = await page.evaluate(async () => {
          const result = await window.axe.run('#contrast-sample', { runOnly: ['color-contrast'] });
          return result.violations.flatMap((v) => v.nodes.map((n) => `${n.target.join(' ')}: ${(n.failureSummary || '').replace(/\s+/g, ' ')}`));
        });
        found.push(...violations.map((v) => `${scheme}: ${v}`));
      }
    });
    assert.deepEqual(found, []);
  });

  await test('g. screenshots of every page type (home, search with results, entry, domain, 404), en and zh, phone and desktop, light and dark', async () => {
    let written = 0;
    for (const [width, height, size] of [[1280, 900, 'desktop'], [390, 844, 'phone']]) {
      for (const scheme of ['light', 'dark']) {
        await withPage({ viewport: { width, height } }, async (page) => {
          await page.emulateMedia({ colorScheme: scheme });
          for (const lang of ['en', 'zh']) {
            for (const [type, rel, q] of pageTypes(lang)) {
              await page.goto(at(`${lang}/${rel}`));
              if (q) {
                await typeQuery(page, q);
                await page.waitForFunction(() => document.querySelectorAll('#search-results li').length > 0);
              }
              await page.evaluate(() => document.fonts.ready);
              const name = `${type}-${lang}-${size}-${scheme}.png`;
              await page.screenshot({ path: path.join(screenshots, name), fullPage: true });
              assert.ok(fs.statSync(path.join(screenshots, name)).size > 1000, `${name} was written`);
              written++;
            }
          }
        });
      }
    }
    note(`${written} written to ${screenshots}`);
  }, 240000);

  await test('g2. no horizontal scrolling at 360 px (every page type, both languages)', async () => {
    const wide = [];
    await withPage({ viewport: { width: 360, height: 740 } }, async (page) => {
      for (const lang of ['en', 'zh']) {
        for (const [, rel, q] of pageTypes(lang)) {
          await page.goto(at(`${lang}/${rel}`));
          if (q) {
            await typeQuery(page, q);
            await page.waitForFunction(() => document.querySelectorAll('#search-results li').length > 0);
          }
          const width = await page.evaluate(() => document.documentElement.scrollWidth);
          if (width > 360) wide.push(`${lang}/${rel} is ${width} px wide`);
        }
      }
    });
    assert.deepEqual(wide, []);
  });

  // At 360 px, in en and zh, light and dark: `rel` after `prepare(page, lang)` has no horizontal
  // scrolling and no axe violation.
  const checkAtPhoneWidth = async (rel, label, prepare) => {
    const wide = [];
    const found = [];
    await withPage({ viewport: { width: 360, height: 740 } }, async (page) => {
      for (const lang of ['en', 'zh']) {
        for (const scheme of ['light', 'dark']) {
          await page.emulateMedia({ colorScheme: scheme });
          await page.goto(at(`${lang}/${rel}`));
          await prepare(page, lang);
          const width = await page.evaluate(() => document.documentElement.scrollWidth);
          if (width > 360) wide.push(`${lang} ${scheme}: ${width} px wide`);
          found.push(...(await axeCheck(page, `${lang}/${rel}${label}, ${scheme}`)));
        }
      }
    });
    assert.deepEqual(wide, []);
    assert.deepEqual(found, [], `${found.length} violation(s):\n${found.join('\n')}`);
  };

  await test('g4. the "Reproduced" section of an entry (its long output line): at 360 px no horizontal scrolling and no axe violation, en and zh, light and dark', async () => {
    // The recorded line of this entry is 600 characters.
    await checkAtPhoneWidth('entries/pytorch/cuda-out-of-memory.html', '', async (page, lang) => {
      const line = await page.locator('section[aria-labelledby="reproduced"] pre code').textContent();
      assert.ok(line.includes('CUDA out of memory'), `${lang}: no recorded line`);
      assert.ok(await page.locator('nav a[href="#reproduced"]').count() === 1, `${lang}: not in the contents`);
    });
  }, 120000);

  await test('g3. the pages of a long domain list: at 360 px no horizontal scrolling and no axe violation, en and zh, light and dark', async () => {
    // The site's domains are short, so the page links of page 500 of 1,000 (the widest: 1, a
    // gap, 498 to 502, a gap, 1,000, with previous and next) are added as the template writes them.
    await checkAtPhoneWidth(domainPage, ' with page links', async (page, lang) => {
      await page.evaluate((t) => {
        const link = (n) => `<li><a href="#" aria-label="${t.page_number.replace('{n}', n)}"${n === '500' ? ' aria-current="page"' : ''}>${n}</a></li>`;
        const gap = '<li><span class="gap">…</span></li>';
        document.querySelector('main').insertAdjacentHTML('beforeend', `<nav class="pagination" aria-label="${t.pagination}"><ul>` +
          `<li><a href="#" rel="prev">${t.previous_page}</a></li>${link('1')}${gap}` +
          ['498', '499', '500', '501', '502'].map(link).join('') + `${gap}${link('1,000')}` +
          `<li><a href="#" rel="next">${t.next_page}</a></li></ul></nav>`);
      }, strings[lang]);
    });
  }, 120000);

  await test('l. keyboard: the skip link appears only when focused; focused links and the search box show an outline', async () => {
    await withPage({}, async (page) => {
      await page.goto(at(`en/${showcase}`));
      const skip = page.locator('.skip-link');
      const hidden = await skip.boundingBox();
      assert.ok(!hidden || hidden.y + hidden.height <= 0 || hidden.x + hidden.width <= 0, 'the skip link is off screen before focus');
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.className), 'skip-link', 'Tab focuses the skip link first');
      const shown = await skip.boundingBox();
      assert.ok(shown && shown.y >= 0 && shown.x >= 0, 'the focused skip link is on screen');
      const outlines = [];
      for (let i = 0; i < 4; i++) {
        await page.keyboard.press('Tab');
        outlines.push(await page.evaluate(() => {
          const el = document.activeElement;
          const style = getComputedStyle(el);
          return `${el.tagName.toLowerCase()}.${el.className}: ${style.outlineStyle} ${style.outlineWidth}`;
        }));
      }
      await page.goto(at('en/search.html'));
      await page.locator('#q').focus();
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      outlines.push(await page.evaluate(() => {
        const style = getComputedStyle(document.activeElement);
        return `${document.activeElement.id}: ${style.outlineStyle} ${style.outlineWidth}`;
      }));
      const none = outlines.filter((o) => / none | 0px$/.test(o));
      assert.deepEqual(none, [], `elements without a focus outline (${outlines.join('; ')})`);
    });
  });

  await test('h. site/index.html redirects by browser language and links to both languages', async () => {
    for (const [locale, lang] of [['zh-CN', 'zh'], ['en-US', 'en']]) {
      await withPage({ locale }, async (page) => {
        await page.goto(at('index.html'));
        await page.waitForURL(new RegExp(`^${main.origin}/${lang}/(index\\.html)?$`));
        assert.equal(await page.locator('html').getAttribute('lang'), lang === 'zh' ? 'zh-CN' : 'en', `${locale} lands on ${lang}`);
      });
    }
    await withPage({ javaScriptEnabled: false }, async (page) => {
      await page.goto(at('index.html'));
      const hrefs = await page.evaluate(() => [...document.querySelectorAll('a[href]')].map((a) => a.href));
      for (const lang of ['en', 'zh']) {
        assert.ok(hrefs.some((h) => new RegExp(`^${main.origin}/${lang}/(index\\.html)?$`).test(h)),
          `a plain link to ${lang}/ (links: ${JSON.stringify(hrefs)})`);
      }
    });
  });

  await test('k. kbcSearch.query agrees with a plain reading of the ranking rules (idf x field weight, every word first, prefixes, phrases, CJK pairs)', async () => {
    // The rules of search.js's header, read plainly over the whole index.
    const idf = (n, df) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
    const isWord = (t) => t.charCodeAt(0) < 0x80;
    const reference = (idx, all, typing) => {
      const tokens = [...new Set(all)];
      const n = idx.meta.docs;
      const lookUp = (token, prefix) => Object.keys(idx.terms)
        .filter((t) => t === token || (prefix && t.startsWith(token) && !t.includes(' ')))
        .map((t) => ({ exact: t === token, postings: idx.terms[t] }));
      const best = (found) => {
        const scores = new Map();
        for (const { exact, postings } of found) {
          for (let k = 1; k < postings.length; k += 2) {
            const s = postings[k + 1] * idf(n, postings[0]) * (exact ? 1 : 0.6);
            scores.set(postings[k], Math.max(scores.get(postings[k]) || 0, s));
          }
        }
        return scores;
      };
      const total = new Map();
      const covered = new Map();
      tokens.forEach((token, i) => {
        const open = isWord(token) && typing && i === tokens.length - 1 && token === all[all.length - 1];
        let found = lookUp(token, open);
        if (!found.length && isWord(token) && token.length >= 3 && !open) found = lookUp(token, true);
        for (const [doc, s] of best(found)) {
          total.set(doc, (total.get(doc) || 0) + s);
          covered.set(doc, (covered.get(doc) || 0) + 1);
        }
      });
      for (let k = 0; k + 1 < all.length; k++) {
        if (!isWord(all[k]) || !isWord(all[k + 1])) continue;
        for (const [doc, s] of best(lookUp(`${all[k]} ${all[k + 1]}`, false))) {
          if (total.has(doc)) total.set(doc, total.get(doc) + s * 0.5);
        }
      }
      const docs = [...total.keys()].sort((a, b) => covered.get(b) - covered.get(a) || total.get(b) - total.get(a) || a - b);
      return { total: docs.length, top: docs.slice(0, 10).map((d) => `${idx.docs[d][3]}=${total.get(d).toFixed(6)}`) };
    };
    for (const [lang, idx] of [['en', enIndex], ['zh', zhIndex]]) {
      const words = idx.words;
      const grams = Object.keys(idx.grams);
      const queries = ['', 'zzzz', ...words.filter((_, i) => i % 7 === 0).slice(0, 30),
        ...words.filter((_, i) => i % 11 === 0).slice(0, 20).map((w) => w.slice(0, 2)),
        ...words.filter((_, i) => i % 11 === 0).slice(0, 10).map((w) => `${w.slice(0, 3)} `),
        ...words.filter((_, i) => i % 13 === 0).slice(0, 15).map((w, i) => `${w.toUpperCase()} ${words[(i * 31) % words.length]}`),
        ...grams.filter((_, i) => i % 9 === 0).slice(0, 20),
        ...grams.filter((_, i) => i % 17 === 0).slice(0, 10).map((g, i) => `${g} ${words[(i * 7) % words.length] || ''}`),
        ...idx.docs.slice(0, 10).map((d) => d[1].slice(0, 30))];
      await withPage({}, async (page) => {
        await page.goto(at(`${lang}/index.html`));
        const got = await page.evaluate(async (qs) => {
          const out = [];
          for (const q of qs) {
            const r = await window.kbcSearch.query(q, { limit: 10 });
            out.push({ tokens: window.kbcSearch.tokenize(q), typing: /[0-9A-Za-z]$/.test(q), fallback: r.fallback, total: r.total,
              top: r.results.map((x) => `${x.id}=${x.score.toFixed(6)}`),
              shapeOk: r.results.every((x) => ['url', 'title', 'code', 'id', 'domain', 'snippet', 'score'].every((f) => f in x)) });
          }
          return out;
        }, queries);
        queries.forEach((q, i) => {
          assert.ok(got[i].shapeOk, `${lang} "${q}": results lack a field`);
          if (got[i].fallback) return;  // a Chinese query answered from the glossary: test k2
          const want = got[i].tokens.length ? reference(idx, got[i].tokens, got[i].typing) : { total: 0, top: [] };
          assert.deepEqual({ total: got[i].total, top: got[i].top }, want, `${lang} "${q}"`);
        });
      });
      note(`${lang}: ${queries.length} queries agree`);
    }
  });

  await test('k2. search: every-word matches before partial ones, highlighted words, domains, paging, a Chinese query answered in English words from the glossary', async () => {
    await withPage({}, async (page) => {
      await page.goto(at('en/search.html'));
      // A word of many entries and a word of none: partial matches only, said so.
      const common = enIndex.words.map((w) => [w, enIndex.terms[w][0]]).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
      assert.ok(common[1] > 10, `the commonest word "${common[0]}" is in ${common[1]} entries, more than a page`);
      await typeQuery(page, `zzqxjv ${common[0]} `);
      await page.waitForFunction(() => document.querySelectorAll('#search-results li').length > 0);
      const form = page.locator('main form.search');
      assert.ok((await page.locator('#search-status').textContent()).endsWith(await form.getAttribute('data-partial')));
      assert.equal(await page.locator('#search-results li').count(), 10);
      const first = page.locator('#search-results li').first();
      assert.equal((await first.locator('mark').first().textContent()).toLowerCase(), common[0]);
      assert.ok((await first.locator('.result-domain').textContent()).trim() !== '', 'the result shows its domain');
      // Paging: the rest comes with "Show more", which moves the focus to the first new result.
      const more = page.locator('button.more-results');
      assert.ok(await more.isVisible());
      await more.click();
      await page.waitForFunction((n) => document.querySelectorAll('#search-results li').length === n, Math.min(common[1], 20));
      assert.equal(await page.evaluate(() => document.activeElement.closest('li') === document.querySelectorAll('#search-results li')[10]), true);
      // Arrow keys: from the box to the first result and back.
      await page.locator('#q').focus();
      await page.keyboard.press('ArrowDown');
      assert.equal(await page.evaluate(() => document.activeElement === document.querySelector('#search-results li a')), true);
      await page.keyboard.press('ArrowDown');
      assert.equal(await page.evaluate(() => document.activeElement === document.querySelectorAll('#search-results li a')[1]), true);
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      assert.equal(await page.evaluate(() => document.activeElement.id), 'q');
      // A query with every word: those entries come first.
      const doc = enIndex.docs[0];
      const pair = titleQuery(enIndex, 0);
      const r = await page.evaluate((q) => window.kbcSearch.query(q, { limit: 50 }), `${pair} zzqxjv`);
      assert.equal(r.complete, 0);
      const r2 = await page.evaluate((q) => window.kbcSearch.query(q, { limit: 50 }), pair);
      assert.ok(r2.complete >= 1 && r2.results.slice(0, r2.complete).some((x) => x.id === doc[3]), `"${pair}" has ${doc[3]} among its every-word matches`);
    });
    // The zh glossary: a Chinese term that no zh text holds, whose English words some entry has.
    const glossary = zhIndex.meta.glossary || {};
    const term = Object.keys(glossary).sort().find((t) => [...t].length >= 2 && !zhIndex.grams[[...t].slice(0, 2).join('')] &&
      glossary[t].split(' ').some((w) => zhIndex.terms[w]));
    assert.ok(term, 'a glossary term to try');
    await withPage({}, async (page) => {
      await page.goto(at('zh/search.html'));
      await typeQuery(page, term);
      await page.waitForFunction(() => document.querySelectorAll('#search-results li').length > 0);
      const status = await page.locator('#search-status').textContent();
      assert.ok(status.includes(glossary[term]), `the status "${status}" names the English words "${glossary[term]}"`);
      note(`${term} -> ${glossary[term]}: ${status}`);
    });
  });

  await test('k3. the header search box on an entry page: "/" focuses it, results under it, arrow keys and Enter open one', async () => {
    await withPage({}, async (page) => {
      await page.goto(at(`en/${showcase}`));
      await page.keyboard.press('/');
      assert.equal(await page.evaluate(() => document.activeElement.id), 'header-q');
      const target = at(`en/${enIndex.docs[0][0]}`);
      await page.keyboard.type(enQuery, { delay: 5 });
      await page.waitForFunction((href) => [...document.querySelectorAll('#header-results a')].some((a) => a.href === href), target);
      const hrefs = await page.evaluate(() => [...document.querySelectorAll('#header-results li > a')].map((a) => a.href));
      const position = hrefs.indexOf(target);
      for (let i = 0; i <= position; i++) await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await page.waitForURL(target);
      // Enter without a choice opens the search page with the query.
      await page.locator('#header-q').fill(enQuery);
      await page.locator('#header-q').press('Enter');
      await page.waitForURL(/search\.html\?q=/);
      assert.equal(await page.locator('#q').inputValue(), enQuery);
      await page.waitForFunction(() => document.querySelectorAll('#search-results li').length > 0);
    });
  });

  await test('j. search speed: median of 20 queries under 50 ms once their files are loaded; a query fetches only its shards and the chunks it shows', async () => {
    const byLength = (a, b) => b[1].length - a[1].length;
    const words = zhIndex.words.map((w, i) => [w, zhIndex.word_postings[i]]).sort(byLength).map(([w]) => w);
    const grams = Object.entries(zhIndex.grams).sort(byLength).map(([g]) => g);
    const letters = [...new Set(words.map((w) => w[0]))].slice(0, 4);
    const queries = [
      ...letters,
      ...words.slice(0, 6),
      ...words.slice(0, 4).map((w, i) => `${w} ${words[i + 4] || w}`),
      ...grams.slice(0, 3),
      ...grams.slice(3, 6).map((g, i) => `${g}${grams[i + 6] || ''}`),
    ];
    while (queries.length < 20) queries.push(words[queries.length % Math.max(words.length, 1)] || 'error');
    queries.length = 20;
    await withPage({}, async (page) => {
      const fetched = [];
      page.on('request', (request) => { if (request.url().includes('/search/')) fetched.push(request.url().replace(/.*\/search\//, '')); });
      await page.goto(at('zh/index.html'));
      await page.evaluate(() => window.kbcSearch.query('zzqxjv', { limit: 10 }));
      assert.ok(fetched.includes('meta.json') && fetched.every((f) => /^(meta|t\d+)\.json$/.test(f)), `no results, no documents: ${fetched}`);
      assert.ok(fetched.filter((f) => f.startsWith('t')).length <= 1, `one shard for one word: ${fetched}`);
      const timing = await page.evaluate(async (qs) => {
        for (const q of qs) await window.kbcSearch.query(q, { limit: 10 });  // loads their files
        const times = [];
        for (const q of qs) {
          const start = performance.now();
          await window.kbcSearch.query(q, { limit: 10 });
          times.push(performance.now() - start);
        }
        times.sort((a, b) => a - b);
        return { median: (times[9] + times[10]) / 2, max: times[19] };
      }, queries);
      note(`median ${timing.median.toFixed(2)} ms (max ${timing.max.toFixed(2)} ms)`);
      assert.ok(timing.median < 50, `median ${timing.median} ms`);
    });
  });

  // ---- the paste box ----

  const matchSites = [{ label: 'site', root: site, entries: options.root, server: main }];
  if (untranslatedSite) matchSites.push({ label: 'fixture site', root: untranslatedSite, entries: options['root-untranslated'], server: extra });
  const matchData = (root, lang) => readJson(path.join(root, lang, 'match.json'));

  await test('p1. paste box: every translated regex of match.json compiles in Chromium, en and zh', async () => {
    const found = [];
    await withPage({}, async (page) => {
      for (const { root, server } of matchSites) {
        for (const lang of ['en', 'zh']) {
          await page.goto(at(`${lang}/index.html`, server.origin));
          const result = await page.evaluate(async () => {
            const url = document.querySelector('form.paste-form').getAttribute('data-match');
            const data = await (await fetch(url)).json();
            const entries = window.kbcMatch.prepare(data).entries;
            return { total: entries.length, regexes: data.entries.filter((e) => e[3] !== null).length,
              errors: entries.filter((e) => e.regexError).map((e) => `${e.id}: ${e.regexError}`) };
          });
          found.push(...result.errors.map((e) => `${root}/${lang}: ${e}`));
          note(`${root}/${lang}/match.json: ${result.regexes} of ${result.total} regexes in JavaScript`);
          assert.equal(result.total, matchData(root, lang).entries.length);
        }
      }
    });
    assert.deepEqual(found, []);
  });

  await test('p2. paste box: each entry\'s signature pasted on the home page gives kbc match\'s first entry, and the same ranking', async () => {
    let compared = 0;
    for (const { label, root, entries, server } of matchSites) {
      const signatures = matchData(root, 'en').entries.map((e) => e[1]);
      const expected = signatures.map((sig) => kbcMatch(entries, sig));
      await withPage({}, async (page) => {
        await page.goto(at('en/index.html', server.origin));
        const wrongFirst = [];
        for (let i = 0; i < signatures.length; i++) {
          const shown = await paste(page, signatures[i]);
          const first = shown.results.length ? idOfLink(shown.results[0].href) : null;
          const cli = expected[i].length ? expected[i][0].id : null;
          if (first !== cli) wrongFirst.push(`"${signatures[i]}": the box shows ${first}, kbc match ${cli}`);
        }
        assert.deepEqual(wrongFirst, [], `${label}: first results differ`);
        // Every hit, with its score, line and match, not only the first.
        const got = await pageMatchLines(page, signatures);
        signatures.forEach((sig, i) => {
          assert.deepEqual(got[i], expected[i].map(cliHitLine), `${label}: "${sig}"`);
        });
        compared += signatures.length;
        if (label === 'site') {
          const serious = await axeCheck(page, 'en/index.html with paste results');
          assert.deepEqual(serious, [], serious.join('\n'));
        }
      });
    }
    note(`${compared} signatures: the same first entry and the same ranking as kbc match`);
  }, 240000);

  await test('p3. paste box: a log of several lines ranks as kbc match does (search page)', async () => {
    for (const { label, root, entries, server } of matchSites) {
      const log = logOf(matchData(root, 'en').entries.map((e) => e[1]));
      const expected = kbcMatch(entries, log, { stdin: true });
      assert.ok(expected.length > 0, 'kbc match finds something in the log');
      await withPage({}, async (page) => {
        await page.goto(at('en/search.html', server.origin));
        const shown = await paste(page, log);
        assert.deepEqual(shown.results.map((r) => idOfLink(r.href)), expected.slice(0, 10).map((h) => h.id), `${label}: the results shown`);
        const form = page.locator('form.paste-form');
        assert.equal(shown.status, (await form.getAttribute('data-results-label')).replace('{n}', String(expected.length)));
        assert.ok(shown.results[0].line.startsWith(`line ${expected[0].line} `), `the first result shows its line: "${shown.results[0].line}"`);
        const [got] = await pageMatchLines(page, [log]);
        assert.deepEqual(got, expected.map(cliHitLine), `${label}: the whole ranking`);
      });
      note(`${label}: a log of ${log.split('\n').length} lines, ${expected.length} entries ranked alike`);
    }
  }, 120000);

  await test('p7. paste box: real logs, noisy lines, tracebacks and near matches rank as kbc match does', async () => {
    // The real-world evaluation texts (bench/realworld/cases/), and each signature dressed as a
    // real log dresses it: colours, a CI timestamp, Markdown quoting, a Python traceback's last
    // line under its frames, its words reworded (near matches), its error code alone.
    const casesDir = path.join(here, '..', '..', 'bench', 'realworld', 'cases');
    const texts = fs.readdirSync(casesDir).sort().map((f) => fs.readFileSync(path.join(casesDir, f), 'utf8'));
    for (const { label, root, entries, server } of matchSites) {
      const own = [];
      for (const sig of matchData(root, 'en').entries.map((e) => e[1])) {
        own.push(`\x1b[31m${sig}\x1b[0m`, `2024-05-01T10:00:00.1234567Z ${sig}`, `> **${sig}**`,
          `Traceback (most recent call last):\n  File "train.py", line 3, in <module>\n    step()\n${sig}\nnext line`,
          sig.split(/\s+/).reverse().join(' '), ...(sig.match(/[A-Z0-9]+_[A-Z0-9_]+/g) || []));
      }
      const all = [...texts, ...own];
      const expected = all.map((text) => kbcMatch(entries, text, { stdin: true }));
      await withPage({}, async (page) => {
        await page.goto(at('en/search.html', server.origin));
        const got = await pageMatchLines(page, all);
        all.forEach((text, i) => {
          assert.deepEqual(got[i], expected[i].map(cliHitLine), `${label}: ${JSON.stringify(text.slice(0, 200))}`);
        });
      });
      const near = expected.filter((hits) => hits.length && hits[0].near).length;
      const answered = expected.filter((hits) => hits.length && !hits[0].near).length;
      note(`${label}: ${all.length} texts alike: ${answered} answered, ${near} near matches only`);
    }
  }, 240000);

  await test('p4. paste box in Chinese: labels, translated titles, keyboard only (Tab, Ctrl+Enter, Enter on a result), axe light and dark', async () => {
    const data = matchData(site, 'zh');
    const translated = data.entries.find((e) => e[2] !== null);
    assert.ok(translated, 'the site has an entry with a Chinese title');
    const [id, signature, title] = translated;
    const expectedFirst = kbcMatch(options.root, signature)[0].id;
    await withPage({}, async (page) => {
      await page.goto(at('zh/index.html'));
      assert.equal(await page.locator('label[for="paste-text"]').textContent(), strings.zh.paste_label);
      assert.equal(await page.locator('#paste-heading').textContent(), strings.zh.paste_heading);
      // From the search box, Tab reaches its button, then the paste box.
      await page.locator('#q').focus();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement.id), 'paste-text', 'Tab reaches the paste box');
      await page.keyboard.type(`  ${signature}  `);
      await page.keyboard.press('Control+Enter');
      await page.waitForFunction(() => document.querySelectorAll('#paste-results li').length > 0);
      const first = page.locator('#paste-results li').first();
      assert.equal(idOfLink(await first.locator('a').evaluate((a) => a.href)), expectedFirst);
      if (expectedFirst === id) {
        assert.equal(await first.locator('a').textContent(), title, 'the Chinese title');
        assert.equal(await first.locator('code').textContent(), signature, 'and the signature');
        assert.equal(await first.locator('code').getAttribute('lang'), 'en', 'marked as English');
      }
      assert.ok((await first.locator('p').textContent()).startsWith(strings.zh.paste_line.replace('{n}', '1')));
      const status = await page.locator('#paste-status').textContent();
      assert.match(status, new RegExp(`^${strings.zh.paste_results.replace('{n}', '\\d+')}$`));
      for (const scheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme: scheme });
        const serious = await axeCheck(page, `zh/index.html with paste results, ${scheme}`);
        assert.deepEqual(serious, [], serious.join('\n'));
      }
      await page.emulateMedia({ colorScheme: 'light' });
      await first.locator('a').focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(at(`zh/entries/${expectedFirst}.html`));
      assert.equal(await page.locator('html').getAttribute('lang'), 'zh-CN');
      // Nothing pasted, and text no entry matches.
      await page.goto(at('zh/search.html'));
      assert.equal((await paste(page, ' \n\t ')).status, strings.zh.paste_empty);
      const none = await paste(page, 'zzqxjv qqzzxv');
      assert.equal(none.status, strings.zh.paste_no_results);
      assert.equal(none.results.length, 0);
    });
  });

  await test('p5. paste box: match.json is loaded only once the box is used, and nothing outside the site is requested', async () => {
    await withPage({}, async (page) => {
      const requests = [];
      page.on('request', (request) => requests.push(request.url()));
      for (const rel of ['en/index.html', 'en/search.html']) {
        requests.length = 0;
        await page.goto(at(rel));
        await page.waitForLoadState('networkidle');
        assert.ok(await page.locator('section.paste').isVisible(), `${rel} shows the box`);
        assert.deepEqual(requests.filter((u) => u.endsWith('/match.json')), [], `${rel} loads no match data before the box is used`);
        const loaded = page.waitForResponse((response) => response.url() === at('en/match.json'));
        await page.locator('#paste-text').focus();
        await loaded;
        const outside = requests.filter((u) => !u.startsWith(`${main.origin}/`) && !u.startsWith('data:'));
        assert.deepEqual(outside, [], `${rel} requests only the site`);
      }
    });
  });

  await test('p6. paste box works from a sub-path (relative links only)', async () => {
    const prefix = '/docs/errors/kb/';
    const sub = await serve(site, prefix);
    try {
      const [id, signature] = matchData(site, 'en').entries[0];
      const expectedFirst = kbcMatch(options.root, signature)[0].id;
      await withPage({}, async (page) => {
        await page.goto(`${sub.origin}${prefix}en/search.html`);
        const shown = await paste(page, signature);
        assert.equal(shown.results[0].href, `${sub.origin}${prefix}en/entries/${expectedFirst}.html`);
        await page.locator('#paste-results a').first().click();
        await page.waitForURL(`${sub.origin}${prefix}en/entries/${expectedFirst}.html`);
        assert.equal(await page.locator('.breadcrumbs [aria-current="page"]').textContent(), expectedFirst);
        note(`${id}'s signature from ${prefix}: ${expectedFirst}`);
      });
    } finally {
      await sub.close();
    }
  });

  await test('p9. paste box: a regex that backtracks for hours is stopped in its worker; the page stays responsive, the other entries match and a note names it', async () => {
    assert.ok(backtrackingSite, 'pass --site-backtracking <site built from tests/browser/fixtures-backtracking>');
    const data = matchData(backtrackingSite, 'en');
    const slow = data.entries.find((e) => e[3] === '^(a+)+$');
    const fast = data.entries.find((e) => e[3] === 'a{20,}!');
    assert.ok(slow && fast, 'the fixture has its two entries');
    const server = await serve(backtrackingSite);
    try {
      await withPage({}, async (page) => {
        await page.addInitScript(() => {  // counts the workers the page starts
          window.workersStarted = 0;
          const Original = window.Worker;
          window.Worker = class extends Original {
            constructor(...args) {
              super(...args);
              window.workersStarted++;
            }
          };
        });
        await page.goto(at('en/index.html', server.origin));
        const untried = page.locator('#paste-results-untried');
        // Pastes `text`; meanwhile the page must answer: the longest wait for an animation frame
        // and the longest gap of a 10 ms interval timer.
        const pasteWatched = async (text) => {
          await page.evaluate(() => {
            document.getElementById('paste-status').textContent = '';
            window.gaps = { last: performance.now(), max: 0 };
            window.gapTimer = setInterval(() => {
              const now = performance.now();
              window.gaps.max = Math.max(window.gaps.max, now - window.gaps.last);
              window.gaps.last = now;
            }, 10);
          });
          await page.locator('#paste-text').fill(text);
          const started = Date.now();
          await page.locator('form.paste-form button[type="submit"]').click();
          let frame = 0;
          for (let answered = false; !answered;) {
            const before = Date.now();
            answered = await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => {
              const status = document.getElementById('paste-status').textContent;
              resolve(status !== '' && status !== document.querySelector('form.paste-form').getAttribute('data-loading'));
            })));
            frame = Math.max(frame, Date.now() - before);
            assert.ok(Date.now() - started < 5000, `the results arrive within 5 s of "${text}"`);
          }
          const elapsed = Date.now() - started;
          const gap = await page.evaluate(() => {
            clearInterval(window.gapTimer);
            return window.gaps.max;
          });
          assert.ok(frame < 500, `an animation frame came within ${frame} ms`);
          assert.ok(gap < 500, `the main thread was busy for ${gap} ms`);
          note(`"${text}": answered in ${elapsed} ms, frames within ${frame} ms, main thread busy at most ${Math.round(gap)} ms`);
          return page.evaluate(() => ({
            results: [...document.querySelectorAll('#paste-results li a')].map((a) => a.href),
            workers: window.workersStarted,
          }));
        };
        const untriedIds = async () => (await untried.locator('a').evaluateAll((links) => links.map((a) => a.href))).map(idOfLink);

        const first = await pasteWatched(`${'a'.repeat(35)}!`);
        assert.deepEqual(first.results.map(idOfLink), [fast[0]], 'the entry whose regex is linear is shown');
        assert.ok(await untried.isVisible(), 'the note is shown');
        assert.ok((await untried.textContent()).startsWith(strings.en.paste_untried.replace('{n}', '1')), await untried.textContent());
        assert.deepEqual(await untriedIds(), [slow[0]], 'the note links to the entry not tried');
        assert.equal(first.workers, 2, 'the stuck worker was replaced by one fresh worker');
        const serious = await axeCheck(page, 'en/index.html with the note of entries not tried');
        assert.deepEqual(serious, [], serious.join('\n'));

        // The page remembers the entry: the next paste does not wait for it again.
        const second = await pasteWatched(`${'a'.repeat(50)}!`);
        assert.deepEqual(second.results.map(idOfLink), [fast[0]]);
        assert.deepEqual(await untriedIds(), [slow[0]]);
        assert.equal(second.workers, 2, 'no worker was stopped');
        // A text that runs neither entry's regex has no note.
        await paste(page, 'zzqxjv qqzzxv');
        assert.ok(await untried.isHidden(), 'no note without entries left out');

        // Past the budget of a paste (lowered here), the regexes not run yet are left out too.
        const stopped = await page.evaluate(async (text) => {
          const all = await (await fetch(document.querySelector('form.paste-form').getAttribute('data-match'))).json();
          Object.assign(window.kbcMatch.budget, { regex: 60000, paste: 300 });
          const start = performance.now();
          const hits = await window.kbcMatch.match(all, text);
          return { ids: hits.map((h) => h.id), untried: hits.untried.map((e) => e.id).sort(), ms: performance.now() - start };
        }, `${'a'.repeat(35)}!`);
        assert.deepEqual(stopped.untried, [fast[0], slow[0]].sort(), 'both regexes left out');
        assert.deepEqual(stopped.ids, []);
        assert.ok(stopped.ms < 3000, `stopped after ${stopped.ms} ms`);
      });
    } finally {
      await server.close();
    }
  });

  await test('p8. the site\'s 404.html, served for a missing page deep under a sub-path, finds the site\'s root (no base_url)', async () => {
    const prefix = '/docs/errors/kb/';
    const sub = await serve(site, prefix);
    try {
      await withPage({}, async (page) => {
        const response = await page.goto(`${sub.origin}${prefix}gone/deeper/page.html`);
        assert.equal(response.status(), 404);
        const home = page.locator('a[hreflang="zh-CN"]');
        await page.waitForFunction(() => document.querySelector('a[hreflang="zh-CN"]').getAttribute('href').startsWith('/'));
        assert.equal(await home.getAttribute('href'), `${prefix}zh/index.html`);
        // The stylesheet loaded from the root: the search row is laid out as on other pages.
        await page.waitForFunction(() => getComputedStyle(document.querySelector('.search-row')).display === 'flex');
        await page.locator('#q-en').fill(enQuery);
        await page.locator('#q-en').press('Enter');
        await page.waitForURL(`${sub.origin}${prefix}en/search.html?q=${encodeURIComponent(enQuery).replace(/%20/g, '+')}`);
      });
    } finally {
      await sub.close();
    }
  });

  await test(`e. no console error or page error on any page visited (and site/index.html, 404, domain pages, file://)`, async () => {
    await withPage({ locale: 'en-US' }, async (page) => {
      await page.goto(at('index.html'));
      await page.waitForURL(/\/en\/(index\.html)?$/);
      for (const lang of ['en', 'zh']) {
        await page.goto(at(`${lang}/404.html`));
        const domains = await page.goto(at(`${lang}/index.html`)).then(() =>
          page.evaluate(() => [...document.querySelectorAll('.domain-list a')].map((a) => a.href)));
        for (const href of domains.slice(0, 3)) await page.goto(href);
        await page.goto(at(`${lang}/search.html?q=${encodeURIComponent(enQuery)}`));
        await page.waitForFunction(() => document.getElementById('search-status').textContent !== '');
      }
      // A missing page gets the 404 page and status from the test server, like on a real host.
      const response = await page.goto(at('en/no-such-page.html'));
      assert.equal(response.status(), 404);
      // Opened from disk, search says it cannot work instead of logging a fetch error.
      await page.goto(pathToFileURL(path.join(site, 'en', 'index.html')).href);
      await typeQuery(page, enQuery);
      await page.waitForFunction(() => document.getElementById('search-status').textContent !== '');
      assert.equal(await page.locator('#search-status').textContent(), strings.en.search_needs_http);
      // The paste box says the same instead of fetching.
      assert.equal((await paste(page, enQuery)).status, strings.en.paste_needs_http);
      // In the page's language: the scripts take their words from the page.
      await page.goto(pathToFileURL(path.join(site, 'zh', 'index.html')).href);
      await typeQuery(page, enQuery);
      await page.waitForFunction(() => document.getElementById('search-status').textContent !== '');
      assert.equal(await page.locator('#search-status').textContent(), strings.zh.search_needs_http);
    });
    // Expected: the 404 of en/no-such-page.html itself, and the browser's own request for
    // /favicon.ico when a page names no icon (reported, not failed).
    const favicon = problems.filter((p) => /\(https?:\/\/[^/]+\/favicon\.ico\)$/.test(p));
    if (favicon.length) note(`${favicon.length} request(s) for /favicon.ico got 404: the pages have no <link rel="icon">`);
    const real = [...new Set(problems.filter((p) => !favicon.includes(p) &&
      !(p.includes('/en/no-such-page.html') && p.includes('404')) &&
      !(p.includes('/gone/') && p.includes('404'))))];
    note(`${visited.size} pages visited`);
    assert.deepEqual(real, [], `${real.length} different console or page error(s)`);
  });
} finally {
  if (browser) await browser.close();
  await main.close();
  if (extra) await extra.close();
}

console.log(`1..${count}`);
console.log(`# ${count} tests, ${count - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
