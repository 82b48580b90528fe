// Unit tests of the game page's clocks (web/clock.js) and model (web/gamestate.js).

import test from 'node:test';
import assert from 'node:assert/strict';
import { timeLeft, fmtClock, fmtSpan } from '../web/clock.js';
import { initial, reduce } from '../web/gamestate.js';

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

test('sync and event messages replace the state; only a new version drops a half-entered move', () => {
  let r = reduce(initial('g1'), { t: 'sync', game: 'g1', now: 5000, state: state(3) }, { me: 'u1', now: 4000 });
  assert.equal(r.model.state.version, 3);
  assert.equal(r.model.offset, 1000);
  assert.equal(r.changed, true);
  r = reduce(r.model, { t: 'sync', game: 'g1', state: state(3) }, { me: 'u1' });
  assert.equal(r.changed, false);
  assert.equal(r.model.offset, 1000, 'kept without a server time');
  r = reduce(r.model, { t: 'event', game: 'g1', now: 9000, state: state(4) }, { me: 'u1', now: 9000 });
  assert.equal(r.changed, true);
  assert.equal(r.model.offset, 0);
  assert.equal(reduce(r.model, { t: 'event', game: 'other', state: state(9) }).model, r.model, 'other games are ignored');
});

test('errors, connection, rematch offers and a started game', () => {
  let m = initial('g1');
  m = reduce(m, { t: 'error', game: 'g1', code: 'not-found', message: 'no such game' }).model;
  assert.deepEqual(m.unavailable, { code: 'not-found', message: 'no such game' });
  assert.deepEqual(reduce(m, { t: 'error', game: 'g1', ack: 'a1', message: 'stale' }).model.unavailable, { code: 'not-found', message: 'no such game' }, 'an answer to an action is not about the game');
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
  assert.equal(announce({ action: { kind: 'resign', side: 'first', text: '' }, state: over }), 'Black resigns. White wins by resignation. Black 4, White 1.');
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
