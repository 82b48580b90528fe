// gridplay's end-to-end tests: a real server (SQLite in a temporary directory) and Debian's Chromium, headless,
// driven by playwright-core. Screenshots of every page go to e2e/artifacts/.
//
//   node e2e/run.mjs            (GRIDPLAY_BIN names the gridplay binary; CHROMIUM the browser; E2E_ONLY a
//                                regular expression of the tests to run)

import { chromium } from 'playwright-core';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

import { firstHour } from './first-hour.mjs';
import { bots } from './bots.mjs';
import { analysis } from './analysis.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

const here = dirname(fileURLToPath(import.meta.url));
const BIN = process.env.GRIDPLAY_BIN || join(here, '..', 'target', 'debug', 'gridplay');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const ART = join(here, 'artifacts');
rmSync(ART, { recursive: true, force: true });
mkdirSync(ART, { recursive: true });

const PORT = 20000 + Math.floor(Math.random() * 20000);
const BASE = `http://127.0.0.1:${PORT}`;
const dataDir = mkdtempSync(join(tmpdir(), 'gridplay-e2e-'));

let server;
function startServer() {
  // The browser's requests come through 127.0.0.1 as through a proxy, each context from its own address.
  server = spawn(BIN, ['serve', '--with-test-games', '--addr', `127.0.0.1:${PORT}`, '--database', `sqlite://${dataDir}/gridplay.db`, '--auth-per-minute', '1000', '--signups-per-hour', '1000', '--trusted-proxy', '127.0.0.1', '--claim-floor-seconds', '3', '--review-seconds', '2', '--review-min-games', '2'], { stdio: ['ignore', 'inherit', 'inherit'] });
  return waitFor(async () => (await fetch(BASE + '/api/me')).ok, 20000, 'the server to listen');
}
async function stopServer() {
  server.kill('SIGINT');
  await new Promise((r) => server.once('exit', r));
}

async function waitFor(fn, ms, what) {
  const end = Date.now() + ms;
  for (;;) {
    try { if (await fn()) return; } catch { /* not yet */ }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A screenshot once animations have settled. */
async function shot(page, name, fullPage = false) {
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(ART, name), fullPage });
}

const results = [];
// E2E_ONLY (a regular expression) runs only the tests it matches; later tests may rely on earlier ones.
const ONLY = process.env.E2E_ONLY ? new RegExp(process.env.E2E_ONLY) : null;
/** Thrown by a test that cannot run here (what it needs is missing, and nothing requires it): counted as
 * skipped, never as passed. */
