// Clocks as the game page shows them: time left from the server's clock state, and how to write it. Pure
// functions, tested with `node --test`.

import { t } from './i18n.js';

export const SIDES = ['first', 'second'];

/**
 * Side i's time left at `now` (server time, ms), or null without a live clock.
 * @param {{remaining: number[], running: string|null, since: number}|null} clock
 */
export function timeLeft(clock, i, now) {
  if (!clock) return null;
  const run = clock.running === SIDES[i] ? now - clock.since : 0;
  return Math.max(0, clock.remaining[i] - run);
}

/** A clock's face: tenths under ten seconds, then m:ss, then h:mm:ss. */
export function fmtClock(ms) {
  if (ms < 10000) return `0:${(Math.max(0, ms) / 1000).toFixed(1).padStart(4, '0')}`;
  const s = Math.ceil(ms / 1000);
  const m = Math.floor(s / 60);
  return m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}` : `${m}:${String(s % 60).padStart(2, '0')}`;
}

/** The time left for a correspondence move, in words. */
export function fmtSpan(ms) {
  if (ms <= 0) return t('span.up');
  const hrs = Math.floor(ms / 3600000);
  if (hrs >= 24) return t('span.days', { d: Math.floor(hrs / 24), h: hrs % 24 });
  if (hrs >= 1) return t('span.hours', { h: hrs, m: Math.floor((ms % 3600000) / 60000) });
  return t('span.minutes', { m: Math.ceil(ms / 60000) });
}
