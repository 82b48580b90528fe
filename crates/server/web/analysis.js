// The analysis board: any position of a game (its start, a position set up on the editor, or one read from a
// position text or a game file), moves played freely into a tree of variations, and the engine's best lines
// streamed as it searches. Every position and its legal moves come from the server (/api/analysis/...): the
// page computes no rule. The game's settings, the start, the tree's variations and the line to the current
// move are in the address, so that a link shows the same board.

import { Board } from './board.js';
import { h, api, toast, ApiError, analysisUrl, path } from './util.js';
import { allGames, gameOf, labeller, specTitle, gameWord } from './catalog.js';
import { t, errorText } from './i18n.js';
import * as entries from './entry.js';
import { settingsControls } from './settings.js';

/** The most variations an address is read with. */
const MAX_LINES = 32;

/** A move of the tree: its text, the node it follows, the moves played after it (the main one first). */
class Node {
  constructor(move, parent) {
    this.move = move; this.parent = parent; this.children = []; this.pos = null;
    /** @type {{error?: string, withheld?: boolean, plies?: number, book?: boolean, moves: object[]}|null} the explorer's answer from here, once asked */
    this.explorer = null;
  }
  /** The node at the end of `line` from here, each move the child that has it or a new one. */
  walk(line) {
    let n = this;
    for (const m of line) {
      let child = n.children.find((c) => c.move === m);
      if (!child) { child = new Node(m, n); n.children.push(child); }
      n = child;
    }
    return n;
  }
  /** Every line from here to an end of the tree, the main ones first. */
  ends() {
    if (!this.children.length) return this.parent ? [this.path()] : [];
    return this.children.flatMap((c) => c.ends());
  }
  /** The moves from the start to here. */
  path() { const out = []; for (let n = this; n.parent; n = n.parent) out.unshift(n.move); return out; }
  ply() { let k = 0; for (let n = this; n.parent; n = n.parent) k++; return k; }
}

/** A selector that finds a control again after the panel is drawn anew. */
function focusKey(el) {
  if (el.id) return `#${CSS.escape(el.id)}`;
  if (el.dataset.piece) return `[data-piece="${CSS.escape(el.dataset.piece)}"]`;
  if (el.dataset.path != null) return `[data-path="${CSS.escape(el.dataset.path)}"]`;
  return null;
}

/** A line's score for the side to move, as people read it. */
function scoreText(line) {
  const units = (line.score / 100).toFixed(Math.abs(line.score) % 100 === 0 ? 0 : 2);
  const signed = line.score > 0 ? `+${units}` : units;
  if (line.proof === 'exact') return t('analysis.exact', { score: signed });
  if (line.proof === 'win') return line.plies ? t('analysis.winIn', { n: line.plies }) : t('analysis.win');
  if (line.proof === 'loss') return line.plies ? t('analysis.lossIn', { n: line.plies }) : t('analysis.loss');
  return signed;
}

