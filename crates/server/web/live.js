// The page's WebSocket: reconnects by itself, watches the lobby and one game, and sends actions with an ack id.
// An action not acknowledged within 2.5 s is sent again over the (new) socket; the server answers a resent
// action from its memory instead of playing it twice.

const RESEND_MS = 2500;

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
    };
    ws.onmessage = (e) => {
      let m;
      try { m = JSON.parse(e.data); } catch { return; }
      if (this.game && m.game === this.game.id) {
        if (m.t === 'sync') this.game.v = m.state.version;
        if (m.t === 'event') this.game.v = Math.max(this.game.v ?? 0, m.v);
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

  watch(id) {
    this.game = { id, v: null };
    this.raw({ t: 'watch', game: id });
  }

  unwatch() { this.game = null; }

  /** Sends an action; resolves with the server's ack, rejects with its error message. */
  act(msg) {
    const ack = Math.random().toString(36).slice(2) + Date.now().toString(36);
    const full = { ...msg, ack };
    return new Promise((resolve, reject) => {
      this.pending.set(ack, { msg: full, resolve, reject, sent: Date.now() });
      this.raw(full);
    });
  }

  resend() {
    const now = Date.now();
    for (const p of this.pending.values()) {
      if (now - p.sent > RESEND_MS) { this.raw(p.msg); p.sent = now; }
    }
  }
}
