// The admins' page: the queue of open reports, each with the reported account's standing (admin, closed,
// engine user, muted until), its history of moderation actions and its other reports; an account looked up
// by name; and on each account the actions (warn, mute for a time, rename, mark as an engine user, close),
// each taken with a reason the server records; and the engine-use review's queue: the players whose recent
// rated games are improbably engine-like, each with the figures of every game of the window (the evidence).
// Only admins see it; the server refuses the rest.

import { h, api, toast, confirmDialog, playerLink, path } from './util.js';
import { t, errorText, fmtDate } from './i18n.js';

const KINDS = ['warn', 'mute', 'rename', 'engine', 'close'];

/** An account's standing, history and the form of actions on it; `done` draws again after an action. */
function accountCard(a, done) {
  const flags = [
    a.admin ? t('admin.isAdmin') : null,
    a.closed ? t('admin.isClosed') : null,
    a.engine ? t('admin.isEngine') : null,
    a.muted_until ? t('admin.mutedUntil', { when: fmtDate(a.muted_until) }) : null,
  ].filter(Boolean);
  const history = a.history.length
    ? h('ol', { class: 'history' }, a.history.map((x) => h('li', {},
      h('strong', {}, t(`admin.kind.${x.kind}`)), ' · ', x.admin ? x.admin : t('admin.commandLine'), ' · ', fmtDate(x.at),
      x.detail ? h('span', { class: 'muted' }, ` (${x.detail})`) : null, h('br'), x.reason)))
    : h('p', { class: 'muted' }, t('admin.noHistory'));
  const reports = a.reports.length
    ? h('ul', {}, a.reports.map((r) => h('li', {}, `${fmtDate(r.at)} · ${r.reporter}: ${r.reason}`, r.closed ? h('span', { class: 'muted' }, ` (${t('admin.closedReport')})`) : null)))
    : h('p', { class: 'muted' }, t('admin.noReports'));
  const id = `act-${a.name}`;
  const kind = h('select', { id: `${id}-kind`, 'aria-label': t('admin.action') }, KINDS.map((k) => h('option', { value: k }, t(`admin.kind.${k}`))));
  const minutes = h('input', { type: 'number', id: `${id}-minutes`, min: 1, max: 43200, value: 60, 'aria-label': t('admin.minutes') });
  const minutesBox = h('label', { hidden: true }, t('admin.minutes'), minutes);
  kind.onchange = () => { minutesBox.hidden = kind.value !== 'mute'; };
  const reason = h('input', { id: `${id}-reason`, required: true, maxlength: 500, 'aria-label': t('admin.reason'), placeholder: t('admin.reason') });
  const err = h('p', { class: 'error', role: 'alert' });
  const form = h('form', { class: 'row admin-act', onsubmit: async (e) => {
    e.preventDefault();
    err.textContent = '';
    if (['rename', 'close'].includes(kind.value) && !(await confirmDialog(t(`admin.confirm.${kind.value}`, { name: a.name }), t(`admin.kind.${kind.value}`)))) return;
    const body = { kind: kind.value, reason: reason.value };
    if (kind.value === 'mute') body.minutes = Number(minutes.value);
    try {
      const after = await api(path`/admin/users/${a.name}/actions`, body);
      toast(t('admin.done', { name: after.name }));
      done();
    } catch (x) { err.textContent = errorText(x); }
  } }, kind, minutesBox, reason, h('button', { type: 'submit' }, t('admin.act')));
  return h('section', { class: 'stack', 'data-account': a.name },
    h('h3', {}, playerLink(a.name, null, a.bot), flags.length ? h('span', { class: 'muted' }, ` · ${flags.join(' · ')}`) : null),
    h('h4', {}, t('admin.history')), history,
    h('h4', {}, t('admin.reports')), reports,
    h('h4', {}, t('admin.review.profile')),
    a.review.length ? a.review.map(reviewProfile) : h('p', { class: 'muted' }, t('admin.review.none')),
    a.closed ? null : form, err);
}

/** A player's engine-use figures in one game (the server's profile): the window's totals, the rule, and a
 * table of its games, each linked to its replay. */
function reviewProfile(p) {
  const rule = p.rule ? t('admin.review.rule', { agreement: p.rule.agreement, accuracy: p.rule.accuracy, games: p.rule.min_games }) : t('admin.review.noRule');
  const ms = (v) => (v == null ? '—' : t('admin.review.seconds', { s: (v / 1000).toFixed(1) }));
  return h('section', { class: 'stack review-profile', 'data-review-game': p.game },
    h('h4', {}, t('admin.review.title', { game: p.game }), p.flagged ? h('strong', { class: 'flagged' }, ` · ${t('admin.review.flagged')}`) : null),
    h('p', {}, t('admin.review.window', { games: p.games, agreement: p.agreement, agreed: p.agreed, counted: p.counted, accuracy: p.accuracy }),
      ' · ', t('admin.review.moveTime', { t: ms(p.move_ms_median) })),
    h('p', { class: 'muted' }, rule),
    h('table', { class: 'review-games' },
      h('thead', {}, h('tr', {}, ['game', 'accuracy', 'agreement', 'marks', 'moveTime'].map((c) => h('th', {}, t(`admin.review.col.${c}`))))),
      h('tbody', {}, p.recent.map((g) => h('tr', {},
        h('td', {}, h('a', { href: path`/replay/${g.id}`, 'data-link': true }, fmtDate(g.finished_at)), g.rated ? '' : h('span', { class: 'muted' }, ` ${t('admin.review.casual')}`)),
        h('td', {}, `${g.accuracy}%`),
        h('td', {}, `${g.agreed}/${g.counted}`),
        h('td', {}, `${g.inaccuracies} ?! · ${g.mistakes} ? · ${g.blunders} ??`),
        h('td', {}, g.move_ms_median == null ? '—' : `${ms(g.move_ms_median)} ± ${ms(g.move_ms_iqr)}`))))));
}

