// The rules pages: a game's rules, written for players (its module's document, rendered by the server), with
// small boards to try placed beside the rule each shows. Each board's position and legal moves come from the
// rules library through /api/rules-try, so the examples cannot disagree with the game.

import { Board } from './board.js';
import { h, api, toast, path } from './util.js';
import { allGames, gameOf, labeller, gameWord } from './catalog.js';
import { t, errorText, lang } from './i18n.js';
import * as entries from './entry.js';

function example(x) {
  const start = x.position.moves.slice();
  let cur = x.position; // {spec, moves, view, last_move, sides, game, title}
  let entry = entries.EMPTY;
  const game = gameOf(cur.game);
  const label = labeller(cur.game);
  const box = h('div', { class: 'board-wrap example-board' });
  const choose = h('select', { class: 'example-moves', 'aria-label': t('rules.legalMoves') });
  const status = h('p', { class: 'muted example-status' });
  const board = new Board(box, { onCell, onDrop, onEscape() { entry = entries.EMPTY; draw(); } });

  async function play(text) {
    try {
      cur = await api('/rules-try', { spec: cur.spec, moves: [...cur.moves, text] });
      entry = entries.EMPTY;
      draw();
    } catch (e) { toast(errorText(e)); }
  }

  async function back(to) {
    try { cur = await api('/rules-try', { spec: cur.spec, moves: to }); entry = entries.EMPTY; draw(); } catch (e) { toast(errorText(e)); }
  }

  // The same move entry as the game page: a path is entered landing by landing, a unit's action in steps.
  function apply(r) {
    entry = r.entry;
    if (r.say) toast(r.say);
    if (r.send) return play(r.send.text);
    draw();
  }
  function onCell(i) { apply(entries.click(game.entry, cur.view.moves, entry, i, label)); }
  function onDrop(from, to) { apply(entries.drop(game.entry, cur.view.moves, entry, from, to, label)); }

  function draw() {
    const ms = cur.view.moves;
    const marks = entries.marks(game.entry, ms, entry, cur.view.cells, true, game.look.helping);
    marks.last = new Set();
    const lm = cur.last_move;
    if (lm) { if (lm.from != null) marks.last.add(lm.from); for (const c of lm.path) marks.last.add(c); }
    board.render({ view: cur.view, sides: cur.sides, game: cur.game, title: cur.title }, false, marks, game.look);
    choose.replaceChildren(h('option', { value: '' }, ms.length ? t('rules.nLegal', { n: ms.length }) : t('rules.noLegal')), ...ms.map((m) => h('option', { value: m.text }, m.text)));
    const played = cur.moves.slice(start.length);
    status.textContent = cur.view.status && cur.view.status.over ? t('game.over') : played.length ? t('rules.played', { moves: played.join(' ') }) : t('game.toMove', { side: gameWord(cur.game, cur.sides[cur.view.turn === 'first' ? 0 : 1].name) });
  }
  choose.addEventListener('change', () => { if (choose.value) play(choose.value); });
  draw();
  return h('figure', { class: 'example', 'data-example': x.id, lang: lang() }, h('figcaption', {}, h('strong', {}, `${t('rules.tryIt')}: ${x.title}`), h('span', {}, x.text)), box,
    h('div', { class: 'actions' }, choose,
      h('button', { class: 'small secondary', onclick: () => back(cur.moves.slice(0, Math.max(start.length, cur.moves.length - 1))) }, t('rules.takeBack')),
      h('button', { class: 'small secondary', onclick: () => back(start) }, t('rules.reset'))),
    status);
}

export function rulesPage(main, game, ctx) {
  let alive = true;
  (async () => {
    let d;
    try { d = await api(path`/rules/${game}?lang=${lang()}`); } catch (e) {
      main.replaceChildren(h('div', { class: 'card' }, h('h1', {}, t('rules.noSuch')), h('p', {}, errorText(e)), h('a', { href: '/', 'data-link': true }, t('backToLobby')))); return;
    }
    if (!alive) return;
    ctx.title(`${t('rules.title', { game: d.title })} · gridplay`);
    const tabs = h('div', { class: 'tabs' }, allGames().map((g) => h('a', { href: path`/rules/${g.name}`, 'data-link': true, class: g.name === game ? 'here' : '' }, g.title)));
    const doc = h('article', { class: 'card rules-doc', id: 'rules-doc' });
    // The document is the project's own, rendered by the server with any raw HTML escaped; each example's
    // board goes where the document places it, beside the rule it shows.
    doc.innerHTML = d.html;
    doc.lang = d.language;
    for (const x of d.examples) {
      const place = doc.querySelector(`.try[data-example="${x.id}"]`);
      const figure = example(x);
      if (place) place.replaceWith(figure); else doc.append(figure);
    }
    main.replaceChildren(tabs, doc);
  })();
  return () => { alive = false; };
}
