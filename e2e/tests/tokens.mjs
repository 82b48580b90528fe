// Personal API tokens.

import assert from 'node:assert/strict';

export default async function ({ test, browser, BASE, signUp, axe }) {

  await test('API tokens: made on the account page with a name and scopes, shown once, used by a program as a Bearer token within its scopes, revoked; in Japanese, axe-clean', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1200, height: 900 }, bypassCSP: true });
    const p = await ctx.newPage();
    await signUp(p, 'tokyo');
    await p.goto(BASE + '/account');
    await p.waitForSelector('#tokens');
    // The list is filled when the server's answer comes.
    await p.waitForFunction(() => /No tokens\./.test(document.querySelector('#token-list')?.textContent || ''));
    assert.equal(await p.locator('#new-token input[value=admin]').count(), 0, 'the admin scope is for admins');
    await p.fill('#token-name', 'my script');
    await p.click('#new-token button[type=submit]');
    await p.waitForSelector('#token-value');
    const token = await p.inputValue('#token-value');
    assert.match(token, /^gp_[0-9a-f]{64}$/);
    assert.match(await p.textContent('#token-made'), /shown this once/);
    await p.waitForSelector('#token-list [data-token]');
    assert.match(await p.textContent('#token-list'), /my script · Read \(games, players, your account\) · never used/);
    assert.ok(!(await p.textContent('#token-list')).includes(token), 'the list never shows the token');
    assert.deepEqual(await axe(p), []);
    // A program (no cookie) reads as the user with it, and may not play with a read token.
    const get = (path) => fetch(BASE + path, { headers: { authorization: `Bearer ${token}` } });
    assert.equal((await (await get('/api/me')).json()).user.name, 'tokyo');
    const refused = await fetch(BASE + '/api/computer', { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ spec: 'reversi', level: 1, color: 'first' }) });
    assert.equal(refused.status, 403);
    assert.equal((await refused.json()).error.code, 'token-scope');
    // Revoked from the page: the program is refused from then on.
    await p.reload();
    await p.waitForSelector('#token-list [data-token]');
    assert.match(await p.textContent('#token-list'), /last used/);
    await p.click('#token-list [data-token] button');
    await p.click('#confirm-yes');
    await p.waitForFunction(() => /No tokens\./.test(document.querySelector('#token-list').textContent));
    assert.equal((await get('/api/me')).status, 401);
    // In Japanese, the card is Japanese and axe-clean.
    const ja = await (await browser.newContext({ viewport: { width: 1200, height: 900 }, locale: 'ja-JP', bypassCSP: true })).newPage();
    await ja.context().addCookies(await ctx.cookies());
    await ja.goto(BASE + '/account');
    await ja.waitForSelector('#token-list li');
    assert.equal(await ja.textContent('#tokens h2'), 'API トークン');
    assert.deepEqual(await axe(ja), []);
    await ja.context().close();
    await ctx.close();
  });
}
