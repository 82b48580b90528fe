// The page's languages: every word a page shows comes from one catalogue per language (lang/en.js,
// lang/ja.js), by key. The language is the one chosen in the menu (kept in localStorage), else the browser's
// first language the site has, else English. Game words (titles, side names, pieces) come translated from
// the server's catalog; the server's errors are translated here by their code.

import en from './lang/en.js';
import ja from './lang/ja.js';

export const CATALOGUES = { en, ja };
/** The languages in the menu, each named in itself. */
export const LANGUAGES = [['en', 'English'], ['ja', '日本語']];
const KEY = 'gridplay.lang';

function pick() {
  try {
    const kept = globalThis.localStorage && localStorage.getItem(KEY);
    if (kept && CATALOGUES[kept]) return kept;
  } catch { /* no storage */ }
  const asked = (globalThis.navigator && navigator.languages) || [];
  for (const tag of asked) {
    const l = String(tag).toLowerCase().split('-')[0];
    if (CATALOGUES[l]) return l;
  }
  return 'en';
}

let current = pick();

/** The page's language: `en` or `ja`. */
export const lang = () => current;

/** Chooses a language and keeps the choice. */
export function setLang(l) {
  if (!CATALOGUES[l]) return;
  current = l;
  try { localStorage.setItem(KEY, l); } catch { /* no storage */ }
}

/**
 * The text of `key` in the page's language, with `{name}` filled from `vars`. An entry may be a function of
 * `vars` (English plurals). A key missing from a catalogue falls back to English; the unit tests fail when
 * either catalogue lacks a key.
 */
export function t(key, vars = {}) {
  let s = CATALOGUES[current][key];
  if (s === undefined) s = en[key];
  if (s === undefined) return key;
  if (typeof s === 'function') s = s(vars);
  return s.replace(/\{(\w+)\}/g, (m, k) => (vars[k] === undefined ? m : String(vars[k])));
}

/** A date and time in the page's language. */
export function fmtDate(ms) {
  return new Intl.DateTimeFormat(current, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(ms));
}

/** Codes whose server sentence says more than the code (which setting, which move): shown after the code's words. */
const DETAILED = new Set(['bad-spec', 'bad-move', 'refused', 'bad-file', 'bad-time', 'bad-name', 'bad-rounds', 'bad-request', 'http', 'too-long', 'too-many']);

/**
 * An error from the server in the page's language: in English the server's own sentence; in another
 * language the code's words, and where the sentence says more (a setting's value, a move), that sentence
 * after them.
 * @param {{code?: string, message?: string}} e
 */
export function errorText(e) {
  const message = (e && e.message) || '';
  if (current === 'en' || !e || !e.code) return message || t('error.unknown');
  const key = `error.${e.code}`;
  const words = CATALOGUES[current][key];
  if (words === undefined) return message || t('error.unknown');
  return DETAILED.has(e.code) && message ? `${t(key)}（${message}）` : t(key);
}

/** A time control's label from the server (`5+3`, `3 days`, `untimed`) in the page's language. */
export function timeLabel(label) {
  if (!label) return '';
  if (label === 'untimed') return t('time.untimed');
  const days = /^(\d+) days?$/.exec(label);
  if (days) return t('time.days', { n: Number(days[1]) });
  return label;
}

/** Whether a name is a deleted account's (the server renames a deleted account `deleted-…`). */
export const isDeleted = (name) => /^deleted-/.test(name || '');

/** A player's name as the server writes it in lists, with the engine's level in the page's language. */
export function playerLabel(name) {
  if (isDeleted(name)) return t('player.deleted');
  const m = /^Engine level (\d+)$/.exec(name || '');
  return m ? t('engine.level', { level: m[1] }) : name || '?';
}
