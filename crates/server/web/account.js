// The account page: this browser's preferences (move sounds, move confirmation), changing the password,
// signing out everywhere, and deleting the account. The server checks the password for the last two kinds.

import { h, api, toast, confirmDialog, navigate, pref, setPref, path } from './util.js';
import { t, errorText, fmtDate } from './i18n.js';

/**
 * Personal API tokens: made with a name and scopes, shown once (with a button that copies it), listed with
 * when each was last used, and revoked. A program sends one as `Authorization: Bearer`.
 */
function tokensCard(ctx) {
  const list = h('ul', { class: 'tokens', id: 'token-list' });
  const shown = h('div', { id: 'token-made', 'aria-live': 'polite' });
  const name = h('input', { id: 'token-name', required: true, maxlength: 40, autocomplete: 'off' });
  const scopes = ['read', 'play', 'bot', ...(ctx.me.admin ? ['admin'] : [])].map((s) =>
    h('label', { class: 'toggle' }, h('input', { type: 'checkbox', name: 'scope', value: s, checked: s === 'read' }), ` ${t(`token.scope.${s}`)}`));
  const err = h('p', { class: 'error', role: 'alert' });
  async function load() {
    let d;
    try { d = await api('/account/tokens'); } catch (x) { err.textContent = errorText(x); return; }
    list.replaceChildren(...(d.tokens.length ? d.tokens.map((tk) => h('li', { 'data-token': tk.id },
      h('strong', {}, tk.name), ` · ${tk.scopes.map((s) => t(`token.scope.${s}`)).join(', ')} · `,
      h('span', { class: 'muted' }, tk.last_used_at ? t('token.lastUsed', { when: fmtDate(tk.last_used_at) }) : t('token.neverUsed')), ' ',
      h('button', { class: 'small secondary', 'aria-label': t('token.revokeNamed', { name: tk.name }), onclick: async () => {
        if (!(await confirmDialog(t('token.revokeQuestion', { name: tk.name }), t('token.revoke')))) return;
        try { await api(path`/account/tokens/${tk.id}/revoke`, {}); toast(t('token.revoked')); load(); } catch (x) { toast(errorText(x)); }
      } }, t('token.revoke')))) : [h('li', { class: 'muted' }, t('token.none'))]));
  }
  const form = h('form', { class: 'stack', id: 'new-token', onsubmit: async (e) => {
    e.preventDefault();
    err.textContent = '';
    const chosen = [...form.querySelectorAll('input[name=scope]:checked')].map((c) => c.value);
    try {
      const made = await api('/account/tokens', { name: name.value, scopes: chosen });
      name.value = '';
      const value = h('input', { id: 'token-value', readonly: true, value: made.token, 'aria-label': t('token.value') });
      shown.replaceChildren(h('div', { class: 'notice stack' }, h('p', {}, t('token.once')), h('div', { class: 'row' }, value,
        h('button', { type: 'button', class: 'small', onclick: async () => {
          try { await navigator.clipboard.writeText(made.token); toast(t('token.copied')); } catch { value.select(); }
        } }, t('token.copy')))));
      value.select();
      load();
    } catch (x) { err.textContent = errorText(x); }
  } }, h('label', {}, t('token.name'), name), h('fieldset', {}, h('legend', {}, t('token.scopes')), ...scopes),
  h('button', { type: 'submit' }, t('token.make')), err);
  load();
  return h('section', { class: 'card stack', id: 'tokens' }, h('h2', {}, t('token.heading')), h('p', { class: 'muted' }, t('token.help')),
    shown, list, form);
}