/** The chat of a reported game, both rooms, with the reported line marked; open when a line is reported. */
function chatContext(r, chat) {
  if (!chat || !chat.length) return null;
  return h('details', { class: 'chat-context', open: !!r.line }, h('summary', {}, t('admin.chat', { n: chat.length })),
    h('ol', { class: 'chat-log' }, chat.map((l) => h('li', { class: l.id === r.line ? 'reported' : '' },
      h('span', { class: 'chat-name' }, l.name), h('span', { class: 'muted' }, ` ${t(`chat.room.${l.room}`)} `), l.text,
      l.id === r.line ? h('strong', {}, ` — ${t('admin.reportedLine')}`) : null))));
}

export function adminPage(main, ctx) {
  ctx.title(`${t('nav.admin')} · gridplay`);
  if (!ctx.me || !ctx.me.admin) {
    main.replaceChildren(h('div', { class: 'card' }, h('h1', {}, t('nav.admin')), h('p', {}, t('admin.only'))));
    return () => {};
  }
  const queue = h('div', { class: 'stack', id: 'queue' });
  const reviewQueue = h('div', { class: 'stack', id: 'review-queue' });
  const looked = h('div', { id: 'looked-up' });
  const lookName = h('input', { id: 'look-name', required: true, maxlength: 20, autocomplete: 'off', 'aria-label': t('admin.lookUp') });
  const lookErr = h('p', { class: 'error', role: 'alert' });
  let lastLooked = null;

  async function lookUp(name) {
    lookErr.textContent = '';
    try {
      const a = await api(path`/admin/users/${name}`);
      lastLooked = a.name;
      looked.replaceChildren(h('div', { class: 'card' }, accountCard(a, refresh)));
    } catch (x) { lastLooked = null; looked.replaceChildren(); lookErr.textContent = errorText(x); }
  }

  async function load() {
    let q;
    try { q = await api('/admin/reports'); } catch (x) { queue.replaceChildren(h('p', { class: 'error' }, errorText(x))); return; }
    if (!q.reports.length) { queue.replaceChildren(h('p', { class: 'muted', id: 'queue-empty' }, t('admin.queueEmpty'))); return; }
    queue.replaceChildren(...q.reports.map(({ report: r, account, chat }) => {
      const why = h('input', { id: `close-${r.id}`, required: true, maxlength: 500, 'aria-label': t('admin.closeReason'), placeholder: t('admin.closeReason') });
      const err = h('p', { class: 'error', role: 'alert' });
      const close = h('form', { class: 'row', onsubmit: async (e) => {
        e.preventDefault();
        try { await api(path`/admin/reports/${r.id}/close`, { reason: why.value }); toast(t('admin.reportClosed')); refresh(); } catch (x) { err.textContent = errorText(x); }
      } }, why, h('button', { type: 'submit', class: 'secondary' }, t('admin.closeReport')));
      return h('article', { class: 'card stack', 'data-report': r.id },
        h('h2', {}, t('admin.reportAbout', { name: r.user })),
        h('p', {}, t('admin.reportBy', { name: r.reporter, when: fmtDate(r.at) }),
          r.game ? [' · ', h('a', { href: path`/replay/${r.game}`, 'data-link': true }, t('admin.theGame'))] : null),
        h('blockquote', {}, r.reason),
        chatContext(r, chat),
        close, err, accountCard(account, refresh));
    }));
  }

  async function loadReview() {
    let q;
    try { q = await api('/admin/review'); } catch (x) { reviewQueue.replaceChildren(h('p', { class: 'error' }, errorText(x))); return; }
    if (!q.players.length) { reviewQueue.replaceChildren(h('p', { class: 'muted', id: 'review-empty' }, t('admin.review.empty'))); return; }
    reviewQueue.replaceChildren(...q.players.map((p) => h('article', { class: 'card stack', 'data-suspect': p.name },
      h('h3', {}, playerLink(p.name, null, false), p.engine ? h('span', { class: 'muted' }, ` · ${t('admin.isEngine')}`) : null),
      p.flagged.map(reviewProfile),
      h('button', { type: 'button', class: 'secondary', onclick: () => lookUp(p.name) }, t('admin.review.open')))));
  }

  function refresh() {
    load();
    loadReview();
    if (lastLooked) lookUp(lastLooked);
  }

  main.replaceChildren(h('h1', {}, t('nav.admin')),
    h('div', { class: 'card stack' }, h('h2', {}, t('admin.lookUp')),
      h('form', { class: 'row', onsubmit: (e) => { e.preventDefault(); lookUp(lookName.value.trim()); } }, lookName, h('button', { type: 'submit' }, t('admin.show'))),
      lookErr, looked),
    h('h2', {}, t('admin.queue')), queue,
    h('h2', {}, t('admin.review.queue')), h('p', { class: 'muted' }, t('admin.review.about')), reviewQueue);
  load();
  loadReview();
  return () => {};
}
