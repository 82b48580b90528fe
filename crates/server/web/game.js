// The game page: the board, the players, the score and the actions. What may be played comes only from the
// server's list of legal moves (state.view.moves); entry.js decides how a click enters one of them, and
// gamestate.js how the socket's messages change what the page shows. This file draws and wires them.

import { Board } from './board.js';
import { h, api, toast, confirmDialog, navigate } from './util.js';
import { playerLink } from './people.js';
import { gameOf, labeller } from './catalog.js';
import * as entries from './entry.js';
import { SIDES, timeLeft, fmtClock, fmtSpan } from './clock.js';
import { initial, reduce, announce, moveLines } from './gamestate.js';

const idx = (side) => (side === 'first' ? 0 : 1);

/** A player's name: linked with the rating for a user, the engine's level for the engine. */
function playerName(p) {
  if (p.name && p.id) return playerLink(p.name, p.rating ? { rating: p.rating, provisional: p.provisional } : null);
  if (p.name) return p.name;
  if (p.level) return `Engine · level ${p.level}`;
  return '?';
}

/** A player's name as plain text. */
function playerText(p) {
  return p.name || (p.level ? `engine level ${p.level}` : '?');
}

/** The two players with their colours, clocks and scores. */
function playersNode(state, side, now) {
  const turn = state.view.turn;
  const score = state.view.score;
  return h('div', { class: 'players' }, [0, 1].map((i) => h('div', { class: 'player' + (turn === SIDES[i] ? ' turn' : ''), 'data-side': SIDES[i] },
    h('span', { class: 'swatch', style: `background:${state.sides[i].color}` }),
    h('span', {}, h('strong', {}, state.sides[i].name), ' ', playerName(state.players[i]), side === SIDES[i] ? ' (you)' : ''),
    state.clock ? h('span', { class: 'clock' + (state.clock.running === SIDES[i] ? ' running' : ''), 'data-clock': SIDES[i] }, fmtClock(timeLeft(state.clock, i, now))) : null,
    h('span', { class: 'score', 'data-score': SIDES[i] }, i === 0 ? score.first : score.second))));
}

/** One line on whose turn it is, or how the game ended. */
function statusText(state, { myTurn, busy }) {
  const turn = state.view.turn;
  if (state.over) return 'The game is over.';
  if (myTurn) return busy ? 'Sending…' : 'Your turn';
  const mover = turn && state.players[idx(turn)];
  if (mover && mover.level && !mover.name) return 'The engine is thinking…';
  return turn ? `${state.sides[idx(turn)].name} to move` : '';
}

/** The moves so far, numbered by turns (gamestate.js's `moveLines`). */
function movesNode(state) {
  const list = h('div', { class: 'moves by-turn', id: 'moves' });
  for (const line of moveLines(state.moves, state.movers || '')) {
    const label = line.side === 'second' ? `${line.n}…` : `${line.n}.`;
    list.append(h('span', { class: 'n' }, label), h('span', { class: 'turn' + (line.side ? ' long' : '') },
      line.moves.map((m) => (m ? h('span', { class: 'mv' }, m[1]) : h('span', { class: 'mv-gap' }, '…')))));
  }
  return list;
}

