// Browser tests of a player's first hour: settings as controls (the army builder, bounded numbers), the
// smaller things a new player meets (a long name, a resignation's sentence, where a dragged piece may land,
// legends, quotation marks in errors), and the first board's time and bytes, measured and reported.
// run.mjs calls firstHour() with its server, browser and helpers.

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];

export default async function firstHour({ test, browser, BASE, ART, signUp, playComputer, state, cellCenter, waitVersion, shot }) {
  const page = async (name, opts = {}) => {
    const ctx = await browser.newContext({ viewport: { width: 1200, height: 860 }, ...opts });
    const p = await ctx.newPage();
    p.on('pageerror', (e) => console.log('page error:', e.message));
    if (name) await signUp(p, name);
    return p;
  };

  await test('settings are controls: the army builder shows the rule clause by clause, and the button waits for a good army', async () => {
    const p = await page('gus');
    // A number within its bounds: out of them, the button cannot be pressed.
    await p.selectOption('#computer-game', 'cornered');
    await p.fill('#computer-size', '30');
    await p.waitForFunction(() => document.querySelector('#play-computer button[type=submit]').disabled);
    await p.fill('#computer-size', '11');
    await p.waitForFunction(() => !document.querySelector('#play-computer button[type=submit]').disabled);
    // A choice in words.
    await p.selectOption('#computer-game', 'reversi');
    assert.deepEqual(await p.locator('#computer-first option').allTextContents(), ['Black (standard Othello)', 'White']);
    // The army builder starts from the default army of the grid, every clause met.
    await p.selectOption('#computer-game', 'tactics');
    await p.check('#computer-army-custom');
    const counts = () => p.locator('#computer-army .army-count').allTextContents();
    await p.waitForFunction(() => document.querySelectorAll('#computer-army .army-count')[0]?.textContent === '2');
    assert.deepEqual(await counts(), ['2', '2', '2']);
    await p.waitForSelector('#computer-army-clauses li');
    assert.equal(await p.locator('#computer-army-clauses li.broken').count(), 0);
    // Two more warriors break a clause, named; the button waits.
    const plus = (letter) => p.click(`#computer-army [data-part="${letter}"] button:last-of-type`);
    const minus = (letter) => p.click(`#computer-army [data-part="${letter}"] button:first-of-type`);
    await plus('w');
    await plus('w');
    await p.waitForFunction(() => document.querySelectorAll('#computer-army-clauses li.broken').length > 0);
    assert.match(await p.textContent('#computer-army-clauses li.broken'), /within one unit of a third/);
    await p.waitForFunction(() => document.querySelector('#play-computer button[type=submit]').disabled);
    await shot(p, 'army-builder.png');
    // Back to three warriors: seven units that keep the rule, and the game fields them.
    await minus('w');
    await p.waitForFunction(() => document.querySelectorAll('#computer-army-clauses li.broken').length === 0 && !document.querySelector('#play-computer button[type=submit]').disabled);
    assert.deepEqual(await counts(), ['3', '2', '2']);
    await p.selectOption('#computer-color', 'first');
    await p.click('#play-computer button[type=submit]');
    await p.waitForURL(/\/game\//);
    await p.waitForSelector('#board svg');
    const st = await state(p);
    assert.equal(st.spec, 'tactics:army=wwwhhaa');
    assert.equal(st.view.cells.filter((c) => c.piece && c.piece.owner === 'first').length, 7);
    // The game is named by its title and its army in words, not by its spec.
    assert.match(await p.textContent('#game-meta'), /^Grid Tactics · First player's army: warrior ×3, healer ×2, archer ×2/);
    // YWF's starting layout on a board: a click puts a piece on a square, the next kind on a second click.
    await p.goto(BASE + '/');
    await p.selectOption('#computer-game', 'ywf');
    await p.waitForSelector('#computer-layout svg');
    const corner = async () => {
      const box = await p.locator('#computer-layout [data-cell="0"] rect').first().boundingBox();
      await p.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      await p.waitForFunction(() => !document.querySelector('#play-computer button[type=submit]').disabled);
    };
    await corner();
    await corner();
    assert.equal(await p.locator('#computer-layout [data-cell="0"] .piece').count(), 1);
    await p.selectOption('#computer-color', 'first');
    await p.click('#play-computer button[type=submit]');
    await p.waitForURL(/\/game\//);
    await p.waitForSelector('#board svg');
    const ywf = await state(p);
    assert.equal(ywf.spec, 'ywf:layout=Y8/9/9/3YWF3/3WFY3/3FYW3/9/9/9');
    assert.equal(ywf.view.cells[0].piece.kind, 'yoi');
    await p.context().close();
  });

  await test('the smaller things: a long name, a resignation without a score, where a dragged piece may land, legends, and quotation marks', async () => {
    // A name too long is refused with its length, in the page and by the server.
    const v = await page(null);
    await v.goto(BASE + '/');
    await v.fill('#signup input[name=name]', 'x'.repeat(60));
    await v.fill('#signup input[name=password]', 'password-long');
    await v.click('#signup button[type=submit]');
    await v.waitForFunction(() => /at most 20 characters, and this one has 60/.test(document.querySelector('#signup .error')?.textContent || ''));
    assert.equal(await v.locator('#me').count(), 0, 'no account');
    const r = await v.evaluate(async () => {
      const res = await fetch('/api/signup', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'y'.repeat(60), password: 'password-long' }) });
      return [res.status, (await res.json()).error.message];
    });
    assert.deepEqual(r, [400, 'a name has 3 to 20 characters, and this one has 60']);
    await v.context().close();

    const p = await page('hana');
    // Dragging a checkers man: its landing squares are marked while it is held.
    await playComputer(p, 'checkers', { color: 'first' });
    await p.waitForFunction(() => document.querySelector('#status')?.textContent === 'Your turn');
    const st = await state(p);
    const from = st.view.moves[0].from;
    const landings = new Set(st.view.moves.filter((m) => m.from === from).map((m) => m.path[0]));
    const [x0, y0] = await cellCenter(p, from);
    await p.mouse.move(x0, y0);
    await p.mouse.down();
    await p.mouse.move(x0 + 12, y0 + 12, { steps: 3 });
    const marked = await p.evaluate(() => [...document.querySelectorAll('#board [data-drag-target]')].map((e) => Number(e.dataset.dragTarget)));
    assert.deepEqual(new Set(marked), landings);
    const [x1, y1] = await cellCenter(p, [...landings][0]);
    await p.mouse.move(x1, y1, { steps: 4 });
    await p.mouse.up();
    await waitVersion(p, 1);
    assert.equal(await p.locator('#board [data-drag-target]').count(), 0, 'the marks go with the drop');
    // A refused move's message quotes like a sentence, not like code.
    await p.waitForFunction(() => document.querySelector('#status')?.textContent === 'Your turn', null, { timeout: 30000 });
    await p.fill('#move-input', 'z9');
    await p.press('#move-input', 'Enter');
    await p.waitForFunction(() => document.querySelector('#toast.show')?.textContent.length > 0);
    const said = await p.textContent('#toast');
    assert.ok(!said.includes('`'), said);
    // A resignation says who won, without a score the board did not decide.
    await p.click('#resign');
    await p.click('#confirm button[value=yes]');
    await p.waitForSelector('#game-over');
    assert.equal(await p.textContent('#game-over strong'), 'White wins by resignation.');
    // YWF's legend explains the grey pieces and the token.
    await playComputer(p, 'ywf');
    assert.match(await p.textContent('#legend'), /Futsu-no-ko/);
    assert.match(await p.textContent('#legend'), /token/);
    await p.context().close();
  });

  await test('the first board of a game page: time and bytes, first visit and repeat, measured and reported', async () => {
    const p = await page('ivy');
    await playComputer(p, 'reversi', { color: 'first' });
    const url = p.url();
    const storage = await p.context().storageState();
    await p.context().close();
    const runs = { first: [], repeat: [], firstDrawn: [], repeatDrawn: [], firstBytes: [], repeatBytes: [] };
    const N = 11;
    for (let k = 0; k < N; k++) {
      const ctx = await browser.newContext({ viewport: { width: 1200, height: 860 }, storageState: storage });
      // When the board's cells are first in the document, seen from navigation start.
      await ctx.addInitScript(() => {
        const seen = new MutationObserver(() => {
          if (!window.boardAt && document.querySelector('#board svg [data-cell]')) { window.boardAt = performance.now(); seen.disconnect(); }
        });
        seen.observe(document, { childList: true, subtree: true });
      });
      const q = await ctx.newPage();
      const cdp = await ctx.newCDPSession(q);
      await cdp.send('Network.enable');
      let bytes = 0;
      cdp.on('Network.loadingFinished', (e) => { bytes += e.encodedDataLength; });
      for (const visit of ['first', 'repeat']) {
        bytes = 0;
        await q.goto(url);
        await q.waitForSelector('#board svg [data-cell]');
        // What the page loaded once it settled (the socket aside), and when its board was first drawn.
        await q.waitForTimeout(600);
        const t = await q.evaluate(() => performance.getEntriesByName('gridplay:first-board')[0].startTime);
        runs[visit].push(Math.round(t));
        runs[`${visit}Drawn`].push(Math.round(await q.evaluate(() => window.boardAt)));
        runs[`${visit}Bytes`].push(bytes);
        if (k === 0 && visit === 'first') {
          // The board needs no API call before it, and every module was asked for at once by the page's
          // preloads, none by an import found on the way.
          const seen = await q.evaluate(() => {
            const mark = performance.getEntriesByName('gridplay:first-board')[0].startTime;
            const res = performance.getEntriesByType('resource');
            return {
              apiBefore: res.filter((r) => r.name.includes('/api/') && r.startTime < mark).map((r) => r.name),
              // Asked for only once another module had arrived: found by following an import.
              chained: res.filter((r) => r.name.endsWith('.js') && res.some((o) => o.name.endsWith('.js') && o.responseEnd < r.startTime)).map((r) => r.name),
              modules: res.filter((r) => r.name.endsWith('.js')).length,
              preloaded: document.querySelectorAll('link[rel=modulepreload]').length,
            };
          });
          assert.deepEqual(seen.apiBefore, [], 'no API call before the first board');
          assert.deepEqual(seen.chained, [], 'no module found by following imports');
          // Every module the page loads (the shell's, the game page's and its words) was named by a preload.
          assert.equal(seen.modules, seen.preloaded, 'every module loaded was preloaded');
          // Hashed files are cached for good; the page itself is asked for each time.
          const heads = await q.evaluate(async () => {
            const js = document.querySelector('link[rel=modulepreload]').href;
            const a = await fetch(js);
            const page = await fetch(location.href);
            return [a.headers.get('cache-control'), page.headers.get('cache-control')];
          });
          assert.deepEqual(heads, ['public, max-age=31536000, immutable', 'private, no-cache']);
        }
      }
      await ctx.close();
    }
    const report = {
      runs: N,
      // After the frame that drew the board (the page's `gridplay:first-board` mark), and when its cells were
      // first in the document.
      first_visit_ms: median(runs.first),
      repeat_visit_ms: median(runs.repeat),
      first_visit_in_document_ms: median(runs.firstDrawn),
      repeat_visit_in_document_ms: median(runs.repeatDrawn),
      first_visit_bytes: median(runs.firstBytes),
      repeat_visit_bytes: median(runs.repeatBytes),
      all: runs,
    };
    writeFileSync(join(ART, 'first-board.json'), JSON.stringify(report, null, 2));
    console.log(`  first board of a game page (median of ${N}; in the document / after its frame): first visit ${report.first_visit_in_document_ms} / ${report.first_visit_ms} ms, ${report.first_visit_bytes} bytes; repeat visit ${report.repeat_visit_in_document_ms} / ${report.repeat_visit_ms} ms, ${report.repeat_visit_bytes} bytes`);
    assert.ok(report.repeat_visit_bytes < report.first_visit_bytes / 2, 'a repeat visit takes the modules from the cache');
  });
}
