// Tournaments: the list with a form to create one, and a tournament's page with its players, rounds and
// standings, updated live. The server pairs the rounds; this page only shows them.

import { h, api, toast, navigate } from './util.js';
import { specPicker, timePicker } from './lobby.js';
import { gameItem } from './people.js';

export function tournamentsPage(main, ctx) {
  ctx.title('Tournaments · gridplay');
  let catalog = null;
  let timer = null;
  // Drawn once; a lobby update replaces only the list, never the form someone is filling in.
  let list = null;
  async function load() {
    let d;
    try { [d, catalog] = await Promise.all([api('/tournaments'), catalog ? Promise.resolve(catalog) : api('/catalog')]); } catch (e) {
      if (list) toast(e.message);
      else main.replaceChildren(h('p', { class: 'error' }, e.message));
      return;
    }
    const items = d.tournaments.map((t) => h('li', { 'data-tournament': t.id },
      h('span', {}, h('a', { href: `/tournament/${t.id}`, 'data-link': true }, t.name), h('small', { class: 'muted' }, ` ${t.kind === 'swiss' ? 'Swiss' : 'Round-robin'} · ${t.spec} · ${t.time} · ${t.rated ? 'rated' : 'casual'}`)),
      h('span', { class: 'muted' }, `${t.players} player${t.players === 1 ? '' : 's'} · ${t.status === 'running' ? `round ${t.round}/${t.rounds}` : t.status}`)));
    const listCard = h('div', { class: 'card', id: 'tournament-list' }, h('h2', {}, 'Tournaments'), items.length ? h('ul', { class: 'list' }, items) : h('p', { class: 'muted' }, 'None yet: create the first.'));
    if (list) { list.replaceWith(listCard); list = listCard; return; }
    list = listCard;
    if (!ctx.me) { main.replaceChildren(h('h1', {}, 'Tournaments'), listCard); return; }
    const name = h('input', { name: 'name', id: 't-name', maxlength: 60, required: true, placeholder: 'Friday Swiss' });
    const picker = specPicker(catalog, 't');
    const kind = h('select', { id: 't-kind' }, h('option', { value: 'swiss' }, 'Swiss'), h('option', { value: 'round-robin' }, 'Round-robin'));
    const rounds = h('input', { id: 't-rounds', type: 'number', min: 1, max: 15, value: 3 });
    const roundsLabel = h('label', {}, 'Rounds (Swiss)', rounds);
    kind.addEventListener('change', () => { roundsLabel.hidden = kind.value !== 'swiss'; });
    const time = timePicker('t', false);
    const rated = h('input', { type: 'checkbox', id: 't-rated', checked: true });
    const err = h('p', { class: 'error', role: 'alert' });
    const form = h('form', { class: 'card stack', id: 'new-tournament', onsubmit: async (e) => {
      e.preventDefault();
      err.textContent = '';
      try {
        const r = await api('/tournaments', { name: name.value, spec: picker.spec(), kind: kind.value, rounds: Number(rounds.value), rated: rated.checked, time: time.value() });
        navigate(`/tournament/${r.id}`);
      } catch (x) { err.textContent = x.message; }
    } }, h('h2', {}, 'Create a tournament'), h('label', {}, 'Name', name), picker.node, h('label', {}, 'Kind', kind), roundsLabel, time.node,
    h('label', { class: 'toggle' }, rated, 'Rated'), h('button', { type: 'submit' }, 'Create'), err);
    main.replaceChildren(h('h1', {}, 'Tournaments'), h('div', { class: 'grid' }, listCard, form));
  }
  const off = ctx.live.on((m) => { if (m.t === 'lobby') { clearTimeout(timer); timer = setTimeout(load, 200); } });
  ctx.live.watchLobby();
  load();
  return () => { off(); clearTimeout(timer); };
}

