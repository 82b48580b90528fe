// The browser tests of bots: `gridplay bot` brings an engine online as a bot account, and a person plays it
// from the lobby in the browser, across a restart of the server. The bot API itself is tested at the HTTP
// level (crates/server/tests/bots.rs) and `gridplay bot` against a server alone (crates/cli/tests/bot.rs).

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export default async function bots({ test, browser, BASE, BIN, signUp, state, enter, waitVersion, shot, axe, waitFor, stopServer, startServer }) {
  /** A new bot account's token (read, play, bot), made as its person would on the account page. */
  async function botToken(name) {
    const ctx = await browser.newContext();
    const p = await ctx.newPage();
    await signUp(p, name);
    const made = await p.evaluate(async () => (await fetch('/api/account/tokens', {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bot', scopes: ['read', 'play', 'bot'] }),
    })).json());
    await ctx.close();
    return made.token;
  }

  /** `gridplay bot` with these arguments; its log's lines are kept. */
  function startBot(token, args) {
    const log = [];
    const child = spawn(BIN, ['--with-test-games', 'bot', '--server', BASE, ...args], { env: { ...process.env, GRIDPLAY_TOKEN: token }, stdio: ['ignore', 'ignore', 'pipe'] });
    let rest = '';
    child.stderr.on('data', (d) => {
      const lines = (rest + d).split('\n');
      rest = lines.pop();
      for (const l of lines) { log.push(l); console.log(`  [bot] ${l}`); }
    });
    const logged = (re) => waitFor(() => log.some((l) => re.test(l)), 30000, `the bot to log ${re}`);
    const exited = () => new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', r)));
    const stop = async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGINT');
      await exited();
    };
    /** After a failure: a bot with a game in play would wait for its end, so it is killed. */
    const kill = async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited();
    };
    return { log, logged, stop, kill, child };
  }

  /** The person challenges `bot` from the lobby (the Challenge button beside its name), with this game. */
  async function challengeFromLobby(p, bot, pick) {
    // Straight after signing up the page stays on the lobby, whose socket is then reconnecting as the new user:
    // a bot that accepts at once must still bring the page to the game.
    if (new URL(p.url()).pathname !== '/') await p.goto(BASE + '/');
    await p.waitForFunction((bot) => [...document.querySelectorAll('#online li')].some((li) => li.textContent.includes(bot)), bot, { timeout: 20000 });
    const row = p.locator('#online li', { hasText: bot });
    assert.equal(await row.locator('.bot-mark').count(), 1, 'the bot is marked in the lobby');
    await row.locator('button').click();
    assert.equal(await p.inputValue('#opponent'), bot);
    await pick(p);
    await p.selectOption('#challenge-color', 'first');
    await p.selectOption('#challenge-time', '10+5');
    await p.click('#new-challenge button[type=submit]');
    await p.waitForURL(/\/game\//, { timeout: 30000 });
    await p.waitForSelector('#board svg');
  }

  /** Plays the person's side (first) with the first legal move each turn, restarting the server once after
   * `restartAfter` of the person's moves; returns the final state. */
  async function playOut(p, restartAfter) {
    let mine = 0;
    for (;;) {
      const st = await state(p);
      if (st.over) return st;
      if (st.view.turn === 'first') {
        if (mine === restartAfter) {
          await stopServer();
          await startServer();
          await p.waitForFunction(() => !document.querySelector('.connection'), null, { timeout: 20000 });
          mine += 1;
          continue;
        }
        await enter(p, st.view.moves[0]);
        await waitVersion(p, st.moves.length + 1);
        mine += 1;
      } else {
        await p.waitForFunction((n) => document.querySelectorAll('#moves .mv').length > n || !!document.querySelector('#game-over'), st.moves.length, { timeout: 30000 });
      }
    }
  }

  await test('bots: `gridplay bot` with the built-in engine and with a small scripted engine through cmd= each accept a challenge made in the lobby and play a person in the browser to the end across a server restart; marked BOT in the lobby, the game and the bots\u2019 leaderboard, in English and Japanese', async () => {
    const robot = startBot(await botToken('robot'), ['--engine', 'level=1', '--games', 'cornered', '--time', 'live']);
    const scripted = startBot(await botToken('scripted'), ['--engine', `cmd=node ${join(here, '..', 'first-empty-engine.mjs')}`, '--games', 'tictactoe', '--time', 'live']);
    const ctx = await browser.newContext({ viewport: { width: 1200, height: 860 }, bypassCSP: true });
    try {
      await robot.logged(/connected: waiting/);
      await scripted.logged(/connected: waiting/);
      const p = await ctx.newPage();
      await signUp(p, 'hugo');

      // The built-in engine: a rated game of Cornered Reversi on a 5x5 board.
      await challengeFromLobby(p, 'robot', async (page) => {
        await page.selectOption('#challenge-game', 'cornered');
        await page.fill('#challenge-size', '5');
        await page.check('#challenge-rated');
      });
      await robot.logged(/challenge .* from hugo \(cornered:size=5\): accepted/);
      await p.waitForSelector('.bot-mark', { timeout: 20000 });
      assert.match(await p.locator('.bot-mark').first().getAttribute('title'), /bot API/);
      await shot(p, 'bot-game.png');
      const end = await playOut(p, 3);
      assert.ok(end.over.winner, JSON.stringify(end.over));
      assert.notEqual(end.over.termination, 'resignation');
      await p.waitForSelector('#game-over');
      await robot.logged(new RegExp(`game ${end.id}: .*(wins|draw)`, 'i'));

      // The scripted engine: tic-tac-toe, through the line protocol.
      await challengeFromLobby(p, 'scripted', async (page) => {
        await page.selectOption('#challenge-game', 'tictactoe');
      });
      await scripted.logged(/challenge .* from hugo \(tictactoe\): accepted/);
      const ttt = await playOut(p, 1);
      assert.ok(ttt.over, JSON.stringify(ttt));
      assert.deepEqual(ttt.moves.filter((_, i) => i % 2 === 1).slice(0, 2).length, 2, 'the engine moved');
      await p.waitForSelector('#game-over');

      // The bots' leaderboard ranks the bot of the rated game; the people's does not list it.
      await p.goto(BASE + '/leaderboard/cornered?bots=1');
      await p.waitForFunction(() => /robot/.test(document.querySelector('#leaderboard')?.textContent || ''));
      assert.equal(await p.locator('#leaderboard .bot-mark').count(), 1);
      assert.equal(await p.getAttribute('#board-kind a[aria-current=page]', 'href'), '/leaderboard/cornered?bots=1');
      await p.click('#board-kind a:not([aria-current])');
      await p.waitForFunction(() => /hugo/.test(document.querySelector('#leaderboard')?.textContent || ''));
      assert.doesNotMatch(await p.textContent('#leaderboard'), /robot/);
      assert.deepEqual(await axe(p), []);

      // In Japanese the mark is Japanese, and the profile carries it.
      const ja = await (await browser.newContext({ viewport: { width: 1200, height: 860 }, locale: 'ja-JP', bypassCSP: true })).newPage();
      await ja.goto(BASE + '/player/robot');
      await ja.waitForSelector('h1 .bot-mark');
      assert.equal((await ja.textContent('h1 .bot-mark')).trim(), 'ボット');
      assert.deepEqual(await axe(ja), []);
      await ja.context().close();

      // Ctrl-C: each bot stops once its games are over.
      await robot.stop();
      await scripted.stop();
      assert.equal(robot.child.exitCode, 0);
      assert.ok(robot.log.some((l) => /every game is over: stopped/.test(l)));
    } finally {
      await robot.kill();
      await scripted.kill();
      await ctx.close();
    }
  });
}
