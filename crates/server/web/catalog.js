// The games as the server describes them (/api/catalog): names, titles, sides, settings, the engine's levels,
// how a move is entered, how the board looks and the words for the kinds of move. The app loads it once
// before the first page; no page names a game.

import { api, path } from './util.js';
import { lang } from './i18n.js';

let games = [];
let loading = null;

/** Takes the catalog the page came with (its first response carries it), so that no page waits for it. */
export function setCatalog(c) {
  if (!c || !c.games) return;
  games = c.games;
  loading = Promise.resolve(c);
}

/** Loads the catalog (once). */
export function loadCatalog() {
  if (!loading) {
    loading = api(path`/catalog?lang=${lang()}`).then((c) => { games = c.games; return c; }).catch((e) => { loading = null; throw e; });
  }
  return loading;
}

/** Every game, in the server's order. */
export const allGames = () => games;

/** A game's entry, or a plain one for a name the catalog does not have. */
export function gameOf(name) {
  return games.find((g) => g.name === name) || {
    name, title: name, levels: 0, entry: 'place', move_kinds: {}, sides: [], legend: [], words: {},
    look: { light: '#eee', dark: '#eee', line: '#888', coords: '#444', checkered: false, cursor_tint: false, pieces: [], helping: [] },
  };
}

export const titleOf = (name) => gameOf(name).title;

/**
 * A game spec as a person reads it: the game's title, then each setting it changes in the catalog's words
 * ("Cornered Reversi · Board size 11 · Equal crosses at the end: Black wins").
 */
export function specTitle(spec) {
  const [name, rest] = String(spec || '').split(/:(.*)/s);
  const g = gameOf(name);
  const parts = [g.title];
  for (const kv of (rest || '').split(',').filter(Boolean)) {
    const [key, value] = kv.split('=');
    const s = (g.settings || []).find((x) => x.key === key);
    if (!s) { parts.push(kv); continue; }
    if (s.kind === 'choice') {
      const o = s.options.find((x) => x.value === value);
      parts.push(`${s.label}: ${o ? o.label : value}`);
    } else if (s.kind === 'army') {
      const counts = s.parts.map((p) => [p, [...value].filter((c) => c === p.letter).length]).filter(([, n]) => n);
      parts.push(`${s.label}: ${counts.map(([p, n]) => `${gameWord(name, p.kind)} ×${n}`).join(', ')}`);
    } else if (s.kind === 'layout') {
      parts.push(s.label);
    } else {
      parts.push(`${s.label} ${value}`);
    }
  }
  return parts.join(' · ');
}

/** A game's word (a side's name, a piece kind, an information line) in the page's language. */
export const gameWord = (name, english) => (gameOf(name).words || {})[english] || english;

/** The words for a kind of move in a game, or the kind itself. */
export const labeller = (name) => (kind) => gameOf(name).move_kinds[kind] || kind;