export function accountPage(main, ctx) {
  ctx.title(`${t('nav.account')} · gridplay`);
  if (!ctx.me) {
    main.replaceChildren(h('div', { class: 'card' }, h('p', {}, t('account.signIn')), h('a', { href: '/', 'data-link': true }, t('nav.signIn'))));
    return () => {};
  }
  const toggle = (name, id, words) => h('label', { class: 'toggle' },
    h('input', { type: 'checkbox', id, checked: pref(name), onchange: (e) => setPref(name, e.target.checked) }), words);
  const prefs = h('section', { class: 'card stack', id: 'preferences' }, h('h2', {}, t('account.preferences')),
    toggle('sounds', 'pref-sounds', t('account.sounds')),
    toggle('confirm', 'pref-confirm', t('account.confirmMoves')),
    h('p', { class: 'muted' }, t('account.prefsHere')));

  const old = h('input', { type: 'password', id: 'pw-old', autocomplete: 'current-password', required: true });
  const fresh = h('input', { type: 'password', id: 'pw-new', autocomplete: 'new-password', required: true, minlength: 8 });
  const pwErr = h('p', { class: 'error', role: 'alert' });
  const password = h('form', { class: 'card stack', id: 'change-password', onsubmit: async (e) => {
    e.preventDefault();
    pwErr.textContent = '';
    try {
      await api('/account/password', { old: old.value, new: fresh.value });
      old.value = ''; fresh.value = '';
      toast(t('account.passwordChanged'));
    } catch (x) { pwErr.textContent = errorText(x); }
  } }, h('h2', {}, t('account.changePassword')), h('label', {}, t('account.oldPassword'), old),
  h('label', {}, t('account.newPassword'), fresh, h('small', {}, t('auth.passwordRule'))),
  h('button', { type: 'submit' }, t('account.changePassword')), pwErr);

  const everywhere = h('section', { class: 'card stack', id: 'sessions' }, h('h2', {}, t('account.sessions')),
    h('p', { class: 'muted' }, t('account.everywhereHelp')),
    h('button', { class: 'secondary', id: 'signout-everywhere', onclick: async () => {
      if (!(await confirmDialog(t('account.everywhereQuestion'), t('account.everywhere')))) return;
      try {
        await api('/account/signout-everywhere', {});
        ctx.setUser(null);
        navigate('/');
      } catch (x) { toast(errorText(x)); }
    } }, t('account.everywhere')));

  const delPass = h('input', { type: 'password', id: 'delete-password', autocomplete: 'current-password', required: true });
  const delErr = h('p', { class: 'error', role: 'alert' });
  const remove = h('form', { class: 'card stack', id: 'delete-account', onsubmit: async (e) => {
    e.preventDefault();
    delErr.textContent = '';
    if (!(await confirmDialog(t('account.deleteQuestion'), t('account.delete')))) return;
    try {
      await api('/account/delete', { password: delPass.value });
      ctx.setUser(null);
      navigate('/');
      toast(t('account.deleted'));
    } catch (x) { delErr.textContent = errorText(x); }
  } }, h('h2', {}, t('account.deleteHeading')), h('p', { class: 'muted' }, t('account.deleteHelp')),
  h('label', {}, t('auth.password'), delPass), h('button', { type: 'submit', class: 'danger' }, t('account.delete')), delErr);

  // What the moderators did to this account (warnings, mutes, a new name), shown once there is any.
  const moderation = h('section', { class: 'card stack', id: 'moderation', hidden: true });
  api('/account/moderation').then((m) => {
    if (!m.history.length && !m.muted_until) return;
    moderation.hidden = false;
    moderation.replaceChildren(h('h2', {}, t('account.moderation')),
      m.muted_until ? h('p', { class: 'error' }, t('account.mutedUntil', { when: fmtDate(m.muted_until) })) : null,
      h('ol', { class: 'history' }, m.history.map((x) => h('li', {}, h('strong', {}, t(`admin.kind.${x.kind}`)), ' · ', fmtDate(x.at),
        x.detail ? h('span', { class: 'muted' }, ` (${x.detail})`) : null, h('br'), x.reason))));
  }).catch(() => {});

  main.replaceChildren(h('h1', {}, t('nav.account')), moderation, h('div', { class: 'grid' }, prefs, password, everywhere, tokensCard(ctx), remove));
  return () => {};
}
