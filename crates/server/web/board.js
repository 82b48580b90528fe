// The board: draws a position as SVG from the server's board view. It knows no rules: which cells to mark,
// which pieces may be dragged and what a click means are decided by the game page from the server's legal moves.

import { t } from './i18n.js';
import { titleOf } from './catalog.js';
import { afterPaint } from './util.js';

const NS = 'http://www.w3.org/2000/svg';

function s(tag, attrs = {}, ...children) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, String(v));
  for (const c of children) if (c) e.append(c);
  return e;
}

const NEUTRAL = '#9b9b9b';
let drawnOnce = false;

/** A unit: a body in the owner's colour and an emblem. */
function unit(color, emblem) {
  const g = s('g');
  const dark = color === 'white' || color === '#fff' ? '#333' : '#fff';
  g.append(s('circle', { cx: 0.5, cy: 0.5, r: 0.42, fill: color, stroke: '#222', 'stroke-width': 0.04 }));
  if (emblem === 'sword') {
    // A sword over a shield.
    g.append(s('path', { d: 'M0.32 0.3 h0.36 v0.2 q0 0.18 -0.18 0.26 q-0.18 -0.08 -0.18 -0.26 z', fill: 'none', stroke: dark, 'stroke-width': 0.045 }));
    g.append(s('path', { d: 'M0.5 0.2 v0.48 M0.42 0.34 h0.16', stroke: dark, 'stroke-width': 0.05, 'stroke-linecap': 'round' }));
  } else if (emblem === 'bow') {
    // A drawn bow with its arrow.
    g.append(s('path', { d: 'M0.36 0.2 q0.34 0.3 0 0.6', fill: 'none', stroke: dark, 'stroke-width': 0.05 }));
    g.append(s('path', { d: 'M0.36 0.2 L0.36 0.8', stroke: dark, 'stroke-width': 0.02 }));
    g.append(s('path', { d: 'M0.3 0.5 H0.76 M0.68 0.44 L0.76 0.5 L0.68 0.56', fill: 'none', stroke: dark, 'stroke-width': 0.04, 'stroke-linecap': 'round' }));
  } else if (emblem === 'cross') {
    g.append(s('path', { d: 'M0.43 0.25 h0.14 v0.18 h0.18 v0.14 h-0.18 v0.18 h-0.14 v-0.18 h-0.18 v-0.14 h0.18 z', fill: dark }));
  }
  return g;
}

function crown(color) {
  return s('path', { d: 'M0.33 0.58 L0.3 0.4 L0.41 0.48 L0.5 0.36 L0.59 0.48 L0.7 0.4 L0.67 0.58 Z', fill: color, stroke: '#222', 'stroke-width': 0.02 });
}

/** The drawings a game's look may name for its pieces (see `Sprite` in the rules library). */
const SPRITES = {
  disc: (g, color, edge) => g.append(s('circle', { cx: 0.5, cy: 0.5, r: 0.42, fill: color, stroke: edge, 'stroke-width': 0.035 })),
  'small-disc': (g, color, edge) => g.append(s('circle', { cx: 0.5, cy: 0.5, r: 0.3, fill: color, stroke: edge, 'stroke-width': 0.03 })),
  'ringed-disc': (g, color) => {
    g.append(s('circle', { cx: 0.5, cy: 0.5, r: 0.4, fill: color, stroke: '#444', 'stroke-width': 0.035 }));
    g.append(s('circle', { cx: 0.5, cy: 0.5, r: 0.14, fill: '#ddd' }));
  },
  checker: (g, color, edge) => {
    g.append(s('circle', { cx: 0.5, cy: 0.53, r: 0.38, fill: '#222', opacity: 0.35 }));
    g.append(s('circle', { cx: 0.5, cy: 0.5, r: 0.38, fill: color, stroke: edge, 'stroke-width': 0.035 }));
    g.append(s('circle', { cx: 0.5, cy: 0.5, r: 0.26, fill: 'none', stroke: edge, 'stroke-width': 0.025, opacity: 0.6 }));
  },
  'crowned-checker': (g, color, edge) => { SPRITES.checker(g, color, edge); g.append(crown('#f2c230')); },
  sword: (g, color) => g.append(unit(color, 'sword')),
  bow: (g, color) => g.append(unit(color, 'bow')),
  cross: (g, color) => g.append(unit(color, 'cross')),
  saltire: (g, color) => g.append(s('path', { d: 'M0.22 0.22 L0.78 0.78 M0.78 0.22 L0.22 0.78', stroke: color, 'stroke-width': 0.12, 'stroke-linecap': 'round' })),
  ring: (g, color) => g.append(s('circle', { cx: 0.5, cy: 0.5, r: 0.3, fill: 'none', stroke: color, 'stroke-width': 0.11 })),
};

