// Tournaments: the list with a form to create one, and a tournament's page with its players, rounds and
// standings, updated live. The server pairs the rounds; this page only shows them.

import { h, api, toast, navigate, serial, playerLink, botName, path } from './util.js';
import { specPicker, timePicker } from './lobby.js';
import { gameItem } from './people.js';
import { t, errorText, timeLabel } from './i18n.js';
import { loadCatalog, specTitle } from './catalog.js';

const kindWords = (k) => (k === 'swiss' ? t('tour.swiss') : t('tour.roundRobin'));

export function tournamentsPage(main, ctx) {
  ctx.title(`${t('nav.tournaments')} · gridplay`);
  let catalog = null;
  let timer = null;
  // Drawn once; a lobby update replaces only the list, never the form someone is filling in.
  let list = null;
  const load = serial(async () => {
    let d;
    try { [d, catalog] = await Promise.all([api('/tournaments'), catalog ? Promise.resolve(catalog) : loadCatalog()]); } catch (e) {
      if (list) toast(errorText(e));
      else main.replaceChildren(h('p', { class: 'error' }, errorText(e)));
      return;
    }
    const items = d.tournaments.map((x) => h('li', { 'data-tournament': x.id },
      h('span', {}, h('a', { href: path`/tournament/${x.id}`, 'data-link': true }, x.name), h('small', { class: 'muted' }, ` ${kindWords(x.kind)} · ${specTitle(x.spec)} · ${timeLabel(x.time)} · ${x.rated ? t('game.rated') : t('game.casual')}${x.bots ? ` · ${t('tour.botsAllowed')}` : ''}${x.good_record ? ` · ${t('lobby.goodRecord')}` : ''}`)),
      h('span', { class: 'muted' }, `${t('tour.players', { n: x.players })} · ${x.status === 'running' ? t('tour.roundOf', { round: x.round, rounds: x.rounds }) : t(`tour.status.${x.status}`)}`)));
    const listCard = h('div', { class: 'card', id: 'tournament-list' }, h('h2', {}, t('nav.tournaments')), items.length ? h('ul', { class: 'list' }, items) : h('p', { class: 'muted' }, t('tour.none')));
    if (list) { list.replaceWith(listCard); list = listCard; return; }
    list = listCard;
    if (!ctx.me) { main.replaceChildren(h('h1', {}, t('nav.tournaments')), listCard); return; }
    const name = h('input', { name: 'name', id: 't-name', maxlength: 60, required: true, placeholder: t('tour.namePlaceholder') });
    const picker = specPicker(catalog, 't');
    const kind = h('select', { id: 't-kind' }, h('option', { value: 'swiss' }, t('tour.swiss')), h('option', { value: 'round-robin' }, t('tour.roundRobin')));
    const rounds = h('input', { id: 't-rounds', type: 'number', min: 1, max: 15, value: 3 });
    const roundsLabel = h('label', {}, t('tour.rounds'), rounds);
    kind.addEventListener('change', () => { roundsLabel.hidden = kind.value !== 'swiss'; });
    const time = timePicker('t', false);
    const rated = h('input', { type: 'checkbox', id: 't-rated', checked: true });
    const bots = h('input', { type: 'checkbox', id: 't-bots' });
    const goodRecord = h('input', { type: 'checkbox', id: 't-good-record' });
    const err = h('p', { class: 'error', role: 'alert' });
    const createButton = h('button', { type: 'submit' }, t('tour.createButton'));
    picker.guard(createButton);
    const form = h('form', { class: 'card stack', id: 'new-tournament', onsubmit: async (e) => {
      e.preventDefault();
      err.textContent = '';
      try {
        const r = await api('/tournaments', { name: name.value, spec: picker.spec(), kind: kind.value, rounds: Number(rounds.value), rated: rated.checked, bots: bots.checked, good_record: goodRecord.checked, time: time.value() });
        navigate(path`/tournament/${r.id}`);
      } catch (x) { err.textContent = errorText(x); }
    } }, h('h2', {}, t('tour.create')), h('label', {}, t('tour.name'), name), picker.node, h('label', {}, t('tour.kind'), kind), roundsLabel, time.node,
    h('label', { class: 'toggle' }, rated, t('game.ratedCap')), h('label', { class: 'toggle' }, bots, t('tour.botsMay')),
    h('label', { class: 'toggle' }, goodRecord, t('tour.goodRecord')), createButton, err);
    main.replaceChildren(h('h1', {}, t('nav.tournaments')), h('div', { class: 'grid' }, listCard, form));
  });
  const off = ctx.live.on((m) => { if (m.t === 'lobby') { clearTimeout(timer); timer = setTimeout(load, 200); } });
  ctx.live.watchLobby();
  load();
  return () => { off(); clearTimeout(timer); };
}

