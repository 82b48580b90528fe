// The watch page: the games in play, the latest first, with live mini-boards of the first few. The boards come
// with the list (/api/live?boards=N) and are kept up to date by the socket's `tv` message, which passes on
// each followed game's events (`{t: "tv", m: EVENT}`); a gap, a restart or a new list follows them afresh.

import { Board } from './board.js';
import { h, api, serial, botName, path } from './util.js';
import { gameOf, specTitle } from './catalog.js';
import { t, errorText, timeLabel, playerLabel } from './i18n.js';
import { applyDelta } from './gamestate.js';
import { gameItem } from './people.js';

/** The mini-boards shown at most (the server sends and follows no more). */
const BOARDS = 12;

/** The cells a move touched, for the mini-board's highlight. */
function lastCells(lm) {
  const out = new Set();
  if (!lm) return out;
  if (lm.from != null) out.add(lm.from);
  for (const c of lm.path) out.add(c);
  if (lm.target != null) out.add(lm.target);
  return out;
}

export function watchPage(main, ctx) {
  ctx.title(`${t('nav.watch')} · gridplay`);
  const minisBox = h('div', { class: 'minis', id: 'minis' });
  const listBox = h('div', { class: 'card', id: 'live-games' });
  main.replaceChildren(h('h1', {}, t('watch.heading')), minisBox, h('h2', { class: 'all-games' }, t('watch.all')), listBox);
  /** The boards shown, by game id: {state, board, node}. */
  let minis = new Map();

  function draw(m) {
    m.board.render(m.state, false, { last: lastCells(m.state.last_move) }, gameOf(m.state.game).look);
    m.turn.textContent = m.state.over ? t('game.over') : m.state.view.turn ? t('game.toMove', { side: m.sides[m.state.view.turn === 'first' ? 0 : 1] }) : '';
  }

  function miniOf(g) {
    const box = h('div', { class: 'board-wrap mini-board' });
    const board = new Board(box, { onCell() {}, onDrop() {} }, { keys: false });
    const names = [0, 1].map((i) => botName((g.names && g.names[i]) || playerLabel(g, i), g.bots && g.bots[i]));
    const turn = h('small', { class: 'muted mini-turn' });
    const sides = g.board.sides.map((s) => (gameOf(g.game).words || {})[s.name] || s.name);
    const node = h('a', { href: path`/game/${g.id}`, 'data-link': true, class: 'card mini', 'data-mini': g.id },
      h('span', { class: 'mini-players' }, h('strong', {}, names[0]), ` ${t('game.vs')} `, h('strong', {}, names[1])),
      box,
      h('small', { class: 'muted' }, [specTitle(g.spec), timeLabel(g.time)].filter(Boolean).join(' · ')), turn);
    const state = { game: g.board.game, version: g.board.version, sides: g.board.sides, view: g.board.view, moves: [], last_move: null, over: null };
    const m = { state, board, node, turn, sides };
    draw(m);
    return m;
  }

  /** Asks the server to follow the boards shown, each from the version it shows. */
  function follow() {
    ctx.live.raw({ t: 'tv', games: [...minis].map(([id, m]) => ({ game: id, v: m.state.version })) });
  }

  const load = serial(async () => {
    let d;
    try { d = await api(path`/live?boards=${BOARDS}`); } catch (e) { listBox.replaceChildren(h('p', { class: 'error' }, errorText(e))); return; }
    listBox.replaceChildren(d.games.length ? h('ul', { class: 'list' }, d.games.map((g) => gameItem(g, { spectators: true }))) : h('p', { class: 'muted' }, t('watch.none')));
    const shown = d.games.filter((g) => g.board).slice(0, BOARDS);
    // The boards are made again only when the games shown change; a board keeps itself up to date.
    const same = shown.length === minis.size && shown.every((g) => minis.has(g.id));
    if (same) return;
    const next = new Map();
    for (const g of shown) next.set(g.id, minis.get(g.id) || miniOf(g));
    minis = next;
    minisBox.replaceChildren(...[...minis.values()].map((m) => m.node));
    minisBox.hidden = minis.size === 0;
    follow();
  });

  const off = ctx.live.on((msg) => {
    if (msg.t === 'lobby') { load(); return; }
    if (msg.t === 'connection' && msg.open) { follow(); return; }
    if (msg.t === 'tv-gap') { follow(); return; }
    if (msg.t !== 'tv') return;
    const e = msg.m;
    const m = minis.get(e.game);
    if (!m) return;
    if (e.t === 'sync') {
      m.state = { ...e.state, moves: e.state.moves || [] };
    } else if (e.t === 'event') {
      if (e.v <= m.state.version) return;
      if (e.v > m.state.version + 1) { follow(); return; }
      m.state = applyDelta(m.state, e.delta);
      m.state.version = e.v;
    } else return;
    draw(m);
  });
  load();
  ctx.live.watchLobby();
  // Spectator counts and the games in play change without a notice: look again now and then.
  const poll = setInterval(load, 5000);
  return () => { off(); clearInterval(poll); ctx.live.raw({ t: 'tv', games: [] }); };
}