class Skip extends Error {}
async function test(name, fn) {
  if (ONLY && !ONLY.test(name)) return;
  const t0 = Date.now();
  try {
    await fn();
    results.push([name, 'ok', Date.now() - t0]);
    console.log(`ok   ${name} (${Date.now() - t0} ms)`);
  } catch (e) {
    if (e instanceof Skip) {
      results.push([name, 'skipped', Date.now() - t0]);
      console.log(`skip ${name}: ${e.message}`);
      return;
    }
    results.push([name, 'FAILED', Date.now() - t0]);
    console.log(`FAIL ${name}\n${e.stack}`);
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

async function signUp(page, name, base = BASE) {
  await page.goto(base + '/');
  await page.fill('#signup input[name=name]', name);
  await page.fill('#signup input[name=password]', `password-${name}`);
  await page.click('#signup button[type=submit]');
  await page.waitForSelector('#me');
  assert.equal(await page.textContent('#me'), name);
}

/** The game's state as the server sends it. */
async function state(page) {
  return page.evaluate(async () => {
    const id = location.pathname.split('/').pop();
    return (await fetch(`/api/games/${id}`)).json();
  });
}

/** Waits until the board has drawn what the page last gave it: it redraws at the next animation frame. */
async function drawn(page) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

async function cellCenter(page, i) {
  await drawn(page);
  const box = await page.locator(`#board [data-cell="${i}"] rect`).first().boundingBox();
  return [box.x + box.width / 2, box.y + box.height / 2];
}

async function clickCell(page, i) {
  const [x, y] = await cellCenter(page, i);
  await page.mouse.click(x, y);
  await drawn(page);
}

async function drag(page, from, to) {
  const [x0, y0] = await cellCenter(page, from);
  const [x1, y1] = await cellCenter(page, to);
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  await page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, { steps: 4 });
  await page.mouse.move(x1, y1, { steps: 4 });
  await page.mouse.up();
}

/** Waits until the page shows version v. */
async function waitVersion(page, v) {
  await page.waitForFunction((v) => {
    const s = document.querySelectorAll('#moves .mv');
    return s.length >= v;
  }, v, { timeout: 15000 });
  await drawn(page);
}

/** Waits for the move entered after state st, and checks that the server stored that very move, mv. */
async function assertPlayed(page, st, mv) {
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
function pick(moves, keep = () => true) {
  const fit = moves.filter(keep);
  return fit.length ? fit[fit.length - 1] : moves[moves.length - 1];
}

/** Enters a move by touch: its kind of placement where the game has several, its cells, then its button. */
async function tapMove(page, mv) {
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
async function keyTo(page, i) {
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
async function enter(page, mv, { dragging = false, keyboard = false } = {}) {
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

async function move(page, text, opts) {
  const st = await state(page);
  const mv = st.view.moves.find((m) => m.text === text);
  assert.ok(mv, `${text} is legal in ${JSON.stringify(st.view.moves.map((m) => m.text))}`);
  await enter(page, mv, opts);
  await waitVersion(page, st.moves.length + 1);
}

const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
// Each browser context is a household of its own: the server (trusting 127.0.0.1 as its proxy) reads its
// address from X-Forwarded-For. One address for every page would make every account a second account of every
// player, and the fair-play rule would refuse the engine's output to all of them (docs/web.md, "Fair play").
{
  const newContext = browser.newContext.bind(browser);
  let households = 0;
  browser.newContext = (opts = {}) => {
    households += 1;
    const address = `10.${(households >> 16) & 255}.${(households >> 8) & 255}.${households & 255}`;
    return newContext({ ...opts, extraHTTPHeaders: { 'X-Forwarded-For': address, ...(opts.extraHTTPHeaders || {}) } });
  };
}
await startServer();
/** A page in a browser context of its own (a household of its own), in `locale`, that lets axe in, with the
 * page's errors logged. */
async function openPage(locale = 'en-US') {
  const ctx = await browser.newContext({ viewport: { width: 1200, height: 860 }, locale, bypassCSP: true });
  const p = await ctx.newPage();
  p.on('pageerror', (e) => console.log('page error:', e.message));
  return p;
}

const alice = await (await browser.newContext({ viewport: { width: 1200, height: 860 } })).newPage();
const bob = await (await browser.newContext({ viewport: { width: 1200, height: 860 } })).newPage();
for (const p of [alice, bob]) {
  p.on('pageerror', (e) => console.log('page error:', e.message));
  p.on('console', (m) => { if (m.type() === 'error') console.log('console error:', m.text()); });
}

await test('a visitor sees how many are online, not who', async () => {
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(BASE + '/');
  await visitor.waitForSelector('#online-count');
  assert.match(await visitor.textContent('#online-count'), /player/);
  assert.equal(await visitor.locator('#online').count(), 0);
  await shot(visitor, 'lobby-visitor.png');
  // An address with no page gets the site's own not-found page, with status 404 and a way back.
  const res = await visitor.goto(BASE + '/no/such/page');
  assert.equal(res.status(), 404);
  await visitor.waitForSelector('#not-found');
  assert.match(await visitor.textContent('main'), /no page at \/no\/such\/page/);
  await visitor.click('main a[href="/"]');
  await visitor.waitForSelector('#online-count');
  await visitor.context().close();
});

await test('two users sign up and see each other online', async () => {
  await signUp(alice, 'alice');
  // What Alice is typing survives the lobby update that Bob's arrival sends.
  await alice.fill('#opponent', 'someone');
  await signUp(bob, 'bob');
  await alice.waitForFunction(() => document.querySelector('#online')?.textContent.includes('bob'), null, { timeout: 10000 });
  assert.equal(await alice.inputValue('#opponent'), 'someone');
  await alice.fill('#opponent', '');
  await shot(alice, 'lobby.png');
});

await test('a checkers challenge is accepted and played to the end, with a multi-jump by dragging', async () => {
  await alice.selectOption('#challenge-game', 'checkers');
  await alice.selectOption('#challenge-color', 'first');
  await alice.fill('#opponent', 'bob');
  await alice.click('#new-challenge button[type=submit]');
  const accept = bob.locator('#challenges button[data-accept]');
  await accept.waitFor({ timeout: 10000 });
  await accept.click();
  await bob.waitForURL(/\/game\//);
  await alice.waitForURL(/\/game\//, { timeout: 10000 });
  assert.equal(alice.url(), bob.url());
  // Bob (White) sees his own men at the bottom: square 1 is drawn at the bottom right.
  await bob.waitForSelector('#board svg');
  // The opening that leads to White's double jump 22x15x6.
  const line = [[alice, '9-13'], [bob, '21-17'], [alice, '6-9'], [bob, '17-14'], [alice, '9x18']];
  for (const [p, m] of line) await move(p, m);
  await shot(bob, 'checkers-before-multijump.png');
  await move(bob, '22x15x6', { dragging: true });
  const after = await state(alice);
  assert.equal(after.moves[5], '22x15x6');
  await waitVersion(alice, 6);
  await shot(alice, 'checkers.png');
  // Play on to the end: each side enters the first legal move the server lists.
  for (let n = 0; n < 400; n++) {
    const st = await state(alice);
    if (st.over) break;
    const page = st.view.turn === 'first' ? alice : bob;
    // Every third move by keyboard alone (multi-jumps among them when they come), on both sides' boards.
    await enter(page, st.view.moves[0], { keyboard: n % 3 === 0 });
    await waitVersion(page, st.moves.length + 1);
  }
  const end = await state(alice);
  assert.ok(end.over, 'the game ended');
  for (const p of [alice, bob]) {
    await p.waitForSelector('#game-over', { timeout: 10000 });
    assert.equal((await p.textContent('#game-over strong')).trim(), end.over.text);
  }
  await shot(bob, 'checkers-over.png');
});

await test('a reversi game with engine help allowed by both ends by resignation, confirmed in a dialog', async () => {
  await alice.goto(BASE + '/');
  await alice.selectOption('#challenge-game', 'reversi');
  await alice.selectOption('#challenge-color', 'first');
  await alice.fill('#opponent', '');
  // Help is for casual games: a rated challenge cannot allow it.
  await alice.check('#challenge-rated');
  assert.equal(await alice.isDisabled('#challenge-help'), true);
  await alice.uncheck('#challenge-rated');
  await alice.check('#challenge-help');
  await alice.click('#new-challenge button[type=submit]');
  await bob.goto(BASE + '/');
  const accept = bob.locator('#challenges button[data-accept]');
  await accept.waitFor({ timeout: 10000 });
  // The player who accepts sees that the challenge allows hints, and both game pages say so.
  assert.match(await bob.textContent('#challenges'), /Reversi · .*hints allowed/);
  await accept.click();
  await bob.waitForURL(/\/game\//);
  await alice.waitForURL(/\/game\//, { timeout: 10000 });
  await alice.waitForSelector('#game-meta');
  await bob.waitForSelector('#game-meta');
  assert.match(await alice.textContent('#game-meta'), /hints allowed/);
  assert.match(await bob.textContent('#game-meta'), /hints allowed/);
  // A hint rings the engine's move; the legal-move toggle hides the dots.
  await alice.click('#hint');
  await alice.waitForSelector('#board [data-hint]');
  assert.match(await alice.textContent('#hint'), /Hint: [a-h][1-8]/);
  const dots = await alice.locator('#board .cell-hint').count();
  assert.ok(dots >= 4, `legal moves shown (${dots})`);
  await alice.uncheck('#show-legal');
  await drawn(alice);
  assert.equal(await alice.locator('#board .cell-hint').count(), 0);
  await alice.check('#show-legal');
  await move(alice, 'd3');
  await move(bob, 'c3');
  await waitVersion(alice, 2);
  await shot(alice, 'reversi.png');
  // A draw offer is a sentence on both pages, naming who made it.
  await alice.click('button:has-text("Offer draw")');
  await bob.waitForFunction(() => /Black \(alice\) offers a draw/.test(document.querySelector('#draw-offer')?.textContent || ''));
  await alice.waitForFunction(() => /You offered a draw/.test(document.querySelector('#draw-offer')?.textContent || ''));
  await bob.click('button:has-text("Decline draw")');
  await alice.waitForFunction(() => !document.querySelector('#draw-offer'));
  // The button says when Alice may offer again, and cannot be pressed until then.
  await alice.waitForFunction(() => /Offer a draw again in 10 moves/.test(document.querySelector('#offer-draw')?.textContent || ''));
  assert.equal(await alice.isDisabled('#offer-draw'), true);
  // Cancel first: nothing happens.
  await bob.click('#resign');
  await bob.click('#confirm button[value=no]');
  assert.equal((await state(bob)).over, null);
  await bob.click('#resign');
  await bob.click('#confirm button[value=yes]');
  await alice.waitForSelector('#game-over', { timeout: 10000 });
  assert.match(await alice.textContent('#game-over strong'), /Black wins by resignation/);
  await bob.waitForSelector('#game-over');
  await shot(bob, 'reversi-resigned.png');
});

await test('a finished game is replayed step by step, exported, and imported again', async () => {
  // Alice is on the resigned Reversi game: open its replay from the game-over banner.
  await alice.click('#replay-link');
  await alice.waitForURL(/\/replay\//);
  await alice.waitForFunction(() => document.querySelector('#ply')?.textContent === 'Move 2 of 2');
  await alice.click('#first');
  await alice.waitForFunction(() => document.querySelector('#ply')?.textContent === 'Move 0 of 2');
  await drawn(alice);
  assert.equal(await alice.locator('#board .piece').count(), 4, 'the start position');
  await alice.keyboard.press('ArrowRight');
  await alice.waitForFunction(() => document.querySelector('#ply')?.textContent === 'Move 1 of 2');
  await drawn(alice);
  assert.equal(await alice.locator('#board .piece').count(), 5);
  await alice.click('#moves [data-ply="2"]');
  await alice.waitForFunction(() => document.querySelector('#ply')?.textContent === 'Move 2 of 2');
  await alice.keyboard.press('Home');
  await alice.waitForFunction(() => document.querySelector('#ply')?.textContent === 'Move 0 of 2');
  await alice.selectOption('#speed', '400');
  await alice.click('#autoplay');
  await alice.waitForFunction(() => document.querySelector('#ply')?.textContent === 'Move 2 of 2', null, { timeout: 5000 });
  // Quick presses are not lost: the position number moves at once and the board catches up.
  await alice.keyboard.press('ArrowLeft');
  await alice.keyboard.press('ArrowLeft');
  await alice.waitForFunction(() => document.querySelector('#ply')?.textContent === 'Move 0 of 2');
  await drawn(alice);
  assert.equal(await alice.locator('#board .piece').count(), 4, 'the start position after two quick presses');
  await alice.keyboard.press('End');
  // The engine's move in a position of a finished game, rung on the board.
  await alice.click('#first');
  await alice.waitForFunction(() => document.querySelector('#ply')?.textContent === 'Move 0 of 2');
  await alice.click('#best-move');
  await alice.waitForFunction(() => /The engine would play (d3|c4|f5|e6) here/.test(document.querySelector('#best-move')?.textContent || ''), null, { timeout: 30000 });
  await alice.waitForSelector('#board [data-hint]');
  await alice.keyboard.press('End');
  // At 1280x800 the graph appears where it is seen, with no scrolling.
  await alice.setViewportSize({ width: 1280, height: 800 });
  // The site's engine-use review may have analysed the game already (it reviews games between people as they
  // end): then the page shows the stored graph and no button.
  await alice.waitForSelector('#analyse, #eval-graph', { timeout: 30000 });
  if (await alice.locator('#analyse').count()) await alice.click('#analyse');
  await alice.waitForSelector('#eval-graph', { timeout: 30000 });
  const seen = await alice.locator('#eval-graph').boundingBox();
  assert.ok(seen.y >= 0 && seen.y + seen.height <= 800, `the graph is in view (${seen.y}-${seen.y + seen.height})`);
  // Coming back to the replay, the analysis is there already.
  await alice.reload();
  await alice.waitForSelector('#eval-graph', { timeout: 10000 });
  assert.equal(await alice.locator('#analyse').count(), 0, 'no button to analyse again');
  // Each side's accuracy and its counts of inaccuracies, mistakes and blunders, as lichess shows them.
  const review = await alice.locator('#review td[data-side]').allTextContents();
  assert.equal(review.length, 8, review.join(' '));
  for (const a of review.slice(0, 2)) assert.match(a, /^\d{1,3}\.\d%$/);
  for (const k of review.slice(2)) assert.match(k, /^\d+$/);
  await alice.setViewportSize({ width: 1200, height: 860 });
  // The graph has its axes, and tells the score under the pointer.
  assert.ok(await alice.locator('#eval-graph text.axis').count() >= 4, 'score and move labels');
  await alice.locator('#eval-graph').scrollIntoViewIfNeeded();
  const g = await alice.locator('#eval-graph').boundingBox();
  await alice.mouse.move(g.x + g.width - 10, g.y + g.height / 2);
  assert.match(await alice.textContent('#eval-readout'), /^after move 2: [+-]?\d+\.\d$/);
  await alice.click('#first');
  await alice.waitForFunction(() => document.querySelector('#ply')?.textContent === 'Move 0 of 2');
  await alice.click('#last');
  await alice.waitForFunction(() => document.querySelector('#ply')?.textContent === 'Move 2 of 2');
  await shot(alice, 'replay.png');
  const text = await alice.evaluate(async () => (await fetch(document.querySelector('#export').href)).text());
  assert.match(text, /d3c3/);
  // Import it from the lobby: a new replay with the same moves.
  await alice.goto(BASE + '/');
  await alice.fill('#import-text', text);
  await alice.click('#import button[type=submit]');
  await alice.waitForURL(/\/replay\//);
  await alice.waitForFunction(() => document.querySelector('#ply')?.textContent === 'Move 2 of 2');
  assert.match(await alice.textContent('aside'), /Black wins by resignation/);
  await alice.goto(BASE + '/');
  await alice.fill('#import-text', 'f5f5');
  await alice.click('#import button[type=submit]');
  await alice.waitForFunction(() => /move 2/.test(document.querySelector('#import .error')?.textContent || ''));
});

await test('a user plays the computer at Grid Tactics, and a reload restores the game', async () => {
  await playComputer(alice, 'tactics');
  let st = await state(alice);
  // Select a unit: its reachable squares are marked.
  const first = st.view.moves.find((m) => m.from != null && m.kind === 'move' && m.path.length > 0);
  await clickCell(alice, first.from);
  assert.ok((await alice.locator('#board .tint-reach').count()) > 1, 'reachable squares are shown');
  await shot(alice, 'tactics-selected.png');
  // Choose a square, then undo before acting: nothing is sent.
  await clickCell(alice, first.path[first.path.length - 1]);
  await alice.locator('button', { hasText: 'Undo' }).click();
  await drawn(alice);
  assert.equal(await alice.locator('#board .tint-reach').count() > 1, true, 'back to choosing a square');
  assert.equal((await state(alice)).version, 0, 'nothing was sent');
  await alice.locator('button', { hasText: 'Deselect' }).click();
  // Activate two units, then end the turn; the engine answers with its own turn.
  for (let k = 0; k < 2; k++) {
    st = await state(alice);
    const mv = st.view.moves.find((m) => m.from != null && m.kind === 'move' && m.path.length > 0);
    // The second activation by keyboard alone.
    await enter(alice, mv, { keyboard: k === 1 });
    await waitVersion(alice, st.version + 1);
  }
  st = await state(alice);
  await enter(alice, st.view.moves.find((m) => m.kind === 'end-turn'));
  await alice.waitForFunction((v) => document.querySelectorAll('#moves .mv').length > v, st.version + 1, { timeout: 30000 });
  await alice.waitForFunction(() => document.querySelector('#status')?.textContent === 'Your turn', null, { timeout: 30000 });
  st = await state(alice);
  assert.ok(st.version > 3, `the engine played (version ${st.version})`);
  await shot(alice, 'tactics.png');
  await alice.reload();
  await alice.waitForSelector('#board svg');
  await waitVersion(alice, st.version);
  assert.equal(await alice.locator('#moves .mv').count(), st.version);
  await shot(alice, 'tactics-reloaded.png');
});

await test('Cornered Reversi and YWF against the computer: tints, Change and the token', async () => {
  for (const [game, shot] of [['cornered', 'cornered.png'], ['ywf', 'ywf.png']]) {
    await alice.goto(BASE + '/');
    await alice.selectOption('#computer-game', game);
    await alice.selectOption('#computer-color', 'first');
    await alice.click('#play-computer button[type=submit]');
    await alice.waitForURL(/\/game\//);
    await alice.waitForSelector('#board svg');
    let st = await state(alice);
    const mv = st.view.moves.find((m) => m.kind === 'place');
    await enter(alice, mv);
    await waitVersion(alice, 2);
    await alice.waitForFunction(() => document.querySelector('#status')?.textContent === 'Your turn', null, { timeout: 30000 });
    await drawn(alice);
    if (game === 'cornered') {
      assert.ok((await alice.locator('#board .tint-legal').count()) > 0, 'legal crosses are tinted green');
      assert.match(await alice.textContent('#legend'), /occupied crosses/, 'the legend explains the pale pieces');
      st = await state(alice);
      const bad = st.view.cells.findIndex((c, i) => c.piece && !st.view.moves.some((m) => m.path[0] === i));
      const [x, y] = await cellCenter(alice, bad);
      await alice.mouse.move(x, y);
      assert.equal(await alice.locator('#board [data-hover=bad]').count(), 1, 'red tint over a forbidden cross');
    } else {
      assert.ok(await alice.locator('.info').count(), 'the token is shown');
    }
    await alice.screenshot({ path: join(ART, shot) });
  }
});

await test('the test game, which the browser knows only from the catalog, is played against the computer to its end', async () => {
  await alice.goto(BASE + '/');
  // The custom clock's fields show only for a custom live clock.
  assert.equal(await alice.isVisible('#computer-minutes'), false);
  await alice.selectOption('#computer-time', 'custom');
  assert.equal(await alice.isVisible('#computer-minutes'), true);
  await alice.selectOption('#computer-time', 'untimed');
  assert.equal(await alice.isVisible('#computer-minutes'), false);
  await alice.selectOption('#computer-game', 'tictactoe');
  assert.equal(await alice.locator('#computer-level option').count(), 3, 'the levels its engine table has');
  await alice.selectOption('#computer-level', '1');
  await alice.selectOption('#computer-color', 'first');
  await alice.click('#play-computer button[type=submit]');
  await alice.waitForURL(/\/game\//);
  await alice.waitForSelector('#board svg');
  for (;;) {
    await alice.waitForFunction(() => document.querySelector('#status')?.textContent === 'Your turn' || document.querySelector('#game-over'), null, { timeout: 30000 });
    const st = await state(alice);
    if (st.over) break;
    await enter(alice, st.view.moves[0]);
    await waitVersion(alice, st.moves.length + 1);
  }
  await alice.waitForSelector('#game-over');
  const st = await state(alice);
  assert.equal(await alice.locator('#board .piece').count(), st.view.cells.filter((c) => c.piece).length, 'every mark is drawn');
  // One end message, with the final score.
  assert.match(await alice.textContent('#game-over strong'), /\. X \d, O \d\.$/);
  assert.equal(await alice.textContent('#status'), 'The game is over.');
  const game = alice.url();
  await alice.goto(BASE + '/rules/tictactoe');
  await alice.waitForSelector('#rules-doc h1');
  assert.ok(await alice.locator('.tabs a[href="/rules/tictactoe"]').count(), 'the rules tabs come from the catalog');
  // A wrong game link says so.
  await alice.goto(BASE + '/game/XXXXXXXX');
  await alice.waitForFunction(() => /Game unavailable/.test(document.body.textContent) && /no such game/.test(document.body.textContent));
  await alice.goto(game);
  await alice.waitForSelector('#board svg');
});

await test('a whole game by keyboard alone: the board cursor, Enter, and the move box; moves are announced', async () => {
  await playComputer(alice, 'tictactoe');
  await alice.focus('#board');
  let typed = false;
  for (;;) {
    await alice.waitForFunction(() => document.querySelector('#status')?.textContent === 'Your turn' || document.querySelector('#game-over'), null, { timeout: 30000 });
    const st = await state(alice);
    if (st.over) break;
    const target = st.view.moves[st.view.moves.length - 1];
    if (!typed) {
      // One move typed in the game's notation.
      typed = true;
      await alice.fill('#move-input', target.text);
      await alice.press('#move-input', 'Enter');
    } else {
      await alice.focus('#board');
      await alice.keyboard.press('ArrowUp');
      await drawn(alice);
      // Walk the cursor to the cell with the arrow keys, then play it with Enter.
      const w = st.view.width;
      const at = Number(await alice.getAttribute('#board [data-cursor]', 'data-cursor'));
      const [dx, dy] = [(target.path[0] % w) - (at % w), Math.floor(target.path[0] / w) - Math.floor(at / w)];
      for (let k = 0; k < Math.abs(dx); k++) await alice.keyboard.press(dx > 0 ? 'ArrowRight' : 'ArrowLeft');
      for (let k = 0; k < Math.abs(dy); k++) await alice.keyboard.press(dy > 0 ? 'ArrowDown' : 'ArrowUp');
      assert.match(await alice.getAttribute('#board', 'aria-label'), new RegExp(`^${target.text}, empty, you can play here`));
      await alice.keyboard.press('Enter');
    }
    await assertPlayed(alice, st, target);
    assert.match(await alice.textContent('#announce'), /plays/);
  }
  await alice.waitForSelector('#game-over');
  assert.ok((await state(alice)).moves.length >= 5);
});

await test('a restart of the server loses no move and the page reconnects', async () => {
  const before = await state(alice);
  await stopServer();
  await startServer();
  await alice.waitForFunction(() => !document.querySelector('.connection'), null, { timeout: 20000 });
  const after = await state(alice);
  assert.equal(after.version, before.version);
  assert.deepEqual(after.moves, before.moves);
});

await test('a lobby that reconnects after a restart shows the challenge made while its socket was away', async () => {
  const rosa = await (await browser.newContext({ viewport: { width: 1200, height: 860 } })).newPage();
  await signUp(rosa, 'rosa');
  await rosa.waitForSelector('#challenges');
  const cookie = (await bob.context().cookies()).find((c) => c.name === 'gp_session');
  // Rosa's browser is offline through the restart, until the others are back and the challenge is made, so
  // that no notice sent after the restart reaches her page: only its own fetch on reconnecting can show it.
  await rosa.context().setOffline(true);
  await stopServer();
  await startServer();
  await new Promise((r) => setTimeout(r, 3000));
  const res = await fetch(BASE + '/api/challenges', {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `gp_session=${cookie.value}` },
    body: JSON.stringify({ spec: 'ywf', color: 'first' }),
  });
  assert.equal(res.status, 200);
  const { id } = await res.json();
  await new Promise((r) => setTimeout(r, 500));
  await rosa.context().setOffline(false);
  await rosa.waitForSelector(`[data-challenge="${id}"]`, { timeout: 20000 });
  await fetch(BASE + `/api/challenges/${id}/decline`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: `gp_session=${cookie.value}` }, body: '{}' });
  await rosa.context().close();
});

await test('the game page fits a phone screen', async () => {
  const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })).newPage();
  await phone.goto(alice.url());
  await phone.waitForSelector('#board svg');
  const width = await phone.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `no horizontal scrolling (page is ${width}px wide)`);
  await shot(phone, 'phone-game.png', true);
  await phone.context().close();
});

/** Alice challenges Bob with the given time control (a value of #challenge-time) and both go to the game. */
/** `from` challenges the player `toName`, whose page is `to`, with the lobby's form (moving first), and `to`
 * accepts it: both pages land on the new game's board. */
async function challenge(from, to, toName, time, { minutes, rated = false, game = 'reversi' } = {}) {
  await from.goto(BASE + '/');
  await from.selectOption('#challenge-game', game);
  await from.selectOption('#challenge-color', 'first');
  await from.selectOption('#challenge-time', time);
  if (minutes !== undefined) await from.fill('#challenge-minutes', String(minutes));
  if (minutes !== undefined) await from.fill('#challenge-increment', '0');
  if (rated) await from.check('#challenge-rated');
  await from.fill('#opponent', toName);
  await from.click('#new-challenge button[type=submit]');
  await to.goto(BASE + '/');
  const accept = to.locator('#challenges button[data-accept]');
  await accept.waitFor({ timeout: 10000 });
  await accept.click();
  await to.waitForURL(/\/game\//);
  await from.waitForURL(/\/game\//, { timeout: 10000 });
  await from.waitForSelector('#board svg');
  await to.waitForSelector('#board svg');
}

async function challengeBob(time, opts = {}) {
  await challenge(alice, bob, 'bob', time, opts);
}

await test('a spectator finds a live game in the list, watches the moves arrive, and cannot move', async () => {
  await challengeBob('10+5');
  const gameUrl = alice.url();
  const gameId = new URL(gameUrl).pathname.split('/').pop();
  // A live game between people without help allowed: no hint, though it is Alice's turn.
  await alice.waitForFunction(() => document.querySelector('#status')?.textContent === 'Your turn');
  assert.equal(await alice.locator('#hint').count(), 0, 'no engine help against a person');
  const visitor = await (await browser.newContext({ viewport: { width: 1200, height: 860 } })).newPage();
  await visitor.goto(BASE + '/watch');
  const link = visitor.locator(`#live-games a[href="${new URL(gameUrl).pathname}"]`);
  await link.waitFor({ timeout: 10000 });
  // Its mini-board follows the moves as they are played.
  const mini = visitor.locator(`[data-mini="${gameId}"]`);
  await mini.locator('svg').waitFor();
  assert.equal(await mini.locator('.piece').count(), 4);
  await move(alice, 'd3');
  await visitor.waitForFunction((id) => document.querySelectorAll(`[data-mini="${id}"] .piece`).length === 5, gameId, { timeout: 10000 });
  await move(bob, 'c3');
  await visitor.waitForFunction((id) => document.querySelectorAll(`[data-mini="${id}"] .piece`).length === 6, gameId, { timeout: 10000 });
  await shot(visitor, 'watch.png');
  await link.click();
  await visitor.waitForSelector('#board svg');
  assert.match(await visitor.textContent('#game-meta'), /you are watching/);
  assert.equal(await visitor.locator('#resign, #abort, #hint').count(), 0, 'no action for a spectator');
  await waitVersion(visitor, 2);
  // The clocks run once both have moved; the spectator sees them.
  await visitor.waitForSelector('aside .clock.running');
  // A click on a legal square does nothing for a spectator.
  const st = await state(visitor);
  await clickCell(visitor, st.view.moves[0].path[0]);
  await visitor.waitForTimeout(300);
  assert.equal((await state(visitor)).version, 2);
  // The list counts the spectator.
  const live = await (await fetch(BASE + '/api/live')).json();
  const row = live.games.find((g) => gameUrl.endsWith(g.id));
  assert.ok(row.spectators >= 1, `spectators: ${row.spectators}`);
  // The players' page says how many watch.
  await alice.waitForFunction(() => /1 spectator/.test(document.querySelector('#spectators')?.textContent || ''), null, { timeout: 10000 });
  await shot(visitor, 'spectator.png');
  // The replay of the game in play: the spectator may download it and analyse from it; its player may not
  // until it ends, and the server refuses the player the file too (the fair-play rule).
  await visitor.goto(`${BASE}/replay/${gameId}`);
  await visitor.waitForSelector('#export');
  assert.equal(await visitor.locator('#analyse-here').count(), 1);
  const replay = await alice.context().newPage();
  await replay.goto(`${BASE}/replay/${gameId}`);
  await replay.waitForSelector('#no-help');
  assert.equal(await replay.locator('#export, #analyse-here').count(), 0, 'no file and no analysis for a player');
  assert.equal(await replay.evaluate(async (id) => (await fetch(`/api/games/${id}/export`)).status, gameId), 409);
  await replay.close();
  await visitor.context().close();
  // Leave the game resigned.
  await alice.click('#resign');
  await alice.click('#confirm button[value=yes]');
  await bob.waitForSelector('#game-over');
});

await test('a live clock runs out: the server flags it; a rematch is offered, accepted, then aborted', async () => {
  await challengeBob('custom', { minutes: 0.05 });
  await move(alice, 'd3');
  await move(bob, 'c3');
  await alice.waitForSelector('aside .clock.running');
  await shot(alice, 'clock.png');
  await alice.waitForSelector('#game-over', { timeout: 10000 });
  assert.match(await alice.textContent('#game-over strong'), /White wins on time/);
  await bob.waitForSelector('#game-over');
  assert.equal((await state(bob)).over.termination, 'timeout');
  await shot(bob, 'flagged.png');
  // Bob asks for a rematch; Alice accepts in her game page; both land on the new game, colours swapped.
  const old = alice.url();
  await bob.click('#rematch');
  await alice.waitForSelector('#rematch-offer', { timeout: 10000 });
  await shot(alice, 'rematch-offer.png');
  await alice.click('#rematch-offer button:text("Accept")');
  await alice.waitForURL((u) => u.href !== old && /\/game\//.test(u.href));
  await bob.waitForURL((u) => u.href !== old && /\/game\//.test(u.href), { timeout: 10000 });
  const st = await state(alice);
  assert.deepEqual(st.players.map((p) => p.name), ['bob', 'alice']);
  // Before both have moved the game can be aborted, and then counts for nobody.
  await alice.waitForSelector('#abort');
  await alice.click('#abort');
  await alice.click('#confirm button[value=yes]');
  await bob.waitForSelector('#game-over', { timeout: 10000 });
  assert.match(await bob.textContent('#game-over strong'), /Game aborted/);
});

await test('the opponent leaves a live game: a countdown, then the win claimed', async () => {
  // A one-minute game: the claim's time is the server's floor here (3 s), more than a thirtieth of a minute.
  await challengeBob('custom', { minutes: 1 });
  await move(alice, 'd3');
  await move(bob, 'c3');
  // Bob's game page goes away (his lobby page is no page of the game): Alice is told, and counts down.
  await bob.goto(BASE + '/');
  await alice.waitForSelector('#opponent-gone[data-claim="waiting"]', { timeout: 10000 });
  assert.match(await alice.textContent('#opponent-gone'), /left the game\. You may claim it in \d+ seconds?\./);
  await alice.waitForSelector('#opponent-gone[data-claim="open"]', { timeout: 15000 });
  await shot(alice, 'claim.png');
  await alice.click('#claim-win');
  await alice.click('#confirm button[value=yes]');
  await alice.waitForSelector('#game-over', { timeout: 10000 });
  assert.match(await alice.textContent('#game-over strong'), /wins: the opponent left the game/);
  assert.equal((await state(alice)).over.termination, 'left');
  // Bob's profile counts the game he left.
  await alice.goto(`${BASE}/player/bob`);
  await alice.waitForSelector('#left-record');
  assert.match(await alice.textContent('#left-record'), /^Games left: [1-9]\d* of \d+ games? between people/);
});

await test('a correspondence game shows the time per move and survives a restart', async () => {
  await challengeBob('c1');
  await move(alice, 'd3');
  assert.match(await bob.textContent('#deadline'), /23 h|1 d|24 h/);
  await stopServer();
  await startServer();
  await bob.waitForFunction(() => !document.querySelector('.connection'), null, { timeout: 20000 });
  await move(bob, 'c3');
  await waitVersion(alice, 2);
  assert.deepEqual((await state(alice)).moves, ['d3', 'c3']);
  // My games marks the game where it is Alice's turn; the page title counts the games waiting.
  await alice.goto(BASE + '/games');
  await alice.waitForSelector('#waiting-games li');
  await alice.waitForFunction(() => /^\(\d+\) /.test(document.title), null, { timeout: 10000 });
  await shot(alice, 'my-games.png');
  await alice.goBack();
  await alice.waitForSelector('#resign');
  await alice.click('#resign');
  await alice.click('#confirm button[value=yes]');
  await alice.waitForSelector('#game-over');
});

await test('a four-player rated Swiss runs to its end; the profile shows the rating chart', async () => {
  const carol = await (await browser.newContext({ viewport: { width: 1200, height: 860 } })).newPage();
  const dave = await (await browser.newContext({ viewport: { width: 1200, height: 860 } })).newPage();
  await signUp(carol, 'carol');
  await signUp(dave, 'dave');
  const pages = { alice, bob, carol, dave };
  await alice.goto(BASE + '/tournaments');
  await alice.fill('#t-name', 'Sunday Swiss');
  await alice.selectOption('#t-game', 'checkers');
  await alice.selectOption('#t-kind', 'swiss');
  await alice.fill('#t-rounds', '3');
  await alice.click('#new-tournament button[type=submit]');
  await alice.waitForURL(/\/tournament\//);
  const tid = alice.url().split('/').pop();
  for (const p of [bob, carol, dave]) {
    await p.goto(alice.url());
    await p.click('#t-join');
    await p.waitForSelector('#t-withdraw');
  }
  await alice.waitForFunction(() => /Players \(4\)/.test(document.body.textContent), null, { timeout: 10000 });
  await shot(alice, 'tournament-open.png');
  await alice.click('#t-start');
  for (let round = 1; round <= 3; round++) {
    let t;
    await waitFor(async () => { t = await (await fetch(`${BASE}/api/tournaments/${tid}`)).json(); return t.round === round; }, 10000, `round ${round}`);
    for (const g of t.rounds_played[round - 1].games) {
      const p = pages[g.players[0]];
      await p.goto(`${BASE}/game/${g.id}`);
      await p.waitForSelector('#resign');
      assert.equal(await p.locator('#hint').count(), 0, 'no hints in tournament games');
      if (round === 2 && g === t.rounds_played[1].games[0]) await shot(p, 'tournament-game.png');
      await p.click('#resign');
      await p.click('#confirm button[value=yes]');
      // The last game of a round pairs the next, and the page goes on to the player's new game at once: wait
      // for the server's word, not for the banner.
      await waitFor(async () => (await (await fetch(`${BASE}/api/games/${g.id}`)).json()).over, 10000, `game ${g.id} to end`);
    }
  }
  await waitFor(async () => (await (await fetch(`${BASE}/api/tournaments/${tid}`)).json()).status === 'finished', 10000, 'the tournament to finish');
  await carol.goto(`${BASE}/tournament/${tid}`);
  await carol.waitForFunction(() => document.querySelector('#t-status')?.textContent === 'Finished', null, { timeout: 10000 });
  assert.equal(await carol.locator('#standings tbody tr').count(), 4);
  await shot(carol, 'tournament.png', true);
  // Every player has a rated checkers history of three games.
  await carol.goto(`${BASE}/player/alice`);
  await carol.waitForSelector('#rating-chart-checkers');
  assert.equal(await carol.locator('#rating-chart-checkers circle').count(), 4, 'the start and three games');
  // Her games list the ratings of the time, with each game's change.
  assert.match(await carol.textContent('main'), /\(1500\? [+−]\d+\)/);
  await shot(carol, 'profile.png', true);
  await carol.goto(`${BASE}/leaderboard/checkers`);
  await carol.waitForSelector('#leaderboard tbody tr');
  assert.equal(await carol.locator('#leaderboard tbody tr').count(), 4);
  await shot(carol, 'leaderboard.png');
  await carol.context().close();
  await dave.context().close();
});

/** The words of the project's specification, which a player's rules page never shows. */
const SPEC_WORDS = /seed|ruling|test|perft|crates\/|implementation|bitboard|could not be recovered/i;

await test('a rules page is written for players, with each example beside its rule, and a reader tries the forced capture', async () => {
  await alice.goto(BASE + '/rules/checkers');
  await alice.waitForSelector('#rules-doc figure.example svg');
  const doc = await alice.textContent('#rules-doc');
  assert.ok(doc.length > 500, 'the rules text is shown');
  assert.doesNotMatch(doc, SPEC_WORDS);
  // The capture example stands in the section on captures.
  const section = await alice.evaluate(() => {
    let e = document.querySelector('figure[data-example="capture"]');
    while (e && e.tagName !== 'H2') e = e.previousElementSibling;
    return e && e.textContent;
  });
  assert.equal(section, 'Captures');
  const forced = alice.locator('figure[data-example="capture"]');
  const options = await forced.locator('select.example-moves option').allTextContents();
  assert.deepEqual(options.slice(1), ['15x22'], 'only the capture is legal');
  await forced.locator('select.example-moves').selectOption('15x22');
  await alice.waitForFunction(() => document.querySelector('figure[data-example="capture"] .example-status')?.textContent.includes('15x22'));
  await shot(alice, 'rules.png', true);
  // Every game's rules page, the list taken from the catalog: every example placed in the document, and no
  // word of the specification.
  const games = await alice.evaluate(async () => (await (await fetch('/api/catalog')).json()).games.map((g) => g.name));
  assert.ok(games.length >= 6, `the catalog lists the games, the test game too: ${games}`);
  for (const game of games) {
    await alice.goto(`${BASE}/rules/${game}`);
    await alice.waitForSelector('#rules-doc figure.example svg');
    assert.doesNotMatch(await alice.textContent('#rules-doc'), SPEC_WORDS, game);
    const examples = await alice.evaluate(async (g) => (await (await fetch(`/api/rules/${g}`)).json()).examples.length, game);
    assert.equal(await alice.locator('#rules-doc figure.example').count(), examples, `${game}: every example is on the page`);
  }
  await shot(alice, 'rules-tactics.png');
});

/** The accessibility rules axe-core finds broken on the page as it is now (WCAG 2 A and AA). */
async function axe(page) {
  await page.addScriptTag({ path: AXE });
  const r = await page.evaluate(async () => {
    const { violations, passes } = await window.axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] });
    return { passes: passes.length, faults: violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`) };
  });
  assert.ok(r.passes >= 5, `axe-core checked the page (${r.passes} rules passed)`);
  return r.faults;
}

await test('Japanese: the browser’s language is followed, every word is Japanese, and the menu switch keeps the choice', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1200, height: 860 }, locale: 'ja-JP' });
  const ja = await ctx.newPage();
  ja.on('pageerror', (e) => console.log('page error:', e.message));
  await ja.goto(BASE + '/');
  await ja.waitForSelector('#signup');
  assert.equal(await ja.getAttribute('html', 'lang'), 'ja');
  assert.equal(await ja.textContent('h1'), '盤上ゲームで遊ぶ');
  await ja.fill('#signup input[name=name]', 'hanako');
  await ja.fill('#signup input[name=password]', 'password-hanako');
  await ja.click('#signup button[type=submit]');
  await ja.waitForSelector('#me');
  assert.equal(await ja.textContent('#nav-play'), '対局');
  // A game against the computer: the sides, the status and the game's words are Japanese.
  await ja.selectOption('#computer-game', 'reversi');
  assert.match(await ja.textContent('#computer-color'), /黒（先手）/);
  await ja.selectOption('#computer-level', '1');
  await ja.selectOption('#computer-color', 'first');
  await ja.click('#play-computer button[type=submit]');
  await ja.waitForURL(/\/game\//);
  await ja.waitForSelector('#board svg');
  await ja.waitForFunction(() => document.querySelector('#status')?.textContent === 'あなたの番です');
  assert.equal(await ja.textContent('main h1'), 'リバーシ');
  await move(ja, 'd3');
  await ja.waitForFunction(() => /が .* に打ちました/.test(document.querySelector('#announce')?.textContent || ''));
  await shot(ja, 'game-ja.png');
  // A refused typed move gets the code's words.
  await ja.fill('#move-input', 'a1');
  await ja.press('#move-input', 'Enter');
  await ja.waitForFunction(() => document.querySelector('#toast.show')?.textContent.length > 0);
  assert.match(await ja.textContent('#toast'), /[ぁ-んァ-ン一-龥]/);
  // The lobby lists the game by its title in Japanese, never by its code name.
  await ja.goto(BASE + '/');
  await ja.waitForSelector('#my-games li');
  assert.match(await ja.textContent('#my-games'), /リバーシ/);
  assert.doesNotMatch(await ja.textContent('#my-games'), /reversi/);
  // Settings are controls with Japanese labels and help: no English word in them.
  for (const game of ['reversi', 'cornered', 'ywf', 'tactics']) {
    await ja.selectOption('#challenge-game', game);
    const box = ja.locator('#new-challenge .settings');
    await box.waitFor();
    // The words, without a board's coordinates (a-i, 1-9) and the name of the Enter key.
    const words = (await box.evaluate((b) => { const c = b.cloneNode(true); c.querySelectorAll('svg').forEach((s) => s.remove()); return c.textContent; })).replace(/Enter/g, '');
    assert.doesNotMatch(words, /[A-Za-z]{3,}/, `${game}: ${words}`);
  }
  await ja.check('#challenge-army-custom');
  await ja.waitForSelector('#challenge-army-clauses li');
  assert.match(await ja.textContent('#challenge-army-clauses'), /どの兵種も 1 つ以上/);
  assert.match(await ja.textContent('label:has(#challenge-help)'), /ヒント/);
  // The games in play, with their mini-boards (the game against the computer above is one), in Japanese.
  await ja.goto(BASE + '/watch');
  await ja.waitForSelector('[data-mini] svg');
  assert.equal(await ja.textContent('main h1'), '対局中のゲーム');
  assert.doesNotMatch(await ja.textContent('#minis'), /reversi|engine level/);
  // The rules in Japanese, written for players, with the module's words.
  await ja.goto(BASE + '/rules/ywf');
  await ja.waitForSelector('#rules-doc figure.example svg');
  assert.match(await ja.textContent('#rules-doc'), /良い子/);
  assert.doesNotMatch(await ja.textContent('#rules-doc'), /テスト|シード|実装/);
  assert.equal(await ja.getAttribute('#rules-doc', 'lang'), 'ja');
  await shot(ja, 'rules-ja.png');
  // The switch in the menu: English, kept across a reload.
  await ja.selectOption('#lang', 'en');
  await ja.waitForFunction(() => document.documentElement.lang === 'en' && document.querySelector('#nav-play')?.textContent === 'Play');
  await ja.reload();
  await ja.waitForFunction(() => document.querySelector('#nav-play')?.textContent === 'Play');
  await ja.selectOption('#lang', 'ja');
  await ja.waitForFunction(() => document.querySelector('#nav-play')?.textContent === '対局');
  await ctx.close();
});

await test('axe-core finds no accessibility fault on any page, in English and in Japanese', async () => {
  const faults = [];
  for (const locale of ['en-US', 'ja-JP']) {
    // axe-core is injected as a script: the page's CSP (script-src 'self') is set aside for the audit.
    const ctx = await browser.newContext({ viewport: { width: 1200, height: 860 }, locale, bypassCSP: true });
    const p = await ctx.newPage();
    await p.goto(BASE + '/');
    await p.waitForSelector('#signup');
    faults.push(...(await axe(p)).map((f) => `${locale} / (signed out): ${f}`));
    await p.fill('#signup input[name=name]', `axe${locale.slice(0, 2)}`);
    await p.fill('#signup input[name=password]', 'password-axe');
    await p.click('#signup button[type=submit]');
    await p.waitForSelector('#me');
    await playComputer(p, 'checkers', { goto: false, color: null });
    const game = new URL(p.url()).pathname.split('/').pop();
    const pages = ['/', '/watch', '/tournaments', '/leaderboard/checkers', '/rules/reversi', '/rules/tactics', '/games', '/account', `/game/${game}`, `/replay/${game}`, `/player/alice`, '/game/XXXXXXXX'];
    for (const path of pages) {
      await p.goto(BASE + path);
      await p.waitForSelector('main .page > *', { timeout: 10000 });
      await p.waitForTimeout(300);
      faults.push(...(await axe(p)).map((f) => `${locale} ${path}: ${f}`));
    }
    await ctx.close();
  }
  assert.deepEqual(faults, []);
});

await test('account: move sounds and their switch, move confirmation, a password change, signing out everywhere, and deleting an account', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1200, height: 860 } });
  // Every tone the page starts is counted.
  await ctx.addInitScript(() => {
    window.tones = 0;
    const Real = window.AudioContext;
    window.AudioContext = class extends Real {
      createOscillator() {
        const o = super.createOscillator();
        const start = o.start.bind(o);
        o.start = (...a) => { window.tones += 1; return start(...a); };
        return o;
      }
    };
  });
  const p = await ctx.newPage();
  await signUp(p, 'erin');
  // Sounds are on by default: a move and the engine's reply sound; switched off, nothing sounds.
  for (const on of [true, false]) {
    await p.goto(BASE + '/account');
    await p.waitForSelector('#pref-sounds');
    assert.equal(await p.isChecked('#pref-sounds'), on);
    await playComputer(p, 'reversi');
    await move(p, 'd3');
    await p.waitForFunction(() => document.querySelectorAll('#moves .mv').length === 2, null, { timeout: 15000 });
    const tones = await p.evaluate(() => window.tones);
    if (on) assert.ok(tones >= 2, `${tones} tones`);
    else assert.equal(tones, 0);
    if (on) {
      await p.goto(BASE + '/account');
      await p.uncheck('#pref-sounds');
    }
  }
  await p.goto(BASE + '/account');
  await p.waitForSelector('#preferences');
  await p.check('#pref-confirm');
  // With confirmation on, a move waits for a yes.
  await playComputer(p, 'reversi');
  const st = await state(p);
  await enter(p, st.view.moves.find((m) => m.text === 'd3'));
  await p.waitForSelector('#confirm-move');
  assert.equal((await state(p)).version, 0, 'nothing is sent before the yes');
  await p.click('#confirm-move-yes');
  await waitVersion(p, 1);
  // The password: the present one is required.
  await p.goto(BASE + '/account');
  await p.fill('#pw-old', 'wrong-password');
  await p.fill('#pw-new', 'a-new-password');
  await p.click('#change-password button[type=submit]');
  await p.waitForFunction(() => document.querySelector('#change-password .error')?.textContent.length > 0);
  await p.fill('#pw-old', 'password-erin');
  await p.fill('#pw-new', 'a-new-password');
  await p.click('#change-password button[type=submit]');
  await p.waitForFunction(() => /Password changed/.test(document.querySelector('#toast')?.textContent || ''));
  await p.click('#signout-everywhere');
  await p.click('#confirm-yes');
  await p.waitForSelector('#signin');
  await p.fill('#signin input[name=name]', 'erin');
  await p.fill('#signin input[name=password]', 'a-new-password');
  await p.click('#signin button[type=submit]');
  await p.waitForSelector('#me');
  // Deleting: the game stays, its player shown as deleted.
  await p.goto(BASE + '/account');
  await p.fill('#delete-password', 'a-new-password');
  await p.click('#delete-account button[type=submit]');
  await p.click('#confirm-yes');
  await p.waitForSelector('#signin');
  await p.goto(`${BASE}/replay/${st.id}`);
  await p.waitForSelector('#board svg');
  await p.goto(`${BASE}/watch`);
  await shot(p, 'account.png');
  await ctx.close();
});

await test('moderation: reports from a profile and from a game; an admin made by the command line warns, mutes and closes from the queue; the player reads the warning, and the open page of a closed account is signed out; in English and Japanese, axe-clean', async () => {
  const rita = await openPage();
  await signUp(rita, 'rita');
  const sam = await openPage();
  await signUp(sam, 'sam');
  const mia = await openPage();
  await signUp(mia, 'mia');
  // No admin link until the operator makes one, on the server's database while it runs.
  assert.equal(await mia.locator('#nav-admin').count(), 0);
  const made = spawnSync(BIN, ['admin', 'grant', 'mia', '--database', `sqlite://${dataDir}/gridplay.db`], { encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  assert.match(made.stderr, /mia is now an admin/);
  // Rita reports Sam from his profile; the report goes to the admins.
  await rita.goto(`${BASE}/player/sam`);
  await rita.click('#report summary');
  await rita.fill('#report-reason', 'Sam called me names in the lobby.');
  // The lobby changes while she writes (the page redraws): what she wrote stays, and so does her focus.
  await sam.evaluate(async () => { await fetch('/api/challenges', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ spec: 'reversi', color: 'first' }) }); });
  await rita.waitForTimeout(600);
  assert.equal(await rita.inputValue('#report-reason'), 'Sam called me names in the lobby.');
  assert.equal(await rita.evaluate(() => document.activeElement?.id), 'report-reason');
  await rita.click('#report button[type=submit]');
  await rita.waitForSelector('#toast.show');
  assert.match(await rita.textContent('#toast'), /Report sent/);
  // And about a game they play together, from its replay page (a player reports the other player).
  const game = await rita.evaluate(async () => {
    const c = await (await fetch('/api/challenges', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ spec: 'reversi', color: 'first', opponent: 'sam' }) })).json();
    return c.id;
  });
  const started = await sam.evaluate(async (id) => (await (await fetch(`/api/challenges/${id}/accept`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json()).game, game);
  await rita.goto(`${BASE}/replay/${started}`);
  await rita.click('#report summary');
  assert.match(await rita.textContent('#report summary'), /Report sam/);
  await rita.fill('#report-reason', 'Sam stalls in our game.');
  await rita.click('#report button[type=submit]');
  await rita.waitForFunction(() => /Report sent/.test(document.querySelector('#toast').textContent));
  // Nobody reports themself: no box on one's own profile.
  await sam.goto(`${BASE}/player/sam`);
  await sam.waitForSelector('h1');
  assert.equal(await sam.locator('#report').count(), 0);
  // The admin's page: the queue with the report, Sam's standing, and the actions.
  await mia.goto(BASE + '/');
  await mia.click('#nav-admin');
  await mia.waitForSelector('article[data-report]');
  assert.equal(await mia.locator('article[data-report]').count(), 2);
  const card = mia.locator('article[data-report]').first();
  assert.match(await card.textContent(), /Report about sam/);
  assert.match(await card.textContent(), /Sam called me names in the lobby\./);
  assert.deepEqual(await axe(mia), []);
  const act = async (kind, reason, minutes) => {
    await card.locator('select[id$="-kind"]').selectOption(kind);
    if (minutes) await card.locator('input[id$="-minutes"]').fill(String(minutes));
    await card.locator('input[id$="-reason"]').fill(reason);
    await card.locator('.admin-act button[type=submit]').click();
    const shown = { warn: 'Warning', mute: 'Mute in chat' }[kind];
    await mia.waitForFunction((k) => [...document.querySelectorAll('article[data-report]:first-of-type .history li strong')].some((e) => e.textContent === k)
      || document.querySelector('article[data-report] .error:not(:empty)'), shown);
    assert.equal(await card.locator('.error:not(:empty)').count(), 0, await card.textContent());
  };
  await act('warn', 'Please keep the lobby polite.');
  await act('mute', 'Muted for an hour after the warning.', 60);
  // Sam reads what the moderators did, without their names.
  await sam.goto(`${BASE}/account`);
  await sam.waitForSelector('#moderation:not([hidden])');
  const said = await sam.textContent('#moderation');
  assert.match(said, /Please keep the lobby polite\./);
  assert.match(said, /You may not chat until/);
  assert.ok(!said.includes('mia'), said);
  // Each report is closed with what was done; the one about the game links to it. Then the queue is empty.
  await card.locator('input[id^="close-"]').fill('Warned and muted for an hour.');
  await card.locator('button.secondary[type=submit]').click();
  await mia.waitForFunction(() => document.querySelectorAll('article[data-report]').length === 1);
  assert.match(await card.textContent(), /Sam stalls in our game\./);
  assert.equal(await card.locator(`a[href="/replay/${started}"]`).count(), 1);
  await card.locator('input[id^="close-"]').fill('Dealt with by the same mute.');
  await card.locator('button.secondary[type=submit]').click();
  await mia.waitForSelector('#queue-empty');
  // In Japanese the admin's page is wholly Japanese, and axe-clean.
  const ja = await openPage('ja-JP');
  await ja.context().addCookies(await mia.context().cookies());
  await ja.goto(BASE + '/admin');
  await ja.waitForSelector('#queue-empty');
  assert.equal(await ja.textContent('h1'), '管理');
  assert.equal(await ja.textContent('#queue-empty'), '未処理の通報はありません。');
  assert.deepEqual(await axe(ja), []);
  await ja.context().close();
  // Closing Sam's account, looked up by name, signs him out and keeps him out.
  await mia.fill('#look-name', 'sam');
  await mia.click('#look-name + button');
  await mia.waitForSelector('#looked-up [data-account="sam"]');
  const looked = mia.locator('#looked-up');
  await looked.locator('select[id$="-kind"]').selectOption('close');
  await looked.locator('input[id$="-reason"]').fill('Insults after a warning and a mute.');
  await looked.locator('.admin-act button[type=submit]').click();
  await mia.click('#confirm-yes');
  await mia.waitForFunction(() => /closed/.test(document.querySelector('#looked-up h3')?.textContent || ''));
  // Sam's open page hears of it at once: it is signed out, and says why.
  await sam.waitForFunction(() => !document.querySelector('#me'));
  assert.match(await sam.textContent('#toast'), /closed by the site's moderators/);
  await sam.goto(`${BASE}/account`);
  await sam.waitForSelector('#signup, .card a[href="/"]');
  assert.equal(await sam.locator('#me').count(), 0);
  await sam.goto(BASE + '/');
  await sam.fill('#signin input[name=name]', 'sam');
  await sam.fill('#signin input[name=password]', 'password-sam');
  await sam.click('#signin button[type=submit]');
  await sam.waitForFunction(() => /closed by the site/.test(document.body.textContent));
  for (const p of [rita, sam, mia]) await p.context().close();
});

await test('engine-use review: a player who plays the engine\'s moves in rated games is in the admins\' queue with each game\'s figures, and the replay shows the same agreement; axe-clean', async () => {
  const [cal, ned, rex] = [await openPage(), await openPage(), await openPage()];
  await signUp(cal, 'cal');
  await signUp(ned, 'ned');
  await signUp(rex, 'rex');
  const made = spawnSync(BIN, ['admin', 'grant', 'rex', '--database', `sqlite://${dataDir}/gridplay.db`], { encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  // Cal's moves come from the engine at level 6, asked over the gridplay protocol in another process, as a
  // person with an engine in another window would; Ned enters the first legal move the server lists.
  const engine = spawn(BIN, ['engine'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = [];
  let waiting = null;
  let buffered = '';
  engine.stdout.on('data', (d) => {
    buffered += d;
    let at;
    while ((at = buffered.indexOf('\n')) >= 0) {
      lines.push(buffered.slice(0, at));
      buffered = buffered.slice(at + 1);
      if (waiting) { const w = waiting; waiting = null; w(); }
    }
  });
  const ask = async (line) => {
    engine.stdin.write(`${line}\n`);
    while (!lines.length) await new Promise((r) => { waiting = r; });
    const answer = lines.shift();
    assert.ok(!answer.startsWith('error'), `${line}: ${answer}`);
    return answer;
  };
  const games = [];
  try {
    for (let g = 0; g < 2; g++) {
      await challenge(cal, ned, 'ned', '10+5', { rated: true });
      games.push(new URL(cal.url()).pathname.split('/').pop());
      for (let n = 0; n < 200; n++) {
        const st = await state(cal);
        if (st.over) break;
        let mv = st.view.moves[0];
        if (st.view.turn === 'first') {
          await ask('game reversi');
          if (st.moves.length) await ask(`play ${st.moves.join(' ')}`);
          const best = (await ask('go level=6')).split(' ')[1];
          mv = st.view.moves.find((m) => m.text === best);
          assert.ok(mv, `the engine's ${best} is legal`);
        }
        const page = st.view.turn === 'first' ? cal : ned;
        await enter(page, mv);
        await waitVersion(page, st.moves.length + 1);
      }
      assert.ok((await state(cal)).over, 'the game ended');
    }
  } finally {
    engine.stdin.end();
  }
  // The reviewer takes each finished game within seconds (this server reviews every 2 s, and flags from 2
  // games); the admin's page lists Cal with both games' figures, linked to their replays.
  await rex.goto(BASE + '/admin');
  await waitFor(async () => {
    await rex.reload();
    await rex.waitForSelector('#review-queue > *');
    return (await rex.locator('#review-queue [data-suspect="cal"] .review-games tbody tr').count()) === 2;
  }, 60000, 'Cal in the review queue with both games');
  const suspect = rex.locator('#review-queue [data-suspect="cal"]');
  assert.equal(await rex.locator('#review-queue [data-suspect="ned"]').count(), 0, 'Ned is not flagged');
  const text = await suspect.textContent();
  assert.match(text, /2 games: [\d.]+% of moves the engine's best \(\d+ of \d+\), accuracy [\d.]+%/);
  assert.match(text, /flagged/);
  for (const id of games) assert.equal(await suspect.locator(`a[href="/replay/${id}"]`).count(), 1);
  await shot(rex, 'review-queue.png', true);
  assert.deepEqual(await axe(rex), []);
  // The account card, opened from the queue, has the same figures; Ned's has his, unflagged.
  await suspect.locator('button.secondary').click();
  await rex.waitForSelector('#looked-up [data-account="cal"] .review-profile');
  await rex.fill('#look-name', 'ned');
  await rex.click('#look-name + button');
  await rex.waitForSelector('#looked-up [data-account="ned"] .review-profile');
  assert.doesNotMatch(await rex.textContent('#looked-up .review-profile h4'), /flagged/);
  // The first game's row agrees with its replay's analysis.
  const row = suspect.locator('.review-games tbody tr', { has: rex.locator(`a[href="/replay/${games[0]}"]`) });
  const agreed = (await row.locator('td').nth(2).textContent()).trim();
  const analysis = await rex.evaluate(async (id) => (await fetch(`/api/games/${id}/analysis`)).json(), games[0]);
  assert.equal(agreed, `${analysis.sides[0].agreed}/${analysis.sides[0].counted}`);
  for (const p of [cal, ned, rex]) await p.context().close();
});

await test('game chat: players and spectators each in their own room, live; a refusal said as a sentence; hide the chat, hide an author, report a line; by keyboard, in Japanese, axe-clean; the replay keeps it for the players', async () => {
  const [ada, bea, cy] = [await openPage(), await openPage(), await openPage()];
  await signUp(ada, 'ada');
  await signUp(bea, 'bea');
  await signUp(cy, 'cyrus');
  const challenge = await ada.evaluate(async () => (await (await fetch('/api/challenges', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ spec: 'reversi', color: 'first', opponent: 'bea' }) })).json()).id);
  const game = await bea.evaluate(async (id) => (await (await fetch(`/api/challenges/${id}/accept`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json()).game, challenge);
  const visitor = await openPage();
  for (const p of [ada, bea, cy, visitor]) {
    await p.goto(`${BASE}/game/${game}`);
    await p.waitForSelector('#chat');
  }
  assert.equal(await ada.textContent('#chat-title'), 'Chat with your opponent');
  assert.equal(await cy.textContent('#chat-title'), "Spectators' chat");
  // A visitor reads the spectators' room but is asked to sign in to talk.
  assert.equal(await visitor.locator('#chat-input').count(), 0);
  assert.match(await visitor.textContent('#chat'), /Sign in to chat\./);
  // Ada types by keyboard; Bea reads it at once, and Cy, a spectator, does not.
  await ada.focus('#chat-input');
  await ada.keyboard.type('Good luck, Bea!');
  await ada.keyboard.press('Enter');
  await bea.waitForFunction(() => /Good luck, Bea!/.test(document.querySelector('#chat-log').textContent));
  await ada.waitForFunction(() => document.querySelector('#chat-input').value === '');
  assert.equal(await bea.getAttribute('#chat-scroll', 'role'), 'log');
  await cy.fill('#chat-input', 'What an opening');
  await cy.press('#chat-input', 'Enter');
  await visitor.waitForFunction(() => /cyrus\s*What an opening/.test(document.querySelector('#chat-log').textContent));
  await bea.fill('#chat-input', 'Thanks, you too');
  await bea.press('#chat-input', 'Enter');
  await ada.waitForFunction(() => /Thanks, you too/.test(document.querySelector('#chat-log').textContent));
  for (const p of [ada, bea]) assert.ok(!(await p.textContent('#chat-log')).includes('What an opening'), 'the players do not read the spectators');
  assert.ok(!(await cy.textContent('#chat-log')).includes('Good luck'), 'the spectators do not read the players');
  // A refused line is said as a sentence, and kept in the box to be changed.
  await ada.fill('#chat-input', 'good luck, bea!');
  await ada.press('#chat-input', 'Enter');
  await ada.waitForFunction(() => document.querySelector('#chat-error').textContent !== '');
  assert.equal(await ada.textContent('#chat-error'), 'You said that a moment ago.');
  assert.equal(await ada.inputValue('#chat-input'), 'good luck, bea!');
  // Bea hides Ada's lines (kept in her browser), then shows them again; every control is a button.
  await bea.click(`#chat-log li:has-text("Good luck") .chat-menu`);
  assert.equal(await bea.getAttribute(`#chat-log li:has-text("Good luck") .chat-menu`, 'aria-expanded'), 'true');
  assert.deepEqual(await axe(bea), []);
  await bea.click('text=Hide ada\'s lines');
  await bea.waitForFunction(() => !/Good luck/.test(document.querySelector('#chat-log').textContent));
  assert.match(await bea.textContent('#chat-hidden'), /ada's lines are hidden/);
  await bea.reload();
  await bea.waitForSelector('#chat-log li');
  assert.ok(!(await bea.textContent('#chat-log')).includes('Good luck'), 'still hidden after a reload');
  await bea.click("text=Show ada's lines again");
  await bea.waitForFunction(() => /Good luck/.test(document.querySelector('#chat-log').textContent));
  // She reports the line to the moderators, by keyboard.
  await bea.click(`#chat-log li:has-text("Good luck") .chat-menu`);
  await bea.click('text=Report this line');
  await bea.keyboard.type('Sarcastic after every move.');
  await bea.keyboard.press('Enter');
  await bea.waitForFunction(() => /Report sent/.test(document.querySelector('#toast').textContent));
  // The switch hides the whole chat, and the choice is kept.
  await cy.check('#chat-off');
  assert.equal(await cy.isVisible('#chat-log'), false);
  await cy.reload();
  await cy.waitForSelector('#chat');
  assert.equal(await cy.isVisible('#chat-log'), false);
  await cy.uncheck('#chat-off');
  assert.equal(await cy.isVisible('#chat-log'), true);
  // In Japanese the box is wholly Japanese, and axe-clean.
  const ja = await openPage('ja-JP');
  await ja.context().addCookies(await cy.context().cookies());
  await ja.goto(`${BASE}/game/${game}`);
  await ja.waitForSelector('#chat-log li');
  assert.equal(await ja.textContent('#chat-title'), '観戦者のチャット');
  assert.equal(await ja.getAttribute('#chat-input', 'placeholder'), '観戦者にひとこと');
  assert.deepEqual(await axe(ja), []);
  // Once the game is over, the players' replay shows both rooms; a spectator's shows the spectators' only.
  for (const p of [ada, bea]) await p.evaluate(() => window.scrollTo(0, 0));
  await move(ada, 'd3');
  await move(bea, 'c3');
  await ada.click('#resign');
  await ada.click('#confirm-yes');
  await ada.waitForSelector('#game-over');
  await bea.goto(`${BASE}/replay/${game}`);
  await bea.waitForSelector('#replay-below #chat');
  const replay = await bea.textContent('#replay-below #chat');
  assert.ok(replay.includes('Good luck, Bea!') && replay.includes('What an opening'), replay);
  await cy.goto(`${BASE}/replay/${game}`);
  await cy.waitForSelector('#replay-below #chat');
  assert.ok(!(await cy.textContent('#replay-below #chat')).includes('Good luck'));
  for (const p of [ada, bea, cy, visitor, ja]) await p.context().close();
});

await test('API tokens: made on the account page with a name and scopes, shown once, used by a program as a Bearer token within its scopes, revoked; in Japanese, axe-clean', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1200, height: 900 }, bypassCSP: true });
  const p = await ctx.newPage();
  await signUp(p, 'tokyo');
  await p.goto(BASE + '/account');
  await p.waitForSelector('#tokens');
  // The list is filled when the server's answer comes.
  await p.waitForFunction(() => /No tokens\./.test(document.querySelector('#token-list')?.textContent || ''));
  assert.equal(await p.locator('#new-token input[value=admin]').count(), 0, 'the admin scope is for admins');
  await p.fill('#token-name', 'my script');
  await p.click('#new-token button[type=submit]');
  await p.waitForSelector('#token-value');
  const token = await p.inputValue('#token-value');
  assert.match(token, /^gp_[0-9a-f]{64}$/);
  assert.match(await p.textContent('#token-made'), /shown this once/);
  await p.waitForSelector('#token-list [data-token]');
  assert.match(await p.textContent('#token-list'), /my script · Read \(games, players, your account\) · never used/);
  assert.ok(!(await p.textContent('#token-list')).includes(token), 'the list never shows the token');
  assert.deepEqual(await axe(p), []);
  // A program (no cookie) reads as the user with it, and may not play with a read token.
  const get = (path) => fetch(BASE + path, { headers: { authorization: `Bearer ${token}` } });
  assert.equal((await (await get('/api/me')).json()).user.name, 'tokyo');
  const refused = await fetch(BASE + '/api/computer', { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ spec: 'reversi', level: 1, color: 'first' }) });
  assert.equal(refused.status, 403);
  assert.equal((await refused.json()).error.code, 'token-scope');
  // Revoked from the page: the program is refused from then on.
  await p.reload();
  await p.waitForSelector('#token-list [data-token]');
  assert.match(await p.textContent('#token-list'), /last used/);
  await p.click('#token-list [data-token] button');
  await p.click('#confirm-yes');
  await p.waitForFunction(() => /No tokens\./.test(document.querySelector('#token-list').textContent));
  assert.equal((await get('/api/me')).status, 401);
  // In Japanese, the card is Japanese and axe-clean.
  const ja = await (await browser.newContext({ viewport: { width: 1200, height: 900 }, locale: 'ja-JP', bypassCSP: true })).newPage();
  await ja.context().addCookies(await ctx.cookies());
  await ja.goto(BASE + '/account');
  await ja.waitForSelector('#token-list li');
  assert.equal(await ja.textContent('#tokens h2'), 'API トークン');
  assert.deepEqual(await axe(ja), []);
  await ja.context().close();
  await ctx.close();
});

await test('takeback in a casual game, and a premove in a live one', async () => {
  await challengeBob('10+5');
  await move(alice, 'd3');
  await move(bob, 'c3');
  // Bob asks to take back c3; Alice sees the request and accepts.
  await bob.click('#takeback');
  await alice.waitForSelector('#takeback-offer');
  assert.match(await alice.textContent('#takeback-offer'), /asks to take back/);
  await alice.click('#takeback-accept');
  await bob.waitForFunction(() => document.querySelectorAll('#moves .mv').length === 1);
  assert.equal((await state(bob)).moves.length, 1);
  // Bob premoves while Alice thinks... it is Bob's turn again after the takeback, so he plays, then Alice.
  await move(bob, 'c5');
  const st = await state(bob);
  const legal = st.view.moves.map((m) => m.text);
  // Alice is to move; Bob clicks a cell now, and it is played the moment Alice's move lands if legal then.
  const [alicesMove] = legal;
  const after = await bob.evaluate(async ([spec, moves]) => (await (await fetch('/api/rules-try', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ spec, moves }) })).json()).view.moves.map((m) => ({ text: m.text, path: m.path })), [st.spec, [...st.moves, alicesMove]]);
  const pre = after[0];
  await clickCell(bob, pre.path[0]);
  await bob.waitForSelector('#premove');
  await move(alice, alicesMove);
  await bob.waitForFunction((n) => document.querySelectorAll('#moves .mv').length === n, st.moves.length + 2, { timeout: 10000 });
  assert.equal((await state(bob)).moves.at(-1), pre.text, 'the premove was played');
  await alice.click('#resign');
  await alice.click('#confirm-yes');
  await alice.waitForSelector('#game-over');
});

await test('a phone: the menu folds away, the players sit above and below the board, a checkers game is played by touch and a move of each other game is tapped, and Grid Tactics zooms to 40 px squares', async () => {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const p = await ctx.newPage();
  await signUp(p, 'frank');
  assert.equal(await p.isVisible('#nav-play'), false, 'the menu is folded');
  await p.tap('#menu-toggle');
  await p.waitForSelector('#nav-play', { state: 'visible' });
  await p.tap('#nav-play');
  await p.waitForSelector('#nav-play', { state: 'hidden' });
  await playComputer(p, 'checkers', { goto: false, tap: true });
  const [top, board, bottom] = await Promise.all(['#bar-top', '#board', '#bar-bottom'].map((sel) => p.locator(sel).boundingBox()));
  assert.ok(top.y + top.height <= board.y + 1 && board.y + board.height <= bottom.y + 1, 'a bar above and a bar below the board');
  assert.match(await p.textContent('#bar-bottom'), /frank/);
  for (let k = 0; k < 3; k++) {
    await p.waitForFunction(() => document.querySelector('#status')?.textContent === 'Your turn' || document.querySelector('#game-over'), null, { timeout: 30000 });
    const st = await state(p);
    if (st.over) break;
    const mv = pick(st.view.moves);
    await tapMove(p, mv);
    await assertPlayed(p, st, mv);
  }
  const width = await p.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `no horizontal scrolling (page is ${width}px wide)`);
  await shot(p, 'phone-checkers.png');
  // One move by touch in each of the other games, the exact move checked.
  for (const game of ['reversi', 'cornered', 'ywf', 'tactics']) {
    await playComputer(p, game, { tap: true });
    await p.waitForFunction(() => document.querySelector('#status')?.textContent === 'Your turn', null, { timeout: 30000 });
    const st = await state(p);
    const mv = pick(st.view.moves, (m) => m.kind !== 'end-turn' && m.kind !== 'pass');
    await tapMove(p, mv);
    await assertPlayed(p, st, mv);
  }
  await playComputer(p, 'tactics', { tap: true });
  await p.waitForSelector('#zoom', { state: 'visible' });
  await p.tap('#zoom');
  await drawn(p);
  const cell = await p.locator('#board [data-cell="0"] rect').first().boundingBox();
  assert.ok(cell.width >= 40, `a square is ${cell.width} px wide once zoomed`);
  // The zoomed board scrolls in its frame: the page stays as wide as the screen, the players' bars and their
  // scores in view.
  const zoomedWidth = await p.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(zoomedWidth <= 390, `no horizontal scrolling once zoomed (page is ${zoomedWidth}px wide)`);
  for (const bar of ['#bar-top .score', '#bar-bottom .score']) {
    const b = await p.locator(bar).boundingBox();
    assert.ok(b.x >= 0 && b.x + b.width <= 390, `${bar} is on the screen (${b.x}-${b.x + b.width})`);
  }
  await shot(p, 'phone-tactics-zoomed.png');
  await ctx.close();
});

await test('a whole game by keyboard alone in each of the five games: moves with the board cursor and the move box, then resign by Tab and Enter', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1200, height: 860 } });
  const p = await ctx.newPage();
  await signUp(p, 'gwen');
  for (const game of ['reversi', 'checkers', 'cornered', 'ywf', 'tactics']) {
    await playComputer(p, game);
    for (let k = 0; k < 3; k++) {
      await p.waitForFunction(() => document.querySelector('#status')?.textContent === 'Your turn' || document.querySelector('#game-over'), null, { timeout: 30000 });
      const st = await state(p);
      if (st.over) break;
      const mv = pick(st.view.moves, (m) => m.kind !== 'end-turn' && m.kind !== 'pass');
      if (k === 1) {
        await p.focus('#move-input');
        await p.keyboard.type(mv.text);
        await p.keyboard.press('Enter');
      } else if (mv.from == null && mv.path.length) {
        await keyTo(p, mv.path[0]);
        if (await p.locator(`button[data-mode="${mv.kind}"][aria-pressed="false"]`).count()) {
          // The kind of placement (a Change in YWF), by Tab's way: focus its button and press Enter.
          await p.focus(`button[data-mode="${mv.kind}"]`);
          await p.keyboard.press('Enter');
          await keyTo(p, mv.path[0]);
        }
        await p.keyboard.press('Enter');
      } else {
        await enter(p, mv, { keyboard: true });
      }
      await assertPlayed(p, st, mv);
      assert.match(await p.textContent('#announce'), /plays/);
    }
    // Resign with the keyboard alone: Tab to the button, Enter, and Enter on the dialog's Yes.
    if (!(await p.locator('#game-over').count())) {
      await p.waitForFunction(() => document.querySelector('#status')?.textContent === 'Your turn' || document.querySelector('#game-over'), null, { timeout: 30000 });
      await p.focus('#board');
      for (let guard = 0; guard < 60 && !(await p.evaluate(() => document.activeElement?.id === 'resign' || document.activeElement?.id === 'abort')); guard++) await p.keyboard.press('Tab');
      const which = await p.evaluate(() => document.activeElement?.id);
      assert.ok(which === 'resign' || which === 'abort', `Tab reached ${which}`);
      await p.keyboard.press('Enter');
      await p.waitForSelector('#confirm[open]');
      await p.focus('#confirm-yes');
      await p.keyboard.press('Enter');
      await p.waitForSelector('#game-over');
    }
  }
  await ctx.close();
});

