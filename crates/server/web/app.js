// The app shell: who is signed in, the navigation, the page for the current path, and the one WebSocket all
// pages share. Notices for this user (your turn, a game started, a rematch offer) arrive on every page.
//
// The page's first response carries its first data (`boot`: the language, the user, the catalog, and on a
// game page the game's state) and preloads the modules of its page; other pages' modules load when first
// visited.

import { h, api, navigate, clearToast, toast, path } from './util.js';
import { t, lang, setLang, startLanguage, loadLanguage, LANGUAGES } from './i18n.js';
import { Live } from './live.js';
import { allGames, loadCatalog, setCatalog } from './catalog.js';

/** Each page's module, loaded when first needed (the server preloads the one a path shows: assets.rs). */
const PAGES = {
  lobby: () => import('./lobby.js'),
  game: () => import('./game.js'),
  replay: () => import('./replay.js'),
  people: () => import('./people.js'),
  watch: () => import('./watch.js'),
  tournaments: () => import('./tournaments.js'),
  rules: () => import('./rules.js'),
  analysis: () => import('./analysis.js'),
  puzzles: () => import('./puzzles.js'),
  account: () => import('./account.js'),
  admin: () => import('./admin.js'),
};

/** What the page came with from the server. */
function readBoot() {
  try { return JSON.parse(document.getElementById('boot').textContent); } catch { return {}; }
}
const boot = readBoot();

const root = document.getElementById('main');
const who = document.getElementById('who');
const nav = document.getElementById('nav');
let live = null;
let leave = null;

const ctx = {
  me: null,
  live: null,
  waiting: 0,
  /** The game state the page came with, for the game page of that game (used once). */
  takeBootGame(id) {
    const g = boot.game;
    if (!g || g.id !== id) return null;
    boot.game = null;
    return { state: g, now: boot.now };
  },
  setUser(user) {
    ctx.me = user;
    // The socket knows its user from the cookie at connection time: open a new one.
    if (live && live.ws) live.ws.close();
    header();
    refreshWaiting();
    route();
  },
  /** The page's own title; the count of games waiting for the user goes in front. */
  title(text) {
    ctx.pageTitle = text;
    document.title = (ctx.waiting ? `(${ctx.waiting}) ` : '') + text;
  },
  refreshWaiting() { refreshWaiting(); },
};

/** The first game of the catalog, for the pages that show one game at a time. */
const firstGame = () => (allGames()[0] || { name: '' }).name;

const menuToggle = h('button', { class: 'small secondary', id: 'menu-toggle', 'aria-controls': 'nav', 'aria-expanded': 'false', onclick: () => {
  const open = !nav.classList.contains('open');
  nav.classList.toggle('open', open);
  menuToggle.setAttribute('aria-expanded', String(open));
} }, '☰');
nav.before(menuToggle);

function header() {
  menuToggle.setAttribute('aria-label', t('nav.menu'));
  const link = (href, text, id) => h('a', { href, 'data-link': true, id }, text);
  nav.replaceChildren(
    link('/', t('nav.play'), 'nav-play'),
    link('/watch', t('nav.watch'), 'nav-watch'),
    link('/tournaments', t('nav.tournaments'), 'nav-tournaments'),
    link('/leaderboard', t('nav.leaderboards'), 'nav-leaderboard'),
    link(path`/analysis/${firstGame()}`, t('nav.analysis'), 'nav-analysis'),
    link(path`/puzzles/${firstGame()}`, t('nav.puzzles'), 'nav-puzzles'),
    link(path`/rules/${firstGame()}`, t('nav.rules'), 'nav-rules'),
    ...(ctx.me ? [h('a', { href: '/games', 'data-link': true, id: 'nav-games' }, t('nav.myGames'), ctx.waiting ? h('span', { class: 'badge', id: 'waiting-count' }, String(ctx.waiting)) : null)] : []),
    ...(ctx.me && ctx.me.admin ? [link('/admin', t('nav.admin'), 'nav-admin')] : []),
  );
  // The language switch: the choice is kept, and the page is loaded again in the new language.
  const language = h('select', { id: 'lang', class: 'small', 'aria-label': t('nav.language'), onchange: async (e) => { setLang(e.target.value); await loadLanguage(e.target.value); location.reload(); } },
    LANGUAGES.map(([code, name]) => h('option', { value: code, selected: code === lang(), lang: code }, name)));
  if (ctx.me) {
    who.replaceChildren(h('a', { href: path`/player/${ctx.me.name}`, 'data-link': true, id: 'me' }, ctx.me.name), h('a', { href: '/account', 'data-link': true, id: 'nav-account' }, t('nav.account')), h('button', { class: 'small secondary', id: 'signout', onclick: async () => {
      await api('/signout', {});
      ctx.setUser(null);
      navigate('/');
    } }, t('nav.signOut')), language);
  } else {
    who.replaceChildren(h('a', { href: '/', 'data-link': true }, t('nav.signIn')), language);
  }
}

let waitingTimer = null;
function refreshWaiting() {
  clearTimeout(waitingTimer);
  waitingTimer = setTimeout(async () => {
    let n = 0;
    if (ctx.me) {
      try { n = (await api('/my-games')).waiting; } catch { n = ctx.waiting; }
    }
    if (n !== ctx.waiting) {
      ctx.waiting = n;
      header();
      if (ctx.pageTitle) ctx.title(ctx.pageTitle);
    }
  }, 200);
}

