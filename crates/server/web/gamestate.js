// The game page's model and the one function that changes it from the socket's messages, and the clocks as the
// page shows them (time left from the server's clock state, and how to write it). Pure: no DOM and no
// network; the page draws the model and carries out the effect `reduce` returns. Tested with `node --test`.

import { t } from './i18n.js';
import { gameWord } from './catalog.js';

/** Side i's name in the game's words. */
export const sideName = (state, i) => gameWord(state.game, state.sides[i].name);

/**
 * How a finished game ended, in one sentence with the final score ("Black wins by resignation. Black 34,
 * White 30."), from the state's `over` (winner and termination) and score.
 */
export function overText(state) {
  const { over } = state;
  if (!over) return '';
  if (over.termination === 'aborted') return t('over.aborted');
  const reason = over.termination || 'rules';
  const result = over.winner ? t(`over.win.${reason}`, { side: sideName(state, over.winner === 'first' ? 0 : 1) }) : t(`over.draw.${reason}`);
  // The score only where the board decided the result (as the server's sentence has it).
  if (reason !== 'rules') return result;
  const { score } = state.view;
  return `${result} ${t('over.score', { a: sideName(state, 0), sa: score.first, b: sideName(state, 1), sb: score.second })}`;
}

/**
 * The state after an event: `state` with the event's `delta` applied. A delta holds the fields that changed
 * with their new values, except `moves+` (moves appended to `moves`) and `view` (the board view's fields that
 * changed, with `cells@` listing `[index, cell]` for the cells that changed). The server's `delta` in
 * messages.rs writes them.
 */
export function applyDelta(state, delta) {
  const next = { ...state };
  for (const [k, v] of Object.entries(delta)) {
    if (k === 'moves+') next.moves = [...state.moves, ...v];
    else if (k === 'view') {
      const view = { ...state.view };
      for (const [vk, vv] of Object.entries(v)) {
        if (vk === 'cells@') {
          view.cells = state.view.cells.slice();
          for (const [i, cell] of vv) view.cells[i] = cell;
        } else view[vk] = vv;
      }
      next.view = view;
    } else next[k] = v;
  }
  return next;
}

/** A game page's model before the first message. */
export function initial(id) {
  return { id, state: null, connected: true, offset: 0, rematchOffer: null, unavailable: null };
}

/**
 * The model after one message from the socket, and what the page should do besides drawing it:
 * `{model, changed, effect}`. `changed` says the game moved on (a new version), so that a half-entered move
 * is dropped; `effect` is null or `{navigate: path}`.
 * @param {object} model
 * @param {object} msg a socket message (`sync`, `event`, `error`, `started`, `rematch`) or `{t: 'connection', open}`
 * @param {{me?: string|null, now?: number}} [ctx] the user's id and the page's clock
 */
export function reduce(model, msg, { me = null, now = Date.now() } = {}) {
  const same = { model, changed: false, effect: null };
  if (msg.t === 'connection') return msg.open === model.connected ? same : { ...same, model: { ...model, connected: msg.open } };
  const mine = model.state && me != null && model.state.players.some((p) => p.id === me);
  // A new game of mine started (a rematch accepted): go there once this one is over.
  if (msg.t === 'started') return model.state && model.state.over && mine ? { ...same, effect: { navigate: '/game/' + encodeURIComponent(msg.game) } } : same;
  if (msg.game !== model.id) return same;
  if (msg.t === 'rematch') return { ...same, model: { ...model, rematchOffer: { challenge: msg.challenge, from: msg.from } } };
  if (msg.t === 'sync' || msg.t === 'event') {
    // An event carries what changed since the version before it; one that does not follow the page's version
    // is left out (the socket asks the server for what was missed).
    if (msg.t === 'event' && (!model.state || msg.v !== model.state.version + 1)) return same;
    const state = msg.t === 'sync' ? msg.state : applyDelta(model.state, msg.delta);
    const changed = !model.state || state.version !== model.state.version;
    const offset = msg.now ? msg.now - now : model.offset;
    return { model: { ...model, state, offset, unavailable: null }, changed, effect: null };
  }
  // An error that answers no action of this page is about the game itself: it cannot be shown.
  if (msg.t === 'error' && !msg.ack) return { ...same, model: { ...model, unavailable: { code: msg.code, message: msg.message } } };
  return same;
}