// Two servers on one PostgreSQL database (GRIDPLAY_TEST_POSTGRES, which scripts/test always sets; required under CI): each
// player's page on its own server, as behind a load balancer without sticky sessions.
await test('two players on two servers: a challenge across them, moves both ways, and a resignation', async () => {
  // "none" leaves PostgreSQL out on purpose (scripts/test).
  const admin = process.env.GRIDPLAY_TEST_POSTGRES === 'none' ? undefined : process.env.GRIDPLAY_TEST_POSTGRES;
  if (!admin) {
    if (process.env.CI === 'true' || process.env.GRIDPLAY_TEST_REQUIRE_POSTGRES === '1') {
      throw new Error('PostgreSQL is required here (CI=true or GRIDPLAY_TEST_REQUIRE_POSTGRES=1) but GRIDPLAY_TEST_POSTGRES is not set');
    }
    throw new Skip('GRIDPLAY_TEST_POSTGRES is not set');
  }
  const name = `gridplay_e2e_${process.pid}`;
  const psql = (sql) => new Promise((resolve, reject) => {
    const p = spawn('psql', [admin, '-q', '-c', sql], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, PGOPTIONS: '-c client_min_messages=warning' } });
    p.once('error', reject);
    p.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`psql ${sql}: exit ${code}`))));
  });
  await psql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await psql(`CREATE DATABASE ${name}`);
  const url = admin.replace(/\/[^/]*$/, `/${name}`);
  const ports = [PORT + 1, PORT + 2];
  const servers = ports.map((port) => spawn(BIN, ['serve', '--addr', `127.0.0.1:${port}`, '--database', url, '--auth-per-minute', '1000', '--signups-per-hour', '1000'], { stdio: ['ignore', 'inherit', 'inherit'] }));
  try {
    const bases = ports.map((port) => `http://127.0.0.1:${port}`);
    for (const b of bases) await waitFor(async () => (await fetch(b + '/api/me')).ok, 20000, `the server at ${b}`);
    const [pa, pb] = await Promise.all([0, 1].map(async () => (await browser.newContext({ viewport: { width: 1200, height: 860 } })).newPage()));
    await signUp(pa, 'ann', bases[0]);
    await signUp(pb, 'ben', bases[1]);
    // Each lobby lists the other player online, though they are on the other server.
    await pa.waitForFunction(() => /ben/.test(document.querySelector('#online')?.textContent || ''), null, { timeout: 10000 });
    await pb.waitForFunction(() => /ann/.test(document.querySelector('#online')?.textContent || ''), null, { timeout: 10000 });
    // Ann challenges Ben through A; Ben's lobby on B shows it and he accepts; Ann's page goes to the game.
    await pa.selectOption('#challenge-game', 'reversi');
    await pa.selectOption('#challenge-color', 'first');
    await pa.selectOption('#challenge-time', '10+5');
    await pa.fill('#opponent', 'ben');
    await pa.click('#new-challenge button[type=submit]');
    const accept = pb.locator('#challenges button[data-accept]');
    await accept.waitFor({ timeout: 10000 });
    await accept.click();
    await pb.waitForURL(/\/game\//);
    await pa.waitForURL(/\/game\//, { timeout: 10000 });
    await pa.waitForSelector('#board svg');
    await pb.waitForSelector('#board svg');
    await move(pa, 'd3');
    await waitVersion(pb, 1);
    await move(pb, 'c3');
    await waitVersion(pa, 2);
    await move(pa, 'c4');
    await waitVersion(pb, 3);
    await shot(pb, 'two-servers.png');
    await pb.click('#resign');
    await pb.click('#confirm button[value=yes]');
    await pa.waitForSelector('#game-over', { timeout: 10000 });
    assert.match(await pa.textContent('#game-over'), /resign/i);
    await pa.context().close();
    await pb.context().close();
  } finally {
    for (const s of servers) s.kill('SIGINT');
    await Promise.all(servers.map((s) => new Promise((r) => (s.exitCode !== null ? r() : s.once('exit', r)))));
    await psql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
  }
});

