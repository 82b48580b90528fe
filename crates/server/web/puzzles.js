// The puzzles page: a position of a real game where some moves keep a result and the others lose it. The
// player enters moves as on a game page; the server grades each by the puzzle's proof: the solution's move
// gets the engine's reply, another right move solves the puzzle, a wrong one gets the engine's refutation,
// played out on the board. Once over, the refutation and the solution can be stepped through move by move.
// Ratings, tries, the streak and the history are the server's. Every position comes from the server: the page
// computes no rule.

import { Board } from './board.js';
import { h, api, toast, analysisUrl, path } from './util.js';
import { allGames, gameOf, labeller, gameWord } from './catalog.js';
import { t, errorText } from './i18n.js';
import * as entries from './entry.js';

/**
 * The proof in the page's language, from the figures the server sends (`how`); the server's English words
 * where it sends none.
 * @param {{proof: string, how?: {kind: string, empties?: number, depth?: number, depths?: number[], margin?: number}|null}} puzzle
 */
export function proofText(puzzle) {
  const how = puzzle.how;
  switch (how?.kind) {
    case 'exact': return t('puzzles.proofExact', { n: how.empties });
    case 'win-proved': return t('puzzles.proofWin');
    case 'win-searched': return t('puzzles.proofWinSearch', { a: how.depths[0], b: how.depths[1] });
    case 'margin': return t('puzzles.proofMargin', { margin: (how.margin / 100).toString(), a: how.depths[0], b: how.depths[1] });
    default: return puzzle.proof;
  }
}

