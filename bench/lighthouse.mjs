// Lighthouse 12 (npm lighthouse@12.2.3, from tests/browser/node_modules) on pages of a site kbc
// built, on a phone and on a desktop, served as a static host serves it (gzip, caching).
//
//   node bench/lighthouse.mjs --site DIR [--pages en/index.html,en/search.html,...]
//        [--chromium /usr/bin/chromium] [--check accessibility,best-practices,seo --min 95]
//
// Prints one line per page and form factor with the four category scores, and the audits that
// cost points. With --check, exits 1 when a listed category scores below --min on any page (the
// performance score is left to the figures: it moves with the machine's load).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';

const here = path.dirname(fileURLToPath(import.meta.url));
const modules = path.join(here, '..', 'tests', 'browser', 'node_modules');
const lighthouseModule = path.join(modules, 'lighthouse', 'core', 'index.js');
const { values: options } = parseArgs({
  options: {
    site: { type: 'string' },
    pages: { type: 'string' },
    chromium: { type: 'string', default: '/usr/bin/chromium' },
    check: { type: 'string', default: '' },
    min: { type: 'string', default: '95' },
  },
});
if (!options.site || !fs.existsSync(options.site)) {
  console.error('usage: node bench/lighthouse.mjs --site DIR [--pages a.html,b.html] [--check cats --min N]');
  process.exit(2);
}
if (!fs.existsSync(lighthouseModule)) {
  console.error(`${lighthouseModule} is missing: run .ci/setup --browser (npm ci in tests/browser)`);
  process.exit(2);
}
const root = path.resolve(options.site);

// The richest entry page of a language: the one with the most bytes, of those search engines
// index (an entry with no text in the language is a noindex page, which SEO scores as such).
function richestEntry(lang) {
  let best = null;
  const walk = (dir) => {
    for (const item of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, item.name);
      if (item.isDirectory()) walk(full);
      else if (item.name.endsWith('.html')) {
        const size = fs.statSync(full).size;
        if (best && size <= best.size) continue;
        if (fs.readFileSync(full, 'utf8').includes('<meta name="robots" content="noindex">')) continue;
        best = { full, size };
      }
    }
  };
  walk(path.join(root, lang, 'entries'));
  return best ? path.relative(root, best.full).split(path.sep).join('/') : null;
}

const pages = options.pages ? options.pages.split(',') :
  ['en/index.html', 'en/search.html', richestEntry('en'), 'zh/index.html', richestEntry('zh')].filter(Boolean);

const TYPES = { '.html': 'text/html; charset=utf-8', '.css': 'text/css', '.js': 'text/javascript',
  '.json': 'application/json', '.svg': 'image/svg+xml', '.xml': 'application/xml', '.txt': 'text/plain' };
const server = http.createServer((request, response) => {
  const pathname = decodeURIComponent(new URL(request.url, 'http://x').pathname);
  const file = path.join(root, pathname.endsWith('/') ? `${pathname}index.html` : pathname);
  if (!file.startsWith(root) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
    response.writeHead(404).end();
    return;
  }
  const type = TYPES[path.extname(file)] || 'application/octet-stream';
  const asset = /\/assets\//.test(pathname);
  const headers = { 'content-type': type, 'cache-control': asset ? 'public, max-age=31536000' : 'public, max-age=600' };
  let body = fs.readFileSync(file);
  if (/gzip/.test(request.headers['accept-encoding'] || '') && !type.startsWith('image/')) {
    body = zlib.gzipSync(body);
    headers['content-encoding'] = 'gzip';
  }
  response.writeHead(200, headers).end(body);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

const categories = ['performance', 'accessibility', 'best-practices', 'seo'];
const checked = options.check ? options.check.split(',') : [];
const min = Number(options.min);
const failures = [];
// One Chromium for every run, driven through Lighthouse's Node API: a process of Lighthouse and
// a browser per run cost about 7 s each of the 14 s a run took. Lighthouse still starts each run
// from a new tab with its storage and caches cleared. No full-page screenshot: nothing here
// shows one.
const { default: lighthouse } = await import(pathToFileURL(lighthouseModule).href);
const { default: desktop } = await import(pathToFileURL(path.join(modules, 'lighthouse', 'core', 'config', 'desktop-config.js')).href);
const launcher = await import(pathToFileURL(path.join(modules, 'chrome-launcher', 'dist', 'index.js')).href);
const chrome = await launcher.launch({ chromePath: options.chromium, chromeFlags: ['--headless=new', '--no-sandbox'] });
console.log(`# lighthouse 12.2.3 on ${root} (${os.cpus()[0].model}, ${os.cpus().length} cores)`);
console.log('page | form factor | performance | accessibility | best practices | SEO');
try {
  for (const page of pages) {
    for (const form of ['mobile', 'desktop']) {
      const flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: categories,
        disableFullPageScreenshot: true };
      let report;
      try {
        report = (await lighthouse(`${origin}/${page}`, flags, form === 'desktop' ? desktop : undefined))?.lhr;
      } catch (error) {
        console.log(`# ${error.message}`);
      }
      if (!report || report.runtimeError) {
        console.log(`${page} | ${form} | lighthouse failed: ${report?.runtimeError?.message ?? 'no report'}`);
        failures.push(`${page} ${form}: lighthouse failed`);
        continue;
      }
      const scores = categories.map((c) => Math.round((report.categories[c]?.score ?? 0) * 100));
      console.log(`${page} | ${form} | ${scores.join(' | ')}`);
      for (const audit of Object.values(report.audits)) {
        if (audit.score !== null && audit.score < 0.9 && !['informative', 'notApplicable', 'manual'].includes(audit.scoreDisplayMode))
          console.log(`#   ${audit.id} ${audit.score} ${audit.displayValue || ''}`);
      }
      categories.forEach((c, i) => {
        if (checked.includes(c) && scores[i] < min) failures.push(`${page} ${form}: ${c} ${scores[i]} < ${min}`);
      });
    }
  }
} finally {
  await chrome.kill();
}
server.close();
if (failures.length) {
  console.log(`${failures.length} below ${min}:\n${failures.join('\n')}`);
  process.exit(checked.length ? 1 : 0);
}