/** The buttons that enter a move: the kind of placement, moves with no cell, and the steps of a path or an activation. */
function entryButtons(how, ms, entry, state, label, on) {
  const out = [];
  const kinds = entries.placeKinds(ms);
  if (kinds.length > 1) {
    for (const k of kinds) {
      const pressed = entries.modeOf(ms, entry) === k;
      out.push(h('button', { class: pressed ? '' : 'secondary', 'aria-pressed': String(pressed), onclick: () => on.entry({ ...entry, mode: k }) }, label(k)));
    }
  }
  for (const m of entries.buttons(ms)) out.push(h('button', { onclick: () => on.send(m), 'data-move': m.text }, label(m.kind)));
  if (how === 'path' && entry.sel != null) {
    const exact = entries.complete(ms, entry);
    out.push(h('button', { class: 'secondary', disabled: entry.entered.length === 0, onclick: () => on.entry(entries.backUp(entry)) }, 'Back up'));
    out.push(h('button', { disabled: exact.length !== 1, onclick: () => on.send(exact[0]) }, 'Submit'));
  }
  if (how !== 'path' && entry.sel != null && entry.dest == null) {
    out.push(h('button', { class: 'secondary', onclick: () => on.entry({ ...entries.EMPTY, mode: entry.mode }) }, 'Deselect'));
  }
  if (how !== 'path' && entry.dest != null) {
    const { files, ranks, width } = state.view;
    for (const m of entries.atDest(ms, entry)) {
      const where = m.target != null ? ' ' + files[m.target % width] + ranks[Math.floor(m.target / width)] : '';
      out.push(h('button', { onclick: () => on.send(m), 'data-move': m.text }, label(m.kind) + where));
    }
    out.push(h('button', { class: 'secondary', onclick: () => on.entry({ ...entry, dest: null }) }, 'Undo'));
  }
  return out;
}

/** The banner of a finished game: the result, the replay, the file, and rematches. */
function overBanner(state, id, { side, rematchOffer }, on) {
  return h('div', { class: 'banner', id: 'game-over' }, h('strong', {}, state.over.text),
    h('a', { href: '/', 'data-link': true }, 'Back to the lobby'), ' · ',
    h('a', { href: `/replay/${id}`, 'data-link': true, id: 'replay-link' }, 'Replay'), ' · ',
    h('a', { href: `/api/games/${id}/export`, download: true }, 'Download'),
    side && !state.tournament ? h('div', { class: 'actions' }, h('button', { id: 'rematch', onclick: on.rematch }, 'Rematch')) : null,
    rematchOffer ? h('div', { class: 'actions', id: 'rematch-offer' }, h('span', {}, `${rematchOffer.from} offers a rematch.`),
      h('button', { onclick: on.acceptRematch }, 'Accept'), h('button', { class: 'secondary', onclick: on.declineRematch }, 'Decline')) : null);
}

/** The board's marks: the entry so far, the last move, and a hint. */
function boardMarks(page, ms) {
  const { state } = page.model;
  const game = gameOf(state.game);
  const m = entries.marks(game.entry, ms, page.entry, state.view.cells, page.showLegal, game.look.helping);
  m.last = new Set();
  m.hoverTint = game.look.cursor_tint;
  const lm = state.last_move;
  if (lm) {
    if (lm.from != null) m.last.add(lm.from);
    for (const c of lm.path) m.last.add(c);
    if (lm.target != null) m.last.add(lm.target);
    m.movedFrom = lm.from; m.movedTo = lm.from != null ? entries.final(lm) : null;
  }
  if (page.lastRendered === state.version) { m.movedFrom = null; m.movedTo = null; }
  const hinted = page.hint && ms.find((mv) => mv.text === page.hint);
  if (hinted) m.hint = new Set([hinted.from, ...hinted.path, hinted.target].filter((c) => c != null));
  return m;
}

