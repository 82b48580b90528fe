// A game's chat box. The server decides who reads which room (the players' room for the two players, the
// spectators' room for everyone else, and both for the players once the game is over) and sends this box only
// what its reader may read: a game page gets the lines over its socket, a replay by one request. The player
// may hide the chat, hide one author's lines (kept in this browser), and report a line to the moderators.

import { h, api, toast, botMark, path } from './util.js';
import { t, errorText } from './i18n.js';

const OFF_KEY = 'gridplay.chatOff';
const HIDDEN_KEY = 'gridplay.chatHidden';
/** The longest line, as the server counts it (characters). */
const LINE_MAX = 140;
/** The lines a box keeps. */
const KEEP = 200;

function stored(key, fallback) {
  try { const v = localStorage.getItem(key); return v === null ? fallback : JSON.parse(v); } catch { return fallback; }
}

function store(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* no storage */ }
}

let reportForms = 0;

export class ChatBox {
  /**
   * @param {object} o
   * @param {string} o.game the game's id
   * @param {{id: string, name: string}|null} o.me the signed-in user
   * @param {((text: string) => boolean)|null} [o.send] sends a line (a game page); absent in a replay
   * @param {string} [o.room] the room this page writes in, `players` or `spectators`, for its label
   */
  constructor({ game, me, send = null, room = 'spectators' }) {
    this.game = game;
    this.me = me;
    this.sendLine = send;
    this.room = room;
    this.lines = [];
    this.hidden = stored(HIDDEN_KEY, []);
    this.sending = null;
    const off = stored(OFF_KEY, false);
    this.offBox = h('input', { type: 'checkbox', id: 'chat-off', checked: off, onchange: () => this.setOff(this.offBox.checked) });
    this.log = h('ol', { class: 'chat-log', id: 'chat-log' });
    // A log region (read as lines arrive) around the list of lines.
    this.scroller = h('div', { class: 'chat-scroll', id: 'chat-scroll', role: 'log', 'aria-live': 'polite', 'aria-labelledby': 'chat-title' }, this.log);
    this.hiddenNote = h('div', { class: 'chat-hidden muted', id: 'chat-hidden' });
    this.error = h('p', { class: 'error', role: 'alert', id: 'chat-error' });
    this.input = h('input', { id: 'chat-input', maxlength: LINE_MAX, autocomplete: 'off', placeholder: t(`chat.say.${room}`) });
    let form = null;
    if (send && me) {
      form = h('form', { class: 'row chat-form', onsubmit: (e) => { e.preventDefault(); this.submit(); } },
        h('label', { class: 'sr-only', for: 'chat-input' }, t(`chat.say.${room}`)), this.input,
        h('button', { type: 'submit', class: 'small' }, t('chat.send')));
    } else if (send) {
      form = h('p', { class: 'muted' }, h('a', { href: '/', 'data-link': true }, t('nav.signIn')), ` ${t('chat.signInToTalk')}`);
    }
    this.body = h('div', { class: 'chat-body', hidden: off }, this.scroller, this.hiddenNote, form, this.error);
    this.node = h('section', { class: 'card chat', id: 'chat', 'aria-labelledby': 'chat-title' },
      h('div', { class: 'row chat-head' }, h('h2', { id: 'chat-title' }, t(send ? `chat.title.${room}` : 'chat.title')),
        h('label', { class: 'toggle' }, this.offBox, ` ${t('chat.hide')}`)),
      this.body);
    this.drawHidden();
  }

  setOff(off) {
    store(OFF_KEY, off);
    this.body.hidden = off;
  }

  /** Every line the page may read so far, oldest first. */
  reset(lines) {
    this.lines = lines.slice(-KEEP);
    this.log.replaceChildren(...this.lines.filter((l) => !this.isHidden(l)).map((l) => this.lineNode(l)));
    this.scroll();
  }

  /** New lines: each shown once, the log kept to its last lines. */
  add(lines) {
    for (const l of lines) {
      if (this.lines.some((x) => x.id === l.id)) continue;
      this.lines.push(l);
      if (this.sending && l.user === (this.me && this.me.id) && l.text === this.sending) { this.sending = null; this.input.value = ''; }
      if (!this.isHidden(l)) this.log.append(this.lineNode(l));
    }
    while (this.lines.length > KEEP) this.lines.shift();
    while (this.log.children.length > KEEP) this.log.firstElementChild.remove();
    this.scroll();
  }

