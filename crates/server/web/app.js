// The app shell: who is signed in, the page for the current path, and the one WebSocket all pages share.

import { h, api, navigate } from './util.js';
import { Live } from './live.js';
import { lobbyPage } from './lobby.js';
import { gamePage } from './game.js';
import { replayPage } from './replay.js';

const main = document.getElementById('main');
const who = document.getElementById('who');
let live = null;
let leave = null;

const ctx = {
  me: null,
  live: null,
  setUser(user) {
    ctx.me = user;
    // The socket knows its user from the cookie at connection time: open a new one.
    if (live && live.ws) live.ws.close();
    header();
    route();
  },
};

function header() {
  if (ctx.me) {
    who.replaceChildren(h('span', { id: 'me' }, ctx.me.name), h('button', { class: 'small secondary', id: 'signout', onclick: async () => {
      await api('/signout', {});
      ctx.setUser(null);
      navigate('/');
    } }, 'Sign out'));
  } else {
    who.replaceChildren(h('a', { href: '/', 'data-link': true }, 'Sign in'));
  }
}

function route() {
  if (leave) leave();
  const m = location.pathname.match(/^\/game\/([A-Za-z0-9]{1,16})$/);
  const r = location.pathname.match(/^\/replay\/([A-Za-z0-9]{1,16})$/);
  if (m) leave = gamePage(main, m[1], ctx);
  else if (r) leave = replayPage(main, r[1]);
  else leave = lobbyPage(main, ctx);
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
  try { ctx.me = (await api('/me')).user; } catch { ctx.me = null; }
  live = new Live();
  ctx.live = live;
  header();
  route();
})();
