// The lobby: sign in or up, who is online, challenges, your games, and games against the computer.
// It fetches /api/lobby again whenever the server says something changed.

import { h, api, toast, navigate, serial, botMark, botName, path } from './util.js';
import { t, errorText, timeLabel, playerLabel } from './i18n.js';
import { loadCatalog, specTitle } from './catalog.js';
import { settingsControls } from './settings.js';

const COLORS = ['random', 'first', 'second'];

/** The side choices in the words of the chosen game: its sides' names, the first noted as moving first. */
function fillColors(select, game) {
  const was = select.value || 'random';
  const names = game && game.sides && game.sides.length === 2 ? [t('side.movesFirst', { side: game.sides[0].name }), game.sides[1].name] : [t('side.first'), t('side.second')];
  select.replaceChildren(...COLORS.map((v, k) => h('option', { value: v, selected: v === was }, k === 0 ? t('side.random') : names[k - 1])));
}

function authForm(kind, ctx) {
  const err = h('p', { class: 'error', role: 'alert' });
  // No maxlength: the browser would cut a longer name silently. A name too long is refused with its length.
  const name = h('input', { name: 'name', autocomplete: 'username', required: true, minlength: 3, pattern: '[A-Za-z0-9][A-Za-z0-9_\\-]*' });
  if (kind === 'signup') {
    name.addEventListener('input', () => {
      const n = [...name.value].length;
      const why = n > 20 ? t('auth.nameTooLong', { n }) : '';
      name.setCustomValidity(why);
      err.textContent = why;
    });
  }
  const pass = h('input', { name: 'password', type: 'password', autocomplete: kind === 'signup' ? 'new-password' : 'current-password', required: true, minlength: kind === 'signup' ? 8 : 1 });
  const form = h('form', { class: 'stack', id: kind, onsubmit: async (e) => {
    e.preventDefault();
    err.textContent = '';
    try {
      const r = await api('/' + kind, { name: name.value, password: pass.value });
      ctx.setUser(r.user);
    } catch (x) { err.textContent = errorText(x); }
  } },
  h('h2', {}, kind === 'signup' ? t('auth.createAccount') : t('auth.signIn')),
  h('label', {}, t('auth.name'), name, kind === 'signup' ? h('small', {}, t('auth.nameRule')) : null),
  h('label', {}, t('auth.password'), pass, kind === 'signup' ? h('small', {}, t('auth.passwordRule')) : null),
  h('button', { type: 'submit' }, kind === 'signup' ? t('auth.signUp') : t('auth.signIn')), err);
  return h('div', { class: 'card' }, form);
}

const CLOCKS = ['c1', 'c3', 'c7', '1+0', '3+2', '5+3', '10+5', '15+10', '30+20', 'custom'];

/** A clock choice in words. */
function clockWords(v) {
  if (v === 'untimed') return t('time.noClock');
  if (v === 'custom') return t('time.custom');
  if (v.startsWith('c')) return t('time.correspondence', { n: Number(v.slice(1)) });
  return t('time.live', { clock: v });
}

/** A time-control chooser; returns {node, value()} where value() is what the API takes. */
export function timePicker(prefix, untimed) {
  const opts = untimed ? ['untimed', ...CLOCKS] : CLOCKS;
  const select = h('select', { id: `${prefix}-time` }, opts.map((v) => h('option', { value: v, selected: v === (untimed ? 'untimed' : 'c3') }, clockWords(v))));
  const minutes = h('input', { id: `${prefix}-minutes`, type: 'number', min: 0.05, max: 180, step: 'any', value: 5 });
  const inc = h('input', { id: `${prefix}-increment`, type: 'number', min: 0, max: 180, value: 3 });
  const custom = h('div', { class: 'row' }, h('label', {}, t('time.minutes'), minutes), h('label', {}, t('time.increment'), inc));
  custom.hidden = true;
  select.addEventListener('change', () => { custom.hidden = select.value !== 'custom'; });
  const value = () => {
    const v = select.value;
    if (v === 'untimed') return 'untimed';
    if (v === 'custom') return { live: { initial: Math.round(Number(minutes.value) * 60), increment: Math.round(Number(inc.value)) } };
    if (v.startsWith('c')) return { correspondence: { days: Number(v.slice(1)) } };
    const [m, i] = v.split('+').map(Number);
    return { live: { initial: m * 60, increment: i } };
  };
  return { node: h('div', { class: 'stack tight' }, h('label', {}, t('time.control'), select), custom), value };
}

