// The browser's floor for a game page's first board on this machine: the page as drawn, saved without its
// scripts, served as a static file with its stylesheet from a local server, and loaded in fresh browser
// contexts as the real page is, in the same rounds as the real page. It reports, as medians:
// - the real page: when the board's cells are in the document, and its `gridplay:first-board` mark (just after
//   the board's frame);
// - the static copy: when the board's cells are in the document, and its first contentful paint (the first
//   frame with the board, since the copy has nothing to run);
// - a one-cell page with no stylesheet: its first contentful paint (the browser's own cost of a first frame).
//
//   node e2e/first-board-floor.mjs http://127.0.0.1:8081   (a running server; N=21 rounds; CHROMIUM names the browser)
import { chromium } from 'playwright-core';
import http from 'node:http';
import { engineGame } from './engine-game.mjs';

const base = process.argv[2] || 'http://127.0.0.1:8081';
const N = Number(process.env.N || 21);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });

// A player with a game against the engine, as the browser tests make one.
const { ctx: ctx0, page } = await engineGame(browser, base);
await page.waitForTimeout(500);
const gameUrl = page.url();
const storage = await ctx0.storageState();
const cssHref = await page.evaluate(() => document.querySelector('link[rel=stylesheet]').href);
const css = await (await fetch(cssHref)).text();
const drawn = await page.evaluate(() => {
  document.querySelectorAll('script, link[rel=modulepreload]').forEach((s) => s.remove());
  return '<!doctype html>' + document.documentElement.outerHTML;
});
const copy = drawn.replace(/<link[^>]*rel="stylesheet"[^>]*>/, '<link rel="stylesheet" href="/style.css">');
const oneCell = '<!doctype html><title>one cell</title><div id="board"><svg viewBox="0 0 1 1" width="100" height="100"><g data-cell="0"><rect width="1" height="1" fill="green"/></g></svg></div>';
await ctx0.close();

const server = http.createServer((req, res) => {
  if (req.url === '/style.css') { res.writeHead(200, { 'content-type': 'text/css' }); res.end(css); return; }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(req.url === '/one-cell' ? oneCell : copy);
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const local = `http://127.0.0.1:${server.address().port}`;

const watchBoard = () => {
  const obs = new MutationObserver(() => {
    if (!window.__board && document.querySelector('#board svg [data-cell]')) { window.__board = performance.now(); obs.disconnect(); }
  });
  obs.observe(document, { childList: true, subtree: true });
};
async function load(url, state) {
  const ctx = await browser.newContext(state ? { storageState: state } : {});
  await ctx.addInitScript(watchBoard);
  const p = await ctx.newPage();
  await p.goto(url);
  await p.waitForFunction(() => window.__board);
  await p.waitForTimeout(400);
  const r = await p.evaluate(() => ({
    doc: window.__board,
    mark: (performance.getEntriesByName('gridplay:first-board')[0] || {}).startTime,
    fcp: (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime,
  }));
  await ctx.close();
  return r;
}
const got = { real: [], copy: [], oneCell: [] };
for (let i = 0; i < N; i++) {
  got.real.push(await load(gameUrl, storage));
  got.copy.push(await load(`${local}/game`));
  got.oneCell.push(await load(`${local}/one-cell`));
}
const med = (rows, k) => Math.round(rows.map((r) => r[k]).filter((v) => v !== undefined).sort((a, b) => a - b)[rows.length >> 1]);
console.log(`real page:   board in the document ${med(got.real, 'doc')} ms, after its frame ${med(got.real, 'mark')} ms`);
console.log(`static copy: board in the document ${med(got.copy, 'doc')} ms, first contentful paint ${med(got.copy, 'fcp')} ms (${copy.length} bytes of HTML, ${css.length} of CSS)`);
console.log(`one cell:    first contentful paint ${med(got.oneCell, 'fcp')} ms`);
server.close();
await browser.close();
