// Side by side: the first board of a game page on two running servers (two builds), measured the same way on
// both (when the board's cells are first in the document, seen by a MutationObserver from navigation start;
// and, where the build has it, the page's `gridplay:first-board` mark after the board's frame), alternating
// between them, a first visit and a repeat visit in each fresh browser context, with the bytes on the wire.
//
//   node e2e/compare-first-board.mjs http://127.0.0.1:8081 http://127.0.0.1:8082   (N=15 runs by default;
//   CHROMIUM names the browser)
import { chromium } from 'playwright-core';
import { engineGame } from './engine-game.mjs';
const servers = { old: process.argv[2] || 'http://127.0.0.1:8081', new: process.argv[3] || 'http://127.0.0.1:8082' };
const N = Number(process.env.N || 15);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
const init = () => {
  const obs = new MutationObserver(() => {
    if (!window.__board && document.querySelector('#board svg [data-cell]')) { window.__board = performance.now(); obs.disconnect(); }
  });
  obs.observe(document, { childList: true, subtree: true });
};
async function setup(base) {
  const { ctx, page } = await engineGame(browser, base);
  const r = { url: page.url(), storage: await ctx.storageState() };
  await ctx.close();
  return r;
}
const games = { old: await setup(servers.old), new: await setup(servers.new) };
const res = { old: { first: [], repeat: [], bytesFirst: [], bytesRepeat: [] }, new: { first: [], repeat: [], bytesFirst: [], bytesRepeat: [] } };
for (let i = 0; i < N; i++) {
  for (const which of i % 2 ? ['new', 'old'] : ['old', 'new']) {
    const ctx = await browser.newContext({ storageState: games[which].storage });
    await ctx.addInitScript(init);
    const p = await ctx.newPage();
    const cdp = await ctx.newCDPSession(p);
    await cdp.send('Network.enable');
    let bytes = 0;
    cdp.on('Network.loadingFinished', (e) => { bytes += e.encodedDataLength; });
    for (const visit of ['first', 'repeat']) {
      bytes = 0;
      await p.goto(games[which].url);
      await p.waitForFunction(() => window.__board);
      await p.waitForTimeout(600);
      res[which][visit].push(Math.round(await p.evaluate(() => window.__board)));
      const mk = await p.evaluate(() => (performance.getEntriesByName('gridplay:first-board')[0] || {}).startTime);
      if (mk) (res[which][`mark_${visit}`] ||= []).push(Math.round(mk));
      res[which][visit === 'first' ? 'bytesFirst' : 'bytesRepeat'].push(bytes);
    }
    await ctx.close();
  }
}
const med = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
for (const w of ['old', 'new']) {
  if (res[w].mark_first) console.log(`${w} after paint: first ${med(res[w].mark_first)} repeat ${med(res[w].mark_repeat)}`);
  console.log(`${w}: first visit median ${med(res[w].first)} ms (${res[w].first.join(' ')}), repeat median ${med(res[w].repeat)} ms (${res[w].repeat.join(' ')}), bytes first ${med(res[w].bytesFirst)}, repeat ${med(res[w].bytesRepeat)}`);
}
await browser.close();