  /** A refusal of a line this page sent, as a sentence. */
  refused(e) {
    this.sending = null;
    const text = errorText(e);
    this.error.textContent = /[.!?。]$/.test(text) ? text : `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
  }

  scroll() { this.scroller.scrollTop = this.scroller.scrollHeight; }

  isHidden(l) { return this.hidden.some((x) => x.id === l.user); }

  submit() {
    const text = this.input.value.trim();
    this.error.textContent = '';
    if (!text) return;
    // Sent once: a line the socket could not carry is said to be unsent, never sent twice.
    if (!this.sendLine(text)) { this.error.textContent = t('chat.offline'); return; }
    this.sending = text;
  }

  lineNode(l) {
    const mine = this.me && l.user === this.me.id;
    const tools = h('span', { class: 'chat-tools' });
    const menu = !this.me || mine ? null : h('button', {
      class: 'small secondary chat-menu', 'aria-expanded': 'false', 'aria-label': t('chat.lineMenu', { name: l.name }),
      onclick: () => {
        const open = menu.getAttribute('aria-expanded') !== 'true';
        menu.setAttribute('aria-expanded', String(open));
        tools.replaceChildren(...(open ? [
          h('button', { class: 'small secondary', onclick: () => this.hide(l) }, t('chat.hideAuthor', { name: l.name })),
          h('button', { class: 'small secondary', onclick: () => tools.replaceChildren(this.reportForm(l)) }, t('chat.report')),
        ] : []));
      },
    }, '⋯');
    const room = this.lines.some((x) => x.room !== l.room) ? h('span', { class: 'chat-room muted' }, ` ${t(`chat.room.${l.room}`)}`) : null;
    const time = new Date(l.at);
    return h('li', { 'data-line': l.id },
      h('span', { class: 'chat-name' }, l.bot ? botMark() : null, l.name), room, ' ',
      h('span', { class: 'chat-text' }, l.text), ' ',
      h('time', { class: 'muted', datetime: time.toISOString() }, time.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })),
      menu, tools);
  }

  reportForm(l) {
    const id = `chat-report-${++reportForms}`;
    const reason = h('input', { id, required: true, maxlength: 500, autocomplete: 'off' });
    const err = h('span', { class: 'error', role: 'alert' });
    const form = h('form', { class: 'row', onsubmit: async (e) => {
      e.preventDefault();
      try {
        await api('/reports', { user: l.name, game: this.game, line: l.id, reason: reason.value });
        form.replaceWith(h('span', { class: 'muted' }, t('report.sent')));
        toast(t('report.sent'));
      } catch (x) { err.textContent = errorText(x); }
    } }, h('label', { for: id }, t('chat.reportWhy')), reason, h('button', { type: 'submit', class: 'small' }, t('report.send')), err);
    queueMicrotask(() => reason.focus());
    return form;
  }

  hide(l) {
    if (!this.hidden.some((x) => x.id === l.user)) this.hidden.push({ id: l.user, name: l.name });
    store(HIDDEN_KEY, this.hidden);
    this.reset(this.lines);
    this.drawHidden();
    this.offBox.focus();
  }

  show(id) {
    this.hidden = this.hidden.filter((x) => x.id !== id);
    store(HIDDEN_KEY, this.hidden);
    this.reset(this.lines);
    this.drawHidden();
  }

  drawHidden() {
    this.hiddenNote.replaceChildren(...this.hidden.map((x) => h('p', {}, t('chat.hiddenAuthor', { name: x.name }), ' ',
      h('button', { class: 'small secondary', onclick: () => this.show(x.id) }, t('chat.showAuthor', { name: x.name })))));
  }
}

/** A finished game's chat, as its reader may read it, for a replay; `null` when there is nothing to show. */
export async function replayChat(game, me) {
  let d;
  try { d = await api(path`/games/${game}/chat`); } catch (x) { toast(errorText(x)); return null; }
  if (!d.lines.length) return null;
  const box = new ChatBox({ game, me, send: null });
  box.reset(d.lines);
  return box.node;
}
