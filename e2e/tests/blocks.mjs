// Blocks: a player blocks another, the lobby hides the other's challenge, and the block is lifted.

import assert from 'node:assert/strict';

export default async function ({ test, browser, BASE, signUp, axe }) {

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
}
