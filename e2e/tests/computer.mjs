// Games against the computer: Grid Tactics with a reload, Cornered Reversi and YWF, the test game the browser
// knows only from the catalog, a whole game by keyboard, and a restart of the server in the middle of one.

import assert from 'node:assert/strict';
import { join } from 'node:path';

export default async function ({ test, BASE, ART, startServer, stopServer, newPage, signUp, playComputer, shot, state, drawn, cellCenter, clickCell, waitVersion, assertPlayed, enter }) {
  const alice = await newPage();
  await signUp(alice, 'alice');

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
}