/** Draws one piece in a unit square, as the game's look says. */
function pieceNode(p, sides, look) {
  const color = p.owner ? sides[p.owner === 'first' ? 0 : 1].color : NEUTRAL;
  const g = s('g', { class: 'piece' + (p.ghost ? ' ghost' : '') });
  const edge = color === 'black' ? '#555' : '#222';
  const named = (look.pieces || []).find(([kind]) => kind === p.kind);
  (SPRITES[named ? named[1] : 'disc'] || SPRITES.disc)(g, color, edge);
  if (p.label) {
    g.append(s('rect', { x: 0.56, y: 0.62, width: 0.4, height: 0.32, rx: 0.08, fill: '#222', opacity: 0.85 }));
    const t = s('text', { x: 0.76, y: 0.86, 'text-anchor': 'middle', class: 'hp' });
    t.textContent = p.label;
    g.append(t);
    if (p.ghost) g.setAttribute('class', 'piece used');
  }
  return g;
}

export class Board {
  /**
   * @param {HTMLElement} container
   * @param {{onCell: (i:number)=>void, onDrop: (from:number, to:number)=>void, onEscape?: ()=>void,
   *          describe?: (i:number)=>string, dragTargets?: (i:number)=>Set<number>}} handlers
   * @param {{keys?: boolean}} options `keys: false` for a board that is only shown (replays)
   */
  constructor(container, handlers, { keys = true } = {}) {
    this.container = container;
    this.handlers = handlers;
    this.prev = null;
    this.drag = null;
    this.frame = null;
    // The keyboard's cursor, a cell index; shown while the board has the focus.
    this.cursor = null;
    this.bind();
    if (keys) {
      container.tabIndex = 0;
      container.setAttribute('role', 'application');
      container.setAttribute('aria-roledescription', 'board');
      this.bindKeys();
    }
  }

  /**
   * Keyboard play: the arrow keys move a cursor over the board as it is drawn, Enter or Space acts on the
   * cell under it as a click would, Escape cancels. The board's label says where the cursor is.
   */
  bindKeys() {
    const c = this.container;
    // The cursor shows once the keyboard is used, and hides when the pointer is.
    c.addEventListener('pointerdown', () => { this.keyboard = false; this.drawCursor(); });
    c.addEventListener('keydown', (e) => {
      if (!this.view) return;
      if (e.key.startsWith('Arrow')) this.keyboard = true;
      const { width: w, height: hgt } = this.view;
      const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
      if (step) {
        e.preventDefault();
        let [x, y] = this.cursor == null ? [Math.floor(w / 2), Math.floor(hgt / 2)] : this.xy(this.cursor);
        x = Math.max(0, Math.min(w - 1, x + step[0]));
        y = Math.max(0, Math.min(hgt - 1, y + step[1]));
        if (this.rotate) { x = w - 1 - x; y = hgt - 1 - y; }
        this.moveCursor(y * w + x);
      } else if ((e.key === 'Enter' || e.key === ' ') && this.cursor != null) {
        e.preventDefault();
        this.handlers.onCell(this.cursor);
      } else if (e.key === 'Escape' && this.handlers.onEscape) {
        e.preventDefault();
        this.handlers.onEscape();
      }
    });
    c.addEventListener('focus', () => { if (this.cursor == null && this.view) this.moveCursor(Math.floor(this.view.height / 2) * this.view.width + Math.floor(this.view.width / 2)); else this.drawCursor(); });
    c.addEventListener('blur', () => this.drawCursor());
  }

