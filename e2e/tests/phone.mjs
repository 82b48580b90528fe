// A phone: the folding menu, the players above and below the board, and a move of each game by touch.

import assert from 'node:assert/strict';

export default async function ({ test, browser, signUp, playComputer, shot, state, drawn, assertPlayed, pick, tapMove }) {

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
}