export function gamePage(main, id, ctx) {
  const { live, me } = ctx;
  // Everything the page knows: the model from the socket, and what the player is doing here.
  const page = {
    model: initial(id),
    entry: entries.EMPTY,
    busy: false,
    hint: null, // the engine's suggested move text, until the position changes
    showLegal: localStorage.getItem('gridplay.showLegal') !== 'off',
    nextGame: null, // another game of mine where it is my turn
    lastRendered: -1,
    claimOpen: false,
  };
  let nextTimer = null;
  const serverNow = () => Date.now() + page.model.offset;
  const state = () => page.model.state;
  const mySide = () => {
    const s = state();
    if (!s || !me) return null;
    const i = s.players.findIndex((p) => p.id === me.id);
    return i < 0 ? null : SIDES[i];
  };
  const myTurn = () => { const s = state(); return !!(s && !s.over && s.view.turn && s.view.turn === mySide()); };
  const moves = () => (myTurn() && !page.busy ? state().view.moves : []);
  const how = () => gameOf(state().game).entry;
  const label = (kind) => labeller(state().game)(kind);
  const canClaim = () => { const s = state(); return !!(s && !s.over && s.claimable && mySide() && s.view.turn !== mySide() && s.deadline != null && serverNow() >= s.deadline); };

  const boardBox = h('div', { class: 'board-wrap', id: 'board', 'aria-label': 'Board: the arrow keys move, Enter plays' });
  const panel = h('aside', { class: 'card' });
  // What a screen reader hears: every move, draw offers, the end, and a clock under ten seconds.
  const announcer = h('div', { class: 'sr-only', id: 'announce', 'aria-live': 'polite', role: 'status' });
  const say = (text) => { if (text) announcer.textContent = text; };
  // A move typed in the game's notation, completed from the legal moves.
  const legalList = h('datalist', { id: `legal-${id}` });
  const moveInput = h('input', { id: 'move-input', list: `legal-${id}`, autocomplete: 'off', 'aria-label': 'Type a move', placeholder: 'Type a move' });
  const moveBox = h('form', { class: 'move-box', id: 'move-box', onsubmit: (e) => {
    e.preventDefault();
    const text = moveInput.value.trim();
    if (!text) return;
    const known = moves().find((m) => m.text.toLowerCase() === text.toLowerCase());
    // The server reads any spelling the game accepts, and says why a move is refused.
    send(known || { text });
    moveInput.value = '';
  } }, moveInput, legalList, h('button', { type: 'submit' }, 'Play'));
  const legendBox = h('div', { class: 'legend muted', id: 'legend' });
  main.replaceChildren(h('div', { class: 'game' }, h('section', {}, boardBox, moveBox, legendBox), panel), announcer);
  let lowWarned = false;
  const board = new Board(boardBox, {
    describe(i) {
      const s = state();
      if (!s) return '';
      const cell = s.view.cells[i];
      const piece = cell.piece ? `${cell.piece.owner ? s.sides[idx(cell.piece.owner)].name + ' ' : ''}${cell.piece.kind}` : 'empty';
      const m = boardMarks(page, moves());
      const can = m.legal.has(i) || m.reach.has(i) || m.targets.has(i) ? ', you can play here' : '';
      return piece + can;
    },
    onCell(i) {
      const ms = moves();
      if (!ms.length) {
        if (state() && !state().over && mySide() && !myTurn()) toast('It is not your turn.');
        return;
      }
      enter(entries.click(how(), ms, page.entry, i, label));
    },
    onDrop(from, to) {
      const ms = moves();
      if (ms.length) enter(entries.drop(how(), ms, page.entry, from, to, label));
    },
  });

  /** Applies what a click or a drop meant: a new entry state, a move to send, or a word to the player. */
  function enter(r) {
    page.entry = r.entry;
    if (r.say) toast(r.say);
    if (r.send) return send(r.send);
    render();
  }

  async function send(m) {
    page.busy = true;
    render();
    try {
      await live.act({ t: 'move', game: id, move: m.text, v: state().version });
      page.entry = { ...entries.EMPTY, mode: page.entry.mode };
    } catch (e) {
      toast(e.message || 'the move was refused');
      if (e.code === 'stale') page.entry = { ...entries.EMPTY, mode: page.entry.mode };
    } finally {
      page.busy = false;
      render();
    }
  }

  async function act(msg, question) {
    if (question && !(await confirmDialog(question, 'Yes'))) return;
    try { await live.act({ ...msg, game: id }); } catch (e) { toast(e.message || 'refused'); }
  }

  async function askHint() {
    try { page.hint = (await api(`/games/${id}/hint`)).move; render(); } catch (e) { toast(e.message); }
  }

  function refreshNext() {
    clearTimeout(nextTimer);
    nextTimer = setTimeout(async () => {
      try {
        const lobby = await api('/lobby');
        const g = (lobby.games || []).find((x) => x.my_turn && x.id !== id);
        const found = g ? g.id : null;
        if (found !== page.nextGame) { page.nextGame = found; if (state()) renderPanel(); }
      } catch { /* the next render tries again */ }
    }, 300);
  }

  const rematches = {
    async rematch() {
      try {
        const r = await api(`/games/${id}/rematch`, {});
        if (r.game) navigate(`/game/${r.game}`);
        else toast('Rematch offered: the game starts when your opponent accepts.');
      } catch (e) { toast(e.message); }
    },
    async acceptRematch() {
      try {
        const r = await api(`/challenges/${page.model.rematchOffer.challenge}/accept`, {});
        navigate(`/game/${r.game}`);
      } catch (e) { toast(e.message); page.model = { ...page.model, rematchOffer: null }; renderPanel(); }
    },
    async declineRematch() {
      try { await api(`/challenges/${page.model.rematchOffer.challenge}/decline`, {}); } catch (e) { toast(e.message); }
      page.model = { ...page.model, rematchOffer: null };
      renderPanel();
    },
  };

  /** The actions of a player or a watcher besides entering moves. */
  function gameButtons(side) {
    const s = state();
    const out = [];
    if (myTurn() && !page.busy && s.hints) out.push(h('button', { class: 'secondary', id: 'hint', onclick: askHint }, page.hint ? `Hint: ${page.hint}` : 'Hint'));
    if (page.claimOpen) out.push(h('button', { id: 'claim', onclick: () => act({ t: 'claim' }, 'Your opponent let the time for the move pass. Claim the win?') }, 'Claim the win'));
    if (side && !s.over) {
      out.push(h('label', { class: 'toggle' }, h('input', { type: 'checkbox', id: 'show-legal', checked: page.showLegal, onchange: (e) => {
        page.showLegal = e.target.checked;
        localStorage.setItem('gridplay.showLegal', page.showLegal ? 'on' : 'off');
        render();
      } }), 'Show legal moves'));
    }
    if (page.nextGame && !myTurn()) out.push(h('button', { id: 'next-game', onclick: () => navigate(`/game/${page.nextGame}`) }, 'Next game waiting for you'));
    if (side && !s.over) {
      const vsEngine = s.players.some((p) => p.level && !p.name);
      if (s.draw_offer && s.draw_offer !== side) {
        out.push(h('button', { onclick: () => act({ t: 'draw', answer: 'accept' }) }, 'Accept draw'));
        out.push(h('button', { class: 'secondary', onclick: () => act({ t: 'draw', answer: 'decline' }) }, 'Decline draw'));
      } else if (!vsEngine) {
        out.push(h('button', { class: 'secondary', disabled: s.draw_offer === side, onclick: () => act({ t: 'draw', answer: 'offer' }) }, s.draw_offer === side ? 'Draw offered' : 'Offer draw'));
      }
      if (s.abortable) out.push(h('button', { class: 'secondary', id: 'abort', onclick: () => act({ t: 'abort' }, 'Abort this game? It will not count.') }, 'Abort'));
      else out.push(h('button', { class: 'danger', id: 'resign', onclick: () => act({ t: 'resign' }, 'Resign this game?') }, 'Resign'));
    }
    return out;
  }

  function renderPanel() {
    const s = state();
    const side = mySide();
    page.claimOpen = canClaim();
    const tags = [s.time_label, s.rated ? 'rated' : 'casual'];
    const meta = h('p', { class: 'muted', id: 'game-meta' }, `${s.spec} · ${tags.join(' · ')}`,
      s.tournament ? [' · ', h('a', { href: `/tournament/${s.tournament.id}`, 'data-link': true }, `tournament round ${s.tournament.round}`)] : null,
      side ? null : ' · you are watching');
    const children = [h('h1', {}, s.title), meta, playersNode(s, side, serverNow()), h('p', { class: 'status', id: 'status' }, statusText(s, { myTurn: myTurn(), busy: page.busy }))];
    if (!s.over && !s.clock && s.deadline != null) {
      children.push(h('p', { class: 'muted' }, 'Time for this move: ', h('span', { id: 'deadline' }, fmtSpan(s.deadline - serverNow()))));
    }
    if (s.draw_offer && !s.over) {
      const who = s.draw_offer === side ? 'You offered a draw: your opponent has not answered yet.' : `${s.sides[idx(s.draw_offer)].name} (${playerText(s.players[idx(s.draw_offer)])}) offers a draw.`;
      children.push(h('p', { id: 'draw-offer', class: 'notice' }, who));
    }
    if (!page.model.connected) children.push(h('p', { class: 'connection' }, 'Connection lost: reconnecting…'));
    if (s.view.info.length) children.push(h('dl', { class: 'info' }, s.view.info.map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])));
    if (s.over) children.push(overBanner(s, id, { side, rematchOffer: page.model.rematchOffer }, rematches));
    const onEntry = { entry: (e) => { page.entry = e; render(); }, send };
    children.push(h('div', { class: 'actions' }, ...entryButtons(how(), moves(), page.entry, s, label, onEntry), ...gameButtons(side)));
    // The move box stays in place (typing is not lost when the panel redraws); it shows for a player.
    moveBox.hidden = !side || !!s.over;
    legalList.replaceChildren(...moves().map((m) => h('option', { value: m.text })));
    moveInput.disabled = !myTurn();
    const list = movesNode(s);
    children.push(h('h2', {}, 'Moves'), list);
    panel.replaceChildren(...children);
    list.scrollTop = list.scrollHeight;
  }

  function render() {
    const s = state();
    if (!s) return;
    // The legend of the pieces whose drawing needs words.
    legendBox.replaceChildren(...(gameOf(s.game).legend || []).map(([, words]) => h('p', {}, words)));
    const side = mySide();
    board.render(s, side ? s.rotate[idx(side)] : false, boardMarks(page, moves()), gameOf(s.game).look);
    page.lastRendered = s.version;
    ctx.title((myTurn() ? '● Your turn · ' : '') + `${s.title} · gridplay`);
    renderPanel();
  }

  /** Updates the clocks in place, several times a second, without redrawing the page. */
  function tick() {
    const s = state();
    if (!s) return;
    for (const i of [0, 1]) {
      const el = panel.querySelector(`[data-clock="${SIDES[i]}"]`);
      const t = timeLeft(s.clock, i, serverNow());
      if (el && t != null) {
        el.textContent = fmtClock(t);
        el.classList.toggle('low', t < 20000);
      }
      if (t != null && SIDES[i] === mySide() && !s.over) {
        if (t < 10000 && !lowWarned) { lowWarned = true; say('Ten seconds left on your clock.'); }
        if (t >= 10000) lowWarned = false;
      }
    }
    const d = panel.querySelector('#deadline');
    if (d && s.deadline != null && !s.clock) d.textContent = fmtSpan(s.deadline - serverNow());
    if (canClaim() !== page.claimOpen) renderPanel();
  }
  const ticker = setInterval(tick, 200);

  const off = live.on((msg) => {
    const r = reduce(page.model, msg, { me: me ? me.id : null, now: Date.now() });
    if (r.effect && r.effect.navigate) { navigate(r.effect.navigate); return; }
    if (r.model === page.model) return;
    page.model = r.model;
    if (page.model.unavailable) {
      main.replaceChildren(h('div', { class: 'card' }, h('h1', {}, 'Game unavailable'), h('p', {}, page.model.unavailable), h('a', { href: '/', 'data-link': true }, 'Back to the lobby')));
      return;
    }
    if (!state()) return;
    if (r.changed) { page.entry = entries.EMPTY; page.hint = null; }
    if (msg.t === 'event') say(announce(msg));
    if (msg.t === 'sync' || msg.t === 'event') {
      if (mySide() && !myTurn()) refreshNext();
      render();
    } else renderPanel();
  });
  const onKey = (e) => { if (e.key === 'Escape' && page.entry.sel != null) { page.entry = { ...entries.EMPTY, mode: page.entry.mode }; render(); } };
  document.addEventListener('keydown', onKey);
  live.watch(id);
  return () => {
    clearTimeout(nextTimer);
    clearInterval(ticker);
    document.removeEventListener('keydown', onKey); off(); live.unwatch(); ctx.title('gridplay');
  };
}
