// The games as the server describes them (/api/catalog): names, titles, sides, settings, the engine's levels,
// how a move is entered, how the board looks and the words for the kinds of move. The app loads it once
// before the first page; no page names a game.

import { api } from './util.js';
import { lang } from './i18n.js';

let games = [];
let loading = null;

/** Loads the catalog (once). */
export function loadCatalog() {
  if (!loading) {
    loading = api(`/catalog?lang=${lang()}`).then((c) => { games = c.games; return c; }).catch((e) => { loading = null; throw e; });
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

/** A game's word (a side's name, a piece kind, an information line) in the page's language. */
export const gameWord = (name, english) => (gameOf(name).words || {})[english] || english;

/** The words for a kind of move in a game, or the kind itself. */
export const labeller = (name) => (kind) => gameOf(name).move_kinds[kind] || kind;
