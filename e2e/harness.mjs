// The browser tests' harness: one browser, a fresh server for each file of tests (SQLite in a temporary
// directory of its own, so that a file needs nothing another file made), the results, and the helpers the
// tests share. e2e/run.mjs runs the files; a file of tests exports one function that takes its suite.

import { chromium } from 'playwright-core';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

const here = dirname(fileURLToPath(import.meta.url));
export const BIN = process.env.GRIDPLAY_BIN || join(here, '..', 'target', 'debug', 'gridplay');
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const ART = join(here, 'artifacts');

/** Thrown by a test that cannot run here (what it needs is missing, and nothing requires it): counted as
 * skipped, never as passed. */
export class Skip extends Error {}

export async function waitFor(fn, ms, what) {
  const end = Date.now() + ms;
  for (;;) {
    try { if (await fn()) return; } catch { /* not yet */ }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A screenshot once animations have settled. */
export async function shot(page, name, fullPage = false) {
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(ART, name), fullPage });
}

/** The game's state as the server sends it. */
export async function state(page) {
  return page.evaluate(async () => {
    const id = location.pathname.split('/').pop();
    return (await fetch(`/api/games/${id}`)).json();
  });
}

/** Waits until the board has drawn what the page last gave it: it redraws at the next animation frame. */
export async function drawn(page) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

export async function cellCenter(page, i) {
  await drawn(page);
  const box = await page.locator(`#board [data-cell="${i}"] rect`).first().boundingBox();
  return [box.x + box.width / 2, box.y + box.height / 2];
}

export async function clickCell(page, i) {
  const [x, y] = await cellCenter(page, i);
  await page.mouse.click(x, y);
  await drawn(page);
}

export async function drag(page, from, to) {
  const [x0, y0] = await cellCenter(page, from);
  const [x1, y1] = await cellCenter(page, to);
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  await page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, { steps: 4 });
  await page.mouse.move(x1, y1, { steps: 4 });
  await page.mouse.up();
}

/** Waits until the page shows version v. */
export async function waitVersion(page, v) {
  await page.waitForFunction((v) => {
    const s = document.querySelectorAll('#moves .mv');
    return s.length >= v;
  }, v, { timeout: 15000 });
  await drawn(page);
}

/** Waits for the move entered after state st, and checks that the server stored that very move, mv. */
export async function assertPlayed(page, st, mv) {
  try {
    await waitVersion(page, st.moves.length + 1);
  } catch (e) {
    throw new Error(`${st.game}: the move ${mv.text} (${mv.kind}) was entered but not played: ${e.message}`, { cause: e });
  }
  const after = await state(page);
  assert.equal(after.moves[st.moves.length], mv.text, `the move entered was ${mv.text}`);
}

/** A legal move to enter by hand: the last of the list that `keep` accepts, so that a mapping that plays the
 * list's first move instead is caught. */
export function pick(moves, keep = () => true) {
  const fit = moves.filter(keep);
  return fit.length ? fit[fit.length - 1] : moves[moves.length - 1];
}

/** Enters a move by touch: its kind of placement where the game has several, its cells, then its button. */
export async function tapMove(page, mv) {
  const tapCell = async (i) => {
    const [x, y] = await cellCenter(page, i);
    await page.touchscreen.tap(x, y);
    await drawn(page);
  };
  if (await page.locator(`button[data-mode="${mv.kind}"][aria-pressed="false"]`).count()) {
    await page.tap(`button[data-mode="${mv.kind}"]`);
    await drawn(page);
  }
  if (mv.from == null) {
    await tapCell(mv.path[0]);
  } else if (mv.kind === 'step' || mv.kind === 'jump') {
    for (const c of [mv.from, ...mv.path]) await tapCell(c);
  } else {
    await tapCell(mv.from);
    await tapCell(mv.path.length ? mv.path[mv.path.length - 1] : mv.from);
    if (mv.target != null) await tapCell(mv.target);
    else await page.tap(`button[data-move="${mv.text}"]`);
  }
}

/** Moves the board's keyboard cursor onto cell i with the arrow keys (wherever the board is turned). */
export async function keyTo(page, i) {
  await page.focus('#board');
  await page.keyboard.press('ArrowUp');
  await drawn(page);
  for (let guard = 0; guard < 64; guard++) {
    const cur = await page.locator('#board [data-cursor]').boundingBox();
    const tgt = await page.locator(`#board [data-cell="${i}"] rect`).first().boundingBox();
    const dx = Math.round((tgt.x - cur.x) / tgt.width), dy = Math.round((tgt.y - cur.y) / tgt.height);
    if (dx === 0 && dy === 0) return;
    await page.keyboard.press(dx > 0 ? 'ArrowRight' : dx < 0 ? 'ArrowLeft' : dy > 0 ? 'ArrowDown' : 'ArrowUp');
    await drawn(page);
  }
  throw new Error(`the cursor did not reach cell ${i}`);
}

