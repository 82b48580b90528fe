// The page's WebSocket: reconnects by itself, watches the lobby and one game, and sends actions with an ack id.
// An action not acknowledged within 2.5 s is sent again over the (new) socket; the server answers a resent
// action from its memory instead of playing it twice. An action with no answer after 20 s is given up and
// reported as `no-answer`. Each time the socket opens, the pages that show the lobby or game lists hear a
// `lobby` message and fetch again what they show (what changed while the socket was away was not sent to it);
// the game page gets what it missed from the version it last saw.

const RESEND_MS = 2500;
const GIVE_UP_MS = 20000;

export class Live {
  constructor() {
    this.handlers = new Set();
    this.pending = new Map(); // ack id -> {msg, resolve, reject, sent}
    this.lobby = false;
    this.game = null; // {id, v}
    this.ws = null;
    this.open = false;
    this.retry = 0;
    this.connect();
    setInterval(() => this.resend(), 1000);
  }

  on(fn) { this.handlers.add(fn); return () => this.handlers.delete(fn); }

  connect() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      this.open = true;
      this.retry = 0;
      if (this.lobby) this.raw({ t: 'lobby' });
      if (this.game) this.raw({ t: 'watch', game: this.game.id, v: this.game.v });
      for (const p of this.pending.values()) { this.raw(p.msg); p.sent = Date.now(); }
      this.emit({ t: 'connection', open: true });
      this.emit({ t: 'lobby' });
    };
    ws.onmessage = (e) => {
      let m;
      try { m = JSON.parse(e.data); } catch { return; }
      if (this.game && m.game === this.game.id) {
        if (m.t === 'sync') this.game.v = m.state.version;
        if (m.t === 'event') {
          // Events carry what changed since the version before: one that does not follow the last applied is
          // dropped, and after a gap the server is asked for what was missed (events, or the whole state).
          if (this.game.v == null || m.v <= this.game.v) return;
          if (m.v > this.game.v + 1) {
            if (this.game.asked !== this.game.v) { this.game.asked = this.game.v; this.raw({ t: 'watch', game: this.game.id, v: this.game.v }); }
            return;
          }
          this.game.v = m.v;
        }
      }
      if ((m.t === 'ack' || m.t === 'error') && m.ack && this.pending.has(m.ack)) {
        const p = this.pending.get(m.ack);
        this.pending.delete(m.ack);
        if (m.t === 'ack') p.resolve(m); else p.reject(m);
      }
      this.emit(m);
    };
    ws.onclose = () => {
      this.open = false;
      this.emit({ t: 'connection', open: false });
      const wait = Math.min(5000, 300 * 2 ** this.retry++);
      setTimeout(() => this.connect(), wait);
    };
  }

  emit(m) { for (const h of this.handlers) h(m); }

  raw(msg) {
    if (this.open && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }

  watchLobby() { this.lobby = true; this.raw({ t: 'lobby' }); }

  /** Watches a game; `v`, the version the page already shows, if it has one. */
  watch(id, v = null) {
    this.game = { id, v };
    this.raw(v == null ? { t: 'watch', game: id } : { t: 'watch', game: id, v });
  }

  unwatch() { this.game = null; }

  /** Sends an action; resolves with the server's ack, rejects with its error message. */
  act(msg) {
    const ack = Math.random().toString(36).slice(2) + Date.now().toString(36);
    const full = { ...msg, ack };
    return new Promise((resolve, reject) => {
      this.pending.set(ack, { msg: full, resolve, reject, sent: Date.now(), first: Date.now() });
      this.raw(full);
    });
  }

  resend() {
    const now = Date.now();
    for (const [ack, p] of this.pending) {
      if (now - p.first > GIVE_UP_MS) {
        this.pending.delete(ack);
        p.reject({ t: 'error', ack, code: 'no-answer', message: 'the server did not answer' });
      } else if (now - p.sent > RESEND_MS) { this.raw(p.msg); p.sent = now; }
    }
  }
}
