// Unit tests of the page's socket (web/live.js) with a fake WebSocket and mocked timers: resending and giving
// up on actions, fetching again on every (re)connection, and applying events only in order.

import test, { mock } from 'node:test';
import assert from 'node:assert/strict';

class FakeSocket {
  static OPEN = 1;
  static all = [];
  constructor(url) { this.url = url; this.sent = []; this.readyState = 0; FakeSocket.all.push(this); }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() { this.readyState = 3; this.onclose?.(); }
  open() { this.readyState = 1; this.onopen?.(); }
  receive(msg) { this.onmessage?.({ data: JSON.stringify(msg) }); }
}

globalThis.WebSocket = FakeSocket;
globalThis.location = { protocol: 'http:', host: 'localhost:8080' };
mock.timers.enable({ apis: ['setInterval', 'setTimeout', 'Date'] });
const { Live } = await import('../web/live.js');

test('an action with no answer is sent again, then given up and reported', async () => {
  const live = new Live();
  const ws = FakeSocket.all.at(-1);
  ws.open();
  const answer = live.act({ t: 'move', game: 'g1', move: 'd3' });
  let outcome = null;
  answer.then((m) => { outcome = ['ack', m]; }, (e) => { outcome = ['error', e]; });
  assert.equal(ws.sent.filter((m) => m.t === 'move').length, 1);
  mock.timers.tick(4000);
  assert.equal(ws.sent.filter((m) => m.t === 'move').length, 2, 'resent after 2.5 s');
  assert.equal(new Set(ws.sent.filter((m) => m.t === 'move').map((m) => m.ack)).size, 1, 'with the same ack id');
  mock.timers.tick(15000);
  await new Promise((r) => setImmediate(r));
  assert.equal(outcome, null, 'still waiting at 19 s');
  mock.timers.tick(3000);
  await new Promise((r) => setImmediate(r));
  assert.equal(outcome[0], 'error');
  assert.equal(outcome[1].code, 'no-answer');
});

test('every (re)connection makes the pages fetch again; the game resumes from its version', () => {
  const live = new Live();
  const seen = [];
  live.on((m) => seen.push(m.t));
  let ws = FakeSocket.all.at(-1);
  live.watch('g1');
  ws.open();
  assert.deepEqual(seen, ['connection', 'lobby']);
  ws.receive({ t: 'sync', game: 'g1', state: { version: 7 } });
  ws.close();
  mock.timers.tick(1000);
  ws = FakeSocket.all.at(-1);
  ws.open();
  assert.deepEqual(seen.slice(-2), ['connection', 'lobby']);
  assert.deepEqual(ws.sent.find((m) => m.t === 'watch'), { t: 'watch', game: 'g1', v: 7 });
});

test('events pass only in order: repeats are dropped, and a gap asks for what was missed', () => {
  const live = new Live();
  const events = [];
  live.on((m) => { if (m.t === 'event') events.push(m.v); });
  const ws = FakeSocket.all.at(-1);
  live.watch('g1');
  ws.open();
  ws.receive({ t: 'event', game: 'g1', v: 1 });
  assert.deepEqual(events, [], 'no event before the first state');
  ws.receive({ t: 'sync', game: 'g1', state: { version: 3 } });
  ws.receive({ t: 'event', game: 'g1', v: 3 });
  ws.receive({ t: 'event', game: 'g1', v: 4 });
  ws.receive({ t: 'event', game: 'g1', v: 6 });
  ws.receive({ t: 'event', game: 'g1', v: 7 });
  assert.deepEqual(events, [4]);
  assert.deepEqual(ws.sent.filter((m) => m.t === 'watch').at(-1), { t: 'watch', game: 'g1', v: 4 });
  assert.equal(ws.sent.filter((m) => m.t === 'watch' && m.v === 4).length, 1, 'asked once');
  ws.receive({ t: 'event', game: 'g1', v: 5 });
  ws.receive({ t: 'event', game: 'g1', v: 6 });
  assert.deepEqual(events, [4, 5, 6]);
});
