// The replay page: step through a game with the buttons, the arrow keys, autoplay, or the move list. Each
// position comes from the server (/api/games/{id}/ply/{n}); the page computes no rule. A finished game can be
// analysed (the evaluation graph, kept by the server and shown again on a later visit) and the engine asked
// for its move in any position of it.

import { Board } from './board.js';
import { h, api, toast, botMark, analysisUrl, path } from './util.js';
import { gameOf, specTitle } from './catalog.js';
import { t, errorText } from './i18n.js';
import { overText, sideName } from './gamestate.js';
import { reportBox } from './people.js';
import { replayChat } from './chat.js';

export function replayPage(main, id, ctx) {
  let meta = null;
  let n = 0;
  let timer = null;
  const cache = new Map();
  const boardBox = h('div', { class: 'board-wrap', id: 'board' });
  const panel = h('aside', { class: 'card' });
  const below = h('div', { id: 'replay-below' });
  main.replaceChildren(h('div', { class: 'game' }, h('section', {}, boardBox, below), panel));
  const board = new Board(boardBox, { onCell() {}, onDrop() {} }, { keys: false });

  let analysis = null;
  let analysing = false;
  // The engine's move in each position asked about, by move number.
  const suggestions = new Map();
  let suggesting = false;

  async function suggest() {
    suggesting = true;
    renderPanel(current);
    const at = n;
    try {
      suggestions.set(at, (await api(path`/games/${id}/ply/${at}/hint`)).move);
    } catch (e) { toast(errorText(e)); }
    suggesting = false;
    if (at === n) go(n); else renderPanel(current);
  }

  async function analyse() {
    analysing = true;
    renderPanel(current);
    try {
      analysis = await api(path`/games/${id}/analysis`);
    } catch (e) { toast(errorText(e)); }
    analysing = false;
    renderPanel(current);
  }

  /**
   * The evaluation graph: the first player's advantage up, one point per position, mistakes marked, with the
   * score axis (in game units), the move numbers, and the score of the position under the pointer.
   */
  /** Each side's accuracy and its inaccuracies, mistakes and blunders, as lichess shows them. */
  function reviewTable() {
    const row = (label, f) => h('tr', {}, h('th', { scope: 'row' }, label), ...analysis.sides.map((sd, i) => h('td', { 'data-side': i }, f(sd))));
    return h('table', { id: 'review', class: 'small' },
      h('thead', {}, h('tr', {}, h('td', {}), h('th', { scope: 'col' }, sideName(meta, 0)), h('th', { scope: 'col' }, sideName(meta, 1)))),
      h('tbody', {},
        row(t('replay.accuracy'), (sd) => sd.accuracy == null ? '–' : `${sd.accuracy.toFixed(1)}%`),
        row(t('replay.inaccuracies'), (sd) => String(sd.inaccuracies)),
        row(t('replay.mistakes'), (sd) => String(sd.mistakes)),
        row(t('replay.blunders'), (sd) => String(sd.blunders))));
  }

  function graph() {
    const NS = 'http://www.w3.org/2000/svg';
    const el = (tag, attrs, text) => {
      const e = document.createElementNS(NS, tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
      if (text != null) e.textContent = text;
      return e;
    };
    const left = 30, bottom = 16, w = 300, hgt = 140, pts = analysis.scores, max = analysis.clamp;
    const plot = w - left - 6;
    const x = (i) => left + (pts.length > 1 ? (i / (pts.length - 1)) * plot : 0);
    const y = (v) => (hgt - bottom) / 2 - (v / max) * ((hgt - bottom) / 2 - 6);
    const svg = el('svg', { viewBox: `0 0 ${w} ${hgt}`, class: 'eval-graph', id: 'eval-graph', role: 'img', 'aria-label': t('replay.graphLabel', { side: sideName(meta, 0) }) });
    svg.append(el('rect', { x: left, y: 0, width: plot, height: (hgt - bottom) / 2, fill: meta.sides[0].color === 'black' ? '#3a3a3a' : '#eee', opacity: 0.18 }));
    // The score axis: zero and the clamp either way, in game units.
    for (const v of [max, 0, -max]) {
      svg.append(el('line', { x1: left, y1: y(v), x2: w - 6, y2: y(v), stroke: v === 0 ? '#999' : '#ddd', 'stroke-width': v === 0 ? 0.8 : 0.5 }));
      svg.append(el('text', { x: left - 4, y: y(v) + 4, 'text-anchor': 'end', class: 'axis' }, `${v > 0 ? '+' : ''}${v / 100}`));
    }
    // The move numbers, about eight of them.
    const every = Math.max(1, Math.ceil((pts.length - 1) / 8));
    for (let i = 0; i < pts.length; i += every) {
      svg.append(el('text', { x: x(i), y: hgt - 3, 'text-anchor': 'middle', class: 'axis' }, String(i)));
    }
    svg.append(el('polyline', { points: pts.map((v, i) => `${x(i)},${y(v)}`).join(' '), fill: 'none', stroke: '#2f6f4f', 'stroke-width': 1.8 }));
    analysis.marks.forEach((m, i) => {
      if (m) svg.append(el('circle', { cx: x(i + 1), cy: y(pts[i + 1]), r: m === '??' ? 4 : 3, fill: m === '??' ? '#b3261e' : '#e08a00', class: 'mistake', 'data-ply': i + 1 }));
    });
    svg.append(el('line', { x1: x(n), y1: 0, x2: x(n), y2: hgt - bottom, stroke: '#f0b400', 'stroke-width': 1.2 }));
    const readout = el('text', { x: w - 8, y: 12, 'text-anchor': 'end', class: 'axis readout', id: 'eval-readout' }, '');
    svg.append(readout);
    const at = (e) => {
      const r = svg.getBoundingClientRect();
      const fx = ((e.clientX - r.left) / r.width) * w;
      return Math.max(0, Math.min(pts.length - 1, Math.round(((fx - left) / plot) * (pts.length - 1))));
    };
    svg.addEventListener('pointermove', (e) => {
      const i = at(e);
      readout.textContent = t('replay.readout', { n: i, score: `${pts[i] > 0 ? '+' : ''}${(pts[i] / 100).toFixed(1)}` });
    });
    svg.addEventListener('pointerleave', () => { readout.textContent = ''; });
    svg.addEventListener('click', (e) => { stop(); go(at(e)); });
    return svg;
  }

  let current = null;
  async function ply(k) {
    if (!cache.has(k)) cache.set(k, api(path`/games/${id}/ply/${k}`));
    return cache.get(k);
  }

  // The position asked for last: keys move it at once, and the server's answers catch up. An answer for a
  // position no longer wanted is not drawn.
  let wanted = 0;
  async function go(k) {
    if (!meta) return;
    k = Math.max(0, Math.min(meta.moves.length, k));
    wanted = k;
    const ply_ = panel.querySelector('#ply');
    if (ply_) ply_.textContent = t('replay.ply', { n: k, of: meta.moves.length });
    let p;
    try { p = await ply(k); } catch (e) { toast(errorText(e)); stop(); return; }
    if (wanted !== k) return;
    n = k;
    current = p;
    const lm = p.last_move;
    const last = new Set();
    if (lm) { if (lm.from != null) last.add(lm.from); lm.path.forEach((c) => last.add(c)); if (lm.target != null) last.add(lm.target); }
    const marks = { last, movedFrom: lm ? lm.from : null, movedTo: lm && lm.from != null ? (lm.path.length ? lm.path[lm.path.length - 1] : lm.from) : null };
    const suggested = suggestions.has(k) && p.view.moves.find((m) => m.text === suggestions.get(k));
    if (suggested) marks.hint = new Set([suggested.from, ...suggested.path, suggested.target].filter((c) => c != null));
    board.render({ ...meta, view: p.view }, false, marks, gameOf(meta.game).look);
    renderPanel(p);
    if (n < meta.moves.length) ply(n + 1).catch(() => {});
  }

  function stop() { clearInterval(timer); timer = null; renderControls(); }
  function play() {
    if (n >= meta.moves.length) go(0);
    const select = /** @type {HTMLSelectElement|null} */ (document.getElementById('speed'));
    const speed = Number(select?.value || 1000);
    timer = setInterval(() => { if (n >= meta.moves.length) stop(); else go(n + 1); }, speed);
    renderControls();
  }

  let controls;
  function renderControls() {
    if (!controls) return;
    const auto = h('button', { id: 'autoplay', onclick: () => (timer ? stop() : play()) }, timer ? t('replay.pause') : t('replay.autoplay'));
    const speed = h('select', { id: 'speed', 'aria-label': t('replay.speed'), onchange: () => { if (timer) { stop(); play(); } } },
      [[2000, t('replay.slow')], [1000, t('replay.normal')], [400, t('replay.fast')]].map(([v, words]) => h('option', { value: v, selected: Number(controls.dataset.speed || 1000) === v }, words)));
    speed.addEventListener('change', () => { controls.dataset.speed = speed.value; });
    controls.replaceChildren(
      h('button', { id: 'first', class: 'secondary', 'aria-label': t('replay.first'), onclick: () => { stop(); go(0); } }, '«'),
      h('button', { id: 'prev', class: 'secondary', 'aria-label': t('replay.prev'), onclick: () => { stop(); go(wanted - 1); } }, '‹'),
      h('button', { id: 'next', class: 'secondary', 'aria-label': t('replay.next'), onclick: () => { stop(); go(wanted + 1); } }, '›'),
      h('button', { id: 'last', class: 'secondary', 'aria-label': t('replay.last'), onclick: () => { stop(); go(meta.moves.length); } }, '»'),
      auto, speed);
  }

  function renderPanel(p) {
    const score = p.view.score;
    const players = h('div', { class: 'players' }, [0, 1].map((i) => h('div', { class: 'player' + (p.view.turn === (i ? 'second' : 'first') ? ' turn' : '') },
      h('span', { class: 'swatch', style: `background:${meta.sides[i].color}` }),
      h('span', {}, h('strong', {}, sideName(meta, i)), ' ', meta.players[i].bot ? botMark() : null, meta.players[i].name || (meta.players[i].level ? t('engine.levelLong', { level: meta.players[i].level }) : '?')),
      h('span', { class: 'score' }, i === 0 ? score.first : score.second))));
    controls = h('div', { class: 'actions', id: 'replay-controls' });
    const list = h('div', { class: 'moves', id: 'moves' });
    meta.moves.forEach((m, k) => list.append(
      h('span', { class: 'n' }, `${k + 1}.`),
      h('button', { class: 'small ' + (k + 1 === n ? '' : 'secondary'), 'data-ply': k + 1, onclick: () => { stop(); go(k + 1); } }, m + ((analysis && analysis.marks[k]) || '')),
      h('span', {})));
    // replaceChildren writes a null as the text "null": leave the absent parts out.
    panel.replaceChildren(...[
      h('h1', {}, `${t('game.replay')} · ${gameOf(meta.game).title}`),
      // The settings, where the game has some of its own (the title is above).
      meta.spec.includes(':') ? h('p', { class: 'muted' }, specTitle(meta.spec)) : null,
      players,
      h('p', { class: 'status', id: 'ply' }, t('replay.ply', { n, of: meta.moves.length })),
      meta.over ? h('p', {}, overText(meta)) : h('p', { class: 'muted' }, t('replay.ongoing')),
      controls,
      analysis || !meta.over ? null : ctx.me ? h('button', { class: 'secondary', id: 'analyse', disabled: analysing, onclick: analyse }, analysing ? t('replay.analysing') : t('replay.analyse'))
        : h('p', { class: 'muted', id: 'analyse-signin' }, t('replay.signInToAnalyse')),
      analysis ? h('p', { class: 'muted' }, t('replay.score', { score: (analysis.scores[n] / 100).toFixed(1), side: sideName(meta, 0), ms: analysis.per_position_ms })) : null,
      // The evaluation graph, in the panel, where it is seen without scrolling.
      analysis ? graph() : null,
      analysis && analysis.sides ? reviewTable() : null,
      bestMove(p),
      // A player of a game in play gets neither its file nor the analysis board until it ends (the server
      // refuses the file too: docs/web.md, "Fair play").
      playing() ? h('p', { class: 'muted', id: 'no-help' }, t('replay.noHelpWhilePlaying'), ' ', h('a', { href: path`/game/${id}`, 'data-link': true }, t('replay.gamePage')))
        : h('p', {}, h('a', { href: path`/api/games/${id}/export`, download: true, id: 'export' }, t('replay.download')), ' · ', h('a', { href: path`/game/${id}`, 'data-link': true }, t('replay.gamePage')),
          ' · ', h('a', { href: analysisUrl(meta.game, meta.spec, null, meta.moves.slice(0, n)), 'data-link': true, id: 'analyse-here' }, t('analysis.fromHere'))),
      h('h2', {}, t('game.moves')), list].filter(Boolean));
    renderControls();
    const cur = list.querySelector(`[data-ply="${n}"]`);
    if (cur) cur.scrollIntoView({ block: 'nearest' });
  }

  /** Whether the viewer plays this game and it is still in play. */
  function playing() {
    return !meta.over && !!ctx.me && meta.players.some((p) => p.id === ctx.me.id);
  }

  /** The engine's move here, for a signed-in user once the game is over: a button, or the move it found. */
  function bestMove(p) {
    if (!meta.over || !ctx.me || !p.view.moves.length) return null;
    if (suggestions.has(n)) return h('p', { id: 'best-move', class: 'notice' }, t('replay.bestIs', { move: suggestions.get(n) }));
    return h('button', { class: 'secondary', id: 'best-move', disabled: suggesting, onclick: suggest }, suggesting ? t('replay.thinking') : t('replay.best'));
  }

  const onKey = (e) => {
    if (!meta || e.target.closest('input, textarea, select')) return;
    if (e.key === 'ArrowLeft') { stop(); go(wanted - 1); } else if (e.key === 'ArrowRight') { stop(); go(wanted + 1); } else if (e.key === 'Home') { stop(); go(0); } else if (e.key === 'End') { stop(); go(meta.moves.length); } else return;
    e.preventDefault();
  };
  document.addEventListener('keydown', onKey);

  (async () => {
    try {
      meta = await api(path`/games/${id}`);
      document.title = `${t('game.replay')} · ${gameOf(meta.game).title} · gridplay`;
      // An analysis made on an earlier visit (by anyone) is shown again.
      if (meta.over) analysis = await api(path`/games/${id}/analysis/stored`).catch(() => null);
      go(meta.moves.length);
      // A player may report the other player's conduct in this game to the admins.
      const mine = ctx.me ? meta.players.findIndex((p) => p.id === ctx.me.id) : -1;
      const other = mine < 0 ? null : meta.players[1 - mine];
      if (other && other.name && !other.level) below.replaceChildren(reportBox(other.name, id, ctx) || '');
      // The chat as this reader may read it: both rooms for the players once the game is over.
      const chat = await replayChat(id, ctx.me);
      if (chat) below.append(chat);
    } catch (e) {
      main.replaceChildren(h('div', { class: 'card' }, h('h1', {}, t('replay.unavailable')), h('p', {}, errorText(e)), h('a', { href: '/', 'data-link': true }, t('backToLobby'))));
    }
  })();
  return () => { stop(); document.removeEventListener('keydown', onKey); document.title = 'gridplay'; };
}
