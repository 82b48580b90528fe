// Move entry: turns clicks and drags on cells into one of the legal moves the server listed. It knows no rule
// and no game: the game's catalog entry says which of three ways it enters moves, and the moves say the rest.
//   place:    click a cell; where a cell allows several kinds of move, the player picks the kind first;
//   path:     pick up a piece, then each landing square in turn (multi-jumps);
//   activate: pick a unit, then the square it goes to, then what it acts on there.
// Pure functions over plain data, shared by the game page and the rules page, tested with `node --test`.

import { t } from './i18n.js';

/** Where a move's piece ends: the last cell of its path, or where it started. */
export const final = (m) => (m.path.length ? m.path[m.path.length - 1] : m.from ?? null);
const prefix = (path, entered) => entered.every((c, k) => path[k] === c);

/** Nothing chosen yet. */
export const EMPTY = Object.freeze({ sel: null, entered: [], dest: null, mode: null });

/** The placements (a move onto one cell with no piece moving). */
export const placements = (moves) => moves.filter((m) => m.from == null && m.path.length === 1);
/** The moves with no cell at all (a pass, the end of a turn): the page shows them as buttons. */
export const buttons = (moves) => moves.filter((m) => m.from == null && m.path.length === 0);
/** The kinds of placement, in the order of the moves. */
export const placeKinds = (moves) => [...new Set(placements(moves).map((m) => m.kind))];
/** The kind of placement a click plays now. */
export const modeOf = (moves, e) => e.mode || placeKinds(moves)[0] || null;

/** The path moves of the selected piece that go on from the landings entered so far. */
function onward(moves, e) {
  return moves.filter((m) => (m.from ?? null) === e.sel && m.path.length > e.entered.length && prefix(m.path, e.entered));
}

/** The path moves of the selected piece that end exactly at the landings entered so far. */
export function complete(moves, e) {
  return moves.filter((m) => (m.from ?? null) === e.sel && m.path.length === e.entered.length && prefix(m.path, e.entered));
}

/** The activations of the selected unit that end on the chosen square. */
export const atDest = (moves, e) => moves.filter((m) => (m.from ?? null) === e.sel && final(m) === e.dest);

const result = (e, extra = {}) => ({ entry: e, send: null, say: null, ...extra });

/**
 * A click on cell `i`. Returns `{entry, send, say}`: the new entry state, the move to send (or null), and a
 * sentence for the player when the click means nothing here (or null).
 * @param {'place'|'path'|'activate'} how
 * @param {Array} moves the legal moves the player may play now
 * @param {{sel, entered, dest, mode}} e
 * @param {number} i
 * @param {(kind: string) => string} label the words for a kind of move
 */
export function click(how, moves, e, i, label = (k) => k) {
  const place = placements(moves);
  if (place.length) {
    const here = place.filter((m) => m.path[0] === i);
    const kinds = placeKinds(moves);
    const want = here.filter((m) => kinds.length === 1 || m.kind === modeOf(moves, e));
    if (want.length === 1) return result(EMPTY, { send: want[0] });
    if (here.length) return result(e, { say: t('entry.chooseKind', { kind: label(here[0].kind) }) });
    if (!moves.some((m) => m.from != null)) return result(e, { say: t('entry.notThere') });
  }
  const pieces = moves.filter((m) => m.from != null);
  const froms = new Set(pieces.map((m) => m.from));
  if (how === 'path') {
    if (e.sel == null || (e.entered.length === 0 && froms.has(i) && i !== e.sel)) {
      if (froms.has(i)) return result({ ...EMPTY, mode: e.mode, sel: i });
      return result(e, { say: t('entry.choosePiece') });
    }
    if (i === e.sel && e.entered.length === 0) return result({ ...EMPTY, mode: e.mode });
    if (!onward(pieces, e).some((m) => m.path[e.entered.length] === i)) return result(e, { say: t('entry.notLanding') });
    const next = { ...e, entered: [...e.entered, i] };
    const exact = complete(pieces, next);
    if (exact.length === 1 && !onward(pieces, next).length) return result(EMPTY, { send: exact[0] });
    return result(next);
  }
  if (e.dest == null) {
    if (froms.has(i) && i !== e.sel) return result({ ...e, sel: i });
    if (e.sel == null) return result(e, { say: t('entry.choosePiece') });
    const ends = pieces.filter((m) => (m.from ?? null) === e.sel && final(m) === i);
    if (ends.length && how !== 'activate') {
      // A piece that moves in one step: the move whose path ends here, if only one does.
      if (ends.length === 1) return result(EMPTY, { send: ends[0] });
      return result(e, { say: t('entry.several') });
    }
    if (ends.length) return result({ ...e, dest: i });
    if (i === e.sel) return result({ ...EMPTY, mode: e.mode });
    return result(e, { say: t('entry.cannotReach') });
  }
  const here = atDest(pieces, e);
  const acting = here.filter((m) => m.target === i);
  if (acting.length === 1) return result(EMPTY, { send: acting[0] });
  if (acting.length > 1) return result(e, { say: t('entry.chooseAction') });
  if (i === e.dest) {
    // A second click on the chosen square moves there without acting.
    const stay = here.find((m) => m.target == null);
    if (stay) return result(EMPTY, { send: stay });
    return result(e);
  }
  return result(e, { say: t('entry.chooseTarget') });
}

