// A four-player rated Swiss to its end, and the rating chart on a profile.

import assert from 'node:assert/strict';

export default async function ({ test, browser, BASE, signUp, pair, waitFor, shot }) {
  const { alice, bob } = await pair();

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
}