await test('blocks: a player blocks another from the profile, the lobby hides the other\'s challenge, and the block is lifted', async () => {
  const [ann, ben] = [await (await browser.newContext({ bypassCSP: true })).newPage(), await (await browser.newContext()).newPage()];
  await signUp(ann, 'bl-ann');
  await signUp(ben, 'bl-ben');
  const id = await ben.evaluate(async () => (await (await fetch('/api/challenges', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ spec: 'reversi', color: 'first' }) })).json()).id);
  await ann.goto(`${BASE}/player/bl-ben`);
  await ann.click('#block');
  await ann.waitForSelector('#blocked-note');
  assert.match(await ann.textContent('#block'), /Unblock bl-ben/);
  assert.deepEqual(await axe(ann), []);
  const listed = () => ann.evaluate(async (c) => (await (await fetch('/api/lobby')).json()).challenges.some((x) => x.id === c), id);
  assert.equal(await listed(), false, 'the blocked player\'s open challenge is not shown');
  await ann.click('#block');
  await ann.waitForFunction(() => !document.querySelector('#blocked-note') && /^Block bl-ben$/.test(document.querySelector('#block')?.textContent || ''));
  assert.equal(await listed(), true);
  await ann.context().close();
  await ben.context().close();
});

await firstHour({ test, browser, BASE, ART, signUp, playComputer, state, enter, move, drawn, cellCenter, waitVersion, shot });
await bots({ test, browser, BASE, BIN, signUp, state, enter, waitVersion, shot, axe, waitFor, stopServer, startServer });
await analysis({ test, browser, BASE, signUp, cellCenter, drawn, shot, axe });

await browser.close();
await stopServer();
rmSync(dataDir, { recursive: true, force: true });
const failed = results.filter((r) => r[1] === 'FAILED');
const skipped = results.filter((r) => r[1] === 'skipped');
console.log(`\n${results.length - failed.length - skipped.length} passed, ${failed.length} failed, ${skipped.length} skipped; screenshots in ${ART}`);
if (!results.length) console.log(`no test ran: E2E_ONLY=${process.env.E2E_ONLY ?? ''} matches none`);
process.exit(failed.length || !results.length ? 1 : 0);