/** A piece dragged from `from` and dropped on `to`: as if the piece was picked and `to` clicked. */
export function drop(how, moves, e, from, to, label) {
  if (how === 'path') {
    const at = e.entered.length ? e.entered[e.entered.length - 1] : e.sel;
    let start = e;
    if (e.sel == null || (e.entered.length === 0 && from !== e.sel)) start = { ...EMPTY, mode: e.mode, sel: from };
    else if (from !== at) return result(e);
    return click(how, moves, start, to, label);
  }
  if (e.dest != null) return result(e);
  return click(how, moves, { ...e, sel: from }, to, label);
}

/**
 * Where a piece picked up from `from` may be dropped now, for the board to mark while it is dragged: the next
 * landings of a path (after those entered so far), or the squares a unit can reach.
 */
export function dragTargets(how, moves, e, from) {
  const pieces = moves.filter((m) => m.from != null);
  if (how === 'path') {
    const at = e.entered.length ? e.entered[e.entered.length - 1] : e.sel;
    const start = e.sel != null && e.entered.length && from === at ? e : { ...EMPTY, sel: from };
    return new Set(onward(pieces, start).map((m) => m.path[start.entered.length]));
  }
  if (e.dest != null) return new Set();
  return new Set(pieces.filter((m) => m.from === from).map(final));
}

/** Steps back one landing of a path. */
export const backUp = (e) => ({ ...e, entered: e.entered.slice(0, -1) });

/**
 * What the board marks for the entry so far: the cells that can be played or picked (`legal`, when
 * `showLegal`), where the chosen piece can go (`reach`), what it can act on (`targets`: cell -> 'target' or
 * 'help' for a move of the look's `helping` kinds), the chosen cell, the path drawn, the pieces that can be dragged, and pieces drawn where they would
 * stand (`pieceOverride`: cell -> piece or null).
 * @param {Array} cells the board view's cells, for the piece that moves
 */
export function marks(how, moves, e, cells, showLegal = true, helping = []) {
  const m = { legal: new Set(), reach: new Set(), targets: new Map(), selected: null, path: [], draggable: new Set() };
  const kinds = placeKinds(moves);
  if (showLegal) for (const mv of placements(moves)) if (kinds.length === 1 || mv.kind === modeOf(moves, e)) m.legal.add(mv.path[0]);
  const pieces = moves.filter((mv) => mv.from != null);
  for (const mv of pieces) m.draggable.add(mv.from);
  if (showLegal && e.sel == null) for (const mv of pieces) m.legal.add(mv.from);
  if (e.sel == null) return m;
  m.selected = e.sel;
  if (how === 'path') {
    for (const mv of onward(pieces, e)) m.legal.add(mv.path[e.entered.length]);
    m.path = [e.sel, ...e.entered];
    if (e.entered.length) {
      const at = e.entered[e.entered.length - 1];
      m.pieceOverride = new Map([[e.sel, null], [at, cells[e.sel].piece]]);
      m.draggable = new Set([at]);
      m.selected = at;
    }
  } else if (e.dest == null) {
    for (const mv of pieces) if ((mv.from ?? null) === e.sel) m.reach.add(final(mv));
  } else {
    const here = atDest(pieces, e);
    for (const mv of here) if (mv.target != null) m.targets.set(mv.target, helping.includes(mv.kind) ? 'help' : 'target');
    m.path = here[0] ? [e.sel, ...here[0].path] : [e.sel];
    if (e.dest !== e.sel) m.pieceOverride = new Map([[e.sel, null], [e.dest, cells[e.sel].piece]]);
    m.selected = e.dest;
    m.draggable = new Set();
  }
  return m;
}

/**
 * The legal move a premove names, or null when none or several do. A premove is the cells a player clicked
 * during the opponent's turn, before the legal moves were known: a placement's cell; a piece and its landing
 * squares (the last landing alone is enough when one path ends there); or a unit, its square and a target.
 * @param {'place'|'path'|'activate'} how
 * @param {Array} moves the legal moves once it is the player's turn
 * @param {number[]} cells
 * @param {string|null} mode the kind of placement chosen (YWF's Place or Change), if any
 */
export function premoveMatch(how, moves, cells, mode = null) {
  if (!cells.length) return null;
  let found;
  if (how === 'place' && cells.length === 1) {
    found = placements(moves).filter((m) => m.path[0] === cells[0]);
    if (found.length > 1 && mode) found = found.filter((m) => m.kind === mode);
  } else if (how === 'path') {
    const [from, ...landings] = cells;
    const starts = moves.filter((m) => (m.from ?? null) === from);
    found = starts.filter((m) => m.path.length === landings.length && m.path.every((c, k) => c === landings[k]));
    if (!found.length && landings.length) found = starts.filter((m) => final(m) === landings[landings.length - 1]);
  } else {
    const [from, dest, target] = cells;
    found = moves.filter((m) => (m.from ?? null) === from && final(m) === dest && (target === undefined ? m.target == null : m.target === target));
  }
  return found && found.length === 1 ? found[0] : null;
}

/** The most cells a premove of each way of entry takes. */
export const PREMOVE_CELLS = { place: 1, path: 13, activate: 3 };