export function analysisPage(main, game, ctx) {
  const params = new URLSearchParams(location.search);
  const known = gameOf(game);
  let spec = params.get('spec') || game;
  // The start set up or read in, as the game's position text; null for the game's own start.
  let start = params.get('start');
  let root = new Node(null, null);
  let cur = root;
  let entry = entries.EMPTY;
  let alive = true;
  // The board editor while it is open: each cell's piece character, the piece to set down, the side to move.
  let editing = null;
  const engine = { on: false, n: 3, ctrl: null, data: null, running: false, error: null, node: null };

  const boardBox = h('div', { class: 'board-wrap', id: 'board' });
  // The editor sits at the top of the panel, beside the board, while it is open.
  const below = h('section', { class: 'stack', id: 'editor', hidden: true });
  const panel = h('aside', { class: 'card stack', id: 'analysis-panel' });
  main.replaceChildren(h('div', { class: 'game analysis' }, h('section', {}, boardBox), panel));
  const board = new Board(boardBox, { onCell, onDrop, onEscape() { entry = entries.EMPTY; draw(); } });
  const label = labeller(game);

  if (!known || known.name !== game) {
    main.replaceChildren(h('div', { class: 'card' }, h('h1', {}, t('analysis.noSuchGame')), h('a', { href: '/', 'data-link': true }, t('backToLobby'))));
    return () => {};
  }
  ctx.title(`${t('analysis.title')} · ${known.title} · gridplay`);

  /** The position of `node`, from the server once, then kept. */
  async function positionOf(node) {
    if (!node.pos) {
      node.pos = await api('/analysis/position', { spec, start: start || undefined, moves: node.path() });
    }
    return node.pos;
  }

  function writeUrl() {
    // The tree's lines are kept where it has more than the one line that ends at the current move.
    const lines = root.ends();
    const one = lines.length === 0 || (lines.length === 1 && !cur.children.length);
    const url = analysisUrl(game, spec, start, cur.path(), one ? [] : lines);
    if (location.pathname + location.search !== url) history.replaceState(null, '', url);
  }

  /** Shows `node`: its position from the server, the board, the panel and the address; the engine follows. */
  async function go(node) {
    if (!node) return;
    cur = node;
    entry = entries.EMPTY;
    try { await positionOf(node); } catch (e) { toast(errorText(e)); return; }
    if (!alive || cur !== node) return;
    writeUrl();
    draw();
    if (engine.on) startEngine(); else renderEngine();
    loadExplorer(node);
  }

  /** Plays `text` from the current node: the child that has it, or a new variation. */
  function play(text) {
    return go(cur.walk([text]));
  }

  function apply(r) {
    entry = r.entry;
    if (r.say) toast(r.say);
    if (r.send) return play(r.send.text);
    draw();
  }
  function onCell(i) {
    if (editing) { setCell(i); return; }
    if (cur.pos) apply(entries.click(known.entry, cur.pos.view.moves, entry, i, label));
  }
  function onDrop(from, to) {
    if (editing) { setCell(to); return; }
    if (cur.pos) apply(entries.drop(known.entry, cur.pos.view.moves, entry, from, to, label));
  }

  // --- the board editor ---------------------------------------------------------------------------------
  function openEditor() {
    if (!cur.pos) return;
    stopEngine();
    const v = cur.pos.view;
    editing = { cells: v.cells.map((c) => (c.piece ? c.piece.glyph : null)), pick: 0, turn: v.turn || 'first', error: '' };
    draw();
  }
  function setCell(i) {
    const piece = editing.pick == null ? null : known.pieces[editing.pick].glyph;
    editing.cells[i] = editing.cells[i] === piece ? null : piece;
    editing.error = '';
    draw();
  }
  async function finishEditor() {
    try {
      const r = await api('/analysis/setup', { spec, start: cur.pos.position, cells: editing.cells, turn: editing.turn });
      editing = null;
      newTree(r.standard ? null : r.start, r);
    } catch (e) {
      editing.error = errorText(e);
      draw();
    }
  }
  function editorView() {
    const v = cur.pos.view;
    const byGlyph = new Map(known.pieces.map((p) => [p.glyph, p]));
    return {
      ...v,
      moves: [],
      turn: editing.turn,
      status: { state: 'ongoing' },
      cells: v.cells.map((c, i) => {
        const g = editing.cells[i];
        const p = g == null ? null : byGlyph.get(g);
        const keep = c.piece && c.piece.glyph === g ? c.piece : null;
        return { label: c.label, piece: keep || (p ? { kind: p.kind, owner: p.owner, glyph: p.glyph, ghost: p.ghost } : undefined) };
      }),
    };
  }
  function renderEditor() {
    below.hidden = !editing;
    if (!editing) { below.replaceChildren(); return; }
    const sides = cur.pos.sides;
    const pieceName = (p) => `${gameWord(game, p.kind)}${p.owner ? ` (${gameWord(game, sides[p.owner === 'first' ? 0 : 1].name)})` : ''}`;
    const choice = (i, words) => h('button', { class: 'small' + (editing.pick === i ? '' : ' secondary'), 'aria-pressed': String(editing.pick === i), 'data-piece': i == null ? 'empty' : known.pieces[i].glyph,
      onclick: () => { editing.pick = i; draw(); } }, words);
    below.replaceChildren(
      h('h2', {}, t('analysis.editor')),
      h('p', { class: 'muted' }, t('analysis.editorHelp')),
      h('div', { class: 'actions palette', role: 'group', 'aria-label': t('analysis.pieces') },
        ...known.pieces.map((p, i) => choice(i, pieceName(p))), choice(null, t('analysis.emptyCell'))),
      h('label', {}, t('analysis.sideToMove'), ' ', h('select', { id: 'editor-turn', onchange: (e) => { editing.turn = e.target.value; } },
        ['first', 'second'].map((s, i) => h('option', { value: s, selected: editing.turn === s }, gameWord(game, sides[i].name))))),
      h('p', { class: 'error', role: 'alert', id: 'editor-error' }, editing.error),
      h('div', { class: 'actions' },
        h('button', { id: 'editor-done', onclick: finishEditor }, t('analysis.editorDone')),
        h('button', { class: 'secondary', id: 'editor-clear', onclick: () => { editing.cells = editing.cells.map(() => null); draw(); } }, t('analysis.clearBoard')),
        h('button', { class: 'secondary', id: 'editor-cancel', onclick: () => { editing = null; draw(); } }, t('cancel'))));
  }

  /** A new tree from `startText` (null: the game's own start) with `lines` (each from the start, the main
   * ones first), showing `pos` at the end of `moves`. */
  function newTree(startText, pos, moves = [], lines = []) {
    start = startText;
    root = new Node(null, null);
    for (const l of lines) root.walk(l);
    const n = root.walk(moves);
    n.pos = pos;
    return go(n);
  }

  // --- the engine's lines -------------------------------------------------------------------------------
  function stopEngine() {
    if (engine.ctrl) engine.ctrl.abort();
    engine.ctrl = null;
    engine.running = false;
  }

  async function startEngine() {
    stopEngine();
    engine.data = null;
    engine.error = null;
    engine.node = cur;
    if (!cur.pos || !cur.pos.engine || !ctx.me) { renderEngine(); return; }
    const ctrl = new AbortController();
    engine.ctrl = ctrl;
    engine.running = true;
    renderEngine();
    try {
      const res = await fetch('/api/analysis/lines', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ spec, start: start || undefined, moves: cur.path(), lines: engine.n }), signal: ctrl.signal });
      if (!res.ok) {
        let err = null;
        try { err = (await res.json()).error; } catch { /* not JSON */ }
        throw new ApiError(res.status, err ? err.code : 'http', err ? err.message : `the server answered ${res.status}`);
      }
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let k;
        while ((k = buffer.indexOf('\n')) >= 0) {
          const text = buffer.slice(0, k);
          buffer = buffer.slice(k + 1);
          if (!text.trim() || engine.ctrl !== ctrl) continue;
          engine.data = JSON.parse(text);
          renderEngine();
        }
      }
      if (engine.ctrl === ctrl) { engine.running = false; engine.ctrl = null; renderEngine(); }
    } catch (e) {
      if (ctrl.signal.aborted) return;
      engine.running = false;
      engine.ctrl = null;
      engine.error = e instanceof ApiError ? errorText(e) : t('error.network');
      renderEngine();
    }
  }

  /** Plays a line's moves up to its `k`th into the tree. */
  async function playLine(moves, k) {
    await go(cur.walk(moves.slice(0, k + 1)));
  }

  // The panel's elements are made once and updated in place: an update that arrives between a press and its
  // release must not replace the button pressed, or the click is lost (the search streams several a second).
  const engineBox = h('section', { id: 'engine', class: 'stack', 'aria-labelledby': 'engine-title' },
    h('h2', { id: 'engine-title' }, t('analysis.engine')));
  // The button pressed hides itself: the keyboard's focus moves to the one shown in its place.
  const engineStart = h('button', { id: 'engine-start', onclick: () => { engine.on = true; startEngine(); engineStop.focus(); } }, t('analysis.startEngine'));
  const engineStop = h('button', { id: 'engine-stop', class: 'secondary', onclick: () => { engine.on = false; stopEngine(); renderEngine(); engineStart.focus(); } }, t('analysis.stopEngine'));
  const engineCount = h('select', { id: 'engine-count', 'aria-label': t('analysis.lineCount'), onchange: (e) => { engine.n = Number(e.target.value); if (engine.on) startEngine(); } },
    [1, 2, 3, 4, 5].map((n) => h('option', { value: n, selected: engine.n === n }, t('analysis.nLines', { n }))));
  const engineStatus = h('p', { class: 'muted', id: 'engine-status', role: 'status' });
  const engineList = h('ol', { class: 'engine-lines', id: 'engine-lines' });
  // A line's move plays the line as it was when pressed; Enter or Space on a focused move plays it as it is.
  let pressed = null;
  engineList.addEventListener('pointerdown', (e) => {
    const b = e.target.closest('.line-move');
    pressed = b ? { b, moves: b.lineMoves, k: b.lineIndex } : null;
  });
  engineList.addEventListener('click', (e) => {
    const b = e.target.closest('.line-move');
    if (!b) return;
    const { moves, k } = pressed && pressed.b === b ? pressed : { moves: b.lineMoves, k: b.lineIndex };
    pressed = null;
    playLine(moves, k);
  });
  if (ctx.me) engineBox.append(h('div', { class: 'actions' }, engineStart, engineStop, engineCount), engineStatus, engineList);
  else engineBox.append(h('p', { class: 'muted', id: 'engine-signin' }, t('analysis.signInForEngine')));

  function renderEngine() {
    if (!ctx.me) return;
    engineStart.hidden = engine.on;
    engineStart.disabled = !cur.pos || !cur.pos.engine;
    engineStop.hidden = !engine.on;
    const d = engine.node === cur ? engine.data : null;
    engineStatus.textContent = engine.error || (cur.pos && !cur.pos.engine ? t('analysis.noEngineHere')
      : d ? t(engine.running ? 'analysis.searching' : 'analysis.searched', { depth: d.depth, nodes: d.nodes.toLocaleString(), seconds: (d.ms / 1000).toFixed(1) })
        : engine.running ? t('analysis.starting') : '');
    const lines = d ? d.lines : [];
    while (engineList.children.length > lines.length) engineList.lastElementChild.remove();
    lines.forEach((line, i) => {
      let li = engineList.children[i];
      if (!li) {
        li = h('li', { class: 'engine-line' }, h('strong', { class: 'line-score' }), ' ');
        engineList.append(li);
      }
      li.firstElementChild.textContent = scoreText(line);
      const buttons = [...li.querySelectorAll('.line-move')];
      while (buttons.length > line.moves.length) buttons.pop().remove();
      line.moves.forEach((m, k) => {
        let b = buttons[k];
        if (!b) {
          b = h('button', { class: 'small secondary line-move' });
          li.append(b);
        }
        if (b.textContent !== m) {
          b.textContent = m;
          b.setAttribute('aria-label', t('analysis.playLineTo', { move: m }));
        }
        b.lineMoves = line.moves;
        b.lineIndex = k;
      });
    });
  }

  // --- the opening explorer ----------------------------------------------------------------------------
  const explorerBox = h('section', { id: 'explorer', class: 'stack', 'aria-labelledby': 'explorer-title' });
  /** The moves played from `node`'s position in the site's games, asked once per node. */
  async function loadExplorer(node) {
    renderExplorer();
    if (node.explorer) return;
    try {
      const e = await api('/analysis/explorer', { spec, start: start || undefined, moves: node.path() });
      node.explorer = e;
    } catch (e) { node.explorer = { error: errorText(e), moves: [] }; }
    if (alive && cur === node) renderExplorer();
  }
  function renderExplorer() {
    const title = h('h2', { id: 'explorer-title' }, t('explorer.title'));
    const e = cur.explorer;
    if (!e) { explorerBox.replaceChildren(title, h('p', { class: 'muted' }, t('explorer.loading'))); return; }
    if (e.error) { explorerBox.replaceChildren(title, h('p', { class: 'error' }, e.error)); return; }
    const withheld = e.withheld ? h('p', { class: 'muted', id: 'explorer-withheld' }, t('explorer.withheld')) : null;
    if (!e.moves.length) { explorerBox.replaceChildren(...[title, h('p', { class: 'muted', id: 'explorer-none' }, t('explorer.none', { plies: e.plies })), withheld].filter(Boolean)); return; }
    const sides = cur.pos.sides.map((s) => gameWord(game, s.name));
    const pct = (n, of) => (of ? Math.round((100 * n) / of) : 0);
    const units = (v) => { const u = (v / 100).toFixed(Math.abs(v) % 100 === 0 ? 0 : 2); return v > 0 ? `+${u}` : u; };
    const rows = e.moves.map((m) => {
      const [a, d, b] = [pct(m.first_wins, m.games), pct(m.draws, m.games), pct(m.second_wins, m.games)];
      const words = m.games ? t('explorer.resultsText', { first: a, draws: d, second: b, firstSide: sides[0], secondSide: sides[1] }) : '–';
      const bar = m.games ? h('div', { class: 'result-bar', 'aria-hidden': 'true' },
        h('span', { class: 'first', style: `width:${a}%` }), h('span', { class: 'draws', style: `width:${d}%` }), h('span', { class: 'second', style: `width:${b}%` })) : null;
      return h('tr', { 'data-move': m.move },
        h('td', {}, h('button', { class: 'small secondary', onclick: () => play(m.move) }, m.move)),
        h('td', { class: 'num' }, m.games.toLocaleString()),
        h('td', {}, bar, h('span', { class: 'small' }, words)),
        h('td', { class: 'num' }, m.rating == null ? '–' : String(m.rating)),
        e.book ? h('td', { class: 'num' }, m.book == null ? '' : units(m.book)) : null);
    });
    explorerBox.replaceChildren(title,
      h('table', { class: 'explorer', id: 'explorer-table' },
        h('caption', { class: 'muted small' }, t('explorer.caption', { plies: e.plies })),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('explorer.move')), h('th', { scope: 'col' }, t('explorer.games')),
          h('th', { scope: 'col' }, t('explorer.results')), h('th', { scope: 'col' }, t('explorer.rating')), e.book ? h('th', { scope: 'col' }, t('explorer.book')) : null)),
        h('tbody', {}, ...rows)), ...(withheld ? [withheld] : []));
  }

  // --- the move tree ------------------------------------------------------------------------------------
  function moveButton(node) {
    return h('button', { class: 'small tree-move' + (node === cur ? '' : ' secondary'), 'aria-current': node === cur ? 'true' : null, 'data-path': node.path().join(' '),
      onclick: () => go(node) }, `${node.ply()}. ${node.move}`);
  }
  /** The moves after `node`: the main line, with each other variation in brackets after its first move. */
  function lineAfter(node) {
    const out = [];
    let n = node;
    while (n.children.length) {
      const [first, ...others] = n.children;
      out.push(moveButton(first));
      for (const v of others) out.push(h('span', { class: 'variation' }, '(', moveButton(v), ...lineAfter(v), ')'));
      n = first;
    }
    return out;
  }
  function promote() {
    // The nearest branch on the way up that is not its parent's main line becomes it.
    for (let n = cur; n.parent; n = n.parent) {
      const sibs = n.parent.children;
      const i = sibs.indexOf(n);
      if (i > 0) { sibs.splice(i, 1); sibs.unshift(n); break; }
    }
    writeUrl();
    draw();
  }
  function remove() {
    if (!cur.parent) return;
    const parent = cur.parent;
    parent.children.splice(parent.children.indexOf(cur), 1);
    go(parent);
  }
  function sibling(step) {
    if (!cur.parent) return;
    const sibs = cur.parent.children;
    const i = sibs.indexOf(cur) + step;
    if (i >= 0 && i < sibs.length) go(sibs[i]);
  }
  function endOfLine() { let n = cur; while (n.children.length) n = n.children[0]; go(n); }

  // --- the panel ----------------------------------------------------------------------------------------
  const settingsBox = h('details', { id: 'analysis-settings' });
  function renderSettings() {
    if (!known.settings.length) { settingsBox.replaceChildren(); settingsBox.hidden = true; return; }
    const controls = settingsControls(known, 'analysis');
    const apply = h('button', { id: 'settings-apply', onclick: () => { spec = controls.spec(); newTree(null, null); } }, t('analysis.newBoard'));
    controls.onValidity((ok) => { apply.disabled = !ok; });
    settingsBox.replaceChildren(h('summary', {}, t('analysis.settings')), controls.node, apply);
  }

  const textBox = h('section', { class: 'stack', id: 'position-io' });
  function renderText() {
    const out = h('input', { id: 'position-text', readonly: true, value: cur.pos ? cur.pos.position : '', 'aria-label': t('analysis.positionText') });
    const area = h('textarea', { id: 'analysis-import', rows: 3, 'aria-label': t('analysis.importLabel'), placeholder: t('analysis.importPlaceholder') });
    const error = h('p', { class: 'error', role: 'alert', id: 'import-error' });
    textBox.replaceChildren(
      h('h2', {}, t('analysis.positionText')),
      out,
      h('div', { class: 'actions' },
        h('button', { class: 'small secondary', id: 'copy-position', onclick: async () => {
          out.select();
          try { await navigator.clipboard.writeText(out.value); toast(t('analysis.copied')); } catch { toast(t('analysis.copyByHand')); }
        } }, t('analysis.copy')),
        h('button', { class: 'small secondary', id: 'copy-link', onclick: async () => {
          try { await navigator.clipboard.writeText(location.href); toast(t('analysis.linkCopied')); } catch { toast(t('analysis.copyByHand')); }
        } }, t('analysis.copyLink'))),
      area,
      h('button', { class: 'small', id: 'import-load', onclick: async () => {
        error.textContent = '';
        try {
          const r = await api('/analysis/import', { spec, text: area.value });
          if (r.game !== game) {
            // A game file of another game opens that game's board.
            history.pushState(null, '', analysisUrl(r.game, r.spec, r.standard ? null : r.start, r.moves));
            window.dispatchEvent(new Event('popstate'));
            return;
          }
          spec = r.spec;
          newTree(r.standard ? null : r.start, r, r.moves);
        } catch (e) { error.textContent = errorText(e); }
      } }, t('analysis.load')), error);
  }

  function draw() {
    if (!cur.pos) return;
    // The panel is drawn again: the control that had the focus (a piece of the palette, a tree button) keeps it.
    const focused = document.activeElement && panel.contains(document.activeElement) ? focusKey(document.activeElement) : null;
    const p = cur.pos;
    const view = editing ? editorView() : p.view;
    const ms = editing ? [] : view.moves;
    const marks = entries.marks(known.entry, ms, entry, view.cells, !editing, known.look.helping);
    marks.last = new Set();
    const lm = !editing && p.last_move;
    if (lm) { if (lm.from != null) marks.last.add(lm.from); for (const c of lm.path) marks.last.add(c); if (lm.target != null) marks.last.add(lm.target); }
    const best = !editing && engine.node === cur && engine.data && engine.data.lines[0] && ms.find((m) => m.text === engine.data.lines[0].moves[0]);
    if (best) marks.hint = new Set([best.from, ...best.path, best.target].filter((c) => c != null));
    board.render({ view, sides: p.sides, game: p.game, title: p.title }, false, marks, known.look);
    renderEditor();

    const over = view.status && view.status.state === 'over';
    const status = editing ? t('analysis.editing') : over ? t('game.over') : t('game.toMove', { side: gameWord(game, p.sides[view.turn === 'first' ? 0 : 1].name) });
    const choose = h('select', { id: 'legal-moves', 'aria-label': t('rules.legalMoves'), disabled: !!editing, onchange: (e) => { if (e.target.value) play(e.target.value); } },
      h('option', { value: '' }, ms.length ? t('rules.nLegal', { n: ms.length }) : t('rules.noLegal')), ...ms.map((m) => h('option', { value: m.text }, m.text)));
    const noCell = entries.buttons(ms).map((m) => h('button', { class: 'secondary', 'data-move': m.text, onclick: () => play(m.text) }, label(m.kind)));
    const tree = h('div', { class: 'tree', id: 'tree', role: 'group', 'aria-label': t('analysis.moves') },
      h('button', { class: 'small tree-move' + (cur === root ? '' : ' secondary'), 'aria-current': cur === root ? 'true' : null, id: 'tree-start', onclick: () => go(root) }, t('analysis.start')),
      ...lineAfter(root));
    const tabs = h('label', {}, t('analysis.game'), ' ', h('select', { id: 'analysis-game', onchange: (e) => { history.pushState(null, '', path`/analysis/${e.target.value}`); window.dispatchEvent(new Event('popstate')); } },
      allGames().map((g) => h('option', { value: g.name, selected: g.name === game }, g.title))));
    panel.replaceChildren(...[
      h('h1', {}, `${t('analysis.title')} · ${known.title}`),
      tabs,
      spec.includes(':') ? h('p', { class: 'muted', id: 'analysis-spec' }, specTitle(spec)) : null,
      start ? h('p', { class: 'muted', id: 'analysis-setup' }, t('analysis.fromSetup')) : null,
      settingsBox.hidden ? null : settingsBox,
      h('p', { class: 'status', id: 'analysis-status', 'aria-live': 'polite' }, status),
      editing ? below : null,
      h('div', { class: 'actions' }, choose, ...noCell),
      h('h2', {}, t('analysis.moves')),
      tree,
      h('div', { class: 'actions', id: 'tree-actions' },
        h('button', { class: 'small secondary', id: 'tree-prev', 'aria-label': t('replay.prev'), disabled: !cur.parent, onclick: () => go(cur.parent) }, '‹'),
        h('button', { class: 'small secondary', id: 'tree-next', 'aria-label': t('replay.next'), disabled: !cur.children.length, onclick: () => go(cur.children[0]) }, '›'),
        h('button', { class: 'small secondary', id: 'tree-promote', disabled: !cur.parent, onclick: promote }, t('analysis.promote')),
        h('button', { class: 'small secondary', id: 'tree-delete', disabled: !cur.parent, onclick: remove }, t('analysis.delete')),
        h('button', { class: 'small secondary', id: 'edit-position', disabled: !!editing, onclick: openEditor }, t('analysis.edit'))),
      h('p', { class: 'muted small' }, t('analysis.keys')),
      engineBox,
      editing ? null : explorerBox,
      textBox,
    ].filter(Boolean));
    renderEngine();
    renderText();
    if (focused) { const again = panel.querySelector(focused); if (again) again.focus(); }
    const here = tree.querySelector('[aria-current="true"]');
    if (here && here.scrollIntoView) here.scrollIntoView({ block: 'nearest' });
  }

  const onKey = (e) => {
    if (e.target.closest('input, textarea, select, .board-wrap') || editing) return;
    if (e.key === 'ArrowLeft') go(cur.parent);
    else if (e.key === 'ArrowRight') go(cur.children[0]);
    else if (e.key === 'ArrowUp') sibling(-1);
    else if (e.key === 'ArrowDown') sibling(1);
    else if (e.key === 'Home') go(root);
    else if (e.key === 'End') endOfLine();
    else return;
    e.preventDefault();
  };
  document.addEventListener('keydown', onKey);

  renderSettings();
  (async () => {
    // The address's line: the position at its end, and the moves as the game writes them.
    const moves = params.getAll('m');
    try {
      const end = await api('/analysis/position', { spec, start: start || undefined, moves });
      if (!alive) return;
      spec = end.spec;
      // The variations, each checked by the server; one it refuses is left out, and the toast says how many.
      const asked = params.getAll('v').slice(0, MAX_LINES);
      const lines = await Promise.all(asked.map((l) =>
        api('/analysis/position', { spec, start: start || undefined, moves: l.split(' ').filter(Boolean) })
          .then((r) => r.moves, () => null)));
      if (!alive) return;
      const dropped = params.getAll('v').length - lines.filter(Boolean).length;
      if (dropped) toast(t('analysis.linesDropped', { n: dropped }));
      await newTree(start, end, end.moves, lines.filter(Boolean));
    } catch (e) {
      if (!alive) return;
      main.replaceChildren(h('div', { class: 'card' }, h('h1', {}, t('analysis.badAddress')), h('p', { id: 'analysis-error' }, errorText(e)),
        h('a', { href: path`/analysis/${game}`, 'data-link': true }, t('analysis.freshBoard'))));
    }
  })();
  return () => { alive = false; stopEngine(); document.removeEventListener('keydown', onKey); };
}
