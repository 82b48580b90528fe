// Games between two players: a checkers game to its end with a multi-jump by dragging, a Reversi game with
// engine help ended by resignation, and its replay, export and import.

import assert from 'node:assert/strict';

export default async function ({ test, BASE, pair, shot, state, drawn, waitVersion, enter, move }) {
  const { alice, bob } = await pair();

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
}
