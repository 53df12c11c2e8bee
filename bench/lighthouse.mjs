// Lighthouse 12 (npm lighthouse@12.2.3, from tests/browser/node_modules) on pages of a site kbc
// built, on a phone and on a desktop, served as a static host serves it (gzip, caching).
//
//   node bench/lighthouse.mjs --site DIR [--pages en/index.html,en/search.html,...]
//        [--chromium /usr/bin/chromium] [--check accessibility,best-practices,seo --min 95]
//
// Prints one line per page and form factor with the four category scores, and the audits that
// cost points. With --check, exits 1 when a listed category scores below --min on any page (the
// performance score is left to the figures: it moves with the machine's load).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.join(here, '..', 'tests', 'browser', 'node_modules', 'lighthouse', 'cli', 'index.js');
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
if (!fs.existsSync(cli)) {
  console.error(`${cli} is missing: run .ci/setup --browser (npm ci in tests/browser)`);
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
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kbc-lighthouse-'));
console.log(`# lighthouse 12.2.3 on ${root} (${os.cpus()[0].model}, ${os.cpus().length} cores)`);
console.log('page | form factor | performance | accessibility | best practices | SEO');
for (const page of pages) {
  for (const form of ['mobile', 'desktop']) {
    const out = path.join(work, 'report.json');
    const args = [cli, `${origin}/${page}`, '--output=json', `--output-path=${out}`, '--quiet',
      `--only-categories=${categories.join(',')}`, '--chrome-flags=--headless=new --no-sandbox'];
    if (form === 'desktop') args.push('--preset=desktop');
    // Asynchronously: this process serves the pages meanwhile.
    const run = await new Promise((resolve) => {
      const child = spawn(process.execPath, args, { env: { ...process.env, CHROME_PATH: options.chromium } });
      let stderr = '';
      child.stderr.on('data', (chunk) => { stderr += chunk; });
      child.on('close', (status) => resolve({ status, stderr }));
    });
    if (run.status !== 0 || !fs.existsSync(out)) {
      console.log(`${page} | ${form} | lighthouse failed: ${(run.stderr || '').split('\n').slice(-3).join(' ')}`);
      failures.push(`${page} ${form}: lighthouse failed`);
      continue;
    }
    const report = JSON.parse(fs.readFileSync(out, 'utf8'));
    fs.rmSync(out);
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
server.close();
fs.rmSync(work, { recursive: true, force: true });
if (failures.length) {
  console.log(`${failures.length} below ${min}:\n${failures.join('\n')}`);
  process.exit(checked.length ? 1 : 0);
}
