// The game page: the board, the players, the score and the actions. What may be played comes only from the
// server's list of legal moves (state.view.moves); this page decides how a player enters one of them.

import { Board } from './board.js';
import { h, api, toast, confirmDialog, navigate } from './util.js';
import { playerLink } from './people.js';
import { gameOf, labeller } from './catalog.js';
import * as entries from './entry.js';

const SIDES = ['first', 'second'];
const idx = (side) => (side === 'first' ? 0 : 1);

export function gamePage(main, id, ctx) {
  const { live, me } = ctx;
  let state = null;
  let busy = false;
  let connected = true;
  // How the player is entering a move (entry.js).
  let entry = entries.EMPTY;
  let lastRendered = -1;
  let hint = null; // the engine's suggested move text, until the position changes
  let showLegal = localStorage.getItem('gridplay.showLegal') !== 'off';
  let nextGame = null; // another game of mine where it is my turn
  let nextTimer = null;
  let offset = 0; // the server's clock minus ours
  let rematchOffer = null; // {challenge, from} when the opponent asks for a rematch
  let claimOpen = false;
  const serverNow = () => Date.now() + offset;

  function refreshNext() {
    clearTimeout(nextTimer);
    nextTimer = setTimeout(async () => {
      try {
        const lobby = await api('/lobby');
        const g = (lobby.games || []).find((x) => x.my_turn && x.id !== id);
        const found = g ? g.id : null;
        if (found !== nextGame) { nextGame = found; if (state) renderPanel(); }
      } catch { /* the next render tries again */ }
    }, 300);
  }

  async function askHint() {
    try {
      hint = (await api(`/games/${id}/hint`)).move;
      render();
    } catch (e) { toast(e.message); }
  }

  const boardBox = h('div', { class: 'board-wrap', id: 'board' });
  const panel = h('aside', { class: 'card' });
  main.replaceChildren(h('div', { class: 'game' }, h('section', {}, boardBox), panel));
  const board = new Board(boardBox, { onCell, onDrop });

  const mySide = () => {
    if (!state || !me) return null;
    const i = state.players.findIndex((p) => p.id === me.id);
    return i < 0 ? null : SIDES[i];
  };
  const myTurn = () => state && !state.over && state.view.turn && state.view.turn === mySide();
  const moves = () => (myTurn() && !busy ? state.view.moves : []);
  const game = () => gameOf(state.game);
  const how = () => game().entry;
  const label = (kind) => labeller(state.game)(kind);

  function reset() { entry = { ...entries.EMPTY, mode: entry.mode }; }

  function name(i) {
    const p = state.players[i];
    if (p.name && p.id) return playerLink(p.name, p.rating ? { rating: p.rating, provisional: p.provisional } : null);
    if (p.name) return p.name;
    if (p.level) return `Engine · level ${p.level}`;
    return '?';
  }

  /** A side's time left now, in ms, or null without a live clock. */
  function timeLeft(i) {
    const c = state.clock;
    if (!c) return null;
    const run = c.running === SIDES[i] ? serverNow() - c.since : 0;
    return Math.max(0, c.remaining[i] - run);
  }

  function fmtClock(ms) {
    const s = Math.ceil(ms / 1000);
    if (ms < 10000) return `0:${(ms / 1000).toFixed(1).padStart(4, '0')}`;
    const m = Math.floor(s / 60);
    return m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}` : `${m}:${String(s % 60).padStart(2, '0')}`;
  }

  function fmtSpan(ms) {
    if (ms <= 0) return 'time is up';
    const hrs = Math.floor(ms / 3600000);
    if (hrs >= 24) return `${Math.floor(hrs / 24)} d ${hrs % 24} h left`;
    if (hrs >= 1) return `${hrs} h ${Math.floor((ms % 3600000) / 60000)} min left`;
    return `${Math.ceil(ms / 60000)} min left`;
  }

  const canClaim = () => state && !state.over && state.claimable && mySide() && state.view.turn !== mySide() && state.deadline != null && serverNow() >= state.deadline;

  /** Updates the clocks in place, several times a second, without redrawing the page. */
  function tick() {
    if (!state) return;
    for (const i of [0, 1]) {
      const el = panel.querySelector(`[data-clock="${SIDES[i]}"]`);
      const t = timeLeft(i);
      if (el && t != null) {
        el.textContent = fmtClock(t);
        el.classList.toggle('low', t < 20000);
      }
    }
    const d = panel.querySelector('#deadline');
    if (d && state.deadline != null && !state.clock) d.textContent = fmtSpan(state.deadline - serverNow());
    if (canClaim() !== claimOpen) renderPanel();
  }
  const ticker = setInterval(tick, 200);

  async function send(m) {
    busy = true;
    render();
    try {
      await live.act({ t: 'move', game: id, move: m.text, v: state.version });
      reset();
    } catch (e) {
      toast(e.message || 'the move was refused');
      if (e.code === 'stale') reset();
    } finally {
      busy = false;
      render();
    }
  }

  async function act(msg, question) {
    if (question && !(await confirmDialog(question, 'Yes'))) return;
    try {
      await live.act({ ...msg, game: id });
    } catch (e) {
      toast(e.message || 'refused');
    }
  }

  /** Applies what a click or a drop meant: a new entry state, a move to send, or a word to the player. */
  function apply(r) {
    entry = r.entry;
    if (r.say) toast(r.say);
    if (r.send) return send(r.send);
    render();
  }

  function onCell(i) {
    const ms = moves();
    if (!ms.length) {
      if (state && !state.over && mySide() && !myTurn()) toast('It is not your turn.');
      return;
    }
    apply(entries.click(how(), ms, entry, i, label));
  }

  function onDrop(from, to) {
    const ms = moves();
    if (ms.length) apply(entries.drop(how(), ms, entry, from, to, label));
  }

  function marks() {
    const m = entries.marks(how(), moves(), entry, state.view.cells, showLegal);
    m.last = new Set();
    m.hoverTint = game().look.cursor_tint;
    const lm = state.last_move;
    if (lm) {
      if (lm.from != null) m.last.add(lm.from);
      for (const c of lm.path) m.last.add(c);
      if (lm.target != null) m.last.add(lm.target);
      m.movedFrom = lm.from; m.movedTo = lm.from != null ? entries.final(lm) : null;
    }
    if (lastRendered === state.version) { m.movedFrom = null; m.movedTo = null; }
    const hinted = hint && moves().find((mv) => mv.text === hint);
    if (hinted) m.hint = new Set([hinted.from, ...hinted.path, hinted.target].filter((c) => c != null));
    return m;
  }

  function render() {
    if (!state) return;
    const side = mySide();
    const rotate = side ? state.rotate[idx(side)] : false;
    board.render(state, rotate, marks(), game().look);
    lastRendered = state.version;
    ctx.title((myTurn() ? '● Your turn · ' : '') + `${state.title} · gridplay`);
    renderPanel();
  }

  function renderPanel() {
    const side = mySide();
    const score = state.view.score;
    const turn = state.view.turn;
    const players = h('div', { class: 'players' }, [0, 1].map((i) => h('div', { class: 'player' + (turn === SIDES[i] ? ' turn' : ''), 'data-side': SIDES[i] },
      h('span', { class: 'swatch', style: `background:${state.sides[i].color}` }),
      h('span', {}, h('strong', {}, state.sides[i].name), ' ', name(i), side === SIDES[i] ? ' (you)' : ''),
      state.clock ? h('span', { class: 'clock' + (state.clock.running === SIDES[i] ? ' running' : ''), 'data-clock': SIDES[i] }, fmtClock(timeLeft(i))) : null,
      h('span', { class: 'score', 'data-score': SIDES[i] }, i === 0 ? score.first : score.second))));
    claimOpen = canClaim();
    const tags = [state.time_label, state.rated ? 'rated' : 'casual'];
    let status;
    if (state.over) status = state.over.text;
    else if (myTurn()) status = busy ? 'Sending…' : 'Your turn';
    else if (turn && state.players[idx(turn)].level && !state.players[idx(turn)].name) status = 'The engine is thinking…';
    else status = turn ? `${state.sides[idx(turn)].name} to move` : '';
    const meta = h('p', { class: 'muted', id: 'game-meta' }, `${state.spec} · ${tags.join(' · ')}`,
      state.tournament ? [' · ', h('a', { href: `/tournament/${state.tournament.id}`, 'data-link': true }, `tournament round ${state.tournament.round}`)] : null,
      side ? null : ' · you are watching');
    const children = [h('h1', {}, state.title), meta, players, h('p', { class: 'status', id: 'status' }, status)];
    if (!state.over && !state.clock && state.deadline != null) {
      children.push(h('p', { class: 'muted' }, 'Time for this move: ', h('span', { id: 'deadline' }, fmtSpan(state.deadline - serverNow()))));
    }
    if (!connected) children.push(h('p', { class: 'connection' }, 'Connection lost: reconnecting…'));
    if (state.view.info.length) children.push(h('dl', { class: 'info' }, state.view.info.map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])));
    if (state.over) {
      children.push(h('div', { class: 'banner', id: 'game-over' }, h('strong', {}, state.over.text),
        h('a', { href: '/', 'data-link': true }, 'Back to the lobby'), ' · ',
        h('a', { href: `/replay/${id}`, 'data-link': true, id: 'replay-link' }, 'Replay'), ' · ',
        h('a', { href: `/api/games/${id}/export`, download: true }, 'Download'),
        side && !state.tournament ? h('div', { class: 'actions' }, h('button', { id: 'rematch', onclick: rematch }, 'Rematch')) : null,
        rematchOffer ? h('div', { class: 'actions', id: 'rematch-offer' }, h('span', {}, `${rematchOffer.from} offers a rematch.`),
          h('button', { onclick: acceptRematch }, 'Accept'), h('button', { class: 'secondary', onclick: declineRematch }, 'Decline')) : null));
    }
    const actions = h('div', { class: 'actions' });
    const ms = moves();
    const kinds = entries.placeKinds(ms);
    if (kinds.length > 1) {
      for (const k of kinds) {
        const on = entries.modeOf(ms, entry) === k;
        actions.append(h('button', { class: on ? '' : 'secondary', 'aria-pressed': String(on), onclick: () => { entry = { ...entry, mode: k }; render(); } }, label(k)));
      }
    }
    for (const m of entries.buttons(ms)) {
      actions.append(h('button', { onclick: () => send(m), 'data-move': m.text }, label(m.kind)));
    }
    if (how() === 'path' && entry.sel != null) {
      const exact = entries.complete(ms, entry);
      actions.append(h('button', { class: 'secondary', disabled: entry.entered.length === 0, onclick: () => { entry = entries.backUp(entry); render(); } }, 'Back up'));
      actions.append(h('button', { disabled: exact.length !== 1, onclick: () => send(exact[0]) }, 'Submit'));
    }
    if (how() !== 'path' && entry.sel != null && entry.dest == null) {
      actions.append(h('button', { class: 'secondary', onclick: () => { reset(); render(); } }, 'Deselect'));
    }
    if (how() !== 'path' && entry.dest != null) {
      for (const m of entries.atDest(ms, entry)) {
        const where = m.target != null ? ' ' + state.view.files[m.target % state.view.width] + state.view.ranks[Math.floor(m.target / state.view.width)] : '';
        actions.append(h('button', { onclick: () => send(m), 'data-move': m.text }, label(m.kind) + where));
      }
      actions.append(h('button', { class: 'secondary', onclick: () => { entry = { ...entry, dest: null }; render(); } }, 'Undo'));
    }
    if (myTurn() && !busy && state.hints) {
      actions.append(h('button', { class: 'secondary', id: 'hint', onclick: askHint }, hint ? `Hint: ${hint}` : 'Hint'));
    }
    if (claimOpen) {
      actions.append(h('button', { id: 'claim', onclick: () => act({ t: 'claim' }, 'Your opponent let the time for the move pass. Claim the win?') }, 'Claim the win'));
    }
    if (side && !state.over) {
      actions.append(h('label', { class: 'toggle' }, h('input', { type: 'checkbox', id: 'show-legal', checked: showLegal, onchange: (e) => {
        showLegal = e.target.checked;
        localStorage.setItem('gridplay.showLegal', showLegal ? 'on' : 'off');
        render();
      } }), 'Show legal moves'));
    }
    if (nextGame && !myTurn()) {
      actions.append(h('button', { id: 'next-game', onclick: () => navigate(`/game/${nextGame}`) }, 'Next game waiting for you'));
    }
    if (side && !state.over) {
      const vsEngine = state.players.some((p) => p.level && !p.name);
      if (state.draw_offer && state.draw_offer !== side) {
        actions.append(h('button', { onclick: () => act({ t: 'draw', answer: 'accept' }) }, 'Accept draw'));
        actions.append(h('button', { class: 'secondary', onclick: () => act({ t: 'draw', answer: 'decline' }) }, 'Decline draw'));
      } else if (!vsEngine) {
        actions.append(h('button', { class: 'secondary', disabled: state.draw_offer === side, onclick: () => act({ t: 'draw', answer: 'offer' }) }, state.draw_offer === side ? 'Draw offered' : 'Offer draw'));
      }
      if (state.abortable) actions.append(h('button', { class: 'secondary', id: 'abort', onclick: () => act({ t: 'abort' }, 'Abort this game? It will not count.') }, 'Abort'));
      else actions.append(h('button', { class: 'danger', id: 'resign', onclick: () => act({ t: 'resign' }, 'Resign this game?') }, 'Resign'));
    }
    children.push(actions);
    const list = h('div', { class: 'moves', id: 'moves' });
    state.moves.forEach((m, k) => list.append(h('span', { class: 'n' }, `${k + 1}.`), h('span', {}, m), h('span', {})));
    children.push(h('h2', {}, 'Moves'), list);
    panel.replaceChildren(...children);
    list.scrollTop = list.scrollHeight;
  }

  async function rematch() {
    try {
      const r = await api(`/games/${id}/rematch`, {});
      if (r.game) navigate(`/game/${r.game}`);
      else toast('Rematch offered: the game starts when your opponent accepts.');
    } catch (e) { toast(e.message); }
  }

  async function acceptRematch() {
    try {
      const r = await api(`/challenges/${rematchOffer.challenge}/accept`, {});
      navigate(`/game/${r.game}`);
    } catch (e) { toast(e.message); rematchOffer = null; renderPanel(); }
  }

  async function declineRematch() {
    try { await api(`/challenges/${rematchOffer.challenge}/decline`, {}); } catch (e) { toast(e.message); }
    rematchOffer = null;
    renderPanel();
  }

  const off = live.on((msg) => {
    if (msg.t === 'connection') { connected = msg.open; if (state) renderPanel(); return; }
    // A rematch (or any new game of mine) started: go there once this one is over.
    if (msg.t === 'started' && state && state.over && mySide()) { navigate(`/game/${msg.game}`); return; }
    if (msg.t === 'rematch' && msg.game === id) { rematchOffer = { challenge: msg.challenge, from: msg.from }; if (state) renderPanel(); return; }
    if (msg.game !== id) return;
    if (msg.now) offset = msg.now - Date.now();
    if (msg.t === 'sync' || msg.t === 'event') {
      const changed = !state || msg.state.version !== state.version;
      state = msg.state;
      if (changed) { entry = entries.EMPTY; hint = null; }
      if (mySide() && !myTurn()) refreshNext();
      render();
    } else if (msg.t === 'error' && !msg.ack) {
      main.replaceChildren(h('div', { class: 'card' }, h('h1', {}, 'Game unavailable'), h('p', {}, msg.message), h('a', { href: '/', 'data-link': true }, 'Back to the lobby')));
    }
  });
  const onKey = (e) => { if (e.key === 'Escape' && entry.sel != null) { reset(); render(); } };
  document.addEventListener('keydown', onKey);
  live.watch(id);
  return () => {
    clearTimeout(nextTimer);
    clearInterval(ticker);
    document.removeEventListener('keydown', onKey); off(); live.unwatch(); ctx.title('gridplay'); };
}
