// The lobby: what a visitor sees, and two players who sign up and see each other online.

import assert from 'node:assert/strict';

export default async function ({ test, browser, BASE, newPage, signUp, shot }) {
  const alice = await newPage();
  const bob = await newPage();

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
}
