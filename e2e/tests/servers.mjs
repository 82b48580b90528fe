// Two servers on one PostgreSQL database: a challenge across them, moves both ways, and a resignation.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';

export default async function ({ test, browser, PORT, BIN, signUp, challenge, waitFor, shot, waitVersion, move, Skip }) {

  await test('two players on two servers: a challenge across them, moves both ways, and a resignation', async () => {
    // "none" leaves PostgreSQL out on purpose (scripts/test).
    const admin = process.env.GRIDPLAY_TEST_POSTGRES === 'none' ? undefined : process.env.GRIDPLAY_TEST_POSTGRES;
    if (!admin) {
      if (process.env.CI === 'true' || process.env.GRIDPLAY_TEST_REQUIRE_POSTGRES === '1') {
        throw new Error('PostgreSQL is required here (CI=true or GRIDPLAY_TEST_REQUIRE_POSTGRES=1) but GRIDPLAY_TEST_POSTGRES is not set');
      }
      throw new Skip('GRIDPLAY_TEST_POSTGRES is not set');
    }
    const name = `gridplay_e2e_${process.pid}`;
    const psql = (sql) => new Promise((resolve, reject) => {
      const p = spawn('psql', [admin, '-q', '-c', sql], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, PGOPTIONS: '-c client_min_messages=warning' } });
      p.once('error', reject);
      p.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`psql ${sql}: exit ${code}`))));
    });
    await psql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await psql(`CREATE DATABASE ${name}`);
    const url = admin.replace(/\/[^/]*$/, `/${name}`);
    const ports = [PORT + 1, PORT + 2];
    const servers = ports.map((port) => spawn(BIN, ['serve', '--addr', `127.0.0.1:${port}`, '--database', url, '--auth-per-minute', '1000', '--signups-per-hour', '1000'], { stdio: ['ignore', 'inherit', 'inherit'] }));
    try {
      const bases = ports.map((port) => `http://127.0.0.1:${port}`);
      for (const b of bases) await waitFor(async () => (await fetch(b + '/api/me')).ok, 20000, `the server at ${b}`);
      const [pa, pb] = await Promise.all([0, 1].map(async () => (await browser.newContext({ viewport: { width: 1200, height: 860 } })).newPage()));
      await signUp(pa, 'ann', bases[0]);
      await signUp(pb, 'ben', bases[1]);
      // Each lobby lists the other player online, though they are on the other server.
      await pa.waitForFunction(() => /ben/.test(document.querySelector('#online')?.textContent || ''), null, { timeout: 10000 });
      await pb.waitForFunction(() => /ann/.test(document.querySelector('#online')?.textContent || ''), null, { timeout: 10000 });
      // Ann challenges Ben through A; Ben's lobby on B shows it and he accepts; Ann's page goes to the game.
      await challenge(pa, pb, 'ben', '10+5', { fromBase: bases[0], toBase: bases[1] });
      await move(pa, 'd3');
      await waitVersion(pb, 1);
      await move(pb, 'c3');
      await waitVersion(pa, 2);
      await move(pa, 'c4');
      await waitVersion(pb, 3);
      await shot(pb, 'two-servers.png');
      await pb.click('#resign');
      await pb.click('#confirm button[value=yes]');
      await pa.waitForSelector('#game-over', { timeout: 10000 });
      assert.match(await pa.textContent('#game-over'), /resign/i);
      await pa.context().close();
      await pb.context().close();
    } finally {
      for (const s of servers) s.kill('SIGINT');
      await Promise.all(servers.map((s) => new Promise((r) => (s.exitCode !== null ? r() : s.once('exit', r)))));
      await psql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    }
  });
}
