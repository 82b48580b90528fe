// The game page: the board, the players, the score and the actions. What may be played comes only from the
// server's list of legal moves (state.view.moves); entry.js decides how a click enters one of them, and
// gamestate.js how the socket's messages change what the page shows. This file draws and wires them.

import { Board } from './board.js';
import { h, api, toast, confirmDialog, navigate, playerLink, pref, moveSound } from './util.js';
import { gameOf, labeller, gameWord, specTitle } from './catalog.js';
import { t, errorText, timeLabel } from './i18n.js';
import * as entries from './entry.js';
import { initial, reduce, announce, moveLines, overText, sideName, SIDES, timeLeft, fmtClock, fmtSpan } from './gamestate.js';

const idx = (side) => (side === 'first' ? 0 : 1);

/** A player's name: linked with the rating for a user, the engine's level for the engine. */
function playerName(p) {
  if (p.name && p.id) return playerLink(p.name, p.rating ? { rating: p.rating, provisional: p.provisional } : null);
  if (p.name) return p.name;
  if (p.level) return t('engine.levelLong', { level: p.level });
  return '?';
}

/** A player's name as plain text. */
function playerText(p) {
  return p.name || (p.level ? t('engine.level', { level: p.level }) : '?');
}

/** The two players with their colours, clocks and scores. */
function playersNode(state, side, now) {
  const turn = state.view.turn;
  const score = state.view.score;
  return h('div', { class: 'players' }, [0, 1].map((i) => h('div', { class: 'player' + (turn === SIDES[i] ? ' turn' : ''), 'data-side': SIDES[i] },
    h('span', { class: 'swatch', style: `background:${state.sides[i].color}` }),
    h('span', {}, h('strong', {}, sideName(state, i)), ' ', playerName(state.players[i]), side === SIDES[i] ? ` ${t('game.you')}` : ''),
    state.clock ? h('span', { class: 'clock' + (state.clock.running === SIDES[i] ? ' running' : ''), 'data-clock': SIDES[i] }, fmtClock(timeLeft(state.clock, i, now))) : null,
    h('span', { class: 'score', 'data-score': SIDES[i] }, i === 0 ? score.first : score.second))));
}

/**
 * A phone's player bar: one side's swatch, name, clock and score in one line, shown above the board for the
 * opponent and below it for oneself (as on lichess's mobile view); hidden on wide screens.
 */
function playerBar(state, i, side, now) {
  const p = state.players[i];
  return h('div', { class: 'player' + (state.view.turn === SIDES[i] ? ' turn' : ''), 'data-bar': SIDES[i] },
    h('span', { class: 'swatch', style: `background:${state.sides[i].color}` }),
    h('span', { class: 'bar-name' }, p.name || (p.level ? t('engine.levelLong', { level: p.level }) : sideName(state, i)), side === SIDES[i] ? ` ${t('game.you')}` : ''),
    state.clock ? h('span', { class: 'clock' + (state.clock.running === SIDES[i] ? ' running' : ''), 'data-clock': SIDES[i] }, fmtClock(timeLeft(state.clock, i, now))) : null,
    h('span', { class: 'score' }, i === 0 ? state.view.score.first : state.view.score.second));
}

/** One line on whose turn it is, or how the game ended. */
function statusText(state, { myTurn, busy }) {
  const turn = state.view.turn;
  if (state.over) return t('game.over');
  if (myTurn) return busy ? t('game.sending') : t('game.yourTurn');
  const mover = turn && state.players[idx(turn)];
  if (mover && mover.level && !mover.name) return t('game.thinking');
  return turn ? t('game.toMove', { side: sideName(state, idx(turn)) }) : '';
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
    out.push(h('button', { class: 'secondary', disabled: entry.entered.length === 0, onclick: () => on.entry(entries.backUp(entry)) }, t('entry.backUp')));
    out.push(h('button', { disabled: exact.length !== 1, onclick: () => on.send(exact[0]) }, t('entry.submit')));
  }
  if (how !== 'path' && entry.sel != null && entry.dest == null) {
    out.push(h('button', { class: 'secondary', onclick: () => on.entry({ ...entries.EMPTY, mode: entry.mode }) }, t('entry.deselect')));
  }
  if (how !== 'path' && entry.dest != null) {
    const { files, ranks, width } = state.view;
    for (const m of entries.atDest(ms, entry)) {
      const where = m.target != null ? ' ' + files[m.target % width] + ranks[Math.floor(m.target / width)] : '';
      out.push(h('button', { onclick: () => on.send(m), 'data-move': m.text }, label(m.kind) + where));
    }
    out.push(h('button', { class: 'secondary', onclick: () => on.entry({ ...entry, dest: null }) }, t('entry.undo')));
  }
  return out;
}