/**
 * What a screen reader hears of an event: who did what, the score after a move, and the end of the game.
 * @param {{action: {kind: string, side: string, text: string}, state: object}} msg an `event` message
 */
export function announce(msg) {
  const { action, state } = msg;
  const name = sideName(state, action.side === 'first' ? 0 : 1);
  const known = ['move', 'resign', 'offer-draw', 'accept-draw', 'decline-draw', 'abort', 'claim', 'claim-draw', 'timeout', 'takeback', 'offer-takeback', 'decline-takeback'];
  const said = known.includes(action.kind) ? t(`said.${action.kind}`, { name, move: action.text }) : '';
  const score = action.kind === 'move' ? ` ${t('over.score', { a: sideName(state, 0), sa: state.view.score.first, b: sideName(state, 1), sb: state.view.score.second })}` : '';
  const over = state.over ? ` ${overText(state)}` : '';
  return (said + score + over).trim();
}

/**
 * The move list by turns: a turn is a side's moves in a row. Where every turn is one move, two turns make a
 * numbered line ("1. d3 c3"); where turns are longer (several units a turn), each turn is a line of its own,
 * numbered with the side. Returns `[{n, side, moves: [[index, text]...]}]`, `side` null for a pair.
 * @param {string[]} moves
 * @param {string} movers one letter a move: `f` first player, `s` second
 */
export function moveLines(moves, movers) {
  const turns = [];
  moves.forEach((text, i) => {
    const side = movers[i] === 's' ? 'second' : 'first';
    const last = turns[turns.length - 1];
    if (last && last.side === side) last.moves.push([i, text]);
    else turns.push({ side, moves: [[i, text]] });
  });
  const long = turns.some((t) => t.moves.length > 1);
  const lines = [];
  let n = 0;
  for (const t of turns) {
    if (t.side === 'first' || n === 0) n += 1;
    if (long) lines.push({ n, side: t.side, moves: t.moves });
    else if (t.side === 'first' || !lines.length || lines[lines.length - 1].n !== n) lines.push({ n, side: null, moves: [...(t.side === 'second' ? [null] : []), ...t.moves] });
    else lines[lines.length - 1].moves.push(...t.moves);
  }
  return lines;
}

// Clocks.

export const SIDES = ['first', 'second'];

/**
 * Side i's time left at `now` (server time, ms), or null without a live clock.
 * @param {{remaining: number[], running: string|null, since: number}|null} clock
 */
export function timeLeft(clock, i, now) {
  if (!clock) return null;
  const run = clock.running === SIDES[i] ? now - clock.since : 0;
  return Math.max(0, clock.remaining[i] - run);
}

/** A clock's face: tenths under ten seconds, then m:ss, then h:mm:ss. */
export function fmtClock(ms) {
  if (ms < 10000) return `0:${(Math.max(0, ms) / 1000).toFixed(1).padStart(4, '0')}`;
  const s = Math.ceil(ms / 1000);
  const m = Math.floor(s / 60);
  return m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}` : `${m}:${String(s % 60).padStart(2, '0')}`;
}

/** The time left for a correspondence move, in words. */
export function fmtSpan(ms) {
  if (ms <= 0) return t('span.up');
  const hrs = Math.floor(ms / 3600000);
  if (hrs >= 24) return t('span.days', { d: Math.floor(hrs / 24), h: hrs % 24 });
  if (hrs >= 1) return t('span.hours', { h: hrs, m: Math.floor((ms % 3600000) / 60000) });
  return t('span.minutes', { m: Math.ceil(ms / 60000) });
}
