// A whole game by keyboard alone in each of the five games.

import assert from 'node:assert/strict';

export default async function ({ test, browser, signUp, playComputer, state, assertPlayed, pick, keyTo, enter }) {

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
}
