import { chromium } from 'playwright-core';
const B='http://127.0.0.1:18111';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
const pages = {};
for (const n of ['al', 'bo', 'ca', 'da']) {
  const p = await (await browser.newContext()).newPage();
  p.on('pageerror', (e) => console.log(n, 'page error:', e.message));
  await p.goto(B + '/');
  await p.fill('#signup input[name=name]', n + 'xx');
  await p.fill('#signup input[name=password]', 'password-x');
  await p.click('#signup button[type=submit]');
  await p.waitForSelector('#me');
  pages[n + 'xx'] = p;
}
const al = pages.alxx;
const tid = await al.evaluate(async () => (await (await fetch('/api/tournaments', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'T', spec: 'checkers', kind: 'swiss', rounds: 3, rated: true }) })).json()).id);
for (const n of ['boxx', 'caxx', 'daxx']) { await pages[n].goto(`${B}/tournament/${tid}`); await pages[n].click('#t-join'); await pages[n].waitForSelector('#t-withdraw'); }
await al.goto(`${B}/tournament/${tid}`);
await al.click('#t-start');
for (let round = 1; round <= 3; round++) {
  let t;
  for (;;) { t = await (await fetch(`${B}/api/tournaments/${tid}`)).json(); if (t.round === round) break; await new Promise((r) => setTimeout(r, 100)); }
  for (const g of t.rounds_played[round - 1].games) {
    const p = pages[g.players[0]];
    console.log('round', round, g.id, g.players);
    await p.goto(`${B}/game/${g.id}`);
    await p.waitForSelector('#resign');
    await p.click('#resign');
    await p.click('#confirm button[value=yes]');
    try { await p.waitForSelector('#game-over', { timeout: 5000 }); } catch (e) {
      console.log('no game over; toast:', await p.textContent('#toast'), 'url', p.url());
      console.log(await (await fetch(`${B}/api/games/${g.id}`)).json().then((s) => s.over));
      process.exit(1);
    }
  }
}
console.log('done');
await browser.close();
