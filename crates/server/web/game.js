// The game page: the board, the players, the score and the actions. What may be played comes only from the
// server's list of legal moves (state.view.moves); entry.js decides how a click enters one of them, and
// gamestate.js how the socket's messages change what the page shows. This file draws and wires them.

import { Board } from './board.js';
import { ChatBox } from './chat.js';
import { h, api, toast, confirmDialog, navigate, playerLink, pref, moveSound, afterPaint, analysisUrl, path } from './util.js';
import { gameOf, labeller, gameWord, specTitle } from './catalog.js';
import { t, errorText, timeLabel } from './i18n.js';
import { EMPTY, PREMOVE_CELLS, atDest, backUp, buttons, click, complete, dragTargets, drop, final, marks, modeOf, placeKinds, premoveMatch } from './entry.js';
import { initial, reduce, announce, moveLines, overText, sideName, SIDES, timeLeft, fmtClock, fmtSpan } from './gamestate.js';

const idx = (side) => (side === 'first' ? 0 : 1);

/** A player's name: linked with the rating for a user, the engine's level for the engine. */
function playerName(p) {
  if (p.name && p.id) return playerLink(p.name, p.rating ? { rating: p.rating, provisional: p.provisional } : null, p.bot);
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
  const kinds = placeKinds(ms);
  if (kinds.length > 1) {
    for (const k of kinds) {
      const pressed = modeOf(ms, entry) === k;
      out.push(h('button', { class: pressed ? '' : 'secondary', 'aria-pressed': String(pressed), 'data-mode': k, onclick: () => on.entry({ ...entry, mode: k }) }, label(k)));
    }
  }
  for (const m of buttons(ms)) out.push(h('button', { onclick: () => on.send(m), 'data-move': m.text }, label(m.kind)));
  if (how === 'path' && entry.sel != null) {
    const exact = complete(ms, entry);
    out.push(h('button', { class: 'secondary', disabled: entry.entered.length === 0, onclick: () => on.entry(backUp(entry)) }, t('entry.backUp')));
    out.push(h('button', { disabled: exact.length !== 1, onclick: () => on.send(exact[0]) }, t('entry.submit')));
  }
  if (how !== 'path' && entry.sel != null && entry.dest == null) {
    out.push(h('button', { class: 'secondary', onclick: () => on.entry({ ...EMPTY, mode: entry.mode }) }, t('entry.deselect')));
  }
  if (how !== 'path' && entry.dest != null) {
    const { files, ranks, width } = state.view;
    for (const m of atDest(ms, entry)) {
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
    h('a', { href: path`/replay/${id}`, 'data-link': true, id: 'replay-link' }, t('game.replay')), ' · ',
    h('a', { href: path`/api/games/${id}/export`, download: true }, t('game.download')), ' · ',
    h('a', { href: analysisUrl(state.game, state.spec, null, state.moves), 'data-link': true, id: 'analyse-game' }, t('analysis.fromHere')),
    side && !state.tournament ? h('div', { class: 'actions' }, h('button', { id: 'rematch', onclick: on.rematch }, t('game.rematch'))) : null,
    rematchOffer ? h('div', { class: 'actions', id: 'rematch-offer' }, h('span', {}, t('game.rematchOffer', { name: rematchOffer.from })),
      h('button', { onclick: on.acceptRematch }, t('accept')), h('button', { class: 'secondary', onclick: on.declineRematch }, t('decline'))) : null);
}

/** The board's marks: the entry so far, the last move, and a hint. */
function boardMarks(page, ms) {
  const { state } = page.model;
  const game = gameOf(state.game);
  const m = marks(game.entry, ms, page.entry, state.view.cells, page.showLegal, game.look.helping);
  m.last = new Set();
  m.hoverTint = game.look.cursor_tint;
  const lm = state.last_move;
  if (lm) {
    if (lm.from != null) m.last.add(lm.from);
    for (const c of lm.path) m.last.add(c);
    if (lm.target != null) m.last.add(lm.target);
    m.movedFrom = lm.from; m.movedTo = lm.from != null ? final(lm) : null;
  }
  if (page.lastRendered === state.version) { m.movedFrom = null; m.movedTo = null; }
  const hinted = page.hint && ms.find((mv) => mv.text === page.hint);
  if (hinted) m.hint = new Set([hinted.from, ...hinted.path, hinted.target].filter((c) => c != null));
  if (page.premove.length) m.hint = new Set(page.premove);
  return m;
}

/** The game page: `gamePage` makes one and returns its leaving. */
export function gamePage(main, id, ctx) {
  const page = new GamePage(main, id, ctx);
  return () => page.leave();
}

/**
 * One game page. Its model (`this.model`: what the socket said) and what the player is doing here (the entry,
 * a hint, a premove...) are fields; each method has one job: build the page, answer the board, send a move,
 * draw the panel's parts, follow the socket and the clocks.
 */
class GamePage {
  constructor(main, id, ctx) {
    this.main = main;
    this.id = id;
    this.ctx = ctx;
    this.model = initial(id);
    this.entry = EMPTY;
    this.busy = false;
    this.hint = null; // the engine's suggested move text, until the position changes
    this.showLegal = localStorage.getItem('gridplay.showLegal') !== 'off';
    this.nextGame = null; // another game of mine where it is my turn
    this.lastRendered = -1;
    this.claimOpen = false;
    this.pending = null; // a move waiting for the player's confirmation
    this.premove = []; // cells clicked during the opponent's turn in a live game
    this.spectators = 0;
    this.lowWarned = false;
    /** @type {import('./chat.js').ChatBox|false|null} the chat box, made after the first board; false where no one would read this page's lines */
    this.chat = null;
    this.chatLines = null; // lines that came before the box
    this.build();
    this.board = this.makeBoard();
    this.listen();
    this.start();
  }

  // The model, as the page reads it.
  state() { return this.model.state; }
  serverNow() { return Date.now() + this.model.offset; }
  mySide() {
    const s = this.state();
    const me = this.ctx.me;
    if (!s || !me) return null;
    const i = s.players.findIndex((p) => p.id === me.id);
    return i < 0 ? null : SIDES[i];
  }
  myTurn() { const s = this.state(); return !!(s && !s.over && s.view.turn && s.view.turn === this.mySide()); }
  moves() { return this.myTurn() && !this.busy ? this.state().view.moves : []; }
  how() { return gameOf(this.state().game).entry; }
  label(kind) { return labeller(this.state().game)(kind); }
  cellName(i) { const v = this.state().view; return `${v.files[i % v.width]}${v.ranks[Math.floor(i / v.width)]}`; }
  // Premoves are for live games: cells clicked while the opponent thinks, played if legal when the turn comes.
  canPremove() { const s = this.state(); return !!(s && !s.over && s.clock && this.mySide() && !this.myTurn()); }
  canClaim() {
    const s = this.state();
    return !!(s && !s.over && s.claimable && this.mySide() && s.view.turn !== this.mySide() && s.deadline != null && this.serverNow() >= s.deadline);
  }
  /** The opponent whose pages are all gone from this live game (`{since, claim_at}`), for a player. */
  opponentGone() {
    const s = this.state();
    const side = this.mySide();
    if (!s || s.over || !side || !s.gone) return null;
    return s.gone[side === 'first' ? 1 : 0] || null;
  }
  /** Whether the opponent has been gone long enough to be claimed against. */
  canClaimLeft() { const g = this.opponentGone(); return !!(g && this.serverNow() >= g.claim_at); }
  /** The countdown's words: the seconds until the opponent who left may be claimed against. */
  claimCountdown(gone) { return t('game.claimIn', { n: Math.max(0, Math.ceil((gone.claim_at - this.serverNow()) / 1000)) }); }

  /** The page's elements: the board and its tools, the phone's bars, the panel, the announcer. */
  build() {
    const { id } = this;
    this.boardBox = h('div', { class: 'board-wrap', id: 'board', 'aria-label': t('board.keys') });
    this.panel = h('aside', { class: 'card' });
    // What a screen reader hears: every move, draw offers, the end, and a clock under ten seconds.
    this.announcer = h('div', { class: 'sr-only', id: 'announce', 'aria-live': 'polite', role: 'status' });
    // A move typed in the game's notation, completed from the legal moves.
    this.legalList = h('datalist', { id: `legal-${id}` });
    this.moveInput = h('input', { id: 'move-input', list: `legal-${id}`, autocomplete: 'off', 'aria-label': t('game.typeMove'), placeholder: t('game.typeMove') });
    this.moveBox = h('form', { class: 'move-box', id: 'move-box', onsubmit: (e) => { e.preventDefault(); this.typed(); } },
      this.moveInput, this.legalList, h('button', { type: 'submit' }, t('lobby.play')));
    this.legendBox = h('div', { class: 'legend muted', id: 'legend' });
    this.barTop = h('div', { class: 'phone-bar', id: 'bar-top' });
    this.barBottom = h('div', { class: 'phone-bar', id: 'bar-bottom' });
    // A board whose squares would be under 40 px (Grid Tactics on a phone) can be zoomed, then panned by scrolling.
    this.scroller = h('div', { class: 'board-scroll' }, this.boardBox);
    this.zoomButton = h('button', { class: 'small secondary', id: 'zoom', hidden: true, 'aria-pressed': 'false', onclick: () => this.toggleZoom() }, t('game.zoomIn'));
    this.chatSlot = h('div', { class: 'chat-slot' });
    this.main.replaceChildren(h('div', { class: 'game' },
      h('section', {}, this.barTop, this.scroller, this.barBottom, h('div', { class: 'row board-tools' }, this.moveBox, this.zoomButton), this.legendBox),
      this.panel, this.chatSlot), this.announcer);
  }

  say(text) { if (text) this.announcer.textContent = text; }

  /** A move typed in the move box: a legal move's spelling, or any the server reads (it says why not). */
  typed() {
    const text = this.moveInput.value.trim();
    if (!text) return;
    const known = this.moves().find((m) => m.text.toLowerCase() === text.toLowerCase());
    this.send(known || { text });
    this.moveInput.value = '';
  }

  toggleZoom() {
    const on = !this.scroller.classList.contains('zoomed');
    this.scroller.classList.toggle('zoomed', on);
    this.zoomButton.setAttribute('aria-pressed', String(on));
    this.zoomButton.textContent = on ? t('game.zoomOut') : t('game.zoomIn');
    this.fitZoom();
  }

  fitZoom() {
    const s = this.state();
    if (!s) return;
    const zoomed = this.scroller.classList.contains('zoomed');
    this.boardBox.style.width = zoomed ? `${(s.view.width + 1) * 44}px` : '';
    this.boardBox.style.maxWidth = zoomed ? 'none' : '';
    const square = this.scroller.clientWidth / (s.view.width + 1);
    this.zoomButton.hidden = !zoomed && square >= 40;
  }

  /** The board, which tells the page what the player did on it. */
  makeBoard() {
    return new Board(this.boardBox, {
      describe: (i) => this.describe(i),
      onCell: (i) => this.onCell(i),
      onDrop: (from, to) => {
        const ms = this.moves();
        if (ms.length) this.enter(drop(this.how(), ms, this.entry, from, to, (k) => this.label(k)));
      },
      dragTargets: (from) => dragTargets(this.how(), this.moves(), this.entry, from),
    });
  }

  /** What a screen reader hears of cell i: its piece, and whether a move can be played there. */
  describe(i) {
    const s = this.state();
    if (!s) return '';
    const cell = s.view.cells[i];
    const piece = cell.piece ? `${cell.piece.owner ? sideName(s, idx(cell.piece.owner)) + ' ' : ''}${gameWord(s.game, cell.piece.kind)}` : t('board.empty');
    const m = boardMarks(this, this.moves());
    const can = m.legal.has(i) || m.reach.has(i) || m.targets.has(i) ? t('board.canPlay') : '';
    return piece + can;
  }

  /** A click on cell i: part of a move on the player's turn, a premove on the opponent's in a live game. */
  onCell(i) {
    const ms = this.moves();
    if (ms.length) { this.enter(click(this.how(), ms, this.entry, i, (k) => this.label(k))); return; }
    if (this.canPremove()) {
      const pre = this.premove;
      if (pre.length && pre[0] === i) this.premove = [];
      else if (this.how() === 'place' || pre.length >= PREMOVE_CELLS[this.how()]) this.premove = [i];
      else this.premove = [...pre, i];
      this.render();
    } else if (this.state() && !this.state().over && this.mySide() && !this.myTurn()) toast(t('game.notYourTurn'));
  }

  /** Applies what a click or a drop meant: a new entry state, a move to send, or a word to the player. */
  enter(r) {
    this.entry = r.entry;
    if (r.say) toast(r.say);
    if (r.send) return this.send(r.send);
    this.render();
  }

  async send(m, confirmed = false) {
    // With confirmation on, a move waits for the player's yes in the panel.
    if (pref('confirm') && !confirmed) { this.pending = m; this.render(); return; }
    this.pending = null;
    this.busy = true;
    this.render();
    try {
      await this.ctx.live.act({ t: 'move', game: this.id, move: m.text, v: this.state().version });
      this.entry = { ...EMPTY, mode: this.entry.mode };
    } catch (e) {
      toast(errorText(e) || t('game.moveRefused'));
      if (e.code === 'stale') this.entry = { ...EMPTY, mode: this.entry.mode };
    } finally {
      this.busy = false;
      this.render();
    }
  }

  async act(msg, question) {
    if (question && !(await confirmDialog(question, t('yes')))) return;
    try { await this.ctx.live.act({ ...msg, game: this.id }); } catch (e) { toast(errorText(e)); }
  }

  async askHint() {
    try { this.hint = (await api(path`/games/${this.id}/hint`)).move; this.render(); } catch (e) { toast(errorText(e)); }
  }

  /** Looks, a little later, for another game where it is the player's turn. */
  refreshNext() {
    clearTimeout(this.nextTimer);
    this.nextTimer = setTimeout(async () => {
      try {
        const lobby = await api('/lobby');
        const g = (lobby.games || []).find((x) => x.my_turn && x.id !== this.id);
        const found = g ? g.id : null;
        if (found !== this.nextGame) { this.nextGame = found; if (this.state()) this.renderPanel(); }
      } catch { /* the next render tries again */ }
    }, 300);
  }

  async rematch() {
    try {
      const r = await api(path`/games/${this.id}/rematch`, {});
      if (r.game) navigate(path`/game/${r.game}`);
      else toast(t('game.rematchOffered'));
    } catch (e) { toast(errorText(e)); }
  }

  async answerRematch(accept) {
    const challenge = this.model.rematchOffer.challenge;
    try {
      const r = await api(path`/challenges/${challenge}/${accept ? 'accept' : 'decline'}`, {});
      if (accept) { navigate(path`/game/${r.game}`); return; }
    } catch (e) { toast(errorText(e)); }
    this.model = { ...this.model, rematchOffer: null };
    this.renderPanel();
  }

  /** The help a player has: the hint where allowed, the legal moves' display, the next game waiting. */
  helpButtons(side) {
    const s = this.state();
    const out = [];
    if (this.myTurn() && !this.busy && s.hints) out.push(h('button', { class: 'secondary', id: 'hint', onclick: () => this.askHint() }, this.hint ? t('game.hintIs', { move: this.hint }) : t('game.hint')));
    if (this.claimOpen) out.push(h('button', { id: 'claim', onclick: () => this.act({ t: 'claim' }, t('game.claimQuestion')) }, t('game.claim')));
    if (side && !s.over) {
      out.push(h('label', { class: 'toggle' }, h('input', { type: 'checkbox', id: 'show-legal', checked: this.showLegal, onchange: (e) => {
        this.showLegal = e.target.checked;
        localStorage.setItem('gridplay.showLegal', this.showLegal ? 'on' : 'off');
        this.render();
      } }), t('game.showLegal')));
    }
    if (this.nextGame && !this.myTurn()) out.push(h('button', { id: 'next-game', onclick: () => navigate(path`/game/${this.nextGame}`) }, t('game.next')));
    return out;
  }

  /** A player's offers and answers: draws, takebacks, and abort or resign. */
  playerButtons(side) {
    const s = this.state();
    const out = [];
    const act = (msg, question) => () => this.act(msg, question);
    const vsEngine = s.players.some((p) => p.level && !p.name);
    if (s.draw_offer && s.draw_offer !== side) {
      out.push(h('button', { id: 'accept-draw', onclick: act({ t: 'draw', answer: 'accept' }) }, t('game.acceptDraw')));
      out.push(h('button', { class: 'secondary', id: 'decline-draw', onclick: act({ t: 'draw', answer: 'decline' }) }, t('game.declineDraw')));
    } else if (!vsEngine) {
      // After an offer, a player waits some moves before offering again: the button says how many.
      const wait = (s.draw_again || [0, 0])[idx(side)];
      const words = s.draw_offer === side ? t('game.drawOffered') : wait > 0 ? t('game.drawAgainIn', { n: wait }) : t('game.offerDraw');
      out.push(h('button', { class: 'secondary', id: 'offer-draw', disabled: s.draw_offer === side || wait > 0, onclick: act({ t: 'draw', answer: 'offer' }) }, words));
    }
    if (s.takebacks && s.takeback_offer && s.takeback_offer !== side) {
      out.push(h('button', { id: 'takeback-accept', onclick: act({ t: 'takeback', answer: 'accept' }) }, t('game.acceptTakeback')));
      out.push(h('button', { class: 'secondary', id: 'takeback-decline', onclick: act({ t: 'takeback', answer: 'decline' }) }, t('game.declineTakeback')));
    } else if (s.takebacks && (s.movers || '').includes(side === 'first' ? 'f' : 's')) {
      out.push(h('button', { class: 'secondary', id: 'takeback', disabled: s.takeback_offer === side, onclick: act({ t: 'takeback', answer: 'offer' }) }, s.takeback_offer === side ? t('game.takebackAsked') : t('game.takeback')));
    }
    if (s.abortable) out.push(h('button', { class: 'secondary', id: 'abort', onclick: act({ t: 'abort' }, t('game.abortQuestion')) }, t('game.abort')));
    else out.push(h('button', { class: 'danger', id: 'resign', onclick: act({ t: 'resign' }, t('game.resignQuestion')) }, t('game.resign')));
    return out;
  }

  /** The panel's head: the title, the game's settings and tags, the players and the status. */
  panelHead(s, side) {
    const tags = [timeLabel(s.time), s.rated ? t('game.rated') : t('game.casual'), s.help ? t('game.helpAllowed') : null].filter(Boolean);
    const meta = h('p', { class: 'muted', id: 'game-meta' }, `${specTitle(s.spec)} · ${tags.join(' · ')}`,
      this.spectators ? h('span', { id: 'spectators' }, ` · ${t('game.spectators', { n: this.spectators })}`) : null,
      s.tournament ? [' · ', h('a', { href: path`/tournament/${s.tournament.id}`, 'data-link': true }, t('game.tournamentRound', { round: s.tournament.round }))] : null,
      side ? null : ` · ${t('game.youWatch')}`);
    const out = [h('h1', {}, gameOf(s.game).title), meta, playersNode(s, side, this.serverNow()), h('p', { class: 'status', id: 'status' }, statusText(s, { myTurn: this.myTurn(), busy: this.busy }))];
    if (!s.over && !s.clock && s.deadline != null) {
      out.push(h('p', { class: 'muted' }, t('game.timeForMove'), ' ', h('span', { id: 'deadline' }, fmtSpan(s.deadline - this.serverNow()))));
    }
    return out;
  }

  /** The panel's notices: offers, the connection, the game's facts, the end, a premove, a move to confirm. */
  panelNotices(s, side) {
    const out = [];
    if (s.draw_offer && !s.over) {
      const who = s.draw_offer === side ? t('game.youOfferedDraw') : t('game.offersDraw', { side: sideName(s, idx(s.draw_offer)), name: playerText(s.players[idx(s.draw_offer)]) });
      out.push(h('p', { id: 'draw-offer', class: 'notice' }, who));
    }
    if (!this.model.connected) out.push(h('p', { class: 'connection' }, t('game.reconnecting')));
    if (s.view.info.length) out.push(h('dl', { class: 'info' }, s.view.info.map(([k, v]) => [h('dt', {}, gameWord(s.game, k)), h('dd', {}, gameWord(s.game, v))])));
    if (s.over) {
      out.push(overBanner(s, this.id, { side, rematchOffer: this.model.rematchOffer },
        { rematch: () => this.rematch(), acceptRematch: () => this.answerRematch(true), declineRematch: () => this.answerRematch(false) }));
    }
    if (this.premove.length && this.canPremove()) {
      out.push(h('div', { class: 'notice actions', id: 'premove' }, h('span', {}, t('game.premove', { cells: this.premove.map((c) => this.cellName(c)).join(' → ') })),
        h('button', { class: 'secondary', onclick: () => { this.premove = []; this.render(); } }, t('game.cancelPremove'))));
    }
    if (s.takeback_offer && !s.over) {
      const who = s.takeback_offer === side ? t('game.youAskedTakeback') : t('game.asksTakeback', { side: sideName(s, idx(s.takeback_offer)) });
      out.push(h('p', { id: 'takeback-offer', class: 'notice' }, who));
    }
    const gone = this.opponentGone();
    if (gone) {
      // The opponent's pages are all gone: a countdown (not read aloud each second), then the claims.
      out.push(this.canClaimLeft()
        ? h('div', { class: 'notice actions', id: 'opponent-gone', 'data-claim': 'open' }, h('span', {}, t('game.opponentGoneClaim')),
          h('button', { id: 'claim-win', onclick: () => this.act({ t: 'claim' }, t('game.claimWinQuestion')) }, t('game.claimWin')),
          h('button', { class: 'secondary', id: 'claim-draw', onclick: () => this.act({ t: 'claim', draw: true }, t('game.claimDrawQuestion')) }, t('game.claimDraw')))
        : h('p', { class: 'notice', id: 'opponent-gone', 'data-claim': 'waiting' }, t('game.opponentGone'), ' ', h('span', { id: 'claim-countdown' }, this.claimCountdown(gone))));
    }
    if (this.pending && this.myTurn()) {
      out.push(h('div', { class: 'notice actions', id: 'confirm-move' }, h('span', {}, t('game.confirmMove', { move: this.pending.text })),
        h('button', { id: 'confirm-move-yes', onclick: () => this.send(this.pending, true) }, t('game.confirmYes')),
        h('button', { class: 'secondary', onclick: () => { this.pending = null; this.render(); } }, t('cancel'))));
    }
    return out;
  }

  /** Draws the panel from the model, keeping the keyboard's place and the move box's typing. */
  renderPanel() {
    const s = this.state();
    const side = this.mySide();
    this.claimOpen = this.canClaim();
    const onEntry = { entry: (e) => { this.entry = e; this.render(); }, send: (m) => this.send(m) };
    const actions = [...entryButtons(this.how(), this.moves(), this.entry, s, (k) => this.label(k), onEntry), ...this.helpButtons(side), ...(side && !s.over ? this.playerButtons(side) : [])];
    const list = movesNode(s);
    const children = [...this.panelHead(s, side), ...this.panelNotices(s, side), h('div', { class: 'actions' }, ...actions), h('h2', {}, t('game.moves')), list];
    // The move box stays in place (typing is not lost when the panel redraws); it shows for a player.
    this.moveBox.hidden = !side || !!s.over;
    this.legalList.replaceChildren(...this.moves().map((m) => h('option', { value: m.text })));
    this.moveInput.disabled = !this.myTurn();
    // A redraw keeps the keyboard's place: the button that had the focus has it again.
    const focused = this.panel.contains(document.activeElement) && document.activeElement.id;
    this.panel.replaceChildren(...children);
    if (focused) { const again = this.panel.querySelector(`#${focused}`); if (again) again.focus(); }
    list.scrollTop = list.scrollHeight;
  }

  /** Draws the board, the phone's bars and the legend, then the panel (in the next frame the first time). */
  render() {
    const s = this.state();
    if (!s) return;
    // The legend of the pieces whose drawing needs words.
    this.legendBox.replaceChildren(...(gameOf(s.game).legend || []).map(({ words }) => h('p', {}, words)));
    const side = this.mySide();
    // On a phone the player at the bottom is oneself (or, for a watcher, the side drawn at the bottom).
    const turned = side ? s.rotate[idx(side)] : false;
    const below = side ? idx(side) : (turned ? 1 : 0);
    this.barTop.replaceChildren(playerBar(s, 1 - below, side, this.serverNow()));
    this.barBottom.replaceChildren(playerBar(s, below, side, this.serverNow()));
    // Whether the board needs a zoom depends on its size and the screen's, not on the move: measured once
    // it is on screen (a measure forces the page's layout), and again when the window changes.
    if (!this.fitted) { this.fitted = true; afterPaint(() => this.fitZoom()); }
    this.board.render(s, turned, boardMarks(this, this.moves()), gameOf(s.game).look);
    this.lastRendered = s.version;
    this.ctx.title((this.myTurn() ? `● ${t('game.yourTurn')} · ` : '') + `${gameOf(s.game).title} · gridplay`);
    // The board comes first: the page's first frame shows it alone, and the panel is built once it is painted.
    if (this.panelDrawn) this.renderPanel();
    else if (!this.panelSoon) {
      this.panelSoon = true;
      afterPaint(() => { this.panelDrawn = true; if (this.state()) { this.renderPanel(); this.makeChat(); } });
    }
  }

  /**
   * The chat box: the players' room for a player, the spectators' room for anyone else. A player against the
   * engine has none (no one would read it). Lines are sent once over the socket, never resent.
   */
  makeChat() {
    const s = this.state();
    if (this.chat !== null || !s) return;
    const side = this.mySide();
    if (side && s.players.some((p) => p.level != null || !p.id)) { this.chat = false; return; }
    this.chat = new ChatBox({
      game: this.id,
      me: this.ctx.me,
      room: side ? 'players' : 'spectators',
      send: (text) => {
        if (!this.ctx.live.open) return false;
        this.ctx.live.raw({ t: 'chat', game: this.id, text, ack: `chat-${Date.now().toString(36)}` });
        return true;
      },
    });
    if (this.chatLines) this.chat.reset(this.chatLines);
    this.chatSlot.replaceChildren(this.chat.node);
  }

  /** Chat lines from the socket: all the page may read (`reset`), or new ones. */
  onChat(msg) {
    if (!this.chat) {
      this.chatLines = msg.reset ? msg.lines : [...(this.chatLines || []), ...msg.lines];
      return;
    }
    if (msg.reset) this.chat.reset(msg.lines); else this.chat.add(msg.lines);
  }

  /** Updates the clocks in place, several times a second, without redrawing the page. */
  tick() {
    const s = this.state();
    if (!s) return;
    for (const i of [0, 1]) {
      const left = timeLeft(s.clock, i, this.serverNow());
      for (const el of this.main.querySelectorAll(`[data-clock="${SIDES[i]}"]`)) {
        if (left == null) continue;
        el.textContent = fmtClock(left);
        el.classList.toggle('low', left < 20000);
      }
      if (left != null && SIDES[i] === this.mySide() && !s.over) {
        if (left < 10000 && !this.lowWarned) { this.lowWarned = true; this.say(t('game.tenSeconds')); }
        if (left >= 10000) this.lowWarned = false;
      }
    }
    const d = this.panel.querySelector('#deadline');
    if (d && s.deadline != null && !s.clock) d.textContent = fmtSpan(s.deadline - this.serverNow());
    if (this.canClaim() !== this.claimOpen) this.renderPanel();
    const gone = this.opponentGone();
    const countdown = this.panel.querySelector('#claim-countdown');
    if (gone && countdown) countdown.textContent = this.claimCountdown(gone);
    const open = this.panel.querySelector('#opponent-gone')?.dataset.claim === 'open';
    if (!!gone && this.canClaimLeft() !== open) this.renderPanel();
  }

  /** Watchers come and go without a move: the count is asked for now and then. */
  async countSpectators() {
    try {
      const n = (await api(path`/games/${this.id}/spectators`)).spectators;
      if (n !== this.spectators) { this.spectators = n; if (this.state()) this.renderPanel(); }
    } catch { /* the next look tries again */ }
  }

  /** A socket message: the model changes by `reduce`, and the page draws it, announces it, or leaves. */
  onMessage(msg) {
    if (msg.game === this.id && msg.t === 'chat') { this.onChat(msg); return; }
    if (msg.t === 'error' && typeof msg.ack === 'string' && msg.ack.startsWith('chat-')) { if (this.chat) this.chat.refused(msg); return; }
    const me = this.ctx.me;
    const r = reduce(this.model, msg, { me: me ? me.id : null, now: Date.now() });
    if (r.effect && r.effect.navigate) { navigate(r.effect.navigate); return; }
    if (r.model === this.model) return;
    const wasGone = !!this.opponentGone();
    this.model = r.model;
    // An opponent who leaves is said once (the countdown on the panel is not read each second).
    if (!wasGone && this.opponentGone()) this.say(t('game.opponentGone'));
    if (this.model.unavailable) {
      this.main.replaceChildren(h('div', { class: 'card' }, h('h1', {}, t('game.unavailable')), h('p', {}, errorText(this.model.unavailable)), h('a', { href: '/', 'data-link': true }, t('backToLobby'))));
      return;
    }
    if (!this.state()) return;
    if (r.changed) { this.entry = EMPTY; this.hint = null; this.pending = null; }
    // A premove plays as soon as the turn comes, if it names one legal move.
    let premoved = null;
    if (r.changed && this.premove.length && this.myTurn() && !this.busy) {
      premoved = premoveMatch(this.how(), this.state().view.moves, this.premove, this.entry.mode);
      this.premove = [];
      if (!premoved) toast(t('game.premoveDropped'));
    }
    if (this.state().over || !this.state().clock) this.premove = [];
    if (msg.t === 'event') {
      this.say(announce({ ...msg, state: this.state() }));
      if (msg.action && msg.action.kind === 'move') moveSound(this.state().over ? 'end' : msg.action.side === this.mySide() ? 'mine' : 'theirs');
    }
    if (msg.t === 'sync' || msg.t === 'event') {
      if (this.mySide() && !this.myTurn()) this.refreshNext();
      this.render();
    } else this.renderPanel();
    if (premoved) this.send(premoved, true);
  }

  onKey(e) {
    if (e.key !== 'Escape') return;
    if (this.entry.sel != null) { this.entry = { ...EMPTY, mode: this.entry.mode }; this.render(); }
    if (this.premove.length) { this.premove = []; this.render(); }
  }

  /** The page's listeners: the socket, the clocks' ticks, the spectators' count, the keyboard, the window. */
  listen() {
    this.off = this.ctx.live.on((msg) => this.onMessage(msg));
    this.ticker = setInterval(() => this.tick(), 200);
    this.counter = setInterval(() => this.countSpectators(), 5000);
    setTimeout(() => this.countSpectators(), 800);
    this.keyHandler = (e) => this.onKey(e);
    document.addEventListener('keydown', this.keyHandler);
    this.resizeHandler = () => this.fitZoom();
    window.addEventListener('resize', this.resizeHandler);
  }

  /** Draws the state the page came with at once, and watches the game from its version. */
  start() {
    const booted = this.ctx.takeBootGame(this.id);
    if (booted) {
      const me = this.ctx.me;
      this.model = reduce(this.model, { t: 'sync', game: this.id, state: booted.state, now: booted.now }, { me: me ? me.id : null, now: Date.now() }).model;
      this.render();
    }
    this.ctx.live.watch(this.id, booted ? booted.state.version : null);
  }

  leave() {
    clearTimeout(this.nextTimer);
    clearInterval(this.ticker);
    clearInterval(this.counter);
    window.removeEventListener('resize', this.resizeHandler);
    document.removeEventListener('keydown', this.keyHandler);
    this.off();
    this.ctx.live.unwatch();
    this.ctx.title('gridplay');
  }
}
