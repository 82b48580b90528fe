// Live games between two players: the game page on a phone, a spectator, a clock that runs out and a rematch,
// an opponent who leaves, and takebacks and premoves.

import assert from 'node:assert/strict';

export default async function ({ test, browser, BASE, pair, playComputer, challenge, shot, state, clickCell, waitVersion, move }) {
  const { alice, bob } = await pair();
  const challengeBob = (time, opts = {}) => challenge(alice, bob, 'bob', time, opts);

  await test('the game page fits a phone screen', async () => {
    await playComputer(alice, 'reversi');
    const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })).newPage();
    await phone.goto(alice.url());
    await phone.waitForSelector('#board svg');
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `no horizontal scrolling (page is ${width}px wide)`);
    await shot(phone, 'phone-game.png', true);
    await phone.context().close();
  });

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
}
