// Pages about people and the games they play: my games, a player's profile with the rating chart, and the
// leaderboards (the games to watch are watch.js). They show what /api returns; the live ones refetch when the server says so.

import { h, api, apiMethod, serial, playerLink, botMark, toast, path } from './util.js';
import { allGames, titleOf, specTitle } from './catalog.js';
import { t, errorText, timeLabel, playerLabel, fmtDate } from './i18n.js';

function who(g, i) {
  if (g.names && g.names[i]) return playerLink(g.names[i], g.ratings && g.ratings[i], g.bots && g.bots[i]);
  return h('span', {}, playerLabel(g, i));
}

/** One game in a list: players, game, time control, and where it links. */
export function gameItem(g, opts = {}) {
  const href = g.status === 'active' ? path`/game/${g.id}` : path`/replay/${g.id}`;
  const tags = [timeLabel(g.time), g.rated ? t('game.rated') : t('game.casual')].filter(Boolean).join(' · ');
  const right = [];
  if (opts.spectators && g.spectators) right.push(h('span', { class: 'muted spectators' }, t('game.watching', { n: g.spectators })));
  if (g.flagged) right.push(h('span', { class: 'muted flagged', title: t('player.engineHelp') }, t('game.flagged')));
  if (g.my_turn) right.push(h('span', { class: 'badge' }, t('game.yourTurnBadge')));
  else if (g.status === 'active' && opts.mine) right.push(h('span', { class: 'muted' }, t('game.waiting')));
  const named = (i) => (g.names && g.names[i]) || playerLabel(g, i);
  if (g.status !== 'active') right.push(h('span', { class: 'muted' }, g.winner === 'draw' ? t('result.draw') : g.winner ? t('result.won', { name: named(g.winner === 'first' ? 0 : 1) }) : t(`status.${g.status}`)));
  // When a finished game ended, in the page's language.
  if (g.status !== 'active' && g.updated_at) right.push(h('small', { class: 'muted', 'data-ended': g.updated_at }, fmtDate(g.updated_at)));
  return h('li', { 'data-game': g.id },
    h('span', {}, h('a', { href, 'data-link': true }, specTitle(g.spec)), ' ', who(g, 0), ` ${t('game.vs')} `, who(g, 1), h('small', { class: 'muted' }, ` ${tags}`)),
    h('span', { class: 'row' }, right));
}

function list(games, opts, empty) {
  return games.length ? h('ul', { class: 'list' }, games.map((g) => gameItem(g, opts))) : h('p', { class: 'muted' }, empty);
}

/** Refetches with `load` when the server says something changed. */
function livePage(ctx, draw, kinds = ['lobby', 'turn', 'started']) {
  const load = serial(draw);
  let timer = null;
  const off = ctx.live.on((m) => {
    if (kinds.includes(m.t)) { clearTimeout(timer); timer = setTimeout(load, 150); }
  });
  ctx.live.watchLobby();
  load();
  return { load, stop: () => { off(); clearTimeout(timer); } };
}

export function myGamesPage(main, ctx) {
  ctx.title(`${t('nav.myGames')} · gridplay`);
  if (!ctx.me) {
    main.replaceChildren(h('div', { class: 'card' }, h('p', {}, t('mine.signIn')), h('a', { href: '/', 'data-link': true }, t('nav.signIn'))));
    return () => {};
  }
  async function load() {
    let d;
    try { d = await api('/my-games'); } catch (e) { main.replaceChildren(h('p', { class: 'error' }, errorText(e))); return; }
    const waiting = d.active.filter((g) => g.my_turn);
    const others = d.active.filter((g) => !g.my_turn);
    main.replaceChildren(h('h1', {}, t('nav.myGames')),
      h('div', { class: 'grid' },
        h('div', { class: 'card', id: 'waiting-games' }, h('h2', {}, t('mine.yourTurn', { n: waiting.length })), list(waiting, { mine: true }, t('mine.noneWaiting'))),
        h('div', { class: 'card', id: 'other-games' }, h('h2', {}, t('mine.theirTurn', { n: others.length })), list(others, { mine: true }, t('list.none'))),
        h('div', { class: 'card', id: 'finished-games' }, h('h2', {}, t('mine.finished')), list(d.finished, {}, t('list.noneYet')))));
  }
  return livePage(ctx, load).stop;
}