export function tournamentPage(main, id, ctx) {
  let timer = null;
  async function post(action) {
    try { await api(path`/tournaments/${id}/${action}`, {}); } catch (e) { toast(errorText(e)); }
    load();
  }
  const load = serial(async () => {
    let d;
    try { d = await api(path`/tournaments/${id}`); } catch (e) {
      main.replaceChildren(h('div', { class: 'card' }, h('h1', {}, t('tour.noSuch')), h('p', {}, errorText(e)), h('a', { href: '/tournaments', 'data-link': true }, t('nav.tournaments')))); return;
    }
    ctx.title(`${d.name} · gridplay`);
    const status = d.status === 'open' ? t('tour.waiting') : d.status === 'running' ? t('tour.roundOf', { round: d.round, rounds: d.rounds }) : t('tour.status.finished');
    const actions = h('div', { class: 'actions' });
    if (ctx.me && d.status === 'open' && !d.joined) actions.append(h('button', { id: 't-join', onclick: () => post('join') }, t('tour.join')));
    if (ctx.me && d.status !== 'finished' && d.joined) actions.append(h('button', { class: 'secondary', id: 't-withdraw', onclick: () => post('withdraw') }, d.status === 'open' ? t('tour.leave') : t('tour.withdraw')));
    if (d.is_creator && d.status === 'open') actions.append(h('button', { id: 't-start', disabled: d.players < 2, onclick: () => post('start') }, t('tour.start')));
    const head = h('div', { class: 'card' }, h('h1', {}, d.name),
      h('p', { class: 'muted' }, [kindWords(d.kind), specTitle(d.spec), timeLabel(d.time), d.rated ? t('game.rated') : t('game.casual'), d.bots ? t('tour.botsAllowed') : null, d.good_record ? t('lobby.goodRecord') : null, t('tour.createdBy', { name: d.creator })].filter(Boolean).join(' · ')),
      h('p', { class: 'status', id: 't-status' }, status), actions,
      d.status === 'open' ? h('p', {}, h('strong', {}, t('tour.playersList', { n: d.players })), d.players_list.map((p) => botName(p.name, p.bot)).join(', ')) : null);
    const [tb1, tb2] = d.tie_breaks;
    const standings = h('div', { class: 'card', id: 'standings' }, h('h2', {}, t('tour.standings')),
      h('table', { class: 'table' }, h('thead', {}, h('tr', {}, ['#', t('col.player'), t('col.points'), tb1, tb2, t('col.games')].map((x) => h('th', {}, x)))),
        h('tbody', {}, d.standings.map((s) => h('tr', { class: s.withdrawn ? 'withdrawn' : '' }, h('td', {}, String(s.rank)),
          h('td', {}, playerLink(s.name, null, s.bot), s.withdrawn ? h('small', { class: 'muted' }, ` ${t('tour.withdrawn')}`) : null),
          h('td', {}, String(s.points)),
          h('td', {}, String(tb1 === 'Buchholz' ? s.buchholz : s.sonneborn_berger)),
          h('td', {}, String(tb2 === 'Buchholz' ? s.buchholz : s.sonneborn_berger)),
          h('td', {}, String(s.played)))))));
    const rounds = h('div', { class: 'card', id: 'rounds' }, h('h2', {}, t('tour.roundsHeading')),
      d.rounds_played.length ? [...d.rounds_played].reverse().map((r) => h('section', { 'data-round': r.round }, h('h3', {}, t('tour.round', { round: r.round })),
        h('ul', { class: 'list' }, r.games.map((g) => gameItem(g, { mine: true })),
          r.byes.map((b) => h('li', {}, h('span', {}, b.player), h('span', { class: 'muted' }, `${b.kind === 'bye' ? t('tour.bye') : t('tour.forfeit')} (${b.points})`))))))
        : h('p', { class: 'muted' }, t('tour.notStarted')));
    main.replaceChildren(head, h('div', { class: 'grid', style: 'margin-top:1rem' }, standings, rounds));
  });
  const off = ctx.live.on((m) => {
    if (m.t === 'lobby') { clearTimeout(timer); timer = setTimeout(load, 150); }
    // A new round: go to your game, as on the lobby.
    if (m.t === 'started') navigate(path`/game/${m.game}`);
  });
  ctx.live.watchLobby();
  load();
  return () => { off(); clearTimeout(timer); };
}
