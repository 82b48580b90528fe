// The app shell: who is signed in, the navigation, the page for the current path, and the one WebSocket all
// pages share. Notices for this user (your turn, a game started, a rematch offer) arrive on every page.

import { h, api, navigate, clearToast } from './util.js';
import { t, lang, setLang, LANGUAGES } from './i18n.js';
import { Live } from './live.js';
import { lobbyPage } from './lobby.js';
import { gamePage } from './game.js';
import { replayPage } from './replay.js';
import { myGamesPage, watchPage, playerPage, leaderboardPage } from './people.js';
import { tournamentsPage, tournamentPage } from './tournaments.js';
import { rulesPage } from './rules.js';
import { accountPage } from './account.js';
import { allGames, loadCatalog } from './catalog.js';

const root = document.getElementById('main');
const who = document.getElementById('who');
const nav = document.getElementById('nav');
let live = null;
let leave = null;

const ctx = {
  me: null,
  live: null,
  waiting: 0,
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
    link(`/rules/${firstGame()}`, t('nav.rules'), 'nav-rules'),
    ...(ctx.me ? [h('a', { href: '/games', 'data-link': true, id: 'nav-games' }, t('nav.myGames'), ctx.waiting ? h('span', { class: 'badge', id: 'waiting-count' }, String(ctx.waiting)) : null)] : []),
  );
  // The language switch: the choice is kept, and the page is loaded again in the new language.
  const language = h('select', { id: 'lang', class: 'small', 'aria-label': t('nav.language'), onchange: (e) => { setLang(e.target.value); location.reload(); } },
    LANGUAGES.map(([code, name]) => h('option', { value: code, selected: code === lang(), lang: code }, name)));
  if (ctx.me) {
    who.replaceChildren(h('a', { href: `/player/${ctx.me.name}`, 'data-link': true, id: 'me' }, ctx.me.name), h('a', { href: '/account', 'data-link': true, id: 'nav-account' }, t('nav.account')), h('button', { class: 'small secondary', id: 'signout', onclick: async () => {
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

function route() {
  if (leave) leave();
  nav.classList.remove('open');
  menuToggle.setAttribute('aria-expanded', 'false');
  clearToast();
  // Each page draws into its own element: a page that finishes loading after the user has moved on draws
  // into a detached element, never over the page that replaced it.
  const main = h('div', { class: 'page' });
  root.replaceChildren(main);
  const p = location.pathname;
  const m = (re) => p.match(re);
  let r;
  ctx.title('gridplay');
  if ((r = m(/^\/game\/([A-Za-z0-9]{1,16})$/))) leave = gamePage(main, r[1], ctx);
  else if ((r = m(/^\/replay\/([A-Za-z0-9]{1,16})$/))) leave = replayPage(main, r[1], ctx);
  else if (p === '/games') leave = myGamesPage(main, ctx);
  else if (p === '/account') leave = accountPage(main, ctx);
  else if (p === '/watch') leave = watchPage(main, ctx);
  else if ((r = m(/^\/player\/([A-Za-z0-9_-]{1,20})$/))) leave = playerPage(main, r[1], ctx);
  else if ((r = m(/^\/leaderboard(?:\/([a-z]{1,20}))?$/))) leave = leaderboardPage(main, r[1] || firstGame(), ctx);
  else if (p === '/tournaments') leave = tournamentsPage(main, ctx);
  else if ((r = m(/^\/tournament\/([A-Za-z0-9]{1,16})$/))) leave = tournamentPage(main, r[1], ctx);
  else if ((r = m(/^\/rules\/([a-z]{1,20})$/))) leave = rulesPage(main, r[1], ctx);
  else if (p === '/') leave = lobbyPage(main, ctx);
  else leave = notFoundPage(main, p, ctx);
  for (const a of nav.querySelectorAll('a')) a.classList.toggle('here', a.getAttribute('href') === p || (p.startsWith('/rules') && a.id === 'nav-rules'));
}

/** An address with no page: the server answered it with status 404 and this shell. */
function notFoundPage(main, path, c) {
  c.title(t('notFound.title'));
  main.replaceChildren(h('h1', { id: 'not-found' }, t('notFound.title')), h('p', {}, t('notFound.text', { path })),
    h('p', {}, h('a', { href: '/', 'data-link': true }, t('backToLobby'))));
  return null;
}

document.addEventListener('click', (e) => {
  const a = e.target.closest('a[data-link]');
  if (a && !e.ctrlKey && !e.metaKey && !e.shiftKey) {
    e.preventDefault();
    navigate(a.getAttribute('href'));
  }
});
window.addEventListener('popstate', route);

(async () => {
  document.documentElement.lang = lang();
  document.getElementById('confirm-cancel').textContent = t('cancel');
  nav.setAttribute('aria-label', t('nav.main'));
  try { ctx.me = (await api('/me')).user; } catch { ctx.me = null; }
  // Every page learns the games from the catalog; without it a page shows the games it knows by name only.
  try { await loadCatalog(); } catch { /* the lobby reports a server that does not answer */ }
  live = new Live();
  ctx.live = live;
  live.on((m) => {
    if (m.t === 'turn' || m.t === 'started' || m.t === 'lobby' || m.t === 'event') refreshWaiting();
  });
  header();
  refreshWaiting();
  route();
})();
