// Unit tests of the game page's model and clocks (web/gamestate.js).

import test from 'node:test';
import assert from 'node:assert/strict';
import { initial, reduce, timeLeft, fmtClock, fmtSpan } from '../web/gamestate.js';
import { loadLanguage } from '../web/i18n.js';

// A page loads its language's words before it draws; so do these tests.
await loadLanguage('en');

test('a running clock counts down from when it started; the other stands', () => {
  const clock = { remaining: [60000, 30000], running: 'first', since: 1000 };
  assert.equal(timeLeft(clock, 0, 11000), 50000);
  assert.equal(timeLeft(clock, 1, 11000), 30000);
  assert.equal(timeLeft(clock, 0, 999999), 0, 'never below zero');
  assert.equal(timeLeft(null, 0, 0), null);
});

test('clock faces and correspondence spans read as people write them', () => {
  assert.equal(fmtClock(9500), '0:09.5');
  assert.equal(fmtClock(65000), '1:05');
  assert.equal(fmtClock(3723000), '1:02:03');
  assert.equal(fmtClock(-5), '0:00.0');
  assert.equal(fmtSpan(0), 'time is up');
  assert.equal(fmtSpan(90 * 60000), '1 h 30 min left');
  assert.equal(fmtSpan(50 * 3600000), '2 d 2 h left');
  assert.equal(fmtSpan(61000), '2 min left');
});

const state = (version, over = null) => ({ version, over, players: [{ id: 'u1' }, { id: null, level: 3 }] });

test('sync messages replace the state and events change it; only a new version drops a half-entered move', () => {
  let r = reduce(initial('g1'), { t: 'sync', game: 'g1', now: 5000, state: state(3) }, { me: 'u1', now: 4000 });
  assert.equal(r.model.state.version, 3);
  assert.equal(r.model.offset, 1000);
  assert.equal(r.changed, true);
  r = reduce(r.model, { t: 'sync', game: 'g1', state: state(3) }, { me: 'u1' });
  assert.equal(r.changed, false);
  assert.equal(r.model.offset, 1000, 'kept without a server time');
  r = reduce(r.model, { t: 'event', game: 'g1', now: 9000, v: 4, delta: { version: 4 } }, { me: 'u1', now: 9000 });
  assert.equal(r.model.state.version, 4);
  assert.equal(r.changed, true);
  assert.equal(r.model.offset, 0);
  assert.equal(reduce(r.model, { t: 'event', game: 'other', v: 5, delta: { version: 5 } }).model, r.model, 'other games are ignored');
});

test('errors, connection, rematch offers and a started game', () => {
  let m = initial('g1');
  m = reduce(m, { t: 'error', game: 'g1', code: 'not-found', message: 'no such game' }).model;
  assert.deepEqual(m.unavailable, { code: 'not-found', message: 'no such game' });
  assert.deepEqual(reduce(m, { t: 'error', game: 'g1', ack: 'a1', message: 'stale' }).model.unavailable, { code: 'not-found', message: 'no such game' }, 'an answer to an action is not about the game');
  assert.equal(reduce(m, { t: 'connection', open: true }).model, m, 'a socket that opens again while the page shows it connected changes nothing (nothing to redraw)');
  m = reduce(m, { t: 'connection', open: false }).model;
  assert.equal(m.connected, false);
  m = reduce(m, { t: 'sync', game: 'g1', state: state(7, { winner: 'first', termination: 'rules' }) }).model;
  assert.equal(m.unavailable, null);
  m = reduce(m, { t: 'rematch', game: 'g1', challenge: 'c9', from: 'ann' }).model;
  assert.deepEqual(m.rematchOffer, { challenge: 'c9', from: 'ann' });
  assert.deepEqual(reduce(m, { t: 'started', game: 'g2' }, { me: 'u1' }).effect, { navigate: '/game/g2' });
  assert.equal(reduce(m, { t: 'started', game: 'g2' }, { me: 'u9' }).effect, null, 'a spectator stays');
});

