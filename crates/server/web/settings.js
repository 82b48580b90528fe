// A game's settings as controls: a select for a choice, a number input with its bounds, an army builder that
// counts each kind of unit and shows the composition rule clause by clause, and a layout editor on a small
// board. Everything comes from the catalog's description of the setting; whether an army or a layout is good
// is the server's answer (POST /api/specs/check), shown as it comes. The form's button waits for a good spec.

import { h, api } from './util.js';
import { t, errorText } from './i18n.js';
import { gameWord } from './catalog.js';
import { Board } from './board.js';

/** A select of the setting's choices. */
function choiceControl(s, id, changed) {
  const select = h('select', { id, name: s.key }, s.options.map((o) => h('option', { value: o.value, selected: o.value === s.default }, o.label)));
  select.addEventListener('change', changed);
  return { node: select, value: () => (select.value === s.default ? null : select.value), valid: () => true };
}

/** A number input within the setting's bounds; the browser refuses a value outside them. */
function numberControl(s, id, changed) {
  const input = h('input', { id, name: s.key, type: 'number', min: s.min, max: s.max, step: 1, value: s.default, required: true, inputmode: 'numeric' });
  input.addEventListener('input', changed);
  const valid = () => input.value !== '' && input.checkValidity();
  return { node: input, value: () => (!valid() || Number(input.value) === s.default ? null : String(Number(input.value))), valid };
}

/**
 * An army builder: off, the game's default army (or, for a setting that copies another, that army); on, a
 * count per kind of unit with − and + buttons, the total, and the rule's clauses as the server checks them.
 */
function armyControl(game, s, id, changed) {
  const counts = Object.fromEntries(s.parts.map((p) => [p.letter, 0]));
  const on = h('input', { type: 'checkbox', id: `${id}-custom` });
  const rows = h('div', { class: 'army-rows' });
  const total = h('p', { class: 'muted army-total', 'aria-live': 'polite' });
  const clauses = h('ul', { class: 'clauses', id: `${id}-clauses` });
  const builder = h('div', { class: 'army', id }, rows, total, clauses);
  builder.hidden = true;
  let known = null; // the army in force, as the server last said
  let started = false; // whether the counts have been set from it since the builder was turned on
  const letters = () => s.parts.map((p) => p.letter.repeat(counts[p.letter])).join('');
  const n = () => Object.values(counts).reduce((a, b) => a + b, 0);
  /** The builder starts from the army in force (the default, or the army it copies). */
  function start() {
    if (started || !known) return;
    started = true;
    for (const p of s.parts) counts[p.letter] = [...known].filter((c) => c === p.letter).length;
    drawRows();
  }
  function drawRows() {
    rows.replaceChildren(...s.parts.map((p) => {
      const word = gameWord(game.name, p.kind);
      return h('div', { class: 'row army-row', 'data-part': p.letter },
        h('span', { class: 'army-kind' }, word),
        h('button', { type: 'button', class: 'small secondary', 'aria-label': t('settings.fewer', { kind: word }), disabled: counts[p.letter] === 0 || n() <= 1, onclick: () => { counts[p.letter] -= 1; drawRows(); changed(); } }, '−'),
        h('output', { class: 'army-count', 'aria-label': word }, String(counts[p.letter])),
        h('button', { type: 'button', class: 'small secondary', 'aria-label': t('settings.more', { kind: word }), disabled: n() >= s.max, onclick: () => { counts[p.letter] += 1; drawRows(); changed(); } }, '+'));
    }));
    total.textContent = t('settings.total', { n: n() });
  }
  on.addEventListener('change', () => {
    builder.hidden = !on.checked;
    started = false;
    if (on.checked) start();
    changed();
  });
  drawRows();
  const label = s.same_as ? t('settings.ownArmy') : t('settings.chooseUnits');
  return {
    node: h('div', { class: 'stack tight' }, h('label', { class: 'toggle' }, on, label), builder),
    value: () => (on.checked && started ? letters() : null),
    valid: () => !on.checked || started,
    /** The server's check of this army: the army in force and each clause met or not. */
    checked(c) {
      if (!c) return;
      if (!on.checked || !started) known = c.value;
      if (!on.checked) return;
      if (!started) { start(); changed(); return; }
      clauses.replaceChildren(...s.clauses.map((text, k) => h('li', { class: c.met[k] ? 'met' : 'broken', 'data-met': String(!!c.met[k]) },
        h('span', { 'aria-hidden': 'true' }, c.met[k] ? '✓ ' : '✗ '), text, h('span', { class: 'sr-only' }, ` (${c.met[k] ? t('settings.met') : t('settings.broken')})`))));
    },
  };
}

