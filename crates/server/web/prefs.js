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
