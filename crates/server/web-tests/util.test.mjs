// Unit tests of the pages' small helpers (web/util.js) that need no document.
// Run by scripts/test: node --test crates/server/web-tests/

import test from 'node:test';
import assert from 'node:assert/strict';
import { serial, analysisUrl, path } from '../web/util.js';

/** A load whose runs each wait for the test to let them end. */
function gatedLoad() {
  const runs = [];
  const load = () => new Promise((resolve) => { runs.push(resolve); });
  return { runs, load };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('a call while a load runs makes one more run after it, never two at once', async () => {
  const { runs, load } = gatedLoad();
  const run = serial(load);
  const first = run();
  await tick();
  assert.equal(runs.length, 1);
  // Three calls during the first run: one more run, once the first has ended.
  run(); run(); run();
  await tick();
  assert.equal(runs.length, 1, 'no second run while the first is running');
  runs[0]();
  await tick();
  assert.equal(runs.length, 2, 'one more run after the first');
  runs[1]();
  await first;
  await tick();
  assert.equal(runs.length, 2, 'and no third');
  // Once idle, a call runs at once again.
  run();
  await tick();
  assert.equal(runs.length, 3);
  runs[2]();
});

test('a failing load does not stop later runs', async () => {
  let n = 0;
  const errors = [];
  const saved = console.error;
  console.error = (e) => errors.push(e);
  try {
    const run = serial(async () => { n += 1; if (n === 1) throw new Error('the network is down'); });
    await run();
    await run();
  } finally {
    console.error = saved;
  }
  assert.equal(n, 2);
  assert.equal(errors.length, 1);
});

test("an analysis address keeps the settings, the start, the variations and the current line", () => {
  assert.equal(analysisUrl('reversi', 'reversi', null, []), '/analysis/reversi');
  assert.equal(analysisUrl('reversi', 'reversi', null, ['f5', 'd6']), '/analysis/reversi?m=f5&m=d6');
  assert.equal(analysisUrl('cornered', 'cornered:size=6', 'x o', ['c4'], [['c4', 'e3'], ['c4', 'c5']]),
    '/analysis/cornered?spec=cornered%3Asize%3D6&start=x+o&v=c4+e3&v=c4+c5&m=c4');
});

test('a path encodes each value as one segment, and leaves the rest as written', () => {
  assert.equal(path`/games/${'abc123'}/chat`, '/games/abc123/chat');
  assert.equal(path`/players/${'a/b?c#d%e f'}/block`, '/players/a%2Fb%3Fc%23d%25e%20f/block');
  assert.equal(path`/rules/${'reversi'}?lang=${'ja'}`, '/rules/reversi?lang=ja');
  assert.equal(path`/games/${7}/ply/${0}`, '/games/7/ply/0');
  assert.equal(path`/lobby`, '/lobby');
});