test('events are announced in words: the move, the score, the end', async () => {
  const { announce } = await import('../web/gamestate.js');
  const st = { sides: [{ name: 'Black' }, { name: 'White' }], view: { score: { first: 4, second: 1 } }, over: null };
  assert.equal(announce({ action: { kind: 'move', side: 'first', text: 'd3' }, state: st }), 'Black plays d3. Black 4, White 1.');
  assert.equal(announce({ action: { kind: 'offer-draw', side: 'second', text: '' }, state: st }), 'White offers a draw.');
  const over = { ...st, over: { winner: 'second', termination: 'resignation' } };
  assert.equal(announce({ action: { kind: 'resign', side: 'first', text: '' }, state: over }), 'Black resigns. White wins by resignation.');
});

test('the move list is numbered by turns', async () => {
  const { moveLines } = await import('../web/gamestate.js');
  const pairs = moveLines(['d3', 'c3', 'c4'], 'fsf');
  assert.deepEqual(pairs, [
    { n: 1, side: null, moves: [[0, 'd3'], [1, 'c3']] },
    { n: 2, side: null, moves: [[2, 'c4']] },
  ]);
  // Where a turn is several moves (unit activations), each turn is a line.
  const turns = moveLines(['a', 'b', 'end', 'x', 'end', 'c'], 'fffssf');
  assert.deepEqual(turns.map((l) => [l.n, l.side, l.moves.map((m) => m[1]).join(' ')]), [
    [1, 'first', 'a b end'],
    [1, 'second', 'x end'],
    [2, 'first', 'c'],
  ]);
  // A game the second player opens (a set-up position) starts its first line with a gap.
  assert.deepEqual(moveLines(['c3', 'd3'], 'sf'), [
    { n: 1, side: null, moves: [null, [0, 'c3']] },
    { n: 2, side: null, moves: [[1, 'd3']] },
  ]);
});

test('events apply what changed: the page rebuilds the server’s next state from each delta, in every game', async () => {
  const { applyDelta } = await import('../web/gamestate.js');
  const { readFileSync } = await import('node:fs');
  const cases = JSON.parse(readFileSync(new URL('./fixtures/deltas.json', import.meta.url), 'utf8'));
  assert.ok(cases.length >= 5, 'every game');
  for (const { game, states, deltas } of cases) {
    deltas.forEach((d, i) => {
      const before = structuredClone(states[i]);
      assert.deepEqual(applyDelta(states[i], d), states[i + 1], `${game}, move ${i + 1}`);
      assert.deepEqual(states[i], before, `${game}: the old state is left as it was`);
    });
  }
});

test('an event applies only on top of the version before it', () => {
  const base = { version: 4, over: null, players: [{ id: 'u1' }, { id: 'u2' }], moves: ['a'], view: { cells: [{}, {}], turn: 'second' } };
  let r = reduce(initial('g1'), { t: 'sync', game: 'g1', state: base }, { me: 'u1' });
  const delta = { version: 5, 'moves+': ['b'], view: { turn: 'first', 'cells@': [[1, { piece: { kind: 'disc' } }]] } };
  const gap = reduce(r.model, { t: 'event', game: 'g1', v: 6, delta: { version: 6 } }, { me: 'u1' });
  assert.equal(gap.model, r.model, 'an event after a gap is left out');
  r = reduce(r.model, { t: 'event', game: 'g1', v: 5, delta }, { me: 'u1' });
  assert.equal(r.changed, true);
  assert.deepEqual(r.model.state.moves, ['a', 'b']);
  assert.deepEqual(r.model.state.view, { cells: [{}, { piece: { kind: 'disc' } }], turn: 'first' });
  assert.equal(reduce(r.model, { t: 'event', game: 'g1', v: 5, delta }).model, r.model, 'a repeated event is left out');
});