/** The page a path shows: its module, the function that draws it, and the path's arguments. */
function pageOf(p) {
  const m = (re) => p.match(re);
  let r;
  if ((r = m(/^\/game\/([A-Za-z0-9]{1,16})$/))) return ['game', 'gamePage', r[1]];
  if ((r = m(/^\/replay\/([A-Za-z0-9]{1,16})$/))) return ['replay', 'replayPage', r[1]];
  if (p === '/games') return ['people', 'myGamesPage'];
  if (p === '/account') return ['account', 'accountPage'];
  if (p === '/admin') return ['admin', 'adminPage'];
  if (p === '/watch') return ['watch', 'watchPage'];
  if ((r = m(/^\/player\/([A-Za-z0-9_-]{1,20})$/))) return ['people', 'playerPage', r[1]];
  if ((r = m(/^\/leaderboard(?:\/([a-z]{1,20}))?$/))) return ['people', 'leaderboardPage', r[1] || firstGame()];
  if (p === '/tournaments') return ['tournaments', 'tournamentsPage'];
  if ((r = m(/^\/tournament\/([A-Za-z0-9]{1,16})$/))) return ['tournaments', 'tournamentPage', r[1]];
  if ((r = m(/^\/rules\/([a-z]{1,20})$/))) return ['rules', 'rulesPage', r[1]];
  if ((r = m(/^\/analysis\/([a-z]{1,20})$/))) return ['analysis', 'analysisPage', r[1]];
  if ((r = m(/^\/puzzles\/([a-z]{1,20})(?:\/([0-9a-f]{16}))?$/))) return ['puzzles', 'puzzlesPage', r[1], r[2]];
  if (p === '/') return ['lobby', 'lobbyPage'];
  return null;
}

let routing = 0;
async function route() {
  if (leave) leave();
  leave = null;
  nav.classList.remove('open');
  menuToggle.setAttribute('aria-expanded', 'false');
  clearToast();
  // Each page draws into its own element: a page that finishes loading after the user has moved on draws
  // into a detached element, never over the page that replaced it.
  const main = h('div', { class: 'page' });
  root.replaceChildren(main);
  const p = location.pathname;
  ctx.title('gridplay');
  for (const a of nav.querySelectorAll('a')) a.classList.toggle('here', a.getAttribute('href') === p || (p.startsWith('/rules') && a.id === 'nav-rules') || (p.startsWith('/analysis') && a.id === 'nav-analysis') || (p.startsWith('/puzzles') && a.id === 'nav-puzzles'));
  const which = pageOf(p);
  if (!which) { leave = notFoundPage(main, p, ctx); return; }
  const [module, fn, ...args] = which;
  const turn = ++routing;
  let page;
  try { page = await PAGES[module](); } catch {
    main.replaceChildren(h('p', { class: 'error' }, t('error.network')));
    return;
  }
  // Another route started while this page's module loaded: it draws instead.
  if (turn !== routing) return;
  leave = page[fn](main, ...args, ctx) || null;
}

/** An address with no page: the server answered it with status 404 and this shell. */
function notFoundPage(main, path, c) {
  c.title(t('notFound.title'));
  main.replaceChildren(h('h1', { id: 'not-found' }, t('notFound.title')), h('p', {}, t('notFound.text', { path })),
    h('p', {}, h('a', { href: '/', 'data-link': true }, t('backToLobby'))));
  return null;
}

document.addEventListener('click', (e) => {
  const a = e.target instanceof Element ? e.target.closest('a[data-link]') : null;
  if (a && !e.ctrlKey && !e.metaKey && !e.shiftKey) {
    e.preventDefault();
    navigate(a.getAttribute('href'));
  }
});
window.addEventListener('popstate', route);

(async () => {
  // The page's own module loads while its words do (the server preloaded both).
  const first = pageOf(location.pathname);
  if (first) PAGES[first[0]]().catch(() => {});
  await startLanguage(boot.lang);
  document.documentElement.lang = lang();
  document.getElementById('confirm-cancel').textContent = t('cancel');
  nav.setAttribute('aria-label', t('nav.main'));
  // Every page learns the games from the catalog; without it a page shows the games it knows by name only.
  // The page came with it, and with the user, in the language the server chose; another language asks again.
  if ('me' in boot) ctx.me = boot.me;
  else { try { ctx.me = (await api('/me')).user; } catch { ctx.me = null; } }
  if (boot.catalog && boot.catalog.language === lang()) setCatalog(boot.catalog);
  try { await loadCatalog(); } catch { /* the lobby reports a server that does not answer */ }
  live = new Live();
  ctx.live = live;
  live.on((m) => {
    // The moderators closed this account: the page is signed out (its socket has ended).
    if (m.t === 'signed-out') { toast(t('account.closedByModerators')); ctx.setUser(null); return; }
    if (m.t === 'turn' || m.t === 'started' || m.t === 'lobby' || m.t === 'event') refreshWaiting();
  });
  header();
  refreshWaiting();
  route();
})();
