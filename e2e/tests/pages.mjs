// The pages a reader reads: a rules page, the site in Japanese, and axe-core's audit of every page.

import assert from 'node:assert/strict';

export default async function ({ test, browser, BASE, newPage, signUp, playComputer, shot, move, axe }) {
  const alice = await newPage();
  await signUp(alice, 'alice');
  /** The words of the project's specification, which a player's rules page never shows. */
  const SPEC_WORDS = /seed|ruling|test|perft|crates\/|implementation|bitboard|could not be recovered/i;

  await test('a rules page is written for players, with each example beside its rule, and a reader tries the forced capture', async () => {
    await alice.goto(BASE + '/rules/checkers');
    await alice.waitForSelector('#rules-doc figure.example svg');
    const doc = await alice.textContent('#rules-doc');
    assert.ok(doc.length > 500, 'the rules text is shown');
    assert.doesNotMatch(doc, SPEC_WORDS);
    // The capture example stands in the section on captures.
    const section = await alice.evaluate(() => {
      let e = document.querySelector('figure[data-example="capture"]');
      while (e && e.tagName !== 'H2') e = e.previousElementSibling;
      return e && e.textContent;
    });
    assert.equal(section, 'Captures');
    const forced = alice.locator('figure[data-example="capture"]');
    const options = await forced.locator('select.example-moves option').allTextContents();
    assert.deepEqual(options.slice(1), ['15x22'], 'only the capture is legal');
    await forced.locator('select.example-moves').selectOption('15x22');
    await alice.waitForFunction(() => document.querySelector('figure[data-example="capture"] .example-status')?.textContent.includes('15x22'));
    await shot(alice, 'rules.png', true);
    // Every game's rules page, the list taken from the catalog: every example placed in the document, and no
    // word of the specification.
    const games = await alice.evaluate(async () => (await (await fetch('/api/catalog')).json()).games.map((g) => g.name));
    assert.ok(games.length >= 6, `the catalog lists the games, the test game too: ${games}`);
    for (const game of games) {
      await alice.goto(`${BASE}/rules/${game}`);
      await alice.waitForSelector('#rules-doc figure.example svg');
      assert.doesNotMatch(await alice.textContent('#rules-doc'), SPEC_WORDS, game);
      const examples = await alice.evaluate(async (g) => (await (await fetch(`/api/rules/${g}`)).json()).examples.length, game);
      assert.equal(await alice.locator('#rules-doc figure.example').count(), examples, `${game}: every example is on the page`);
    }
    await shot(alice, 'rules-tactics.png');
  });

  await test('Japanese: the browser’s language is followed, every word is Japanese, and the menu switch keeps the choice', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1200, height: 860 }, locale: 'ja-JP' });
    const ja = await ctx.newPage();
    ja.on('pageerror', (e) => console.log('page error:', e.message));
    await ja.goto(BASE + '/');
    await ja.waitForSelector('#signup');
    assert.equal(await ja.getAttribute('html', 'lang'), 'ja');
    assert.equal(await ja.textContent('h1'), '盤上ゲームで遊ぶ');
    await ja.fill('#signup input[name=name]', 'hanako');
    await ja.fill('#signup input[name=password]', 'password-hanako');
    await ja.click('#signup button[type=submit]');
    await ja.waitForSelector('#me');
    assert.equal(await ja.textContent('#nav-play'), '対局');
    // A game against the computer: the sides, the status and the game's words are Japanese.
    await ja.selectOption('#computer-game', 'reversi');
    assert.match(await ja.textContent('#computer-color'), /黒（先手）/);
    await ja.selectOption('#computer-level', '1');
    await ja.selectOption('#computer-color', 'first');
    await ja.click('#play-computer button[type=submit]');
    await ja.waitForURL(/\/game\//);
    await ja.waitForSelector('#board svg');
    await ja.waitForFunction(() => document.querySelector('#status')?.textContent === 'あなたの番です');
    assert.equal(await ja.textContent('main h1'), 'リバーシ');
    await move(ja, 'd3');
    await ja.waitForFunction(() => /が .* に打ちました/.test(document.querySelector('#announce')?.textContent || ''));
    await shot(ja, 'game-ja.png');
    // A refused typed move gets the code's words.
    await ja.fill('#move-input', 'a1');
    await ja.press('#move-input', 'Enter');
    await ja.waitForFunction(() => document.querySelector('#toast.show')?.textContent.length > 0);
    assert.match(await ja.textContent('#toast'), /[ぁ-んァ-ン一-龥]/);
    // The lobby lists the game by its title in Japanese, never by its code name.
    await ja.goto(BASE + '/');
    await ja.waitForSelector('#my-games li');
    assert.match(await ja.textContent('#my-games'), /リバーシ/);
    assert.doesNotMatch(await ja.textContent('#my-games'), /reversi/);
    // Settings are controls with Japanese labels and help: no English word in them.
    for (const game of ['reversi', 'cornered', 'ywf', 'tactics']) {
      await ja.selectOption('#challenge-game', game);
      const box = ja.locator('#new-challenge .settings');
      await box.waitFor();
      // The words, without a board's coordinates (a-i, 1-9) and the name of the Enter key.
      const words = (await box.evaluate((b) => { const c = b.cloneNode(true); c.querySelectorAll('svg').forEach((s) => s.remove()); return c.textContent; })).replace(/Enter/g, '');
      assert.doesNotMatch(words, /[A-Za-z]{3,}/, `${game}: ${words}`);
    }
    await ja.check('#challenge-army-custom');
    await ja.waitForSelector('#challenge-army-clauses li');
    assert.match(await ja.textContent('#challenge-army-clauses'), /どの兵種も 1 つ以上/);
    assert.match(await ja.textContent('label:has(#challenge-help)'), /ヒント/);
    // The games in play, with their mini-boards (the game against the computer above is one), in Japanese.
    await ja.goto(BASE + '/watch');
    await ja.waitForSelector('[data-mini] svg');
    assert.equal(await ja.textContent('main h1'), '対局中のゲーム');
    assert.doesNotMatch(await ja.textContent('#minis'), /reversi|engine level/);
    // The rules in Japanese, written for players, with the module's words.
    await ja.goto(BASE + '/rules/ywf');
    await ja.waitForSelector('#rules-doc figure.example svg');
    assert.match(await ja.textContent('#rules-doc'), /良い子/);
    assert.doesNotMatch(await ja.textContent('#rules-doc'), /テスト|シード|実装/);
    assert.equal(await ja.getAttribute('#rules-doc', 'lang'), 'ja');
    await shot(ja, 'rules-ja.png');
    // The switch in the menu: English, kept across a reload.
    await ja.selectOption('#lang', 'en');
    await ja.waitForFunction(() => document.documentElement.lang === 'en' && document.querySelector('#nav-play')?.textContent === 'Play');
    await ja.reload();
    await ja.waitForFunction(() => document.querySelector('#nav-play')?.textContent === 'Play');
    await ja.selectOption('#lang', 'ja');
    await ja.waitForFunction(() => document.querySelector('#nav-play')?.textContent === '対局');
    await ctx.close();
  });

  await test('axe-core finds no accessibility fault on any page, in English and in Japanese', async () => {
    const faults = [];
    for (const locale of ['en-US', 'ja-JP']) {
      // axe-core is injected as a script: the page's CSP (script-src 'self') is set aside for the audit.
      const ctx = await browser.newContext({ viewport: { width: 1200, height: 860 }, locale, bypassCSP: true });
      const p = await ctx.newPage();
      await p.goto(BASE + '/');
      await p.waitForSelector('#signup');
      faults.push(...(await axe(p)).map((f) => `${locale} / (signed out): ${f}`));
      await p.fill('#signup input[name=name]', `axe${locale.slice(0, 2)}`);
      await p.fill('#signup input[name=password]', 'password-axe');
      await p.click('#signup button[type=submit]');
      await p.waitForSelector('#me');
      await playComputer(p, 'checkers', { goto: false, color: null });
      const game = new URL(p.url()).pathname.split('/').pop();
      const pages = ['/', '/watch', '/tournaments', '/leaderboard/checkers', '/rules/reversi', '/rules/tactics', '/games', '/account', `/game/${game}`, `/replay/${game}`, `/player/alice`, '/game/XXXXXXXX'];
      for (const path of pages) {
        await p.goto(BASE + path);
        await p.waitForSelector('main .page > *', { timeout: 10000 });
        await p.waitForTimeout(300);
        faults.push(...(await axe(p)).map((f) => `${locale} ${path}: ${f}`));
      }
      await ctx.close();
    }
    assert.deepEqual(faults, []);
  });
}