/** Enters a move given by the server's move view, by clicks (or drags for checkers, or the keyboard, when asked). */
export async function enter(page, mv, { dragging = false, keyboard = false } = {}) {
  if (keyboard && mv.from != null && (mv.kind === 'step' || mv.kind === 'jump')) {
    // The piece, then each landing, each chosen with the cursor and Enter.
    for (const c of [mv.from, ...mv.path]) {
      await keyTo(page, c);
      await page.keyboard.press('Enter');
    }
    return;
  }
  if (keyboard && mv.from != null) {
    // A unit: the unit, its square, then its target with the cursor, or the action's button with Tab and Enter.
    await keyTo(page, mv.from);
    await page.keyboard.press('Enter');
    await keyTo(page, mv.path.length ? mv.path[mv.path.length - 1] : mv.from);
    await page.keyboard.press('Enter');
    if (mv.target != null) {
      await keyTo(page, mv.target);
      await page.keyboard.press('Enter');
    } else {
      await page.focus(`button[data-move="${mv.text}"]`);
      await page.keyboard.press('Enter');
    }
    return;
  }
  if (mv.from == null && mv.path.length === 0) {
    await page.click(`button[data-move="${mv.text}"]`);
  } else if (mv.from == null) {
    await clickCell(page, mv.path[0]);
  } else if (mv.kind === 'step' || mv.kind === 'jump') {
    let at = mv.from;
    if (!dragging) await clickCell(page, at);
    for (const c of mv.path) {
      if (dragging) await drag(page, at, c); else await clickCell(page, c);
      at = c;
    }
  } else {
    // A unit: select it, choose its square, then its target or action.
    await clickCell(page, mv.from);
    const to = mv.path.length ? mv.path[mv.path.length - 1] : mv.from;
    await clickCell(page, to);
    await page.locator(`button[data-move="${mv.text}"]`).click();
  }
}

/** Plays the move `text`, which must be legal, and waits for the page to show it. */
export async function move(page, text, opts) {
  const st = await state(page);
  const mv = st.view.moves.find((m) => m.text === text);
  assert.ok(mv, `${text} is legal in ${JSON.stringify(st.view.moves.map((m) => m.text))}`);
  await enter(page, mv, opts);
  await waitVersion(page, st.moves.length + 1);
}

