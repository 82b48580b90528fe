// The page's languages: every word a page shows comes from one catalogue per language (lang/en.js,
// lang/ja.js), by key; a page loads only its own language's. The language is the one chosen in the menu (kept
// in localStorage, and in the gp_lang cookie so that the server sends the page in it), else the one the server
// chose for the page (from the cookie or Accept-Language), else the browser's first language the site has,
// else English. Game words (titles, side names, pieces) come translated from the server's catalog; the
// server's errors are translated here by their code.

/** The catalogues loaded, by language. */
export const CATALOGUES = {};
const LOADERS = { en: () => import('./lang/en.js'), ja: () => import('./lang/ja.js') };
/** The languages in the menu, each named in itself. */
export const LANGUAGES = [['en', 'English'], ['ja', '日本語']];
const KEY = 'gridplay.lang';

function pick(server) {
  try {
    const kept = globalThis.localStorage && localStorage.getItem(KEY);
    if (kept && LOADERS[kept]) return kept;
  } catch { /* no storage */ }
  if (server && LOADERS[server]) return server;
  const asked = (globalThis.navigator && navigator.languages) || [];
  for (const tag of asked) {
    const l = String(tag).toLowerCase().split('-')[0];
    if (LOADERS[l]) return l;
  }
  return 'en';
}

let current = 'en';

/** The page's language: `en` or `ja`. */
export const lang = () => current;

/** Loads a language's catalogue (once). */
export async function loadLanguage(l) {
  if (!CATALOGUES[l]) CATALOGUES[l] = (await LOADERS[l]()).default;
}

/** Picks the page's language (`server`: the one the server chose for the page) and loads its words. */
export async function startLanguage(server) {
  current = pick(server);
  await loadLanguage(current);
}

/** Chooses a language and keeps the choice (its words must be loaded before t() gives them). */
export function setLang(l) {
  if (!LOADERS[l]) return;
  current = l;
  try { localStorage.setItem(KEY, l); } catch { /* no storage */ }
  try { document.cookie = `gp_lang=${l}; path=/; max-age=31536000; samesite=lax`; } catch { /* no document */ }
}

/**
 * The text of `key` in the page's language, with `{name}` filled from `vars`. An entry may be a function of
 * `vars` (English plurals). A key missing from a catalogue falls back to English; the unit tests fail when
 * either catalogue lacks a key.
 */
export function t(key, vars = {}) {
  let s = (CATALOGUES[current] || {})[key];
  if (s === undefined) s = (CATALOGUES.en || {})[key];
  if (s === undefined) return key;
  if (typeof s === 'function') s = s(vars);
  return s.replace(/\{(\w+)\}/g, (m, k) => (vars[k] === undefined ? m : String(vars[k])));
}

/** A date and time in the page's language. */
export function fmtDate(ms) {
  return new Intl.DateTimeFormat(current, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(ms));
}

/** A message's code quotes (`z9`) as a sentence's quotation marks (“z9”, 「z9」 in Japanese). */
export function quoted(text) {
  let open = true;
  return String(text).replace(/`/g, () => {
    const q = current === 'ja' ? (open ? '「' : '」') : (open ? '“' : '”');
    open = !open;
    return q;
  });
}

/** Codes whose server sentence says more than the code (which setting, which move): shown after the code's words. */
const DETAILED = new Set(['bad-spec', 'bad-move', 'bad-position', 'refused', 'bad-file', 'bad-time', 'bad-name', 'bad-rounds', 'bad-request', 'http', 'too-long', 'too-many']);

/**
 * An error from the server in the page's language: in English the server's own sentence; in another
 * language the code's words, and where the sentence says more (a setting's value, a move), that sentence
 * after them.
 * @param {{code?: string, message?: string}} e
 */
export function errorText(e) {
  const message = quoted((e && e.message) || '');
  if (current === 'en' || !e || !e.code) return message || t('error.unknown');
  const key = `error.${e.code}`;
  const words = (CATALOGUES[current] || {})[key];
  if (words === undefined) return message || t('error.unknown');
  return DETAILED.has(e.code) && message ? `${t(key)}（${message}）` : t(key);
}

/**
 * A time control as the server sends it (`{kind: "untimed"}`, `{kind: "live", initial_ms, increment_ms}` or
 * `{kind: "correspondence", days}`) in the page's language: `untimed`, `5+3` (minutes and seconds; `30s+0`
 * below a whole minute) or `3 days`.
 */
export function timeLabel(time) {
  if (!time || !time.kind) return '';
  if (time.kind === 'untimed') return t('time.untimed');
  if (time.kind === 'correspondence') return t('time.days', { n: time.days });
  const secs = Math.floor(time.initial_ms / 1000);
  const initial = secs % 60 === 0 ? String(secs / 60) : `${secs}s`;
  return `${initial}+${Math.floor(time.increment_ms / 1000)}`;
}

/** Whether a name is a deleted account's (the server renames a deleted account `deleted-…`). */
export const isDeleted = (name) => /^deleted-/.test(name || '');

/** Side `i`'s player of a game in a list (`GameSummary`): the engine by its level, in the page's language. */
export function playerLabel(g, i) {
  const level = g.levels && g.levels[i];
  if (level != null) return t('engine.level', { level });
  const name = g.players[i];
  if (isDeleted(name)) return t('player.deleted');
  return name || '?';
}
