// Moderation: reports, an admin's actions, and what the player reads.

import assert from 'node:assert/strict';

export default async function ({ command, test, BASE, openPage, signUp, axe }) {

  await test('moderation: reports from a profile and from a game; an admin made by the command line warns, mutes and closes from the queue; the player reads the warning, and the open page of a closed account is signed out; in English and Japanese, axe-clean', async () => {
    const rita = await openPage();
    await signUp(rita, 'rita');
    const sam = await openPage();
    await signUp(sam, 'sam');
    const mia = await openPage();
    await signUp(mia, 'mia');
    // No admin link until the operator makes one, on the server's database while it runs.
    assert.equal(await mia.locator('#nav-admin').count(), 0);
    const made = command('admin', 'grant', 'mia');
    assert.equal(made.status, 0, made.stderr);
    assert.match(made.stderr, /mia is now an admin/);
    // Rita reports Sam from his profile; the report goes to the admins.
    await rita.goto(`${BASE}/player/sam`);
    await rita.click('#report summary');
    await rita.fill('#report-reason', 'Sam called me names in the lobby.');
    // The lobby changes while she writes (the page redraws): what she wrote stays, and so does her focus.
    await sam.evaluate(async () => { await fetch('/api/challenges', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ spec: 'reversi', color: 'first' }) }); });
    await rita.waitForTimeout(600);
    assert.equal(await rita.inputValue('#report-reason'), 'Sam called me names in the lobby.');
    assert.equal(await rita.evaluate(() => document.activeElement?.id), 'report-reason');
    await rita.click('#report button[type=submit]');
    await rita.waitForSelector('#toast.show');
    assert.match(await rita.textContent('#toast'), /Report sent/);
    // And about a game they play together, from its replay page (a player reports the other player).
    const game = await rita.evaluate(async () => {
      const c = await (await fetch('/api/challenges', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ spec: 'reversi', color: 'first', opponent: 'sam' }) })).json();
      return c.id;
    });
    const started = await sam.evaluate(async (id) => (await (await fetch(`/api/challenges/${id}/accept`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json()).game, game);
    await rita.goto(`${BASE}/replay/${started}`);
    await rita.click('#report summary');
    assert.match(await rita.textContent('#report summary'), /Report sam/);
    await rita.fill('#report-reason', 'Sam stalls in our game.');
    await rita.click('#report button[type=submit]');
    await rita.waitForFunction(() => /Report sent/.test(document.querySelector('#toast').textContent));
    // Nobody reports themself: no box on one's own profile.
    await sam.goto(`${BASE}/player/sam`);
    await sam.waitForSelector('h1');
    assert.equal(await sam.locator('#report').count(), 0);
    // The admin's page: the queue with the report, Sam's standing, and the actions.
    await mia.goto(BASE + '/');
    await mia.click('#nav-admin');
    await mia.waitForSelector('article[data-report]');
    assert.equal(await mia.locator('article[data-report]').count(), 2);
    const card = mia.locator('article[data-report]').first();
    assert.match(await card.textContent(), /Report about sam/);
    assert.match(await card.textContent(), /Sam called me names in the lobby\./);
    assert.deepEqual(await axe(mia), []);
    const act = async (kind, reason, minutes) => {
      await card.locator('select[id$="-kind"]').selectOption(kind);
      if (minutes) await card.locator('input[id$="-minutes"]').fill(String(minutes));
      await card.locator('input[id$="-reason"]').fill(reason);
      await card.locator('.admin-act button[type=submit]').click();
      const shown = { warn: 'Warning', mute: 'Mute in chat' }[kind];
      await mia.waitForFunction((k) => [...document.querySelectorAll('article[data-report]:first-of-type .history li strong')].some((e) => e.textContent === k)
        || document.querySelector('article[data-report] .error:not(:empty)'), shown);
      assert.equal(await card.locator('.error:not(:empty)').count(), 0, await card.textContent());
    };
    await act('warn', 'Please keep the lobby polite.');
    await act('mute', 'Muted for an hour after the warning.', 60);
    // Sam reads what the moderators did, without their names.
    await sam.goto(`${BASE}/account`);
    await sam.waitForSelector('#moderation:not([hidden])');
    const said = await sam.textContent('#moderation');
    assert.match(said, /Please keep the lobby polite\./);
    assert.match(said, /You may not chat until/);
    assert.ok(!said.includes('mia'), said);
    // Each report is closed with what was done; the one about the game links to it. Then the queue is empty.
    await card.locator('input[id^="close-"]').fill('Warned and muted for an hour.');
    await card.locator('button.secondary[type=submit]').click();
    await mia.waitForFunction(() => document.querySelectorAll('article[data-report]').length === 1);
    assert.match(await card.textContent(), /Sam stalls in our game\./);
    assert.equal(await card.locator(`a[href="/replay/${started}"]`).count(), 1);
    await card.locator('input[id^="close-"]').fill('Dealt with by the same mute.');
    await card.locator('button.secondary[type=submit]').click();
    await mia.waitForSelector('#queue-empty');
    // In Japanese the admin's page is wholly Japanese, and axe-clean.
    const ja = await openPage('ja-JP');
    await ja.context().addCookies(await mia.context().cookies());
    await ja.goto(BASE + '/admin');
    await ja.waitForSelector('#queue-empty');
    assert.equal(await ja.textContent('h1'), '管理');
    assert.equal(await ja.textContent('#queue-empty'), '未処理の通報はありません。');
    assert.deepEqual(await axe(ja), []);
    await ja.context().close();
    // Closing Sam's account, looked up by name, signs him out and keeps him out.
    await mia.fill('#look-name', 'sam');
    await mia.click('#look-name + button');
    await mia.waitForSelector('#looked-up [data-account="sam"]');
    const looked = mia.locator('#looked-up');
    await looked.locator('select[id$="-kind"]').selectOption('close');
    await looked.locator('input[id$="-reason"]').fill('Insults after a warning and a mute.');
    await looked.locator('.admin-act button[type=submit]').click();
    await mia.click('#confirm-yes');
    await mia.waitForFunction(() => /closed/.test(document.querySelector('#looked-up h3')?.textContent || ''));
    // Sam's open page hears of it at once: it is signed out, and says why.
    await sam.waitForFunction(() => !document.querySelector('#me'));
    assert.match(await sam.textContent('#toast'), /closed by the site's moderators/);
    await sam.goto(`${BASE}/account`);
    await sam.waitForSelector('#signup, .card a[href="/"]');
    assert.equal(await sam.locator('#me').count(), 0);
    await sam.goto(BASE + '/');
    await sam.fill('#signin input[name=name]', 'sam');
    await sam.fill('#signin input[name=password]', 'password-sam');
    await sam.click('#signin button[type=submit]');
    await sam.waitForFunction(() => /closed by the site/.test(document.body.textContent));
    for (const p of [rita, sam, mia]) await p.context().close();
  });
}
