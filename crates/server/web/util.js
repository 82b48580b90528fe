// Small helpers shared by the pages. Every text from the server or a user goes in with textContent, never as HTML.

import { t, isDeleted } from './i18n.js';

/** Creates an element: h('button', {class: 'x', onclick: f}, 'text', child...). */
/**
 * A path whose interpolated values are each encoded as one URL segment (or query value), so that an id or a
 * name with `/`, `?`, `#` or `%` in it stays one segment: path`/games/${id}/chat`.
 * @param {TemplateStringsArray} strings
 * @param {...unknown} values
 * @returns {string}
 */
export function path(strings, ...values) {
  return strings.reduce((out, s, i) => out + s + (i < values.length ? encodeURIComponent(String(values[i])) : ''), '');
}

export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(e.dataset, v);
    // Inline style attributes are forbidden by the page's CSP; CSSOM properties are not.
    else if (k === 'style') e.style.cssText = v;
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

/** Runs `fn` once the next frame is painted: in a task after that frame's callbacks, layout and paint. */
export function afterPaint(fn) {
  requestAnimationFrame(() => {
    const after = new MessageChannel();
    after.port1.onmessage = () => fn();
    after.port2.postMessage(null);
  });
}

let toastTimer;
/** Shows a short message at the bottom of the page. */
export function toast(text) {
  const t = document.getElementById('toast');
  t.textContent = text;
  t.classList.add('show');
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => t.classList.remove('show'), 3500);
}

/** Hides the message: a page's message does not follow the user to the next page. */
export function clearToast() {
  const t = document.getElementById('toast');
  if (t) t.classList.remove('show');
  clearTimeout(toastTimer);
}

/**
 * Runs an async `load` one call at a time: a call while one runs makes one more run once it ends (several such
 * calls make one), so that what a page draws last always comes from a fetch that started after the last call.
 * A slow answer to an older fetch never draws over a newer one.
 */
export function serial(load) {
  let running = null;
  let again = false;
  return function run() {
    if (running) { again = true; return running; }
    running = (async () => {
      do {
        again = false;
        try { await load(); } catch (e) { console.error(e); }
      } while (again);
      running = null;
    })();
    return running;
  };
}

/** Asks a yes/no question in a dialog; resolves to true for yes. */
export function confirmDialog(text, yes = t('yes')) {
  const d = /** @type {HTMLDialogElement} */ (document.getElementById('confirm'));
  document.getElementById('confirm-text').textContent = text;
  document.getElementById('confirm-yes').textContent = yes;
  return new Promise((resolve) => {
    d.addEventListener('close', () => resolve(d.returnValue === 'yes'), { once: true });
    d.returnValue = '';
    d.showModal();
  });
}

/** An error from the API, with the server's code and sentence. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** Calls the JSON API. Rejects with ApiError carrying the server's message. */
export async function api(path, body) {
  const init = body === undefined
    ? { credentials: 'same-origin' }
    : { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  return call(path, init);
}

/** Calls the JSON API with another method than GET or POST (`PUT`, `DELETE`), without a body. */
export async function apiMethod(method, path) {
  return call(path, { method, credentials: 'same-origin' });
}

async function call(path, init) {
  let res;
  try {
    res = await fetch('/api' + path, init);
  } catch {
    throw new ApiError(0, 'network', 'the server cannot be reached');
  }
  let data = null;
  let text = '';
  try { text = await res.text(); data = JSON.parse(text); } catch { /* not JSON */ }
  if (!res.ok) {
    const e = data && data.error;
    // axum answers a body it cannot read with a plain sentence: show it.
    const plain = text && text.length < 300 ? text : `the server answered ${res.status}`;
    throw new ApiError(res.status, e ? e.code : 'http', e ? e.message : plain);
  }
  return data;
}

/** The address of an analysis board: the game, its settings where not the default, a start set up (a position
 * text), the tree's lines to their ends where it has variations (`v`, each its moves from the start, the main
 * ones first), and the line of moves to the current position (`m`). */
export function analysisUrl(game, spec, start, moves, lines = []) {
  const q = new URLSearchParams();
  if (spec && spec !== game) q.set('spec', spec);
  if (start) q.set('start', start);
  for (const l of lines) q.append('v', l.join(' '));
  for (const m of moves) q.append('m', m);
  const s = q.toString();
  return path`/analysis/${game}` + (s ? '?' + s : '');
}

/** Goes to a page of the app without reloading. */
export function navigate(path) {
  history.pushState(null, '', path);
  window.dispatchEvent(new Event('popstate'));
}

/** The mark beside a bot account's name, wherever it is shown. */
export function botMark() {
  return h('span', { class: 'bot-mark', title: t('player.botHelp') }, t('player.bot'));
}

/** A name as text, with the word that marks a bot account before it (where no element can mark it). */
export function botName(name, bot) {
  return bot ? `${t('player.bot')} ${name}` : name;
}

/** A player's name linked to the profile, with the rating (a ? when provisional), and the mark of a bot. */
export function playerLink(name, rating, bot = false) {
  if (!name) return h('span', {}, '?');
  if (isDeleted(name)) return h('span', { class: 'muted deleted' }, t('player.deleted'));
  // A finished rated game's rating is the one the player had then, with what the game changed.
  const change = rating && rating.change ? ` ${rating.change > 0 ? '+' : '−'}${Math.abs(rating.change)}` : '';
  const r = rating ? ` (${rating.rating}${rating.provisional ? '?' : ''}${change})` : '';
  return h('span', {}, bot ? botMark() : null, h('a', { href: path`/player/${name}`, 'data-link': true, class: 'player-link' }, name), r);
}

// The player's preferences in this browser: move sounds and move confirmation, kept in localStorage. Sounds
// are made with the Web Audio API (no sound files): a short tone for each move, lower for the opponent's.
const KEYS = { sounds: 'gridplay.sounds', confirm: 'gridplay.confirmMoves' };
const DEFAULTS = { sounds: true, confirm: false };

/** A preference: `sounds` or `confirm`. */
export function pref(name) {
  try {
    const v = localStorage.getItem(KEYS[name]);
    return v === null ? DEFAULTS[name] : v === 'on';
  } catch { return DEFAULTS[name]; }
}

export function setPref(name, on) {
  try { localStorage.setItem(KEYS[name], on ? 'on' : 'off'); } catch { /* no storage */ }
}

let audio = null;
/** A short tone for a move: `mine`, `theirs` or `end`. Silent when sounds are off or audio is not allowed yet. */
export function moveSound(kind) {
  if (!pref('sounds')) return;
  try {
    audio = audio || new AudioContext();
    if (audio.state === 'suspended') audio.resume();
    const [freq, len] = { mine: [660, 0.08], theirs: [440, 0.1], end: [330, 0.35] }[kind] || [550, 0.08];
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + len);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + len);
  } catch { /* no audio here */ }
}
