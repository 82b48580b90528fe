// Restarts: a lobby that reconnects after one, and a correspondence game that survives one.

import assert from 'node:assert/strict';

export default async function ({ test, browser, BASE, startServer, stopServer, signUp, pair, challenge, shot, state, waitVersion, move }) {
  const { alice, bob } = await pair();
  const challengeBob = (time, opts = {}) => challenge(alice, bob, 'bob', time, opts);

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
}