  moveCursor(i) {
    this.cursor = i;
    this.drawCursor();
    const name = `${this.view.files[i % this.view.width]}${this.view.ranks[Math.floor(i / this.view.width)]}`;
    const what = this.handlers.describe ? this.handlers.describe(i) : '';
    this.container.setAttribute('aria-label', `${name}${what ? ', ' + what : ''}`);
  }

  /** The cursor's ring, over the drawing, while the board has the focus. */
  drawCursor() {
    if (this.cursorNode) { this.cursorNode.remove(); this.cursorNode = null; }
    if (!this.layer || this.cursor == null || !this.keyboard || document.activeElement !== this.container) return;
    const [x, y] = this.xy(this.cursor);
    this.cursorNode = s('rect', { x: x + 0.03, y: y + 0.03, width: 0.94, height: 0.94, rx: 0.08, class: 'cursor', 'data-cursor': this.cursor, 'pointer-events': 'none' });
    this.layer.append(this.cursorNode);
  }

  /** Where cell i is drawn, in squares from the top-left. */
  xy(i) {
    const { width: w, height: hgt } = this.view;
    let x = i % w, y = Math.floor(i / w);
    if (this.rotate) { x = w - 1 - x; y = hgt - 1 - y; }
    return [x, y];
  }

  cellAt(evt) {
    const pt = this.svg.createSVGPoint();
    pt.x = evt.clientX; pt.y = evt.clientY;
    const p = pt.matrixTransform(this.layer.getScreenCTM().inverse());
    const { width: w, height: hgt } = this.view;
    let x = Math.floor(p.x), y = Math.floor(p.y);
    if (x < 0 || y < 0 || x >= w || y >= hgt) return null;
    if (this.rotate) { x = w - 1 - x; y = hgt - 1 - y; }
    return y * w + x;
  }

  /**
   * Draws the state at the next animation frame; several renders before it draw once, the last.
   * marks: {legal:Set, last:Set, reach:Set, targets:Map(cell->'target'|'help'), selected:number|null,
   *         path:number[], hoverTint:boolean, draggable:Set, movedFrom:number|null, movedTo:number|null,
   *         pieceOverride: Map(cell -> piece|null)}
   */
  render(state, rotate, marks, look) {
    this.view = state.view; this.rotate = rotate; this.marks = marks; this.sides = state.sides;
    this.pending = { state, look };
    // The first drawing is made at once, so that a page shows its board as soon as it can; later ones wait
    // for the next frame.
    if (!this.svg) { this.draw(); return; }
    if (this.frame == null) this.frame = requestAnimationFrame(() => { this.frame = null; this.draw(); });
  }

