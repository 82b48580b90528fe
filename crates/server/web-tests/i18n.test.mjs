// The catalogues: both languages have the same keys and the same {variables}, every key the pages use
// exists, and the page translates the server's errors by code.

import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import en from '../web/lang/en.js';
import ja from '../web/lang/ja.js';
import { t, setLang, errorText, timeLabel, playerLabel, loadLanguage } from '../web/i18n.js';
// A page loads its own language's words; these tests use both.
await loadLanguage('en');
await loadLanguage('ja');

const web = join(dirname(fileURLToPath(import.meta.url)), '..', 'web');
const vars = (s) => new Set([...String(typeof s === 'function' ? s({ n: 2 }) : s).matchAll(/\{(\w+)\}/g)].map((m) => m[1]));

test('both catalogues have the same keys', () => {
  const missingJa = Object.keys(en).filter((k) => !(k in ja));
  const missingEn = Object.keys(ja).filter((k) => !(k in en));
  assert.deepEqual(missingJa, [], 'keys missing from lang/ja.js');
  assert.deepEqual(missingEn, [], 'keys missing from lang/en.js');
});

test('each translation uses the variables of the English', () => {
  for (const [k, v] of Object.entries(en)) {
    if (typeof v === 'function' || typeof ja[k] === 'function') continue;
    assert.deepEqual(vars(ja[k]), vars(v), `variables of ${k}`);
  }
});

test('every key the pages name exists', () => {
  const used = new Set();
  for (const f of readdirSync(web).filter((n) => n.endsWith('.js'))) {
    const src = readFileSync(join(web, f), 'utf8');
    for (const m of src.matchAll(/\bt\('([a-zA-Z0-9_.-]+)'/g)) used.add(m[1]);
  }
  assert.ok(used.size > 100, `found ${used.size} keys`);
  const missing = [...used].filter((k) => !(k in en));
  assert.deepEqual(missing, []);
});

test('texts fill their variables, and errors are translated by code', () => {
  setLang('en');
  assert.equal(t('game.toMove', { side: 'Black' }), 'Black to move');
  assert.equal(t('time.days', { n: 1 }), '1 day');
  assert.equal(errorText({ code: 'stale', message: 'the game has moved on to version 4: look again and retry' }), 'the game has moved on to version 4: look again and retry');
  setLang('ja');
  assert.equal(t('game.toMove', { side: '黒' }), '黒の番');
  assert.equal(errorText({ code: 'not-your-turn', message: 'it is not your turn' }), 'あなたの番ではありません。');
  assert.equal(errorText({ code: 'bad-spec', message: 'size must be 2 to 25' }), 'ゲームの設定が正しくありません。（size must be 2 to 25）');
  assert.equal(errorText({ code: 'some-new-code', message: 'a sentence' }), 'a sentence', 'an unknown code shows the server’s sentence');
  assert.equal(timeLabel({ kind: 'correspondence', days: 3 }), '3 日');
  assert.equal(timeLabel({ kind: 'live', initial_ms: 300000, increment_ms: 3000 }), '5+3');
  assert.equal(timeLabel({ kind: 'live', initial_ms: 30000, increment_ms: 0 }), '30s+0');
  assert.equal(playerLabel({ players: ['Engine level 4', 'ann'], levels: [4, null] }, 0), 'コンピューター レベル 4');
  assert.equal(playerLabel({ players: ['Engine level 4', 'ann'], levels: [4, null] }, 1), 'ann');
  assert.equal(errorText({ code: 'refused', message: '`z9` is not a square' }), 'サーバーがその操作を断りました。（「z9」 is not a square）');
  setLang('en');
  assert.equal(errorText({ code: 'refused', message: '`z9` is not a square; try `d3`' }), '“z9” is not a square; try “d3”', 'code quotes read as quotation marks');
});
