// Unit tests of the browser's move entry (web/entry.js), on move lists shaped as the server sends them.
// Run by scripts/test: node --test crates/server/web-tests/

import test from 'node:test';
import assert from 'node:assert/strict';
import { EMPTY, click, drop, marks, backUp, complete, placeKinds, dragTargets } from '../web/entry.js';
import { loadLanguage } from '../web/i18n.js';

// A page loads its language's words before it draws; so do these tests.
await loadLanguage('en');

const mv = (text, kind, from, path, target = null) => ({ text, kind, from, path, target });

test('a placement plays at once; with two kinds the chosen kind plays', () => {
  const moves = [mv('a1', 'place', null, [0]), mv('b1', 'place', null, [1]), mv('c1', 'change', null, [1]), mv('pass', 'pass', null, [])];
  assert.deepEqual(placeKinds(moves), ['place', 'change']);
  let r = click('place', moves, EMPTY, 0);
  assert.equal(r.send.text, 'a1');
  r = click('place', moves, EMPTY, 1);
  assert.equal(r.send.text, 'b1');
  r = click('place', moves, { ...EMPTY, mode: 'change' }, 1);
  assert.equal(r.send.text, 'c1');
  r = click('place', moves, { ...EMPTY, mode: 'change' }, 0, (k) => `«${k}»`);
  assert.equal(r.send, null);
  assert.equal(r.say, 'Choose «place» to play here.');
  r = click('place', moves, EMPTY, 5);
  assert.equal(r.say, 'You cannot play there.');
  assert.deepEqual([...marks('place', moves, EMPTY, []).legal], [0, 1]);
  assert.deepEqual([...marks('place', moves, { ...EMPTY, mode: 'change' }, []).legal], [1]);
});

// A man on 10 that may jump to 19 then 26 or 28, or step to 14.
const jumps = [mv('10x19x26', 'jump', 10, [19, 26]), mv('10x19x28', 'jump', 10, [19, 28]), mv('10-14', 'step', 10, [14]), mv('11-15', 'step', 11, [15])];
const cells = Array.from({ length: 32 }, (_, i) => ({ piece: i === 10 || i === 11 ? { kind: 'man' } : null }));

test('a path is entered landing by landing, and sent when only one move fits', () => {
  let r = click('path', jumps, EMPTY, 10);
  assert.equal(r.entry.sel, 10);
  assert.deepEqual([...marks('path', jumps, r.entry, cells).legal].sort(), [14, 19]);
  r = click('path', jumps, r.entry, 19);
  assert.deepEqual(r.entry.entered, [19]);
  assert.equal(r.send, null);
  const m = marks('path', jumps, r.entry, cells);
  assert.deepEqual([...m.legal].sort(), [26, 28]);
  assert.equal(m.pieceOverride.get(10), null);
  assert.deepEqual(m.pieceOverride.get(19), { kind: 'man' });
  assert.deepEqual(m.path, [10, 19]);
  assert.deepEqual(backUp(r.entry).entered, []);
  const wrong = click('path', jumps, r.entry, 14);
  assert.equal(wrong.say, 'That is not a legal landing square.');
  assert.deepEqual(wrong.entry, r.entry);
  r = click('path', jumps, r.entry, 28);
  assert.equal(r.send.text, '10x19x28');
  assert.deepEqual(r.entry, EMPTY);
});

test('a path: another piece re-selects, the same piece deselects, a drag plays the step', () => {
  let r = click('path', jumps, EMPTY, 10);
  r = click('path', jumps, r.entry, 11);
  assert.equal(r.entry.sel, 11);
  r = click('path', jumps, r.entry, 11);
  assert.equal(r.entry.sel, null);
  assert.equal(click('path', jumps, EMPTY, 3).say, 'Choose one of your pieces that can move.');
  assert.equal(drop('path', jumps, EMPTY, 10, 14).send.text, '10-14');
  assert.equal(drop('path', jumps, EMPTY, 11, 15).send.text, '11-15');
  assert.equal(complete(jumps, { ...EMPTY, sel: 10, entered: [14] })[0].text, '10-14');
});

// A unit on 5 that may move to 6 and stay, or move to 6 and attack 7 or heal 8, or shoot 9 from 5.
const units = [mv('e1', 'move', 5, [6]), mv('e1a', 'attack', 5, [6], 7), mv('e1h', 'heal', 5, [6], 8), mv('s', 'shoot', 5, [], 9), mv('end', 'end-turn', null, [])];
const ucells = Array.from({ length: 12 }, (_, i) => ({ piece: i === 5 ? { kind: 'unit' } : null }));