  draw() {
    const { state, look } = this.pending;
    const { view, marks } = this;
    const { width: w, height: hgt } = view;
    const m = 0.45; // margin for coordinates
    const svg = s('svg', { viewBox: `${-m} ${-m} ${w + 2 * m} ${hgt + 2 * m}`, role: 'img', 'aria-label': t('board.label', { game: titleOf(state.game) }) });
    const layer = s('g');
    svg.append(s('rect', { x: -m, y: -m, width: w + 2 * m, height: hgt + 2 * m, fill: look.light, rx: 0.2 }));
    const cells = view.cells.map((c, i) => (marks.pieceOverride && marks.pieceOverride.has(i) ? { ...c, piece: marks.pieceOverride.get(i) } : c));
    for (let i = 0; i < cells.length; i++) {
      const [x, y] = this.xy(i);
      const dark = look.checkered && (x + y) % 2 === 1;
      const g = s('g', { transform: `translate(${x} ${y})`, 'data-cell': i });
      g.append(s('rect', { width: 1, height: 1, fill: dark ? look.dark : look.light, stroke: look.line || 'none', 'stroke-width': look.line ? 0.02 : 0 }));
      if (marks.last && marks.last.has(i)) g.append(s('rect', { width: 1, height: 1, class: 'tint-last' }));
      if (marks.reach && marks.reach.has(i)) g.append(s('rect', { width: 1, height: 1, class: 'tint-reach' }));
      if (marks.hoverTint && marks.legal && marks.legal.has(i)) g.append(s('rect', { width: 1, height: 1, class: 'tint-legal' }));
      if (cells[i].piece) {
        const p = pieceNode(cells[i].piece, state.sides, look);
        const before = this.prev && this.prev[i] && this.prev[i].piece;
        const now = cells[i].piece;
        if (this.prev && (!before || before.owner !== now.owner || before.kind !== now.kind) && i !== marks.movedTo) p.classList.add('pop');
        if (i === marks.movedTo) p.dataset.moved = '1';
        g.append(p);
      }
      if (cells[i].label) {
        // Drawn over the piece, small, in the corner: the square's number stays readable.
        const t = s('text', { x: 0.05, y: 0.22, class: 'label' });
        t.textContent = cells[i].label;
        g.append(t);
      }
      if (marks.legal && marks.legal.has(i) && !marks.hoverTint) g.append(s('circle', { cx: 0.5, cy: 0.5, r: cells[i].piece ? 0.46 : 0.14, class: 'cell-hint', fill: cells[i].piece ? 'none' : undefined, stroke: cells[i].piece ? 'rgba(20,20,20,.35)' : undefined, 'stroke-width': cells[i].piece ? 0.06 : undefined }));
      if (marks.targets && marks.targets.has(i)) g.append(s('rect', { x: 0.05, y: 0.05, width: 0.9, height: 0.9, rx: 0.12, class: marks.targets.get(i) === 'help' ? 'tint-help' : 'tint-target' }));
      if (marks.hint && marks.hint.has(i)) g.append(s('rect', { x: 0.08, y: 0.08, width: 0.84, height: 0.84, rx: 0.14, class: 'tint-hint', 'data-hint': '1' }));
      if (marks.selected === i) g.append(s('rect', { x: 0.04, y: 0.04, width: 0.92, height: 0.92, rx: 0.1, class: 'tint-sel' }));
      layer.append(g);
    }
    if (marks.path && marks.path.length > 1) {
      const pts = marks.path.map((i) => this.xy(i).map((v) => v + 0.5).join(',')).join(' ');
      layer.append(s('polyline', { points: pts, class: 'path-line' }));
    }
    // Coordinates on the margins.
    for (let x = 0; x < w; x++) {
      const file = view.files[this.rotate ? w - 1 - x : x];
      const t = s('text', { x: x + 0.5, y: hgt + 0.33, 'text-anchor': 'middle', class: 'coord', fill: look.coords });
      t.textContent = file;
      layer.append(t);
    }
    for (let y = 0; y < hgt; y++) {
      const rank = view.ranks[this.rotate ? hgt - 1 - y : y];
      const t = s('text', { x: -0.22, y: y + 0.6, 'text-anchor': 'middle', class: 'coord', fill: look.coords });
      t.textContent = rank;
      layer.append(t);
    }
    svg.append(layer);
    this.svg = svg; this.layer = layer;
    this.container.replaceChildren(svg);
    // When the page's first board was on the screen, for the browser tests' measure of a page's load: just
    // after the frame that drew it (its layout and paint included).
    if (!drawnOnce) {
      drawnOnce = true;
      afterPaint(() => performance.mark('gridplay:first-board'));
    }
    this.prev = cells;
    this.drawCursor();
    this.animateMove(marks.movedFrom, marks.movedTo);
  }

