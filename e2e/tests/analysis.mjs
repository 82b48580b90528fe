// Browser tests of the analysis board: a session (moves and a variation, the engine's lines seen and
// stopped, the address shared and reloaded, the board editor and its refusal, a position read in), every
// game's board with its engine and editor, "analyse from here" on a replay, and the page in Japanese, on a
// phone and to axe. run.mjs calls analysis() with its server, browser and helpers.

import assert from 'node:assert/strict';

export default async function analysis({ test, browser, BASE, signUp, cellCenter, drawn, shot, axe }) {
  const page = async (name, opts = {}) => {
    const ctx = await browser.newContext({ viewport: { width: 1200, height: 860 }, bypassCSP: true, ...opts });
    const p = await ctx.newPage();
    p.on('pageerror', (e) => console.log('page error:', e.message));
    if (name) await signUp(p, name);
    return p;
  };
  // The board may be drawn again between finding a cell and scrolling to it (the editor redraws it as it
  // opens): then the cell is found again in the new drawing.
  const clickCell = async (p, i) => {
    for (let tries = 1; ; tries++) {
      try {
        await p.locator(`#board [data-cell="${i}"]`).scrollIntoViewIfNeeded();
        break;
      } catch (e) {
        if (tries >= 3 || !/not attached/.test(e.message)) throw e;
        await drawn(p);
      }
    }
    const [x, y] = await cellCenter(p, i);
    await p.mouse.click(x, y);
  };
  const moves = async (p) => p.locator('#tree .tree-move:not(#tree-start)').allTextContents();
  const position = async (p) => p.inputValue('#position-text');
  /** Waits until the tree's current move is `text` (`1. f5`), the board drawn. */
  const at = async (p, text) => {
    await p.waitForFunction((t) => document.querySelector('#tree [aria-current="true"]')?.textContent === t, text);
    await drawn(p);
  };
  // Reversi's squares as the board numbers its cells (a1 top-left, row by row).
  const sq = (name) => (Number(name[1]) - 1) * 8 + name.charCodeAt(0) - 97;

  await test('analysis board: moves and a variation, engine lines seen and stopped, the link and a reload, the editor', async () => {
    const p = await page('an-ada');
    await p.goto(BASE + '/analysis/reversi');
    await p.waitForSelector('#tree-start[aria-current="true"]');
    const start = await position(p);
    // Moves by clicking the board: the address follows.
    await clickCell(p, sq('f5'));
    await at(p, '1. f5');
    await clickCell(p, sq('d6'));
    await at(p, '2. d6');
    assert.match(p.url(), /\/analysis\/reversi\?m=f5&m=d6$/);
    // Back one move by key, and another reply: a variation beside d6.
    await p.locator('h1').click();
    await p.keyboard.press('ArrowLeft');
    await at(p, '1. f5');
    await clickCell(p, sq('f6'));
    await at(p, '2. f6');
    assert.equal(await p.locator('#tree .variation').count(), 1);
    assert.deepEqual(await moves(p), ['1. f5', '2. d6', '2. f6']);
    // Up and down switch between the variations; the variation is made the main line.
    await p.locator('h1').click();
    await p.keyboard.press('ArrowUp');
    await at(p, '2. d6');
    await p.keyboard.press('ArrowDown');
    await at(p, '2. f6');
    await p.click('#tree-promote');
    assert.deepEqual(await moves(p), ['1. f5', '2. f6', '2. d6']);
    const afterF6 = await position(p);

    // The engine's lines, deeper as it searches, then stopped: no more updates come.
    await p.selectOption('#engine-count', '2');
    await p.click('#engine-start');
    await p.waitForFunction(() => document.querySelectorAll('#engine-lines li').length === 2);
    await p.waitForFunction(() => /Depth [3-9]|Depth \d\d/.test(document.querySelector('#engine-status').textContent));
    assert.match(await p.textContent('#engine-lines li'), /^[+-]?\d/);
    await p.click('#engine-stop');
    const stopped = await p.textContent('#engine-status');
    await p.waitForTimeout(1500);
    assert.equal(await p.textContent('#engine-status'), stopped);
    assert.ok(await p.locator('#engine-start').isVisible());
    await shot(p, 'analysis-reversi.png');
    // A line's move played from the list goes into the tree.
    const firstMove = (await p.locator('#engine-lines li:first-child .line-move').first().textContent()).trim();
    await p.locator('#engine-lines li:first-child .line-move').first().click();
    await at(p, `3. ${firstMove}`);
    await p.keyboard.press('ArrowLeft');
    await at(p, '2. f6');

    // The link shows the same board, variations and all, to someone signed out; a reload keeps it.
    const link = p.url();
    assert.match(link, /m=f5&m=f6$/);
    const tree = await moves(p);
    assert.equal(tree.length, 4, tree);
    const q = await page(null);
    await q.goto(link);
    await at(q, '2. f6');
    assert.equal(await position(q), afterF6);
    assert.deepEqual(await moves(q), tree);
    // A variation of an address that cannot be played is left out, and the toast says so.
    await q.goto(`${BASE}/analysis/reversi?v=f5+d6&v=f5+a1&m=f5`);
    await at(q, '1. f5');
    await q.waitForFunction(() => /1 variation .* left out/.test(document.querySelector('#toast')?.textContent || ''));
    assert.deepEqual(await moves(q), ['1. f5', '2. d6']);
    assert.ok(await q.locator('#engine-signin').isVisible(), 'signed out, the engine asks for an account');
    await q.context().close();
    await p.reload();
    await at(p, '2. f6');
    assert.equal(await position(p), afterF6);
    assert.deepEqual(await moves(p), tree);

    // The editor: a disc set down, the side to move chosen, Done; the new start is the tree's root.
    await p.click('#edit-position');
    await p.click('#editor [data-piece="O"]');
    await clickCell(p, sq('a1'));
    await p.selectOption('#editor-turn', 'first');
    await p.click('#editor-done');
    await p.waitForSelector('#analysis-setup');
    await p.waitForSelector('#tree-start[aria-current="true"]');
    const edited = await position(p);
    assert.equal(edited[0], 'O', edited);
    assert.match(p.url(), /start=O/);
    // An impossible position is refused with the rules library's reason, and the editor stays open.
    await p.click('#edit-position');
    await p.click('#editor-clear');
    await p.click('#editor-done');
    await p.waitForFunction(() => /centre/.test(document.querySelector('#editor-error').textContent));
    await p.click('#editor-cancel');
    assert.equal(await position(p), edited);

    // A position text read in, and a bad one refused with the reason.
    await p.fill('#analysis-import', start);
    await p.click('#import-load');
    await p.waitForFunction((s) => document.querySelector('#position-text').value === s, start);
    await p.fill('#analysis-import', 'X-X');
    await p.click('#import-load');
    await p.waitForFunction(() => /neither/.test(document.querySelector('#import-error').textContent));
    assert.deepEqual(await axe(p), []);
    await p.context().close();
  });

  await test('analysis board in every game: a move, the engine\'s lines, the editor\'s pieces', async () => {
    const p = await page('an-bea');
    const games = await p.evaluate(async () => (await (await fetch('/api/catalog')).json()).games.map((g) => ({ name: g.name, pieces: g.pieces.length, levels: g.levels })));
    assert.ok(games.length >= 6, games.map((g) => g.name).join(' '));
    for (const g of games) {
      await p.goto(`${BASE}/analysis/${g.name}`);
      await p.waitForSelector('#tree-start[aria-current="true"]');
      // The first legal move from the list.
      const first = await p.locator('#legal-moves option').nth(1).getAttribute('value');
      await p.selectOption('#legal-moves', first);
      await at(p, `1. ${first}`);
      if (g.levels) {
        await p.click('#engine-start');
        await p.waitForFunction(() => document.querySelectorAll('#engine-lines li').length >= 1, null, { timeout: 20000 });
        await p.click('#engine-stop');
      }
      await p.click('#edit-position');
      assert.equal(await p.locator('#editor [data-piece]').count(), g.pieces + 1, g.name);
      await p.click('#editor-cancel');
    }
    await p.context().close();
  });

  /** A game action over a socket of the page's own, answered by its acknowledgement. */
  // Each action has an acknowledgement id of its own: the server answers a repeated one as a resend.
  const act = (p, msg) => p.evaluate((m) => new Promise((resolve, reject) => {
    const ws = new WebSocket(location.origin.replace(/^http/, 'ws') + '/ws');
    const ack = `e2e-${Math.random()}`;
    ws.onmessage = (e) => {
      const r = JSON.parse(e.data);
      if (r.t === 'hello') ws.send(JSON.stringify({ ...m, ack }));
      else if ((r.t === 'ack' || r.t === 'error') && r.ack === ack) { ws.close(); if (r.t === 'ack') resolve(); else reject(new Error(r.message || r.code)); }
    };
    ws.onerror = () => reject(new Error('the socket failed'));
  }), msg);
  const post = (p, path, body) => p.evaluate(async ([u, b]) => (await fetch(u, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) })).json(), [path, body]);

  await test('opening explorer: two finished games between players are counted, with their results', async () => {
    const [a, b] = [await page('an-eli'), await page('an-fay')];
    const spec = 'cornered:size=7';
    const first = (await post(a, '/api/analysis/position', { spec })).view.moves[0].text;
    // Two games that open with the same move: the second player resigns the first, the first the second.
    for (const resigner of [b, a]) {
      const challenge = await post(a, '/api/challenges', { spec, color: 'first', opponent: 'an-fay' });
      const { game } = await post(b, `/api/challenges/${challenge.id}/accept`, {});
      await act(a, { t: 'move', game, move: first });
      await act(resigner, { t: 'resign', game });
    }
    await a.goto(`${BASE}/analysis/cornered?spec=${encodeURIComponent(spec)}`);
    await a.waitForSelector(`#explorer-table tr[data-move="${first}"]`);
    const row = a.locator(`#explorer-table tr[data-move="${first}"]`);
    assert.equal((await row.locator('td').nth(1).textContent()).trim(), '2');
    assert.match(await row.locator('td').nth(2).textContent(), /50% White · 0% draws · 50% Black/);
    // Its move plays from the table; beyond the games' moves nothing was played.
    await row.locator('button').click();
    await at(a, `1. ${first}`);
    await a.waitForSelector('#explorer-none');
    assert.deepEqual(await axe(a), []);
    await a.context().close();
    await b.context().close();
  });

  await test('puzzles: in every game a puzzle solved and one failed, the rating and the streak kept, in Japanese', async () => {
    const p = await page('an-gil');
    const visitor = await page(null);
    await visitor.goto(BASE + '/');
    const games = await p.evaluate(async () => (await (await fetch('/api/catalog')).json()).games.map((g) => g.name));
    /** The puzzle on the page, and its solution as a visitor's wrong answer shows it (a visitor's try counts for no one). */
    const current = async () => {
      await p.waitForSelector('#puzzle-panel[data-puzzle]');
      const id = await p.getAttribute('#puzzle-panel', 'data-puzzle');
      const legal = await p.locator('#legal-moves option').evaluateAll((os) => os.map((o) => o.value).filter(Boolean));
      const probe = async (m) => visitor.evaluate(async ([i, mv]) => (await fetch(`/api/puzzles/${i}/move`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ moves: [mv] }) })).json(), [id, m]);
      let r = await probe(legal[0]);
      const solution = r.solution || (await probe(legal.find((m) => m !== legal[0]))).solution;
      return { id, legal, solution };
    };
    for (const game of games) {
      await p.goto(`${BASE}/puzzles/${game}`);
      // Solved: the solution's moves entered one by one, the engine's replies between them.
      let { id, solution } = await current();
      for (let k = 0; k < solution.length; k += 2) {
        await p.waitForFunction(() => document.querySelectorAll('#legal-moves option').length > 1 && document.querySelector('#puzzle-status').dataset.state === 'solving');
        await p.selectOption('#legal-moves', solution[k]);
        if (k + 2 < solution.length) await p.waitForFunction((r) => document.querySelector('#puzzle-status').textContent.includes(r), solution[k + 1]);
      }
      await p.waitForFunction(() => document.querySelector('#puzzle-status').dataset.state === 'solved');
      assert.match(await p.textContent('#puzzle-player'), /streak [1-9]/, game);
      // Failed: a legal move that is not the solution's, then its refutation and the solution are shown.
      await p.click('#puzzle-next');
      await p.waitForFunction((old) => document.querySelector('#puzzle-panel').dataset.puzzle !== old, id);
      const next = await current();
      // A move the puzzle refuses (another may be right too): probed by the visitor first.
      let wrong = null;
      for (const m of next.legal.filter((x) => x !== next.solution[0])) {
        const r = await visitor.evaluate(async ([i, mv]) => (await fetch(`/api/puzzles/${i}/move`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ moves: [mv] }) })).json(), [next.id, m]);
        if (r.result === 'failed') { wrong = m; break; }
      }
      assert.ok(wrong, `${game}: a puzzle refuses some move`);
      const tried = Number((await p.textContent('#puzzle-about')).match(/tried (\d+)/)[1]);
      await p.selectOption('#legal-moves', wrong);
      await p.waitForFunction(() => document.querySelector('#puzzle-status').dataset.state === 'failed');
      assert.match(await p.textContent('#puzzle-solution'), new RegExp(next.solution[0].replace(/[*]/g, '\\*')), game);
      assert.match(await p.textContent('#puzzle-player'), /streak 0/, game);
      // The panel counts the try.
      assert.match(await p.textContent('#puzzle-about'), new RegExp(`tried ${tried + 1} time`), game);
      // The refutation is played out on the board to its end.
      await p.waitForFunction(() => { const l = document.querySelector('#puzzle-line'); return l && l.dataset.kind === 'refutation' && Number(l.dataset.at) === l.querySelectorAll('.ply').length; });
    }
    const history = await p.evaluate(async () => (await (await fetch('/api/puzzles/reversi/history')).json()).attempts.map((a) => a.solved));
    assert.deepEqual(history, [false, true]);
    assert.deepEqual(await axe(p), []);
    await shot(p, 'puzzles.png');
    const ja = await page(null, { locale: 'ja-JP' });
    await ja.goto(`${BASE}/puzzles/checkers`);
    await ja.waitForSelector('#puzzle-panel[data-puzzle]');
    assert.match(await ja.textContent('h1'), /^パズル/);
    assert.doesNotMatch(await ja.textContent('#puzzle-proof'), /[A-Za-z]{4,}/);
    await ja.context().close();
    await visitor.context().close();
    await p.context().close();
  });

  await test('puzzles: a second-best right move solves the puzzle, and the solution is stepped through on the board', async () => {
    // A shipped checkers puzzle whose first step accepts two moves, read from the set the server ships.
    const { inflateRawSync } = await import('node:zlib');
    const { readFileSync } = await import('node:fs');
    const text = inflateRawSync(readFileSync(new URL('../../crates/server/puzzles/shipped.tsv.deflate', import.meta.url))).toString();
    const fnv = (s) => { let h = 0xcbf29ce484222325n; for (const b of Buffer.from(s)) { h ^= BigInt(b); h = (h * 0x100000001b3n) & 0xffffffffffffffffn; } return h.toString(16).padStart(16, '0'); };
    const line = text.split('\n').map((l) => l.split('\t')).find((f) => f[0] === 'checkers' && (f[4].split(' / ')[0].match(/\*/g) || []).length >= 2);
    assert.ok(line, 'the shipped set has a checkers puzzle with two right first moves');
    const [spec, position, solution, , grades] = line;
    const first = grades.split(' / ')[0].split(' ').filter((g) => g.endsWith('*')).map((g) => g.slice(0, g.lastIndexOf('=')));
    const second = first.find((m) => m !== solution.split(' ')[0]);
    const p = await page('an-puz');
    await p.goto(`${BASE}/puzzles/checkers/${fnv(`${spec}\n${position}`)}`);
    await p.waitForFunction(() => document.querySelector('#puzzle-status')?.dataset.state === 'solving' && document.querySelectorAll('#legal-moves option').length > 1);
    await p.selectOption('#legal-moves', second);
    await p.waitForFunction(() => document.querySelector('#puzzle-status').dataset.state === 'solved');
    assert.match(await p.textContent('#puzzle-status'), /right too/);
    assert.match(await p.textContent('#puzzle-player'), /streak 1/);
    assert.match(await p.textContent('#puzzle-about'), /tried 1 time\b/);
    // The solution, move by move from the puzzle's position.
    await p.click('#show-solution');
    await p.waitForFunction(() => document.querySelector('#puzzle-line')?.dataset.kind === 'solution' && document.querySelector('#puzzle-line').dataset.at === '0');
    const before = await p.innerHTML('#board');
    await p.click('#line-next');
    await p.waitForFunction(() => document.querySelector('#puzzle-line').dataset.at === '1');
    await drawn(p);
    assert.notEqual(await p.innerHTML('#board'), before, 'the board shows the solution\'s first move');
    await p.click('#line-last');
    await p.waitForFunction((n) => document.querySelector('#puzzle-line').dataset.at === String(n), solution.split(' ').length);
    assert.deepEqual(await axe(p), []);
    await p.context().close();
  });

  await test('analysis board: "analyse from here" on a replay, in Japanese, and on a phone', async () => {
    const p = await page('an-cid');
    const id = await p.evaluate(async () => {
      const r = await fetch('/api/import', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: '[Game "reversi"]\n\nf5d6c3d3c4' }) });
      return (await r.json()).game;
    });
    await p.goto(`${BASE}/replay/${id}`);
    await p.waitForSelector('#analyse-here');
    await p.click('#prev');
    await p.click('#analyse-here');
    await at(p, '4. d3');
    assert.match(p.url(), /m=f5&m=d6&m=c3&m=d3$/);
    await p.context().close();

    const ja = await page(null, { locale: 'ja-JP' });
    await ja.goto(`${BASE}/analysis/checkers`);
    await ja.waitForSelector('#tree-start[aria-current="true"]');
    assert.match(await ja.textContent('h1'), /^検討ボード/);
    assert.equal(await ja.textContent('#engine-title'), 'エンジン');
    assert.deepEqual(await axe(ja), []);
    await ja.context().close();

    const phone = await page('an-dee', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await phone.goto(`${BASE}/analysis/reversi`);
    await phone.waitForSelector('#tree-start[aria-current="true"]');
    const wide = await phone.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= 390, `no sideways scrolling on a phone (${wide} px)`);
    await shot(phone, 'analysis-phone.png', true);
    await phone.context().close();
  });
}
