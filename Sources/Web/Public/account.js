// The account panel: log in / register / log out, the settings the account keeps (units, dark
// mode, time format, language), the tracked list, the journal and the statistics.
import { send } from './api.js';
import { $, el, showError } from './dom.js';
import { currentLanguage, onLanguageChange, setLanguage, t } from './i18n.js';
import { currentUser, setCurrentUser } from './session.js';
import { centre, selectedHex } from './sky.js';
import { currentUnits, onUnitsChange, setUnits } from './units.js';

// ---- Dark mode, kept in localStorage (and in the account when logged in) ----
function applyDark(on) {
  document.documentElement.classList.toggle('dark', on);
  $('dark').checked = on;
}

// The account keeps the page's settings; what the server words for the user (journal, eta)
// is loaded again in the new language and units.
let applyingAccount = false;   // the account's own settings being applied: nothing to save
function saveSettings() {
  if (!currentUser() || applyingAccount) return;
  send('PUT', 'api/me', { units: currentUnits(), darkMode: $('dark').checked, timeFormat: $('time-format').value, language: currentLanguage() })
    .then((u) => { setCurrentUser(u, false); loadJournal(); }).catch(() => {});
}

// ---- Log in, register, log out ----
async function authenticate(path) {
  try {
    const user = await send('POST', path, { username: $('login-name').value, password: $('login-password').value });
    $('login-password').value = '';
    showError('login-error', null);
    setUser(user);
  } catch (err) { showError('login-error', err); }
}
function setUser(user) {
  $('login-form').hidden = !!user;
  $('user-panel').hidden = !user;
  $('track-this').hidden = !user;
  $('discuss-this').hidden = !user;
  $('account-button').textContent = user ? user.username : t('account.login');
  if (user) {
    $('user-name').textContent = user.username;
    // The account's settings win over this browser's.
    if (typeof user.darkMode === 'boolean') { applyDark(user.darkMode); localStorage.setItem('flytracker.dark', String(user.darkMode)); }
    if (user.timeFormat) $('time-format').value = user.timeFormat;
  }
  setCurrentUser(user);
  if (user) {
    if (user.units && user.units !== currentUnits()) { applyingAccount = true; setUnits(user.units); applyingAccount = false; }
    if (user.language && user.language !== currentLanguage()) { localStorage.setItem('flytracker.language', user.language); setLanguage(user.language); }
    loadWatchlist();
    loadJournal();
  } else {
    watchRules = [];
    renderWatchlist();
  }
}
async function loadAccount() {
  if (!currentUser()) { try { setUser(await send('GET', 'api/me')); } catch (_) { setUser(null); } }
  loadStats();
}

// ---- Tracked list ----
let watchRules = [];   // as the server last sent them; the texts are drawn from them
async function loadWatchlist() {
  try { watchRules = (await send('GET', 'api/me/watchlist')).rules; } catch (err) { showError('watch-error', err); return; }
  renderWatchlist();
}
function renderWatchlist() {
  const list = document.createDocumentFragment();
  for (const rule of watchRules) {
    const li = document.createElement('li');
    li.textContent = t('watch.' + rule.kind) + ' ' + rule.value + (rule.label ? ' (' + rule.label + ')' : '');
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.textContent = t('common.remove');
    remove.addEventListener('click', async () => {
      try { await send('DELETE', 'api/me/watchlist/' + rule.id); loadWatchlist(); } catch (err) { showError('watch-error', err); }
    });
    li.appendChild(remove);
    list.appendChild(li);
  }
  $('watchlist').replaceChildren(list);
}
async function addWatch(kind, value) {
  try { await send('POST', 'api/me/watchlist', { kind, value }); showError('watch-error', null); loadWatchlist(); } catch (err) { showError('watch-error', err); }
}

// ---- Journal: what and where come in the account's language and units ----
export async function loadJournal() {
  if (!currentUser()) return;
  let doc;
  try { doc = await send('GET', 'api/me/journal?limit=200'); } catch (_) { return; }
  const list = document.createDocumentFragment();
  for (const e of doc.events) {
    const li = document.createElement('li');
    li.textContent = [new Date(e.time * 1000).toLocaleString(), e.callsign || e.registration || e.hex, e.what, e.where].filter(Boolean).join(' · ');
    list.appendChild(li);
  }
  $('journal').replaceChildren(list);
  // Map of where tracked aircraft were seen, scaled to the farthest point.
  const svg = $('journal-map');
  svg.replaceChildren();
  const c = centre();
  const placed = doc.events.filter((e) => typeof e.lat === 'number' && typeof e.lon === 'number');
  el('circle', { class: 'receiver', cx: 0, cy: 0, r: 3 }, svg);
  if (!c || !placed.length) return;
  const xy = placed.map((e) => [(e.lon - c.lon) * 60 * Math.cos(c.lat * Math.PI / 180), -(e.lat - c.lat) * 60]);
  const far = Math.max(1, ...xy.map(([x, y]) => Math.hypot(x, y)));
  for (const [x, y] of xy) el('circle', { cx: (x / far * 90).toFixed(1), cy: (y / far * 90).toFixed(1), r: 2.5 }, svg);
}