const NS = 'http://www.w3.org/2000/svg';
function svgEl(tag, attrs, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The rating history as an SVG line chart: one point per rated game. */
export function ratingChart(points, game) {
  const w = 420, hgt = 160, pad = 34;
  const svg = svgEl('svg', { viewBox: `0 0 ${w} ${hgt}`, class: 'rating-chart', id: `rating-chart-${game}`, role: 'img', 'aria-label': t('player.chartLabel', { game: titleOf(game) }) });
  const ratings = [1500, ...points.map((p) => p[1])];
  let lo = Math.min(...ratings), hi = Math.max(...ratings);
  if (hi - lo < 40) { lo -= 20; hi += 20; }
  const x = (i) => pad + (ratings.length > 1 ? (i / (ratings.length - 1)) * (w - pad - 8) : 0);
  const y = (r) => 8 + (1 - (r - lo) / (hi - lo)) * (hgt - 28);
  for (const r of [lo, (lo + hi) / 2, hi]) {
    svg.append(svgEl('line', { x1: pad, x2: w - 8, y1: y(r), y2: y(r), stroke: '#e3e0d8' }));
    svg.append(svgEl('text', { x: pad - 4, y: y(r) + 4, 'text-anchor': 'end', class: 'chart-label' }, Math.round(r)));
  }
  svg.append(svgEl('polyline', { points: ratings.map((r, i) => `${x(i)},${y(r)}`).join(' '), fill: 'none', stroke: '#2f6f4f', 'stroke-width': 2 }));
  ratings.forEach((r, i) => svg.append(svgEl('circle', { cx: x(i), cy: y(r), r: 3, fill: '#2f6f4f' }, undefined)));
  svg.append(svgEl('text', { x: w / 2, y: hgt - 4, 'text-anchor': 'middle', class: 'chart-label' }, t('player.ratedGames', { n: points.length })));
  return svg;
}

export function playerPage(main, name, ctx) {
  // The page redraws when the lobby changes; the report box is made once and stays in place, so that a report
  // being written keeps its text and focus.
  const head = h('div');
  const body = h('div');
  let report;
  let shown = false;
  async function load() {
    let d;
    try { d = await api(path`/players/${name}`); } catch (e) {
      shown = false;
      main.replaceChildren(h('div', { class: 'card' }, h('h1', {}, t('player.noSuch')), h('p', {}, errorText(e)), h('a', { href: '/', 'data-link': true }, t('backToLobby'))));
      return;
    }
    ctx.title(`${d.name} · gridplay`);
    const ratings = h('div', { class: 'card', id: 'ratings' }, h('h2', {}, t('player.ratings')),
      d.ratings.length ? h('table', { class: 'table' }, h('thead', {}, h('tr', {}, [t('col.game'), t('col.rating'), t('col.deviation'), t('col.ratedGames')].map((x) => h('th', {}, x)))),
        h('tbody', {}, d.ratings.map((r) => h('tr', {}, h('td', {}, h('a', { href: path`/leaderboard/${r.game}`, 'data-link': true }, titleOf(r.game))),
          h('td', {}, String(r.rating), r.provisional ? h('span', { class: 'muted', title: t('player.provisionalHelp') }, ' ?') : null),
          h('td', {}, `±${r.deviation}`), h('td', {}, String(r.games))))))
        : h('p', { class: 'muted' }, t('player.noRated')));
    const stats = h('div', { class: 'card', id: 'stats' }, h('h2', {}, t('player.results')),
      d.stats.length ? h('table', { class: 'table' }, h('thead', {}, h('tr', {}, [t('col.game'), t('col.wins'), t('col.losses'), t('col.draws'), t('col.resigned')].map((x) => h('th', {}, x)))),
        h('tbody', {}, d.stats.map((s) => h('tr', {}, h('td', {}, titleOf(s.game)), h('td', {}, String(s.wins)), h('td', {}, String(s.losses)), h('td', {}, String(s.draws)), h('td', {}, String(s.resigned))))))
        : h('p', { class: 'muted' }, t('player.noFinished')),
      // The games between people this player left: lost after leaving, or drawn by the opponent's claim.
      h('p', { id: 'left-record', class: d.left.left ? '' : 'muted' }, t('player.left', { n: d.left.left, of: d.left.finished })));
    const charts = h('div', { class: 'card', id: 'charts' }, h('h2', {}, t('player.history')),
      Object.keys(d.history).length ? Object.entries(d.history).map(([g, pts]) => h('figure', { class: 'chart' }, h('figcaption', {}, titleOf(g)), ratingChart(pts, g)))
        : h('p', { class: 'muted' }, t('player.chartLater')));
    head.replaceChildren(h('h1', {}, d.bot ? botMark() : null, d.name, d.online ? h('span', { class: 'badge online' }, t('player.online')) : null,
      d.engine ? h('span', { class: 'badge', id: 'engine-mark', title: t('player.engineHelp') }, t('player.engine')) : null));
    if (report === undefined) report = reportBox(d.name, null, ctx);
    const block = blockControl(d, ctx, load);
    if (block) head.append(block);
    body.replaceChildren(h('div', { class: 'grid' }, ratings, stats),
      h('div', { class: 'grid', style: 'margin-top:1rem' }, charts,
        h('div', { class: 'stack' },
          h('div', { class: 'card', id: 'ongoing' }, h('h2', {}, t('player.playing')), list(d.active, { spectators: true }, t('player.noPlaying'))),
          h('div', { class: 'card', id: 'recent' }, h('h2', {}, t('player.recent')), list(d.recent, {}, t('list.noneYet'))))));
    if (!shown) { main.replaceChildren(...[head, report, body].filter(Boolean)); shown = true; }
  }
  return livePage(ctx, load, ['lobby']).stop;
}

/**
 * "Block": a signed-in player blocks another (no challenges between the two, no open challenges of the other
 * shown, the other's chat lines hidden), or lifts the block. Nothing for oneself or when signed out.
 */
function blockControl(d, ctx, reload) {
  if (!ctx.me || ctx.me.name.toLowerCase() === d.name.toLowerCase()) return null;
  const blockPath = path`/players/${d.name}/block`;
  const err = h('p', { class: 'error', role: 'alert' });
  const button = h('button', { class: 'small secondary', id: 'block', onclick: async () => {
    err.textContent = '';
    try {
      await apiMethod(d.blocked ? 'DELETE' : 'PUT', blockPath);
      toast(t(d.blocked ? 'block.lifted' : 'block.done', { name: d.name }));
      await reload();
    } catch (x) { err.textContent = errorText(x); }
  } }, t(d.blocked ? 'block.lift' : 'block.block', { name: d.name }));
  return h('div', { class: 'stack', id: 'block-box' }, d.blocked ? h('p', { class: 'muted', id: 'blocked-note' }, t('block.note', { name: d.name })) : null, button, err);
}

/**
 * "Report": a signed-in player tells the admins about another player, or about a player's conduct in a game
 * (`game`), with a reason. Nothing for oneself or when signed out.
 */
export function reportBox(name, game, ctx) {
  if (!ctx.me || ctx.me.name.toLowerCase() === name.toLowerCase()) return null;
  const reason = h('textarea', { id: 'report-reason', required: true, maxlength: 500, rows: 3 });
  const err = h('p', { class: 'error', role: 'alert' });
  const box = h('details', { class: 'report', id: 'report' }, h('summary', {}, t('report.open', { name })),
    h('form', { class: 'stack', onsubmit: async (e) => {
      e.preventDefault();
      err.textContent = '';
      try {
        await api('/reports', game ? { user: name, game, reason: reason.value } : { user: name, reason: reason.value });
        reason.value = '';
        box.open = false;
        toast(t('report.sent'));
      } catch (x) { err.textContent = errorText(x); }
    } }, h('label', {}, t('report.reason'), reason), h('p', { class: 'muted' }, t('report.help')),
    h('button', { type: 'submit' }, t('report.send')), err));
  return box;
}

export function leaderboardPage(main, game, ctx) {
  ctx.title(`${t('nav.leaderboards')} · gridplay`);
  // Bots are ranked apart from people: `?bots=1` shows the bots' leaderboard.
  const bots = new URLSearchParams(location.search).get('bots') === '1';
  const q = bots ? '?bots=1' : '';
  async function load() {
    let d;
    try { d = await api(path`/leaderboard/${game}` + (bots ? '?bots=true' : '')); } catch (e) { main.replaceChildren(h('p', { class: 'error' }, errorText(e))); return; }
    const tabs = h('div', { class: 'tabs' }, allGames().map((g) => h('a', { href: path`/leaderboard/${g.name}` + q, 'data-link': true, class: g.name === game ? 'here' : '' }, g.title)));
    const who = h('div', { class: 'tabs', id: 'board-kind' },
      h('a', { href: path`/leaderboard/${game}`, 'data-link': true, class: bots ? '' : 'here', 'aria-current': bots ? null : 'page' }, t('board.people')),
      h('a', { href: path`/leaderboard/${game}?bots=1`, 'data-link': true, class: bots ? 'here' : '', 'aria-current': bots ? 'page' : null }, t('board.bots')));
    main.replaceChildren(h('h1', {}, t(bots ? 'board.botsHeading' : 'board.heading', { game: titleOf(game) })), tabs, who,
      h('div', { class: 'card', id: 'leaderboard' }, d.players.length ? h('table', { class: 'table' },
        h('thead', {}, h('tr', {}, ['#', t('col.player'), t('col.rating'), t('col.games')].map((x) => h('th', {}, x)))),
        h('tbody', {}, d.players.map((p) => h('tr', {}, h('td', {}, p.provisional ? '–' : String(p.rank)), h('td', {}, playerLink(p.name, null, bots)),
          h('td', {}, String(p.rating), p.provisional ? h('span', { class: 'muted', title: t('player.provisional') }, ' ?') : null), h('td', {}, String(p.games))))))
        : h('p', { class: 'muted' }, t('board.none'))),
      h('p', { class: 'muted' }, t(bots ? 'board.botsAbout' : 'board.about')));
  }
  return livePage(ctx, load, ['lobby']).stop;
}