/**
 * A game chooser with its settings as controls (settings.js); returns {node, spec(), game(), select, guard(button)}:
 * guard keeps a form's button disabled while the settings are not good.
 */
export function specPicker(catalog, prefix) {
  const select = h('select', { name: 'game', id: prefix + '-game' }, catalog.games.map((g) => h('option', { value: g.name }, g.title)));
  const settingsBox = h('div', { class: 'stack' });
  const buttons = [];
  let controls = null;
  const game = () => catalog.games.find((x) => x.name === select.value);
  const fill = () => {
    const g = game();
    controls = settingsControls(g, prefix);
    controls.onValidity((ok) => { for (const b of buttons) b.disabled = !ok; });
    settingsBox.replaceChildren(h('p', { class: 'muted' }, g.about), controls.node);
  };
  select.addEventListener('change', fill);
  fill();
  return {
    node: h('div', { class: 'stack' }, h('label', {}, t('form.game'), select), settingsBox),
    spec: () => controls.spec(),
    game,
    select,
    guard(button) { buttons.push(button); button.disabled = !controls.valid(); },
  };
}

/** The side a challenge's creator plays, in the game's words. */
function colorWords(c) {
  if (c.color === 'random') return t('side.random');
  const game = (catalogNow || { games: [] }).games.find((g) => c.spec.split(':')[0] === g.name);
  const i = c.color === 'first' ? 0 : 1;
  return game && game.sides[i] ? game.sides[i].name : t(c.color === 'first' ? 'side.first' : 'side.second');
}
let catalogNow = null;
loadCatalog().then((c) => { catalogNow = c; }).catch(() => {});