export function puzzlesPage(main, game, first, ctx) {
  const known = gameOf(game);
  if (!known || known.name !== game) {
    main.replaceChildren(h('div', { class: 'card' }, h('h1', {}, t('puzzles.noSuchGame')), h('a', { href: '/', 'data-link': true }, t('backToLobby'))));
    return () => {};
  }
  ctx.title(`${t('puzzles.title')} · ${known.title} · gridplay`);
  const label = labeller(game);
  let alive = true;
  let puzzle = null;
  // The moves played on this puzzle, the view they reach, and how the try stands.
  let played = [];
  let view = null;
  let lastMove = null;
  let state = 'solving';
  let outcome = null;
  let entry = entries.EMPTY;
  let busy = false;
  let history = null;
  // Once the try is over: the line shown on the board (moves from the puzzle's position), how far into it,
  // which line it is (`refutation` or `solution`), and the timer that plays a refutation out.
  let line = null;
  let timer = null;

  const boardBox = h('div', { class: 'board-wrap', id: 'board' });
  const panel = h('aside', { class: 'card stack', id: 'puzzle-panel' });
  main.replaceChildren(h('div', { class: 'game puzzles' }, h('section', {}, boardBox), panel));
  const board = new Board(boardBox, { onCell, onDrop, onEscape() { entry = entries.EMPTY; draw(); } });

  async function showMoves(moves) {
    const p = await api('/analysis/position', { spec: puzzle.spec, start: puzzle.position, moves });
    view = p.view;
    lastMove = p.last_move;
  }

  function stopTimer() { if (timer) { clearInterval(timer); timer = null; } }

  /** Shows `moves` on the board from the puzzle's position, `at` of them played. */
  async function showLine(kind, moves, at) {
    line = { kind, moves, at: Math.max(0, Math.min(at, moves.length)) };
    try { await showMoves(moves.slice(0, line.at)); } catch (e) { toast(errorText(e)); }
    if (alive) draw();
  }
  function step(to) { stopTimer(); if (line) showLine(line.kind, line.moves, to); }

  /** Plays the refutation out on the board, a move at a time, after the wrong move. */
  function playOut(moves, from) {
    stopTimer();
    showLine('refutation', moves, from);
    timer = setInterval(() => {
      if (!alive || !line || line.kind !== 'refutation' || line.at >= line.moves.length) { stopTimer(); return; }
      showLine('refutation', line.moves, line.at + 1);
    }, 700);
  }

  async function next(id) {
    stopTimer();
    line = null;
    busy = true;
    try {
      puzzle = await api(typeof id === 'string' ? path`/puzzle/${id}` : path`/puzzles/${game}/next`);
      // The address names the puzzle on the page, to come back to or share.
      window.history.replaceState(null, '', path`/puzzles/${game}/${puzzle.id}`);
      played = [];
      view = puzzle.view;
      lastMove = null;
      state = 'solving';
      outcome = null;
      entry = entries.EMPTY;
    } catch (e) {
      if (!alive) return;
      puzzle = null;
      panel.replaceChildren(h('h1', {}, `${t('puzzles.title')} · ${known.title}`), h('p', { id: 'puzzle-error' }, errorText(e)));
      return;
    } finally { busy = false; }
    if (alive) draw();
    if (ctx.me) loadHistory();
  }

  async function loadHistory() {
    try { history = await api(path`/puzzles/${game}/history`); } catch { history = null; }
    if (alive) draw();
  }

  async function answer(text) {
    if (busy || state !== 'solving') return;
    busy = true;
    const moves = [...played, text];
    try {
      const r = await api(path`/puzzles/${puzzle.id}/move`, { moves });
      played = moves;
      outcome = r;
      if (r.result === 'continue') {
        played = [...moves, r.reply];
        await showMoves(played);
      } else {
        state = r.result;
        if (r.puzzle) { puzzle.rating = r.puzzle.rating; puzzle.plays = r.puzzle.plays; }
        if (r.player && history) history.player = r.player;
        if (r.result === 'failed') {
          await showMoves(moves);
          playOut([...moves, ...r.refutation], moves.length);
        } else {
          line = { kind: r.also_right ? 'yours' : 'solution', moves, at: moves.length };
          await showMoves(moves);
        }
        if (ctx.me) loadHistory();
      }
    } catch (e) { toast(errorText(e)); }
    busy = false;
    entry = entries.EMPTY;
    if (alive) draw();
  }

  function apply(r) {
    entry = r.entry;
    if (r.say) toast(r.say);
    if (r.send) return answer(r.send.text);
    draw();
  }
  function onCell(i) { if (view && state === 'solving') apply(entries.click(known.entry, view.moves, entry, i, label)); }
  function onDrop(from, to) { if (view && state === 'solving') apply(entries.drop(known.entry, view.moves, entry, from, to, label)); }

  function draw() {
    if (!puzzle || !view) return;
    panel.dataset.puzzle = puzzle.id;
    const ms = state === 'solving' && !puzzle.retired ? view.moves : [];
    const marks = entries.marks(known.entry, ms, entry, view.cells, state === 'solving', known.look.helping);
    marks.last = new Set();
    if (lastMove) { if (lastMove.from != null) marks.last.add(lastMove.from); for (const c of lastMove.path) marks.last.add(c); if (lastMove.target != null) marks.last.add(lastMove.target); }
    board.render({ view, sides: puzzle.sides, game: puzzle.game, title: puzzle.title }, false, marks, known.look);
    const solver = gameWord(game, puzzle.sides[puzzle.view.turn === 'first' ? 0 : 1].name);
    const player = (outcome && outcome.player) || (history && history.player) || puzzle.player;
    let status;
    if (puzzle.retired) {
      status = t('puzzles.retired');
    } else if (state === 'solving') {
      status = played.length ? t('puzzles.right', { reply: played[played.length - 1] }) : t('puzzles.find', { side: solver, n: puzzle.solver_moves });
    } else if (state === 'solved') {
      status = outcome.also_right ? t('puzzles.alsoRight', { move: played[played.length - 1], solution: outcome.solution[played.length - 1] }) : t('puzzles.solved');
    } else {
      const wrong = played[played.length - 1];
      status = outcome.withheld ? t('puzzles.failedWithheld', { move: wrong }) : t('puzzles.failed', { move: wrong, refutation: outcome.refutation.join(' ') || '–' });
    }
    const change = outcome && outcome.rating_before != null && outcome.player
      ? h('p', { id: 'rating-change' }, t('puzzles.ratingChange', { before: outcome.rating_before, after: outcome.player.rating })) : null;
    const choose = h('select', { id: 'legal-moves', 'aria-label': t('rules.legalMoves'), disabled: state !== 'solving', onchange: (e) => { if (e.target.value) answer(e.target.value); } },
      h('option', { value: '' }, ms.length ? t('rules.nLegal', { n: ms.length }) : t('rules.noLegal')), ...ms.map((m) => h('option', { value: m.text }, m.text)));
    const noCell = entries.buttons(ms).map((m) => h('button', { class: 'secondary', 'data-move': m.text, onclick: () => answer(m.text) }, label(m.kind)));
    const tabs = h('label', {}, t('analysis.game'), ' ', h('select', { id: 'puzzle-game', onchange: (e) => { history = null; window.history.pushState(null, '', path`/puzzles/${e.target.value}`); window.dispatchEvent(new Event('popstate')); } },
      allGames().map((g) => h('option', { value: g.name, selected: g.name === game }, g.title))));
    panel.replaceChildren(...[
      h('h1', {}, `${t('puzzles.title')} · ${known.title}`),
      tabs,
      player ? h('p', { id: 'puzzle-player' }, t('puzzles.player', { rating: player.rating + (player.provisional ? '?' : ''), streak: player.streak, best: player.best_streak, solved: player.solved, attempts: player.attempts }))
        : h('p', { class: 'muted', id: 'puzzle-signin' }, t('puzzles.signIn')),
      h('p', { class: 'muted', id: 'puzzle-about' }, t('puzzles.about', { rating: puzzle.rating, plays: puzzle.plays, count: puzzle.count })),
      h('p', { class: 'status', id: 'puzzle-status', 'aria-live': 'polite', 'data-state': state }, status),
      change,
      state === 'solving' && !puzzle.retired ? h('div', { class: 'actions' }, choose, ...noCell) : null,
      puzzle.retired ? h('div', { class: 'actions' }, h('button', { id: 'puzzle-next', onclick: () => next() }, t('puzzles.next'))) : null,
      state !== 'solving' ? h('p', { id: 'puzzle-solution' }, t('puzzles.solution', { moves: outcome.solution.join(' ') })) : null,
      state !== 'solving' && line ? lineViewer() : null,
      state !== 'solving' ? h('div', { class: 'actions' },
        h('button', { id: 'puzzle-next', onclick: () => next() }, t('puzzles.next')),
        h('a', { href: analysisUrl(puzzle.game, puzzle.spec, puzzle.position, outcome.solution), 'data-link': true, id: 'puzzle-analyse' }, t('puzzles.analyse'))) : null,
      h('p', { class: 'muted small', id: 'puzzle-proof' }, t('puzzles.proof', { how: proofText(puzzle) })),
      history && history.attempts.length ? h('section', { 'aria-labelledby': 'history-title' }, h('h2', { id: 'history-title' }, t('puzzles.history')),
        h('ol', { id: 'puzzle-history', class: 'small' }, ...history.attempts.slice(0, 20).map((a) => h('li', {},
          `${a.solved ? '✓' : '✗'} ${t(a.solved ? 'puzzles.historySolved' : 'puzzles.historyFailed', { puzzle: a.puzzle_rating, rating: a.rating_after })}`)))) : null,
    ].filter(Boolean));
  }

  /** The line on the board, its moves to click, the steps, and the choice of line. */
  function lineViewer() {
    const start = line.kind === 'refutation' ? played.length - 1 : 0;
    const moves = line.moves.map((m, i) => h('button', {
      class: `link ply${i + 1 === line.at ? ' current' : ''}${i === start && line.kind === 'refutation' ? ' wrong' : ''}`,
      'data-ply': i + 1, 'aria-current': i + 1 === line.at ? 'step' : null, onclick: () => step(i + 1),
    }, m));
    const choices = [];
    if (state === 'failed' && line.kind !== 'refutation') choices.push(h('button', { class: 'secondary', id: 'show-refutation', onclick: () => { stopTimer(); showLine('refutation', [...played, ...outcome.refutation], played.length); } }, t('puzzles.showRefutation')));
    if (line.kind !== 'solution') choices.push(h('button', { class: 'secondary', id: 'show-solution', onclick: () => { stopTimer(); showLine('solution', outcome.solution, 0); } }, t('puzzles.showSolution')));
    return h('section', { id: 'puzzle-line', 'data-kind': line.kind, 'data-at': line.at, 'aria-label': t(`puzzles.line.${line.kind}`) },
      h('p', { class: 'small' }, t(`puzzles.line.${line.kind}`), ' ', ...moves),
      h('div', { class: 'actions' },
        h('button', { id: 'line-first', class: 'secondary', 'aria-label': t('replay.first'), onclick: () => step(0) }, '«'),
        h('button', { id: 'line-prev', class: 'secondary', 'aria-label': t('replay.prev'), onclick: () => step(line.at - 1) }, '‹'),
        h('button', { id: 'line-next', class: 'secondary', 'aria-label': t('replay.next'), onclick: () => step(line.at + 1) }, '›'),
        h('button', { id: 'line-last', class: 'secondary', 'aria-label': t('replay.last'), onclick: () => step(line.moves.length) }, '»'),
        ...choices));
  }

  next(first);
  return () => { alive = false; stopTimer(); };
}
