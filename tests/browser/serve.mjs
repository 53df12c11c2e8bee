// Browser test of `kbc serve`: the live-reload script in Chromium. An open entry page reloads
// when its YAML is edited; a lint error shows in an overlay (accessible, dismissable, the
// entry's text shown as text) over the last good page; fixing it removes the overlay; a restarted
// server reloads the page.
//
//   node tests/browser/serve.mjs --kbc <kbc binary> --fixtures <knowledge base to copy>
//        [--screenshots <dir>] [--chromium /usr/bin/chromium]
//
// Prints "ok N - name" / "not ok N - name" lines and exits 1 if any test failed.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const usage = 'usage: node tests/browser/serve.mjs --kbc <kbc> --fixtures <dir> ' +
  '[--screenshots <dir>] [--chromium <executable>]';
let options;
try {
  ({ values: options } = parseArgs({
    options: {
      kbc: { type: 'string' },
      fixtures: { type: 'string' },
      chromium: { type: 'string', default: '/usr/bin/chromium' },
      screenshots: { type: 'string' },
    },
  }));
} catch (error) {
  console.error(`${error.message}\n${usage}`);
  process.exit(2);
}
if (!options.kbc || !options.fixtures) {
  console.error(usage);
  process.exit(2);
}

const ENTRY = 'entries/cuda/driver-version-insufficient.yaml';
const PAGE = 'en/entries/cuda/driver-version-insufficient.html';
const ACTION = "- action: 'Install a newer CUDA toolkit";

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kbc-serve-browser-'));
const root = path.join(work, 'kb');
fs.cpSync(path.join(options.fixtures, 'entries'), path.join(root, 'entries'), { recursive: true });
const entryFile = path.join(root, ENTRY);

function edit(from, to) {
  const text = fs.readFileSync(entryFile, 'utf8');
  assert.ok(text.includes(from), `${ENTRY} has no ${from}`);
  fs.writeFileSync(entryFile, text.replace(from, to));
}

// `kbc serve --port PORT` on the copy; resolves with the child and its address.
function startServer(port = 0) {
  const child = spawn(options.kbc, ['serve', '--root', root, '--port', String(port), '--color', 'never'],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (data) => { stderr += data; });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no address after 20 s; stderr: ${stderr}`)), 20000);
    child.once('exit', (code) => reject(new Error(`kbc serve exited with ${code}: ${stderr}`)));
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer);
      const match = /^serving (http:\/\/127\.0\.0\.1:(\d+)\/) /.exec(line);
      if (!match) reject(new Error(`unexpected first line: ${line}`));
      else resolve({ child, url: match[1], port: Number(match[2]) });
    });
  });
}

function stopServer(server) {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null) return resolve(server.child.exitCode);
    const timer = setTimeout(() => server.child.kill('SIGKILL'), 10000);
    server.child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
    server.child.kill('SIGTERM');
  });
}

let count = 0;
let failed = 0;
async function test(name, fn) {
  const number = ++count;
  try {
    await fn();
    console.log(`ok ${number} - ${name}`);
  } catch (error) {
    failed++;
    console.log(`not ok ${number} - ${name}`);
    for (const line of String(error.stack || error).split('\n')) console.log(`  # ${line}`);
  }
}

let browser;
let server;
const problems = [];
try {
  server = await startServer();
  browser = await chromium.launch({ executablePath: options.chromium, headless: true, args: ['--no-sandbox'] });
  const page = await browser.newPage();
  page.setDefaultTimeout(15000);
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.goto(server.url + PAGE);
  const overlay = page.locator('#kbc-serve-overlay');

  await test('an edit of the entry reloads the open page with the new text', async () => {
    await page.evaluate(() => { window.kbcNotReloaded = true; });
    edit('Every CUDA runtime', 'Every EDITED runtime');
    await page.waitForFunction(() => !window.kbcNotReloaded && document.body.textContent.includes('Every EDITED runtime'));
  });

  await test("a lint error turns the entry's page into its errors, with the overlay over them", async () => {
    await page.evaluate(() => { window.kbcNotReloaded = true; });
    edit(ACTION, "- action: '' # <b>bold</b>");
    // The entry is left out of the site: the open page reloads into the page of its errors.
    await page.waitForFunction(() => !window.kbcNotReloaded && document.title.startsWith('Not built'));
    await overlay.waitFor({ state: 'visible' });
    const text = await overlay.textContent();
    assert.match(text, /1 error; the entries with errors are left out/);
    if (options.screenshots) {
      fs.mkdirSync(options.screenshots, { recursive: true });
      await page.screenshot({ path: path.join(options.screenshots, 'serve-overlay.png') });
    }
    assert.match(text, /driver-version-insufficient\.yaml:\d+:11: error: dead_ends\[0\] has a blank action/);
    assert.match(text, /<b>bold<\/b>/, 'the source line is shown as text, not as HTML');
    assert.equal(await overlay.locator('b').count(), 0);
    assert.equal(await overlay.getAttribute('role'), 'alert');
    const body = await page.textContent('body');
    assert.match(body, /Not built: entries\/cuda\/driver-version-insufficient\.yaml has errors/);
    assert.match(body, /dead_ends\[0\] has a blank action/);
  });

  await test('the overlay passes axe-core, light and dark, and Escape dismisses it', async () => {
    await page.addScriptTag({ path: axePath });
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme });
      const violations = await page.evaluate(async () => {
        const result = await window.axe.run('#kbc-serve-overlay', { resultTypes: ['violations'] });
        return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target).join(', ')})`);
      });
      assert.deepEqual(violations, [], colorScheme);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.keyboard.press('Escape');
    await overlay.waitFor({ state: 'detached' });
  });

  await test('an edit that leaves the site as it was brings the overlay back without a reload; the fix brings the page back', async () => {
    await page.evaluate(() => { window.kbcNotReloaded = true; });
    edit("- action: '' # <b>bold</b>", "- action: ''   # <b>bold</b>");
    await overlay.waitFor({ state: 'visible' });
    assert.ok(await page.evaluate(() => window.kbcNotReloaded), 'an unchanged site does not reload the page');
    edit("- action: ''   # <b>bold</b>", ACTION);
    await page.waitForFunction(() => !window.kbcNotReloaded && document.body.textContent.includes('Every EDITED runtime'));
    assert.equal(await overlay.count(), 0);
    await page.evaluate(() => { window.kbcNotReloaded = true; });
  });

  await test('a restarted server reloads the page', async () => {
    const port = server.port;
    assert.equal(await stopServer(server), 0);
    server = await startServer(port);
    await page.waitForFunction(() => !window.kbcNotReloaded, null, { timeout: 20000 });
  });

  await test('no page errors', async () => {
    assert.deepEqual(problems, []);
  });
} finally {
  if (browser) await browser.close();
  if (server) {
    const code = await stopServer(server);
    if (code !== 0) {
      failed++;
      console.log(`not ok ${++count} - kbc serve exits 0 on SIGTERM (got ${code})`);
    }
  }
  fs.rmSync(work, { recursive: true, force: true });
}

console.log(`1..${count}`);
console.log(`# ${count} tests, ${count - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