export function lobbyPage(main, ctx) {
  const { live } = ctx;
  let catalog = null;
  let timer = null;
  const opponent = h('input', { name: 'opponent', id: 'opponent', placeholder: t('lobby.anyone'), maxlength: 20 });

  // The user's games in play as of the last fetch: one that appears since started while the socket was away
  // (reconnecting, as just after signing in), its `started` notice lost; it opens as the notice would open it.
  let known = null;
  const load = serial(async () => {
    let data;
    try {
      [data, catalog] = await Promise.all([api('/lobby'), catalog ? Promise.resolve(catalog) : loadCatalog()]);
    } catch (e) {
      if (shell) toast(errorText(e));
      else main.replaceChildren(h('div', { class: 'card' }, h('p', { class: 'error' }, errorText(e))));
      return;
    }
    const ids = (data.games || []).map((g) => g.id);
    const fresh = known && ctx.me ? ids.find((id) => !known.includes(id)) : null;
    known = ids;
    if (fresh) { navigate(path`/game/${fresh}`); return; }
    draw(data);
  });

  // The page is built once; a lobby update replaces only the lists, so that what a user is typing in a form
  // is never lost.
  let shell = null;
  const swap = (key, node) => { shell[key].replaceWith(node); shell[key] = node; };

  function draw(data) {
    const me = ctx.me;
    if (!me) {
      if (!shell) {
        shell = { count: h('p', { class: 'muted', id: 'online-count' }), open: h('div') };
        main.replaceChildren(
          h('h1', {}, t('lobby.heading')),
          shell.count,
          h('div', { class: 'grid' }, authForm('signin', ctx), authForm('signup', ctx)),
          shell.open);
      }
      shell.count.textContent = t('lobby.onlineCount', { n: data.online_count });
      swap('open', openList(data, false));
      return;
    }
    if (!shell) {
      shell = { games: h('div'), open: h('div'), online: h('div'), recent: h('div') };
      const { create, computer, importer } = forms();
      main.replaceChildren(h('div', { class: 'grid' }, shell.games, shell.open, shell.online), h('div', { class: 'grid', style: 'margin-top:1rem' }, create, computer, h('div', { class: 'stack' }, shell.recent, importer)));
    }
    const mine = data.games || [];
    swap('games', h('div', { class: 'card', id: 'my-games' }, h('h2', {}, t('lobby.yourGames')),
      mine.length ? h('ul', { class: 'list' }, mine.map((g) => h('li', {},
        h('a', { href: path`/game/${g.id}`, 'data-link': true }, t('game.versus', { spec: specTitle(g.spec), a: botName(playerLabel(g, 0), g.bots[0]), b: botName(playerLabel(g, 1), g.bots[1]) })),
        g.my_turn ? h('span', { class: 'badge' }, t('game.yourTurnBadge')) : h('span', { class: 'muted' }, t('game.waiting'))))) : h('p', { class: 'muted' }, t('lobby.noGame'))));
    swap('open', openList(data, true));
    swap('online', h('div', { class: 'card', id: 'online' }, h('h2', {}, t('lobby.online', { n: data.online.length })),
      h('ul', { class: 'list' }, data.online.map((n) => h('li', {}, h('span', {}, (data.online_bots || []).includes(n) ? botMark() : null, n), n === me.name ? h('span', { class: 'muted' }, t('lobby.you'))
        : h('button', { class: 'small secondary', onclick: () => { opponent.value = n; opponent.focus(); } }, t('lobby.challenge')))))));
    const finished = data.finished || [];
    swap('recent', h('div', { class: 'card' }, h('h2', {}, t('lobby.recent')), finished.length ? h('ul', { class: 'list' }, finished.map((g) => h('li', {},
      h('a', { href: path`/replay/${g.id}`, 'data-link': true }, t('game.versus', { spec: specTitle(g.spec), a: botName(playerLabel(g, 0), g.bots[0]), b: botName(playerLabel(g, 1), g.bots[1]) })), h('span', { class: 'muted' }, g.winner === 'draw' ? t('result.draw') : g.winner ? t('result.won', { name: playerLabel(g, g.winner === 'first' ? 0 : 1) }) : t(`status.${g.status}`))))) : h('p', { class: 'muted' }, t('list.noneYet'))));
  }

  /** The three forms of the signed-in lobby, built once. */
  function forms() {
    const picker = specPicker(catalog, 'challenge');
    const color = h('select', { name: 'color', id: 'challenge-color' });
    fillColors(color, picker.game());
    picker.select.addEventListener('change', () => fillColors(color, picker.game()));
    const err = h('p', { class: 'error', role: 'alert' });
    const time = timePicker('challenge', false);
    // Engine help is for casual games only: a rated game turns it off.
    const help = h('input', { type: 'checkbox', id: 'challenge-help' });
    const rated = h('input', { type: 'checkbox', id: 'challenge-rated', onchange: () => { help.disabled = rated.checked; if (rated.checked) help.checked = false; } });
    const goodRecord = h('input', { type: 'checkbox', id: 'challenge-good-record' });
    const createButton = h('button', { type: 'submit' }, t('lobby.createChallenge'));
    picker.guard(createButton);
    const create = h('form', { class: 'card stack', id: 'new-challenge', onsubmit: async (e) => {
      e.preventDefault();
      err.textContent = '';
      try {
        await api('/challenges', { spec: picker.spec(), color: color.value, opponent: opponent.value.trim() || null, time: time.value(), rated: rated.checked, help: help.checked, good_record: goodRecord.checked });
        toast(t('lobby.challengeCreated'));
        opponent.value = '';
        load();
      } catch (x) { err.textContent = errorText(x); }
    } }, h('h2', {}, t('lobby.newChallenge')), picker.node, h('label', {}, t('form.youPlay'), color), time.node,
    h('label', { class: 'toggle' }, rated, t('form.ratedHelp')), h('label', { class: 'toggle' }, help, t('form.help')),
    h('label', { class: 'toggle' }, goodRecord, t('form.goodRecord')),
    h('label', {}, t('form.opponent'), opponent, h('small', {}, t('form.opponentHelp'))), createButton, err);
    const aiPicker = specPicker(catalog, 'computer');
    // The levels the chosen game's engine has.
    const level = h('select', { name: 'level', id: 'computer-level' });
    const levelHelp = h('small', {});
    const fillLevels = () => {
      const top = aiPicker.game().levels;
      const was = Number(level.value) || 3;
      level.replaceChildren(...Array.from({ length: top }, (_, k) => k + 1).map((l) => h('option', { value: l, selected: l === Math.min(was, top) }, t('form.levelN', { level: l }))));
      levelHelp.textContent = t('form.levelHelp', { top });
    };
    aiPicker.select.addEventListener('change', fillLevels);
    fillLevels();
    const aiColor = h('select', { name: 'color', id: 'computer-color' });
    fillColors(aiColor, aiPicker.game());
    aiPicker.select.addEventListener('change', () => fillColors(aiColor, aiPicker.game()));
    const aiErr = h('p', { class: 'error', role: 'alert' });
    const aiTime = timePicker('computer', true);
    const playButton = h('button', { type: 'submit' }, t('lobby.play'));
    aiPicker.guard(playButton);
    const computer = h('form', { class: 'card stack', id: 'play-computer', onsubmit: async (e) => {
      e.preventDefault();
      aiErr.textContent = '';
      try {
        const r = await api('/computer', { spec: aiPicker.spec(), level: Number(level.value), color: aiColor.value, time: aiTime.value() });
        navigate(path`/game/${r.game}`);
      } catch (x) { aiErr.textContent = errorText(x); }
    } }, h('h2', {}, t('lobby.playComputer')), aiPicker.node, h('label', {}, t('form.level'), level, levelHelp), h('label', {}, t('form.youPlay'), aiColor), aiTime.node, playButton, aiErr);
    const importText = h('textarea', { id: 'import-text', rows: 5, placeholder: t('import.placeholder'), maxlength: 262144 });
    const importFile = h('input', { type: 'file', id: 'import-file', accept: '.pdn,.txt,text/plain' });
    importFile.addEventListener('change', async () => { if (importFile.files[0]) importText.value = await importFile.files[0].text(); });
    const importErr = h('p', { class: 'error', role: 'alert' });
    const importer = h('form', { class: 'card stack', id: 'import', onsubmit: async (e) => {
      e.preventDefault();
      importErr.textContent = '';
      try {
        const r = await api('/import', { text: importText.value });
        navigate(path`/replay/${r.game}`);
      } catch (x) { importErr.textContent = errorText(x); }
    } }, h('h2', {}, t('import.heading')), h('label', {}, t('import.file'), importFile), h('label', {}, t('import.paste'), importText), h('button', { type: 'submit' }, t('import.open')), importErr);
    return { create, computer, importer };
  }

  function openList(data, signedIn) {
    const items = data.challenges.map((c) => {
      const what = [specTitle(c.spec), timeLabel(c.time), c.rated ? t('game.rated') : t('game.casual'), c.help ? t('game.helpAllowed') : null, c.good_record ? t('lobby.goodRecord') : null, botName(c.creator, c.creator_bot) + (c.target ? ' → ' + botName(c.target, c.target_bot) : ''), t('lobby.creatorPlays', { side: colorWords(c) })].filter(Boolean).join(' · ');
      const buttons = [];
      if (signedIn && c.mine) buttons.push(h('button', { class: 'small secondary', onclick: () => close(c.id) }, t('cancel')));
      if (signedIn && !c.mine) {
        buttons.push(h('button', { class: 'small', 'data-accept': c.id, onclick: () => accept(c.id) }, t('accept')));
        if (c.to_me) buttons.push(h('button', { class: 'small secondary', onclick: () => close(c.id) }, t('decline')));
      }
      return h('li', { 'data-challenge': c.id }, h('span', {}, what), h('span', {}, buttons));
    });
    return h('div', { class: 'card', id: 'challenges' }, h('h2', {}, t('lobby.challenges')), items.length ? h('ul', { class: 'list' }, items) : h('p', { class: 'muted' }, t('lobby.noChallenge')));
  }

  async function accept(cid) {
    try {
      const r = await api(path`/challenges/${cid}/accept`, {});
      navigate(path`/game/${r.game}`);
    } catch (e) { toast(errorText(e)); load(); }
  }

  async function close(cid) {
    try { await api(path`/challenges/${cid}/decline`, {}); } catch (e) { toast(errorText(e)); }
    load();
  }

  const off = live.on((m) => {
    if (m.t === 'lobby') { clearTimeout(timer); timer = setTimeout(load, 150); }
    if (m.t === 'started' && ctx.me) navigate(path`/game/${m.game}`);
  });
  live.watchLobby();
  load();
  return () => { off(); clearTimeout(timer); };
}