/** A layout editor: a click on a square turns its piece to the next of the setting's pieces, then empty. */
function layoutControl(game, s, id, changed) {
  const cells = readRows(s.default, s.width, s.height);
  const box = h('div', { class: 'board-wrap layout-board', id, 'aria-label': t('settings.layoutHelp') });
  const files = Array.from({ length: s.width }, (_, x) => String.fromCharCode(97 + x));
  const ranks = Array.from({ length: s.height }, (_, y) => String(y + 1));
  const pieceOf = (letter) => {
    const p = s.pieces.find((q) => q.letter === letter);
    return p ? { kind: p.kind, owner: p.owner, glyph: p.letter } : null;
  };
  const board = new Board(box, {
    onCell(i) {
      const order = [null, ...s.pieces.map((p) => p.letter)];
      cells[i] = order[(order.indexOf(cells[i]) + 1) % order.length];
      draw();
      changed();
    },
    onDrop() {},
    describe(i) {
      const p = pieceOf(cells[i]);
      return p ? gameWord(game.name, p.kind) : t('board.empty');
    },
  });
  function draw() {
    const view = { width: s.width, height: s.height, files, ranks, cells: cells.map((c) => ({ piece: pieceOf(c) })) };
    board.render({ view, sides: game.sides, game: game.name }, false, {}, game.look);
  }
  draw();
  const reset = h('button', { type: 'button', class: 'small secondary', onclick: () => { cells.splice(0, cells.length, ...readRows(s.default, s.width, s.height)); draw(); changed(); } }, t('settings.resetLayout'));
  const value = () => writeRows(cells, s.width);
  return { node: h('div', { class: 'stack tight' }, box, h('small', {}, t('settings.layoutHelp')), reset), value: () => (value() === s.default ? null : value()), valid: () => true };
}

/** Run-length rows (`3YWF3/9`) as one letter or null per cell, row by row from the top. */
export function readRows(text, width, height) {
  const out = [];
  for (const row of text.split('/')) {
    for (const m of row.matchAll(/(\d+)|(.)/g)) {
      if (m[1]) for (let k = 0; k < Number(m[1]); k++) out.push(null);
      else out.push(m[2]);
    }
  }
  return out.length === width * height ? out : Array(width * height).fill(null);
}

/** Cells as run-length rows, the inverse of readRows. */
export function writeRows(cells, width) {
  const rows = [];
  for (let y = 0; y * width < cells.length; y++) {
    let row = '', run = 0;
    for (const c of cells.slice(y * width, (y + 1) * width)) {
      if (c == null) { run += 1; continue; }
      if (run) { row += run; run = 0; }
      row += c;
    }
    if (run) row += run;
    rows.push(row);
  }
  return rows.join('/');
}

/**
 * The settings of `game` as controls. Returns {node, spec(), valid(), onValidity(f)}: spec() is the game spec
 * the controls make, valid() whether the server (or the control) has it good, and f(valid) is told each change.
 */
export function settingsControls(game, prefix) {
  const listeners = [];
  const error = h('p', { class: 'error', role: 'alert', id: `${prefix}-settings-error` });
  const needsCheck = game.settings.some((s) => s.kind === 'army' || s.kind === 'layout');
  let serverOk = true;
  // A check asked and not answered yet for the spec the controls make now.
  let pending = false;
  const controls = [];
  const tell = () => { const v = valid(); for (const f of listeners) f(v); };
  const changed = () => { if (needsCheck) check(); else tell(); };
  for (const s of game.settings) {
    const id = `${prefix}-${s.key}`;
    const make = { choice: choiceControl, number: numberControl, army: (x, i, c) => armyControl(game, x, i, c), layout: (x, i, c) => layoutControl(game, x, i, c) }[s.kind];
    if (!make) continue;
    controls.push({ s, c: make(s, id, changed) });
  }
  function spec() {
    const parts = controls.map(({ s, c }) => [s.key, c.value()]).filter(([, v]) => v != null).map(([k, v]) => `${k}=${v}`);
    return game.name + (parts.length ? ':' + parts.join(',') : '');
  }
  function valid() { return !pending && serverOk && controls.every(({ c }) => c.valid()); }
  let timer = null;
  function check() {
    clearTimeout(timer);
    pending = true;
    tell();
    timer = setTimeout(async () => {
      const asked = spec();
      try {
        const r = await api('/specs/check', { spec: asked });
        // A newer check is on its way for what the controls make now: its answer counts.
        if (asked !== spec()) return;
        serverOk = r.ok;
        error.textContent = r.ok ? '' : r.error;
        for (const { s, c } of controls) if (c.checked) c.checked(r.armies[s.key]);
      } catch (e) {
        if (asked !== spec()) return;
        serverOk = false;
        error.textContent = errorText(e);
      }
      pending = false;
      tell();
    }, 120);
  }
  // A choice or a number is one labelled control; an army or a layout is a group under a legend.
  const node = h('div', { class: 'stack settings' },
    controls.map(({ s, c }) => (s.kind === 'choice' || s.kind === 'number'
      ? h('label', { class: 'setting', 'data-setting': s.key }, s.label, c.node, h('small', {}, s.about))
      : h('fieldset', { class: 'setting', 'data-setting': s.key }, h('legend', {}, s.label), h('small', {}, s.about), c.node))),
    error);
  if (needsCheck) check();
  return { node, spec, valid, onValidity(f) { listeners.push(f); f(valid()); } };
}
