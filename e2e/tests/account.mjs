// The account page: sounds, move confirmation, a password change, signing out everywhere, deleting an account.

import assert from 'node:assert/strict';

export default async function ({ test, browser, BASE, signUp, playComputer, shot, state, waitVersion, enter, move }) {

  await test('account: move sounds and their switch, move confirmation, a password change, signing out everywhere, and deleting an account', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1200, height: 860 } });
    // Every tone the page starts is counted.
    await ctx.addInitScript(() => {
      window.tones = 0;
      const Real = window.AudioContext;
      window.AudioContext = class extends Real {
        createOscillator() {
          const o = super.createOscillator();
          const start = o.start.bind(o);
          o.start = (...a) => { window.tones += 1; return start(...a); };
          return o;
        }
      };
    });
    const p = await ctx.newPage();
    await signUp(p, 'erin');
    // Sounds are on by default: a move and the engine's reply sound; switched off, nothing sounds.
    for (const on of [true, false]) {
      await p.goto(BASE + '/account');
      await p.waitForSelector('#pref-sounds');
      assert.equal(await p.isChecked('#pref-sounds'), on);
      await playComputer(p, 'reversi');
      await move(p, 'd3');
      await p.waitForFunction(() => document.querySelectorAll('#moves .mv').length === 2, null, { timeout: 15000 });
      const tones = await p.evaluate(() => window.tones);
      if (on) assert.ok(tones >= 2, `${tones} tones`);
      else assert.equal(tones, 0);
      if (on) {
        await p.goto(BASE + '/account');
        await p.uncheck('#pref-sounds');
      }
    }
    await p.goto(BASE + '/account');
    await p.waitForSelector('#preferences');
    await p.check('#pref-confirm');
    // With confirmation on, a move waits for a yes.
    await playComputer(p, 'reversi');
    const st = await state(p);
    await enter(p, st.view.moves.find((m) => m.text === 'd3'));
    await p.waitForSelector('#confirm-move');
    assert.equal((await state(p)).version, 0, 'nothing is sent before the yes');
    await p.click('#confirm-move-yes');
    await waitVersion(p, 1);
    // The password: the present one is required.
    await p.goto(BASE + '/account');
    await p.fill('#pw-old', 'wrong-password');
    await p.fill('#pw-new', 'a-new-password');
    await p.click('#change-password button[type=submit]');
    await p.waitForFunction(() => document.querySelector('#change-password .error')?.textContent.length > 0);
    await p.fill('#pw-old', 'password-erin');
    await p.fill('#pw-new', 'a-new-password');
    await p.click('#change-password button[type=submit]');
    await p.waitForFunction(() => /Password changed/.test(document.querySelector('#toast')?.textContent || ''));
    await p.click('#signout-everywhere');
    await p.click('#confirm-yes');
    await p.waitForSelector('#signin');
    await p.fill('#signin input[name=name]', 'erin');
    await p.fill('#signin input[name=password]', 'a-new-password');
    await p.click('#signin button[type=submit]');
    await p.waitForSelector('#me');
    // Deleting: the game stays, its player shown as deleted.
    await p.goto(BASE + '/account');
    await p.fill('#delete-password', 'a-new-password');
    await p.click('#delete-account button[type=submit]');
    await p.click('#confirm-yes');
    await p.waitForSelector('#signin');
    await p.goto(`${BASE}/replay/${st.id}`);
    await p.waitForSelector('#board svg');
    await p.goto(`${BASE}/watch`);
    await shot(p, 'account.png');
    await ctx.close();
  });
}