  animateMove(from, to) {
    if (from == null || to == null || from === to) return;
    const node = this.layer.querySelector(`[data-cell="${to}"] .piece`);
    if (!node || !node.animate) return;
    const [fx, fy] = this.xy(from), [tx, ty] = this.xy(to);
    node.animate([{ transform: `translate(${fx - tx}px, ${fy - ty}px)` }, { transform: 'translate(0, 0)' }], { duration: 220, easing: 'ease-out' });
  }

  /** Listens once, on the container: the drawing inside is replaced at each redraw. */
  bind() {
    const svg = this.container;
    svg.addEventListener('pointerdown', (e) => {
      if (!this.svg) return;
      const i = this.cellAt(e);
      if (i == null) return;
      if (this.marks.draggable && this.marks.draggable.has(i)) {
        const node = this.layer.querySelector(`[data-cell="${i}"] .piece`);
        if (node) {
          e.preventDefault();
          svg.setPointerCapture(e.pointerId);
          const [x, y] = this.xy(i);
          const ghost = node.cloneNode(true);
          ghost.setAttribute('pointer-events', 'none');
          ghost.setAttribute('transform', `translate(${x} ${y})`);
          this.layer.append(ghost);
          node.style.opacity = '0.3';
          // Where it may land, marked while it is dragged (the page says, from the server's moves).
          const landings = this.handlers.dragTargets ? this.handlers.dragTargets(i) : new Set();
          const dots = [...landings].map((c) => {
            const [cx, cy] = this.xy(c);
            return s('circle', { cx: cx + 0.5, cy: cy + 0.5, r: 0.17, class: 'drag-target', 'data-drag-target': c, 'pointer-events': 'none' });
          });
          this.layer.append(...dots);
          this.drag = { from: i, ghost, node, dots, moved: false, x0: e.clientX, y0: e.clientY };
          return;
        }
      }
      this.pendingClick = i;
    });
    svg.addEventListener('pointermove', (e) => {
      if (!this.svg) return;
      if (this.drag) {
        if (Math.abs(e.clientX - this.drag.x0) + Math.abs(e.clientY - this.drag.y0) > 4) this.drag.moved = true;
        const pt = this.svg.createSVGPoint(); pt.x = e.clientX; pt.y = e.clientY;
        const p = pt.matrixTransform(this.layer.getScreenCTM().inverse());
        this.drag.ghost.setAttribute('transform', `translate(${p.x - 0.5} ${p.y - 0.5})`);
        return;
      }
      if (this.marks.hoverTint) this.hover(this.cellAt(e));
    });
    svg.addEventListener('pointerleave', () => { if (this.marks && this.marks.hoverTint) this.hover(null); });
    const end = (e) => {
      if (!this.svg) return;
      if (this.drag) {
        const d = this.drag;
        this.drag = null;
        d.ghost.remove();
        for (const dot of d.dots) dot.remove();
        d.node.style.opacity = '';
        const to = this.cellAt(e);
        if (d.moved && to != null && to !== d.from) this.handlers.onDrop(d.from, to);
        else this.handlers.onCell(d.from);
        return;
      }
      const i = this.cellAt(e);
      if (i != null && i === this.pendingClick) this.handlers.onCell(i);
      this.pendingClick = null;
    };
    svg.addEventListener('pointerup', end);
    svg.addEventListener('pointercancel', () => {
      if (this.drag) { this.drag.ghost.remove(); for (const dot of this.drag.dots) dot.remove(); this.drag.node.style.opacity = ''; this.drag = null; }
    });
  }

  /** The cursor tint of a look with `cursor_tint`: green over a cell where a move can be played, red elsewhere. */
  hover(i) {
    if (this.hoverNode) { this.hoverNode.remove(); this.hoverNode = null; }
    if (i == null || !this.marks.legal || this.marks.legal.size === 0) return;
    const [x, y] = this.xy(i);
    const ok = this.marks.legal.has(i);
    this.hoverNode = s('rect', { x, y, width: 1, height: 1, class: ok ? 'tint-legal' : 'tint-bad', 'pointer-events': 'none', 'data-hover': ok ? 'legal' : 'bad' });
    this.layer.append(this.hoverNode);
  }
}