test('an activation: the unit, where it goes, then what it acts on', () => {
  let r = click('activate', units, EMPTY, 5);
  assert.equal(r.entry.sel, 5);
  assert.deepEqual([...marks('activate', units, r.entry, ucells).reach].sort(), [5, 6]);
  r = click('activate', units, r.entry, 6);
  assert.equal(r.entry.dest, 6);
  const m = marks('activate', units, r.entry, ucells, true, ['heal']);
  assert.deepEqual([...m.targets], [[7, 'target'], [8, 'help']]);
  assert.equal(m.pieceOverride.get(6).kind, 'unit');
  assert.equal(click('activate', units, r.entry, 8).send.text, 'e1h');
  assert.equal(click('activate', units, r.entry, 6).send.text, 'e1');
  assert.equal(click('activate', units, r.entry, 11).say, 'Choose a marked target, an action button, or Undo.');
  // Staying put: the unit's own square, then the target.
  r = click('activate', units, { ...EMPTY, sel: 5 }, 5);
  assert.equal(r.entry.dest, 5);
  assert.equal(click('activate', units, r.entry, 9).send.text, 's');
  assert.equal(click('activate', units, { ...EMPTY, sel: 5 }, 11).say, 'The piece cannot reach that square.');
  assert.equal(drop('activate', units, EMPTY, 5, 6).entry.dest, 6);
});

test('a premove names the one legal move its cells describe, or none', async () => {
  const { premoveMatch } = await import('../web/entry.js');
  const place = [{ text: 'd3', kind: 'place', from: null, path: [19] }, { text: '*d3', kind: 'change', from: null, path: [19] }, { text: 'c4', kind: 'place', from: null, path: [26] }];
  assert.equal(premoveMatch('place', place, [26]).text, 'c4');
  assert.equal(premoveMatch('place', place, [19]), null, 'two kinds at one cell');
  assert.equal(premoveMatch('place', place, [19], 'change').text, '*d3');
  assert.equal(premoveMatch('place', place, [0]), null);
  const jumps = [{ text: '9x18x27', from: 9, path: [18, 27] }, { text: '9x18x25', from: 9, path: [18, 25] }, { text: '9-13', from: 9, path: [13] }];
  assert.equal(premoveMatch('path', jumps, [9, 18, 27]).text, '9x18x27');
  assert.equal(premoveMatch('path', jumps, [9, 25]).text, '9x18x25', 'the last landing alone');
  assert.equal(premoveMatch('path', jumps, [9, 18]), null, 'a landing that does not end a path');
  const acts = [{ text: 'c2-c5', from: 10, path: [11, 12], target: null }, { text: 'c2-c5xc6', from: 10, path: [11, 12], target: 13 }];
  assert.equal(premoveMatch('activate', acts, [10, 12]).text, 'c2-c5');
  assert.equal(premoveMatch('activate', acts, [10, 12, 13]).text, 'c2-c5xc6');
  assert.equal(premoveMatch('activate', acts, []), null);
});

test('a dragged piece shows where it may land: the next landings of a path, or where a unit can go', () => {
  assert.deepEqual([...dragTargets('path', jumps, EMPTY, 10)].sort((a, b) => a - b), [14, 19]);
  assert.deepEqual([...dragTargets('path', jumps, EMPTY, 11)], [15]);
  // After the first landing, the piece now on 19 goes on to 26 or 28.
  const after = { ...EMPTY, sel: 10, entered: [19] };
  assert.deepEqual([...dragTargets('path', jumps, after, 19)].sort((a, b) => a - b), [26, 28]);
  assert.deepEqual([...dragTargets('path', jumps, EMPTY, 3)], []);
  const units = [mv('c2-c4', 'move', 2, [3, 4]), mv('c2-d2', 'move', 2, [5]), mv('c2-c4xc5', 'attack', 2, [3, 4], 9)];
  assert.deepEqual([...dragTargets('activate', units, EMPTY, 2)].sort((a, b) => a - b), [4, 5]);
  assert.deepEqual([...dragTargets('activate', units, { ...EMPTY, sel: 2, dest: 4 }, 2)], []);
});