/** The accessibility rules axe-core finds broken on the page as it is now (WCAG 2 A and AA). */
export async function axe(page) {
  await page.addScriptTag({ path: AXE });
  const r = await page.evaluate(async () => {
    const { violations, passes } = await window.axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] });
    return { passes: passes.length, faults: violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`) };
  });
  assert.ok(r.passes >= 5, `axe-core checked the page (${r.passes} rules passed)`);
  return r.faults;
}

/** Headless Chromium, each of whose browser contexts is a household of its own: the server (trusting
 * 127.0.0.1 as its proxy) reads its address from X-Forwarded-For. One address for every page would make every
 * account a second account of every player, and the fair-play rule would refuse the engine's output to all of
 * them (docs/web.md, "Fair play"). */
export async function launch() {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  const newContext = browser.newContext.bind(browser);
  let households = 0;
  browser.newContext = (opts = {}) => {
    households += 1;
    const address = `10.${(households >> 16) & 255}.${(households >> 8) & 255}.${households & 255}`;
    return newContext({ ...opts, extraHTTPHeaders: { 'X-Forwarded-For': address, ...(opts.extraHTTPHeaders || {}) } });
  };
  return browser;
}

/**
 * What a file of tests gets: `test(name, fn)`, its own server at `BASE` (started before the file's tests,
 * stopped after them), the browser, and the helpers that need the server's address.
 * @param {import('playwright-core').Browser} browser
 * @param {string} file the file's name, for the results
 * @param {{results: Array<[string, string, number]>, only: RegExp|null}} run what the runner collects
 */
export function suite(browser, file, run) {
  const PORT = 20000 + Math.floor(Math.random() * 20000);
  const BASE = `http://127.0.0.1:${PORT}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'gridplay-e2e-'));
  const DATABASE = `sqlite://${dataDir}/gridplay.db`;
  let server = null;

  function startServer() {
    // The browser's requests come through 127.0.0.1 as through a proxy, each context from its own address.
    server = spawn(BIN, ['serve', '--with-test-games', '--addr', `127.0.0.1:${PORT}`, '--database', DATABASE, '--auth-per-minute', '1000', '--signups-per-hour', '1000', '--trusted-proxy', '127.0.0.1', '--claim-floor-seconds', '3', '--review-seconds', '2', '--review-min-games', '2'], { stdio: ['ignore', 'inherit', 'inherit'] });
    return waitFor(async () => (await fetch(BASE + '/api/me')).ok, 20000, 'the server to listen');
  }
  async function stopServer() {
    if (!server || server.exitCode !== null) return;
    server.kill('SIGINT');
    await new Promise((r) => server.once('exit', r));
  }

  async function test(name, fn) {
    if (run.only && !run.only.test(name)) return;
    const t0 = Date.now();
    try {
      await fn();
      run.results.push([name, 'ok', Date.now() - t0]);
      console.log(`ok   ${name} (${Date.now() - t0} ms)`);
    } catch (e) {
      if (e instanceof Skip) {
        run.results.push([name, 'skipped', Date.now() - t0]);
        console.log(`skip ${name}: ${e.message}`);
        return;
      }
      run.results.push([name, 'FAILED', Date.now() - t0]);
      console.log(`FAIL ${name} (${file})\n${e.stack}`);
      // Every open page as it was when the test failed.
      const slug = name.replace(/[^a-z0-9]+/gi, '-').slice(0, 40);
      let k = 0;
      for (const context of browser.contexts()) {
        for (const page of context.pages()) {
          k += 1;
          await page.screenshot({ path: join(ART, `FAILED-${slug}-${k}.png`) }).catch(() => {});
          console.log(`  page ${k}: ${page.url()}`);
        }
      }
    }
  }

  /** A page in a browser context of its own, 1200 by 860, with the page's errors logged. */
  async function newPage(opts = {}) {
    const p = await (await browser.newContext({ viewport: { width: 1200, height: 860 }, ...opts })).newPage();
    p.on('pageerror', (e) => console.log('page error:', e.message));
    p.on('console', (m) => { if (m.type() === 'error') console.log('console error:', m.text()); });
    return p;
  }

  /** A page in a browser context of its own (a household of its own), in `locale`, that lets axe in. */
  function openPage(locale = 'en-US') {
    return newPage({ locale, bypassCSP: true });
  }

  async function signUp(page, name, base = BASE) {
    await page.goto(base + '/');
    await page.fill('#signup input[name=name]', name);
    await page.fill('#signup input[name=password]', `password-${name}`);
    await page.click('#signup button[type=submit]');
    await page.waitForSelector('#me');
    assert.equal(await page.textContent('#me'), name);
  }

  /** Alice and Bob, each signed up on a page of their own. */
  async function pair() {
    const alice = await newPage();
    const bob = await newPage();
    await signUp(alice, 'alice');
    await signUp(bob, 'bob');
    return { alice, bob };
  }

  /** Starts a game against the computer with the lobby's form (level 1, first side unless told), and waits for its board. */
  async function playComputer(page, game, { level = '1', color = 'first', tap = false, goto = true } = {}) {
    if (goto) await page.goto(BASE + '/');
    await page.selectOption('#computer-game', game);
    if (level) await page.selectOption('#computer-level', level);
    if (color) await page.selectOption('#computer-color', color);
    if (tap) await page.tap('#play-computer button[type=submit]');
    else await page.click('#play-computer button[type=submit]');
    await page.waitForURL(/\/game\//);
    await page.waitForSelector('#board svg');
  }

  /** `from` challenges the player `toName`, whose page is `to`, with the lobby's form (moving first), and `to`
   * accepts it: both pages land on the new game's board. Each page uses this file's server unless told. */
  async function challenge(from, to, toName, time, { minutes, rated = false, game = 'reversi', fromBase = BASE, toBase = BASE } = {}) {
    await from.goto(fromBase + '/');
    await from.selectOption('#challenge-game', game);
    await from.selectOption('#challenge-color', 'first');
    await from.selectOption('#challenge-time', time);
    if (minutes !== undefined) await from.fill('#challenge-minutes', String(minutes));
    if (minutes !== undefined) await from.fill('#challenge-increment', '0');
    if (rated) await from.check('#challenge-rated');
    await from.fill('#opponent', toName);
    await from.click('#new-challenge button[type=submit]');
    await to.goto(toBase + '/');
    const accept = to.locator('#challenges button[data-accept]');
    await accept.waitFor({ timeout: 10000 });
    await accept.click();
    await to.waitForURL(/\/game\//);
    await from.waitForURL(/\/game\//, { timeout: 10000 });
    await from.waitForSelector('#board svg');
    await to.waitForSelector('#board svg');
  }

  /** Runs `gridplay ARGS... --database` on this file's database (the operator's command line). */
  function command(...args) {
    return spawnSync(BIN, [...args, '--database', DATABASE], { encoding: 'utf8' });
  }

  /** Stops the server and removes its data. */
  async function close() {
    await stopServer();
    for (const context of browser.contexts()) await context.close().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  }

  return {
    file, test, browser, BASE, PORT, BIN, ART, DATABASE, command, startServer, stopServer, close, newPage, openPage, signUp, pair,
    playComputer, challenge, waitFor, shot, state, drawn, cellCenter, clickCell, drag, waitVersion, assertPlayed,
    pick, tapMove, keyTo, enter, move, axe, Skip,
  };
}