// ---- Statistics and the random pick ----
let statsRows = null;   // the last answer (null: none yet, or it failed)
async function loadStats() {
  const svg = $('stats-chart');
  try { statsRows = (await send('GET', 'api/stats?limit=12&by=' + encodeURIComponent($('stats-by').value))).rows; } catch (err) {
    statsRows = null;
    svg.replaceChildren(); const label = el('text', { x: 6, y: 20 }, svg); label.textContent = String(err.message || err); return;
  }
  renderStats();
}
function renderStats() {
  const svg = $('stats-chart');
  if (!statsRows) return;
  svg.replaceChildren();
  const rows = statsRows;
  if (!rows.length) { const label = el('text', { x: 6, y: 20 }, svg); label.textContent = t('stats.none'); return; }
  const max = Math.max(1, ...rows.map((r) => r.aircraft));
  const h = 190 / rows.length;
  rows.forEach((r, i) => {
    el('rect', { x: 70, y: (5 + i * h).toFixed(1), width: (r.aircraft / max * 200).toFixed(1), height: (h * 0.7).toFixed(1) }, svg);
    const label = el('text', { x: 2, y: (5 + i * h + h * 0.6).toFixed(1) }, svg);
    label.textContent = r.key;
    const n = el('text', { x: (74 + r.aircraft / max * 200).toFixed(1), y: (5 + i * h + h * 0.6).toFixed(1) }, svg);
    n.textContent = String(r.aircraft);
  });
}
async function pickRandom() {
  let doc;
  try { doc = await send('GET', 'api/stats/random'); } catch (err) { $('random-pick').textContent = String(err.message || err); return; }
  const v = doc.visit;
  $('random-pick').textContent = v
    ? [v.callsign || v.registration || v.address.toString(16).padStart(6, '0'), v.registration, v.typeCode, v.operatorName,
       t('stats.lastHeard', { time: new Date(v.lastSeen * 1000).toLocaleString() })].filter(Boolean).join(' · ')
    : t('stats.noAircraft');
}

export function startAccount() {
  const storedDark = localStorage.getItem('flytracker.dark');
  applyDark(storedDark === null ? window.matchMedia('(prefers-color-scheme: dark)').matches : storedDark === 'true');
  $('dark').addEventListener('change', (e) => { localStorage.setItem('flytracker.dark', String(e.target.checked)); applyDark(e.target.checked); saveSettings(); });
  $('time-format').addEventListener('change', saveSettings);
  $('language').addEventListener('change', async (e) => {
    localStorage.setItem('flytracker.language', e.target.value);
    await setLanguage(e.target.value);
    saveSettings();
  });
  onUnitsChange(saveSettings);
  // The texts are the page's own: drawn again from what was fetched, nothing fetched again.
  onLanguageChange(() => {
    $('account-button').textContent = currentUser() ? currentUser().username : t('account.login');
    renderWatchlist();
    renderStats();
  });
  $('account-button').addEventListener('click', () => { $('account').hidden = !$('account').hidden; if (!$('account').hidden) loadAccount(); });
  $('close-account').addEventListener('click', () => { $('account').hidden = true; });
  $('login-form').addEventListener('submit', (e) => { e.preventDefault(); authenticate('api/auth/login'); });
  $('register').addEventListener('click', () => authenticate('api/auth/register'));
  $('logout').addEventListener('click', async () => { await send('POST', 'api/auth/logout').catch(() => {}); setUser(null); });
  $('watch-form').addEventListener('submit', (e) => { e.preventDefault(); addWatch($('watch-kind').value, $('watch-value').value); $('watch-value').value = ''; });
  $('track-this').addEventListener('click', () => { const hex = selectedHex(); if (hex && !hex.startsWith('~')) addWatch('address', hex); });
  $('stats-by').addEventListener('change', loadStats);
  $('pick-random').addEventListener('click', pickRandom);
  send('GET', 'api/me').then(setUser).catch(() => setUser(null));
}