/** The banner of a finished game: the result, the replay, the file, and rematches. */
function overBanner(state, id, { side, rematchOffer }, on) {
  return h('div', { class: 'banner', id: 'game-over' }, h('strong', {}, overText(state)),
    h('a', { href: '/', 'data-link': true }, t('backToLobby')), ' · ',
    h('a', { href: `/replay/${id}`, 'data-link': true, id: 'replay-link' }, t('game.replay')), ' · ',
    h('a', { href: `/api/games/${id}/export`, download: true }, t('game.download')),
    side && !state.tournament ? h('div', { class: 'actions' }, h('button', { id: 'rematch', onclick: on.rematch }, t('game.rematch'))) : null,
    rematchOffer ? h('div', { class: 'actions', id: 'rematch-offer' }, h('span', {}, t('game.rematchOffer', { name: rematchOffer.from })),
      h('button', { onclick: on.acceptRematch }, t('accept')), h('button', { class: 'secondary', onclick: on.declineRematch }, t('decline'))) : null);
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
  if (page.premove.length) m.hint = new Set(page.premove);
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
    pending: null, // a move waiting for the player's confirmation
    premove: [], // cells clicked during the opponent's turn in a live game
    spectators: 0,
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
  const cellName = (i) => { const v = state().view; return `${v.files[i % v.width]}${v.ranks[Math.floor(i / v.width)]}`; };
  // Premoves are for live games: cells clicked while the opponent thinks, played if legal when the turn comes.
  const canPremove = () => { const s = state(); return !!(s && !s.over && s.clock && mySide() && !myTurn()); };
  const canClaim = () => { const s = state(); return !!(s && !s.over && s.claimable && mySide() && s.view.turn !== mySide() && s.deadline != null && serverNow() >= s.deadline); };

  const boardBox = h('div', { class: 'board-wrap', id: 'board', 'aria-label': t('board.keys') });
  const panel = h('aside', { class: 'card' });
  // What a screen reader hears: every move, draw offers, the end, and a clock under ten seconds.
  const announcer = h('div', { class: 'sr-only', id: 'announce', 'aria-live': 'polite', role: 'status' });
  const say = (text) => { if (text) announcer.textContent = text; };
  // A move typed in the game's notation, completed from the legal moves.
  const legalList = h('datalist', { id: `legal-${id}` });
  const moveInput = h('input', { id: 'move-input', list: `legal-${id}`, autocomplete: 'off', 'aria-label': t('game.typeMove'), placeholder: t('game.typeMove') });
  const moveBox = h('form', { class: 'move-box', id: 'move-box', onsubmit: (e) => {
    e.preventDefault();
    const text = moveInput.value.trim();
    if (!text) return;
    const known = moves().find((m) => m.text.toLowerCase() === text.toLowerCase());
    // The server reads any spelling the game accepts, and says why a move is refused.
    send(known || { text });
    moveInput.value = '';
  } }, moveInput, legalList, h('button', { type: 'submit' }, t('lobby.play')));
  const legendBox = h('div', { class: 'legend muted', id: 'legend' });
  const barTop = h('div', { class: 'phone-bar', id: 'bar-top' });
  const barBottom = h('div', { class: 'phone-bar', id: 'bar-bottom' });
  // A board whose squares would be under 40 px (Grid Tactics on a phone) can be zoomed, then panned by scrolling.
  const scroller = h('div', { class: 'board-scroll' }, boardBox);
  const zoomButton = h('button', { class: 'small secondary', id: 'zoom', hidden: true, 'aria-pressed': 'false', onclick: () => {
    const on = !scroller.classList.contains('zoomed');
    scroller.classList.toggle('zoomed', on);
    zoomButton.setAttribute('aria-pressed', String(on));
    zoomButton.textContent = on ? t('game.zoomOut') : t('game.zoomIn');
    fitZoom();
  } }, t('game.zoomIn'));
  function fitZoom() {
    const s = state();
    if (!s) return;
    const zoomed = scroller.classList.contains('zoomed');
    boardBox.style.width = zoomed ? `${(s.view.width + 1) * 44}px` : '';
    boardBox.style.maxWidth = zoomed ? 'none' : '';
    const square = scroller.clientWidth / (s.view.width + 1);
    zoomButton.hidden = !zoomed && square >= 40;
  }
  window.addEventListener('resize', fitZoom);
  main.replaceChildren(h('div', { class: 'game' }, h('section', {}, barTop, scroller, barBottom, h('div', { class: 'row board-tools' }, moveBox, zoomButton), legendBox), panel), announcer);
  let lowWarned = false;
  const board = new Board(boardBox, {
    describe(i) {
      const s = state();
      if (!s) return '';
      const cell = s.view.cells[i];
      const piece = cell.piece ? `${cell.piece.owner ? sideName(s, idx(cell.piece.owner)) + ' ' : ''}${gameWord(s.game, cell.piece.kind)}` : t('board.empty');
      const m = boardMarks(page, moves());
      const can = m.legal.has(i) || m.reach.has(i) || m.targets.has(i) ? t('board.canPlay') : '';
      return piece + can;
    },
    onCell(i) {
      const ms = moves();
      if (!ms.length) {
        if (canPremove()) {
          const pre = page.premove;
          if (pre.length && pre[0] === i) page.premove = [];
          else if (how() === 'place' || pre.length >= entries.PREMOVE_CELLS[how()]) page.premove = [i];
          else page.premove = [...pre, i];
          render();
        } else if (state() && !state().over && mySide() && !myTurn()) toast(t('game.notYourTurn'));
        return;
      }
      enter(entries.click(how(), ms, page.entry, i, label));
    },
    onDrop(from, to) {
      const ms = moves();
      if (ms.length) enter(entries.drop(how(), ms, page.entry, from, to, label));
    },
    dragTargets(from) { return entries.dragTargets(how(), moves(), page.entry, from); },
  });

  /** Applies what a click or a drop meant: a new entry state, a move to send, or a word to the player. */
  function enter(r) {
    page.entry = r.entry;
    if (r.say) toast(r.say);
    if (r.send) return send(r.send);
    render();
  }

  async function send(m, confirmed = false) {
    // With confirmation on, a move waits for the player's yes in the panel.
    if (pref('confirm') && !confirmed) { page.pending = m; render(); return; }
    page.pending = null;
    page.busy = true;
    render();
    try {
      await live.act({ t: 'move', game: id, move: m.text, v: state().version });
      page.entry = { ...entries.EMPTY, mode: page.entry.mode };
    } catch (e) {
      toast(errorText(e) || t('game.moveRefused'));
      if (e.code === 'stale') page.entry = { ...entries.EMPTY, mode: page.entry.mode };
    } finally {
      page.busy = false;
      render();
    }
  }

  async function act(msg, question) {
    if (question && !(await confirmDialog(question, t('yes')))) return;
    try { await live.act({ ...msg, game: id }); } catch (e) { toast(errorText(e)); }
  }

  async function askHint() {
    try { page.hint = (await api(`/games/${id}/hint`)).move; render(); } catch (e) { toast(errorText(e)); }
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
        else toast(t('game.rematchOffered'));
      } catch (e) { toast(errorText(e)); }
    },
    async acceptRematch() {
      try {
        const r = await api(`/challenges/${page.model.rematchOffer.challenge}/accept`, {});
        navigate(`/game/${r.game}`);
      } catch (e) { toast(errorText(e)); page.model = { ...page.model, rematchOffer: null }; renderPanel(); }
    },
    async declineRematch() {
      try { await api(`/challenges/${page.model.rematchOffer.challenge}/decline`, {}); } catch (e) { toast(errorText(e)); }
      page.model = { ...page.model, rematchOffer: null };
      renderPanel();
    },
  };

  /** The actions of a player or a watcher besides entering moves. */
  function gameButtons(side) {
    const s = state();
    const out = [];
    if (myTurn() && !page.busy && s.hints) out.push(h('button', { class: 'secondary', id: 'hint', onclick: askHint }, page.hint ? t('game.hintIs', { move: page.hint }) : t('game.hint')));
    if (page.claimOpen) out.push(h('button', { id: 'claim', onclick: () => act({ t: 'claim' }, t('game.claimQuestion')) }, t('game.claim')));
    if (side && !s.over) {
      out.push(h('label', { class: 'toggle' }, h('input', { type: 'checkbox', id: 'show-legal', checked: page.showLegal, onchange: (e) => {
        page.showLegal = e.target.checked;
        localStorage.setItem('gridplay.showLegal', page.showLegal ? 'on' : 'off');
        render();
      } }), t('game.showLegal')));
    }
    if (page.nextGame && !myTurn()) out.push(h('button', { id: 'next-game', onclick: () => navigate(`/game/${page.nextGame}`) }, t('game.next')));
    if (side && !s.over) {
      const vsEngine = s.players.some((p) => p.level && !p.name);
      if (s.draw_offer && s.draw_offer !== side) {
        out.push(h('button', { id: 'accept-draw', onclick: () => act({ t: 'draw', answer: 'accept' }) }, t('game.acceptDraw')));
        out.push(h('button', { class: 'secondary', id: 'decline-draw', onclick: () => act({ t: 'draw', answer: 'decline' }) }, t('game.declineDraw')));
      } else if (!vsEngine) {
        // After an offer, a player waits some moves before offering again: the button says how many.
        const wait = (s.draw_again || [0, 0])[idx(side)];
        const words = s.draw_offer === side ? t('game.drawOffered') : wait > 0 ? t('game.drawAgainIn', { n: wait }) : t('game.offerDraw');
        out.push(h('button', { class: 'secondary', id: 'offer-draw', disabled: s.draw_offer === side || wait > 0, onclick: () => act({ t: 'draw', answer: 'offer' }) }, words));
      }
      if (s.takebacks && s.takeback_offer && s.takeback_offer !== side) {
        out.push(h('button', { id: 'takeback-accept', onclick: () => act({ t: 'takeback', answer: 'accept' }) }, t('game.acceptTakeback')));
        out.push(h('button', { class: 'secondary', id: 'takeback-decline', onclick: () => act({ t: 'takeback', answer: 'decline' }) }, t('game.declineTakeback')));
      } else if (s.takebacks && (s.movers || '').includes(side === 'first' ? 'f' : 's')) {
        out.push(h('button', { class: 'secondary', id: 'takeback', disabled: s.takeback_offer === side, onclick: () => act({ t: 'takeback', answer: 'offer' }) }, s.takeback_offer === side ? t('game.takebackAsked') : t('game.takeback')));
      }
      if (s.abortable) out.push(h('button', { class: 'secondary', id: 'abort', onclick: () => act({ t: 'abort' }, t('game.abortQuestion')) }, t('game.abort')));
      else out.push(h('button', { class: 'danger', id: 'resign', onclick: () => act({ t: 'resign' }, t('game.resignQuestion')) }, t('game.resign')));
    }
    return out;
  }

  function renderPanel() {
    const s = state();
    const side = mySide();
    page.claimOpen = canClaim();
    const tags = [timeLabel(s.time_label), s.rated ? t('game.rated') : t('game.casual'), s.help ? t('game.helpAllowed') : null].filter(Boolean);
    const meta = h('p', { class: 'muted', id: 'game-meta' }, `${specTitle(s.spec)} · ${tags.join(' · ')}`,
      page.spectators ? h('span', { id: 'spectators' }, ` · ${t('game.spectators', { n: page.spectators })}`) : null,
      s.tournament ? [' · ', h('a', { href: `/tournament/${s.tournament.id}`, 'data-link': true }, t('game.tournamentRound', { round: s.tournament.round }))] : null,
      side ? null : ` · ${t('game.youWatch')}`);
    const children = [h('h1', {}, gameOf(s.game).title), meta, playersNode(s, side, serverNow()), h('p', { class: 'status', id: 'status' }, statusText(s, { myTurn: myTurn(), busy: page.busy }))];
    if (!s.over && !s.clock && s.deadline != null) {
      children.push(h('p', { class: 'muted' }, t('game.timeForMove'), ' ', h('span', { id: 'deadline' }, fmtSpan(s.deadline - serverNow()))));
    }
    if (s.draw_offer && !s.over) {
      const who = s.draw_offer === side ? t('game.youOfferedDraw') : t('game.offersDraw', { side: sideName(s, idx(s.draw_offer)), name: playerText(s.players[idx(s.draw_offer)]) });
      children.push(h('p', { id: 'draw-offer', class: 'notice' }, who));
    }
    if (!page.model.connected) children.push(h('p', { class: 'connection' }, t('game.reconnecting')));
    if (s.view.info.length) children.push(h('dl', { class: 'info' }, s.view.info.map(([k, v]) => [h('dt', {}, gameWord(s.game, k)), h('dd', {}, gameWord(s.game, v))])));
    if (s.over) children.push(overBanner(s, id, { side, rematchOffer: page.model.rematchOffer }, rematches));
    if (page.premove.length && canPremove()) {
      children.push(h('div', { class: 'notice actions', id: 'premove' }, h('span', {}, t('game.premove', { cells: page.premove.map(cellName).join(' → ') })),
        h('button', { class: 'secondary', onclick: () => { page.premove = []; render(); } }, t('game.cancelPremove'))));
    }
    if (s.takeback_offer && !s.over) {
      const who = s.takeback_offer === side ? t('game.youAskedTakeback') : t('game.asksTakeback', { side: sideName(s, idx(s.takeback_offer)) });
      children.push(h('p', { id: 'takeback-offer', class: 'notice' }, who));
    }
    if (page.pending && myTurn()) {
      children.push(h('div', { class: 'notice actions', id: 'confirm-move' }, h('span', {}, t('game.confirmMove', { move: page.pending.text })),
        h('button', { id: 'confirm-move-yes', onclick: () => send(page.pending, true) }, t('game.confirmYes')),
        h('button', { class: 'secondary', onclick: () => { page.pending = null; render(); } }, t('cancel'))));
    }
    const onEntry = { entry: (e) => { page.entry = e; render(); }, send };
    children.push(h('div', { class: 'actions' }, ...entryButtons(how(), moves(), page.entry, s, label, onEntry), ...gameButtons(side)));
    // The move box stays in place (typing is not lost when the panel redraws); it shows for a player.
    moveBox.hidden = !side || !!s.over;
    legalList.replaceChildren(...moves().map((m) => h('option', { value: m.text })));
    moveInput.disabled = !myTurn();
    const list = movesNode(s);
    children.push(h('h2', {}, t('game.moves')), list);
    // A redraw keeps the keyboard's place: the button that had the focus has it again.
    const focused = panel.contains(document.activeElement) && document.activeElement.id;
    panel.replaceChildren(...children);
    if (focused) { const again = panel.querySelector(`#${focused}`); if (again) again.focus(); }
    list.scrollTop = list.scrollHeight;
  }

  function render() {
    const s = state();
    if (!s) return;
    // The legend of the pieces whose drawing needs words.
    legendBox.replaceChildren(...(gameOf(s.game).legend || []).map(([, words]) => h('p', {}, words)));
    const side = mySide();
    // On a phone the player at the bottom is oneself (or, for a watcher, the side drawn at the bottom).
    const turned = side ? s.rotate[idx(side)] : false;
    const below = side ? idx(side) : (turned ? 1 : 0);
    barTop.replaceChildren(playerBar(s, 1 - below, side, serverNow()));
    barBottom.replaceChildren(playerBar(s, below, side, serverNow()));
    // Whether the board needs a zoom depends on its size and the screen's, not on the move: measured once
    // it is on screen (a measure forces the page's layout), and again when the window changes.
    if (!page.fitted) { page.fitted = true; requestAnimationFrame(fitZoom); }
    board.render(s, turned, boardMarks(page, moves()), gameOf(s.game).look);
    page.lastRendered = s.version;
    ctx.title((myTurn() ? `● ${t('game.yourTurn')} · ` : '') + `${gameOf(s.game).title} · gridplay`);
    // The board comes first: the page's first frame shows it, and the panel follows in the next.
    if (page.panelDrawn) renderPanel();
    else if (!page.panelSoon) {
      page.panelSoon = true;
      requestAnimationFrame(() => { page.panelDrawn = true; if (state()) renderPanel(); });
    }
  }

  /** Updates the clocks in place, several times a second, without redrawing the page. */
  function tick() {
    const s = state();
    if (!s) return;
    for (const i of [0, 1]) {
      const left = timeLeft(s.clock, i, serverNow());
      for (const el of main.querySelectorAll(`[data-clock="${SIDES[i]}"]`)) {
        if (left == null) continue;
        el.textContent = fmtClock(left);
        el.classList.toggle('low', left < 20000);
      }
      if (left != null && SIDES[i] === mySide() && !s.over) {
        if (left < 10000 && !lowWarned) { lowWarned = true; say(t('game.tenSeconds')); }
        if (left >= 10000) lowWarned = false;
      }
    }
    const d = panel.querySelector('#deadline');
    if (d && s.deadline != null && !s.clock) d.textContent = fmtSpan(s.deadline - serverNow());
    if (canClaim() !== page.claimOpen) renderPanel();
  }
  const ticker = setInterval(tick, 200);
  // Watchers come and go without a move: the count is asked for now and then.
  async function countSpectators() {
    try {
      const n = (await api(`/games/${id}/spectators`)).spectators;
      if (n !== page.spectators) { page.spectators = n; if (state()) renderPanel(); }
    } catch { /* the next look tries again */ }
  }
  const counter = setInterval(countSpectators, 5000);
  setTimeout(countSpectators, 800);

  const off = live.on((msg) => {
    const r = reduce(page.model, msg, { me: me ? me.id : null, now: Date.now() });
    if (r.effect && r.effect.navigate) { navigate(r.effect.navigate); return; }
    if (r.model === page.model) return;
    page.model = r.model;
    if (page.model.unavailable) {
      main.replaceChildren(h('div', { class: 'card' }, h('h1', {}, t('game.unavailable')), h('p', {}, errorText(page.model.unavailable)), h('a', { href: '/', 'data-link': true }, t('backToLobby'))));
      return;
    }
    if (!state()) return;
    if (r.changed) { page.entry = entries.EMPTY; page.hint = null; page.pending = null; }
    // A premove plays as soon as the turn comes, if it names one legal move.
    let premoved = null;
    if (r.changed && page.premove.length && myTurn() && !page.busy) {
      premoved = entries.premoveMatch(how(), state().view.moves, page.premove, page.entry.mode);
      page.premove = [];
      if (!premoved) toast(t('game.premoveDropped'));
    }
    if (state() && (state().over || !state().clock)) page.premove = [];
    if (msg.t === 'event') {
      say(announce({ ...msg, state: state() }));
      if (msg.action && msg.action.kind === 'move') moveSound(state().over ? 'end' : msg.action.side === mySide() ? 'mine' : 'theirs');
    }
    if (msg.t === 'sync' || msg.t === 'event') {
      if (mySide() && !myTurn()) refreshNext();
      render();
    } else renderPanel();
    if (premoved) send(premoved, true);
  });
  const onKey = (e) => {
    if (e.key !== 'Escape') return;
    if (page.entry.sel != null) { page.entry = { ...entries.EMPTY, mode: page.entry.mode }; render(); }
    if (page.premove.length) { page.premove = []; render(); }
  };
  document.addEventListener('keydown', onKey);
  // The page came with the game's state: it is drawn at once, and the socket sends only what follows it.
  const booted = ctx.takeBootGame(id);
  if (booted) {
    page.model = reduce(page.model, { t: 'sync', game: id, state: booted.state, now: booted.now }, { me: me ? me.id : null, now: Date.now() }).model;
    render();
  }
  live.watch(id, booted ? booted.state.version : null);
  return () => {
    clearTimeout(nextTimer);
    clearInterval(ticker);
    clearInterval(counter);
    window.removeEventListener('resize', fitZoom);
    document.removeEventListener('keydown', onKey); off(); live.unwatch(); ctx.title('gridplay');
  };
}