export function tournamentPage(main, id, ctx) {
  let timer = null;
  async function post(path, question) {
    try { await api(`/tournaments/${id}/${path}`, {}); } catch (e) { toast(e.message); }
    load();
  }
  async function load() {
    let t;
    try { t = await api(`/tournaments/${id}`); } catch (e) {
      main.replaceChildren(h('div', { class: 'card' }, h('h1', {}, 'No such tournament'), h('p', {}, e.message))); return;
    }
    ctx.title(`${t.name} · gridplay`);
    const status = t.status === 'open' ? 'Waiting for players' : t.status === 'running' ? `Round ${t.round} of ${t.rounds}` : 'Finished';
    const actions = h('div', { class: 'actions' });
    if (ctx.me && t.status === 'open' && !t.joined) actions.append(h('button', { id: 't-join', onclick: () => post('join') }, 'Join'));
    if (ctx.me && t.status !== 'finished' && t.joined) actions.append(h('button', { class: 'secondary', id: 't-withdraw', onclick: () => post('withdraw') }, t.status === 'open' ? 'Leave' : 'Withdraw'));
    if (t.is_creator && t.status === 'open') actions.append(h('button', { id: 't-start', disabled: t.players < 2, onclick: () => post('start') }, 'Start'));
    const head = h('div', { class: 'card' }, h('h1', {}, t.name),
      h('p', { class: 'muted' }, `${t.kind === 'swiss' ? 'Swiss' : 'Round-robin'} · ${t.spec} · ${t.time} · ${t.rated ? 'rated' : 'casual'} · created by ${t.creator}`),
      h('p', { class: 'status', id: 't-status' }, status), actions,
      t.status === 'open' ? h('p', {}, h('strong', {}, `Players (${t.players}): `), t.players_list.map((p) => p.name).join(', ')) : null);
    const [tb1, tb2] = t.tie_breaks;
    const standings = h('div', { class: 'card', id: 'standings' }, h('h2', {}, 'Standings'),
      h('table', { class: 'table' }, h('thead', {}, h('tr', {}, ['#', 'Player', 'Points', tb1, tb2, 'Games'].map((x) => h('th', {}, x)))),
        h('tbody', {}, t.standings.map((s) => h('tr', { class: s.withdrawn ? 'withdrawn' : '' }, h('td', {}, String(s.rank)),
          h('td', {}, h('a', { href: `/player/${s.name}`, 'data-link': true }, s.name), s.withdrawn ? h('small', { class: 'muted' }, ' withdrawn') : null),
          h('td', {}, String(s.points)),
          h('td', {}, String(tb1 === 'Buchholz' ? s.buchholz : s.sonneborn_berger)),
          h('td', {}, String(tb2 === 'Buchholz' ? s.buchholz : s.sonneborn_berger)),
          h('td', {}, String(s.played)))))));
    const rounds = h('div', { class: 'card', id: 'rounds' }, h('h2', {}, 'Rounds'),
      t.rounds_played.length ? [...t.rounds_played].reverse().map((r) => h('section', { 'data-round': r.round }, h('h3', {}, `Round ${r.round}`),
        h('ul', { class: 'list' }, r.games.map((g) => gameItem(g, { mine: true })),
          r.byes.map((b) => h('li', {}, h('span', {}, b.player), h('span', { class: 'muted' }, `${b.kind === 'bye' ? 'bye' : 'wins by forfeit'} (${b.points})`))))))
        : h('p', { class: 'muted' }, 'Round 1 is paired when the creator starts the tournament.'));
    main.replaceChildren(head, h('div', { class: 'grid', style: 'margin-top:1rem' }, standings, rounds));
  }
  const off = ctx.live.on((m) => {
    if (m.t === 'lobby') { clearTimeout(timer); timer = setTimeout(load, 150); }
    // A new round: go to your game, as on the lobby.
    if (m.t === 'started') navigate(`/game/${m.game}`);
  });
  ctx.live.watchLobby();
  load();
  return () => { off(); clearTimeout(timer); };
}
