// FlyTracker web page: live list, radar scope, details. No external resources.
'use strict';

const SVG = 'http://www.w3.org/2000/svg';
const $ = (id) => document.getElementById(id);
const state = {
  aircraft: [], trails: {}, receiver: null, selected: null, sortKey: 'r_dst', sortDesc: false,
  units: localStorage.getItem('flytracker.units') || 'aeronautical',
  range: Number(localStorage.getItem('flytracker.range') || 100),
  query: '', error: null, messages: 0,
  // An aggregator's receivers (api/receivers) and the one the view is limited to ('' = all).
  receivers: [], receiverFilter: '',
};

// ---- Settings: dark mode and units, kept in localStorage ----
function applyDark(on) {
  document.documentElement.classList.toggle('dark', on);
  $('dark').checked = on;
}
const storedDark = localStorage.getItem('flytracker.dark');
applyDark(storedDark === null ? window.matchMedia('(prefers-color-scheme: dark)').matches : storedDark === 'true');
$('dark').addEventListener('change', (e) => { localStorage.setItem('flytracker.dark', String(e.target.checked)); applyDark(e.target.checked); });
$('units').value = state.units;
$('units').addEventListener('change', (e) => { state.units = e.target.value; localStorage.setItem('flytracker.units', state.units); render(); });
$('range').value = String(state.range);
$('range').addEventListener('change', (e) => { state.range = Number(e.target.value); localStorage.setItem('flytracker.range', e.target.value); render(); });
$('labels').addEventListener('change', render);
$('trails').addEventListener('change', render);

// ---- Language: the message catalogue of the chosen language (api/languages/{code}); English
// fills what a catalogue lacks. Texts are templates: t('status.aircraft', { count: 3 }).
const i18n = { language: 'en', texts: {}, english: {}, languages: [{ code: 'en', name: 'English' }] };
function t(key, params) {
  const template = i18n.texts[key] ?? i18n.english[key] ?? key;
  return params ? template.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m)) : template;
}
// The static texts of index.html: data-i18n (text) and data-i18n-placeholder/-aria-label/-alt.
function translatePage() {
  document.documentElement.lang = i18n.language;
  for (const e of document.querySelectorAll('[data-i18n]')) e.textContent = t(e.dataset.i18n);
  for (const attr of ['placeholder', 'aria-label', 'alt']) {
    for (const e of document.querySelectorAll(`[data-i18n-${attr}]`)) e.setAttribute(attr, t(e.getAttribute(`data-i18n-${attr}`)));
  }
  $('account-button').textContent = account.user ? account.user.username : t('account.login');
}
async function loadCatalogue(code) { return (await getJSON('api/languages/' + encodeURIComponent(code))).messages; }
async function setLanguage(code) {
  if (!i18n.languages.some((l) => l.code === code)) code = 'en';
  try {
    if (!Object.keys(i18n.english).length) i18n.english = await loadCatalogue('en');
    i18n.texts = code === 'en' ? i18n.english : await loadCatalogue(code);
    i18n.language = code;
  } catch (_) { i18n.texts = i18n.english; i18n.language = 'en'; }
  $('language').value = i18n.language;
  translatePage();
  retranslate();
}
// The first language: this browser's last choice, else the first of its languages we have.
const languageReady = (async () => {
  try { i18n.languages = (await getJSON('api/languages')).languages; } catch (_) { /* English only */ }
  $('language').replaceChildren(...i18n.languages.map((l) => { const o = document.createElement('option'); o.value = l.code; o.textContent = l.name; return o; }));
  const codes = i18n.languages.map((l) => l.code);
  const wanted = [localStorage.getItem('flytracker.language'), ...(navigator.languages || [])].filter(Boolean)
    .map((c) => (codes.includes(c) ? c : codes.find((k) => k === c.split('-')[0].toLowerCase()))).find(Boolean);
  await setLanguage(wanted || 'en');
})();
$('language').addEventListener('change', async (e) => {
  localStorage.setItem('flytracker.language', e.target.value);
  await setLanguage(e.target.value);
  saveSettings();
});
// Everything drawn from data is drawn again in the new language.
function retranslate() {
  render();
  if (state.selected) loadDetails(state.selected);
  if (account.user) { loadWatchlist(); loadJournal(); renderPlaces(); }
  if (!$('account').hidden) loadStats();
  if (!$('social').hidden) showTab(social.tab);
}

// ---- Units ----
const fmt = {
  alt(a) {
    if (a.alt_baro === 'ground') return t('units.ground');
    if (typeof a.alt_baro !== 'number') return '';
    return state.units === 'metric' ? Math.round(a.alt_baro * 0.3048) + ' m' : a.alt_baro + ' ft';
  },
  speed(kt) {
    if (typeof kt !== 'number') return '';
    if (state.units === 'metric') return Math.round(kt * 1.852) + ' km/h';
    if (state.units === 'imperial') return Math.round(kt * 1.15078) + ' mph';
    return Math.round(kt) + ' kt';
  },
  dist(nm) {
    if (typeof nm !== 'number') return '';
    if (state.units === 'metric') return (nm * 1.852).toFixed(1) + ' km';
    if (state.units === 'imperial') return (nm * 1.15078).toFixed(1) + ' mi';
    return nm.toFixed(1) + ' NM';
  },
  rate(fpm) {
    if (typeof fpm !== 'number') return '';
    return state.units === 'metric' ? (fpm * 0.00508).toFixed(1) + ' m/s' : fpm + ' ft/min';
  },
  ringLabel(nm) {
    if (state.units === 'metric') return Math.round(nm * 1.852) + ' km';
    if (state.units === 'imperial') return Math.round(nm * 1.15078) + ' mi';
    return nm + ' NM';
  },
};

// ---- Search: free words filter here; key:value words become /api/aircraft filters ----
const apiKeys = ['hex', 'address', 'registration', 'callsign', 'type', 'squawk', 'lat', 'lon', 'radius', 'box', 'min_alt', 'max_alt', 'military', 'limit'];
const aliases = { reg: 'registration', call: 'callsign', flight: 'callsign', sq: 'squawk', alt_min: 'min_alt', alt_max: 'max_alt' };
function parseSearch(text) {
  const params = new URLSearchParams();
  const words = [];
  for (const word of text.trim().split(/\s+/).filter(Boolean)) {
    const m = word.match(/^([a-z_]+)[:=](.+)$/i);
    if (m) {
      const key = aliases[m[1].toLowerCase()] || m[1].toLowerCase();
      if (apiKeys.includes(key)) { params.set(key, m[2]); continue; }
    }
    words.push(word.toLowerCase());
  }
  return { params, words };
}
function matchesWords(a, words) {
  if (!words.length) return true;
  const hay = [a.hex, a.flight, a.r, a.t, a.squawk, a.operator, a.desc].filter(Boolean).join(' ').toLowerCase();
  return words.every((w) => hay.includes(w));
}
let searchTimer = null;
$('search').addEventListener('input', (e) => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => { state.query = e.target.value; refresh(); }, 250);
});

// ---- Data ----
async function getJSON(url) {
  const response = await fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.message || response.status + ' ' + response.statusText);
  return body;
}
async function refresh() {
  const { params, words } = parseSearch(state.query);
  try {
    if (state.receiverFilter) params.set('receiver', state.receiverFilter);
    const [list, trails] = await Promise.all([
      getJSON('api/aircraft' + (params.toString() ? '?' + params : '')),
      $('trails').checked ? getJSON('api/trails') : Promise.resolve({ trails: {} }),
    ]);
    state.aircraft = list.aircraft.filter((a) => matchesWords(a, words));
    state.total = list.total;
    state.trails = trails.trails || {};
    state.error = null;
  } catch (err) {
    state.error = String(err.message || err);
  }
  render();
  if (state.selected) loadDetails(state.selected);
}
async function loadReceiver() {
  try {
    const r = await getJSON('data/receiver.json');
    if (typeof r.lat === 'number' && typeof r.lon === 'number') state.receiver = { lat: r.lat, lon: r.lon };
  } catch (_) { /* keep trying with the next refresh */ }
}

// ---- Receivers of a network (an aggregator): filter and coverage outline ----
async function loadReceivers() {
  try { state.receivers = (await getJSON('api/receivers')).receivers || []; } catch (_) { state.receivers = []; }
  $('receiver-filter').hidden = state.receivers.length === 0;
  const select = $('receiver');
  const options = [['', t('receivers.allCount', { count: state.receivers.length })]].concat(state.receivers.map((r) => [r.id,
    t(r.connected ? 'receivers.option' : 'receivers.optionOffline', { name: r.name || r.id, aircraft: r.aircraft, range: fmt.dist(r.max_range) })]));
  select.replaceChildren(...options.map(([value, text]) => { const o = document.createElement('option'); o.value = value; o.textContent = text; return o; }));
  if (state.receiverFilter && !state.receivers.some((r) => r.id === state.receiverFilter)) state.receiverFilter = '';
  select.value = state.receiverFilter;
}
$('receiver').addEventListener('change', (e) => { state.receiverFilter = e.target.value; refresh(); });
// The point `nm` nautical miles from `from` on initial bearing `deg` (great circle).
function destination(from, deg, nm) {
  const d = nm / 3440.065, b = deg * Math.PI / 180, la = from.lat * Math.PI / 180, lo = from.lon * Math.PI / 180;
  const lat = Math.asin(Math.sin(la) * Math.cos(d) + Math.cos(la) * Math.sin(d) * Math.cos(b));
  const lon = lo + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(la), Math.cos(d) - Math.sin(la) * Math.sin(lat));
  return { lat: lat * 180 / Math.PI, lon: lon * 180 / Math.PI };
}
function renderCoverage(c) {
  const layer = $('coverage-layer');
  layer.replaceChildren();
  const r = state.receivers.find((x) => x.id === state.receiverFilter);
  if (!c || !r || typeof r.lat !== 'number' || typeof r.lon !== 'number') return;
  const station = { lat: r.lat, lon: r.lon };
  const [sx, sy] = project(c, station.lat, station.lon);
  el('circle', { class: 'station', cx: sx.toFixed(1), cy: sy.toFixed(1), r: 5 }, layer);
  if (!r.sectors || !r.sectors.some((nm) => nm > 0)) return;
  // The farthest position per 30° sector, drawn at the sector's middle bearing.
  const points = r.sectors.map((nm, i) => { const p = destination(station, i * 30 + 15, nm); return project(c, p.lat, p.lon); });
  el('polygon', { points: points.map((p) => p.map((v) => v.toFixed(1)).join(',')).join(' ') }, layer);
}

// ---- List ----
function sortValue(a, key) {
  if (key === 'alt') return a.alt_baro === 'ground' ? 0 : a.alt_baro;
  if (key === 'flight') return (a.flight || '').trim() || undefined;
  return a[key];
}
function sorted(list) {
  const key = state.sortKey;
  const dir = state.sortDesc ? -1 : 1;
  return [...list].sort((x, y) => {
    const a = sortValue(x, key), b = sortValue(y, key);
    if (a === undefined && b === undefined) return x.hex < y.hex ? -1 : 1;
    if (a === undefined) return 1;
    if (b === undefined) return -1;
    if (a < b) return -dir;
    if (a > b) return dir;
    return x.hex < y.hex ? -1 : 1;
  });
}
document.querySelectorAll('#list th').forEach((th) => th.addEventListener('click', () => {
  const key = th.dataset.key;
  if (state.sortKey === key) state.sortDesc = !state.sortDesc; else { state.sortKey = key; state.sortDesc = false; }
  render();
}));
function cell(tr, text, numeric) {
  const td = document.createElement('td');
  td.textContent = text === undefined || text === null ? '' : String(text);
  if (numeric) td.className = 'num';
  tr.appendChild(td);
}
function renderList() {
  const body = document.querySelector('#list tbody');
  const rows = document.createDocumentFragment();
  for (const a of sorted(state.aircraft)) {
    const tr = document.createElement('tr');
    tr.dataset.hex = a.hex;
    if (a.hex === state.selected) tr.classList.add('selected');
    if (a.emergency && a.emergency !== 'none' || ['7500', '7600', '7700'].includes(a.squawk)) tr.classList.add('emergency');
    cell(tr, a.hex); cell(tr, (a.flight || '').trim()); cell(tr, a.r); cell(tr, a.t); cell(tr, a.squawk);
    cell(tr, fmt.alt(a), true); cell(tr, fmt.speed(a.gs), true);
    cell(tr, typeof a.track === 'number' ? Math.round(a.track) + '°' : '', true);
    cell(tr, fmt.dist(a.r_dst), true); cell(tr, typeof a.rssi === 'number' ? a.rssi.toFixed(1) : '', true);
    cell(tr, typeof a.seen === 'number' ? a.seen.toFixed(0) + ' s' : '', true);
    tr.addEventListener('click', () => select(a.hex));
    rows.appendChild(tr);
  }
  body.replaceChildren(rows);
  document.querySelectorAll('#list th').forEach((th) => {
    th.classList.toggle('sorted', th.dataset.key === state.sortKey);
    th.classList.toggle('desc', th.dataset.key === state.sortKey && state.sortDesc);
  });
}

// ---- Radar scope (SVG, 500 units = the selected range) ----
function centre() {
  if (state.receiver) return state.receiver;
  const placed = state.aircraft.filter((a) => typeof a.lat === 'number');
  if (!placed.length) return null;
  return { lat: placed.reduce((s, a) => s + a.lat, 0) / placed.length, lon: placed.reduce((s, a) => s + a.lon, 0) / placed.length };
}
function project(c, lat, lon) {
  const scale = 500 / state.range;
  const x = (lon - c.lon) * 60 * Math.cos(c.lat * Math.PI / 180);
  const y = (lat - c.lat) * 60;
  return [x * scale, -y * scale];
}
function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}
function renderRings() {
  const g = $('rings');
  g.replaceChildren();
  const step = state.range <= 50 ? 10 : state.range <= 100 ? 25 : 50;
  el('line', { x1: -500, y1: 0, x2: 500, y2: 0 }, g);
  el('line', { x1: 0, y1: -500, x2: 0, y2: 500 }, g);
  for (let nm = step; nm <= state.range; nm += step) {
    const r = nm * 500 / state.range;
    el('circle', { cx: 0, cy: 0, r }, g);
    const t = el('text', { x: 4, y: -r - 4 }, g);
    t.textContent = fmt.ringLabel(nm);
  }
  el('circle', { class: 'receiver', cx: 0, cy: 0, r: 5 }, g);
}
const planeShape = 'M0,-14 L3,-4 L12,2 L12,5 L3,2 L2,9 L6,12 L6,14 L0,12 L-6,14 L-6,12 L-2,9 L-3,2 L-12,5 L-12,2 L-3,-4 Z';
function renderScope() {
  renderRings();
  const trailLayer = $('trail-layer');
  const planeLayer = $('aircraft-layer');
  trailLayer.replaceChildren();
  planeLayer.replaceChildren();
  const c = centre();
  renderCoverage(c);
  renderPlacesLayer(c);
  if (!c) return;
  const shown = new Set(state.aircraft.map((a) => a.hex));
  if ($('trails').checked) {
    for (const [hex, points] of Object.entries(state.trails)) {
      if (!shown.has(hex) || points.length < 2) continue;
      el('polyline', { points: points.map((p) => project(c, p[0], p[1]).map((v) => v.toFixed(1)).join(',')).join(' ') }, trailLayer);
    }
  }
  for (const a of state.aircraft) {
    if (typeof a.lat !== 'number' || typeof a.lon !== 'number') continue;
    const [x, y] = project(c, a.lat, a.lon);
    if (Math.abs(x) > 520 || Math.abs(y) > 520) continue;
    const g = el('g', { class: 'plane', transform: `translate(${x.toFixed(1)},${y.toFixed(1)})`, 'data-hex': a.hex }, planeLayer);
    if (a.hex === state.selected) g.classList.add('selected');
    if (a.emergency && a.emergency !== 'none') g.classList.add('emergency');
    const symbol = el('path', { d: planeShape, transform: `rotate(${Math.round(a.track || 0)})` }, g);
    const title = el('title', {}, symbol);
    title.textContent = `${(a.flight || a.hex).trim()} ${fmt.alt(a)}`;
    g.addEventListener('click', () => select(a.hex));
    if ($('labels').checked) {
      const t1 = el('text', { x: 14, y: -2 }, g);
      t1.textContent = (a.flight || '').trim() || a.hex;
      const t2 = el('text', { x: 14, y: 12 }, g);
      t2.textContent = fmt.alt(a);
    }
  }
}

// ---- Details ----
function select(hex) {
  state.selected = hex;
  render();
  loadDetails(hex);
}
$('close-details').addEventListener('click', () => { state.selected = null; $('details').hidden = true; render(); });
// The fields the details panel lists, in order; each is named by the catalogue's `field.<key>`.
const detailKeys = ['hex', 'type', 'flight', 'r', 't', 'desc', 'ownOp', 'operator', 'country', 'year', 'alt_baro', 'alt_geom', 'gs',
  'ias', 'tas', 'mach', 'track', 'mag_heading', 'true_heading', 'roll', 'baro_rate', 'geom_rate', 'squawk', 'emergency', 'category',
  'nav_qnh', 'nav_altitude_mcp', 'nav_altitude_fms', 'nav_heading', 'nav_modes', 'lat', 'lon', 'r_dst', 'r_dir', 'messages', 'seen',
  'seen_pos', 'rssi', 'military'];
function detailValue(key, a) {
  const v = a[key];
  switch (key) {
    case 'alt_baro': return fmt.alt(a);
    case 'alt_geom': return state.units === 'metric' ? Math.round(v * 0.3048) + ' m' : v + ' ft';
    case 'nav_altitude_mcp': case 'nav_altitude_fms': return state.units === 'metric' ? Math.round(v * 0.3048) + ' m' : v + ' ft';
    case 'gs': case 'ias': case 'tas': return fmt.speed(v);
    case 'baro_rate': case 'geom_rate': return fmt.rate(v);
    case 'r_dst': return fmt.dist(v);
    case 'track': case 'mag_heading': case 'true_heading': case 'nav_heading': case 'r_dir': case 'roll': return v + '°';
    default: return Array.isArray(v) ? v.join(', ') : String(v);
  }
}
async function loadDetails(hex) {
  let doc;
  try { doc = await getJSON('api/aircraft/' + encodeURIComponent(hex)); } catch (err) {
    $('details-title').textContent = hex;
    $('details-sub').textContent = t('details.notInView', { error: err.message || err });
    $('details-fields').replaceChildren();
    $('details').hidden = false;
    return;
  }
  if (state.selected !== hex) return;
  const a = doc.aircraft;
  $('details').hidden = false;
  $('details-title').textContent = ((a.flight || '').trim() || a.hex) + (a.r ? ' · ' + a.r : '');
  $('details-sub').textContent = [a.desc || a.t, a.operator, a.country].filter(Boolean).join(' · ');
  const dl = document.createDocumentFragment();
  for (const key of detailKeys) {
    if (a[key] === undefined || (Array.isArray(a[key]) && !a[key].length)) continue;
    const dt = document.createElement('dt'); dt.textContent = t('field.' + key);
    const dd = document.createElement('dd'); dd.textContent = detailValue(key, a);
    dl.appendChild(dt); dl.appendChild(dd);
  }
  $('details-fields').replaceChildren(dl);
  renderProfile(doc.track || []);
  loadVisits(hex);
}

// ---- An aircraft's visits from the sighting log, and the path of one (distance, time, pace, profile) ----
async function loadVisits(hex) {
  let doc;
  try { doc = await getJSON('api/aircraft/' + encodeURIComponent(hex) + '/visits?limit=20'); } catch { $('visit-path').hidden = true; return; }
  if (state.selected !== hex) return;
  const visits = doc.visits || [];
  $('visit-path').hidden = visits.length === 0;
  const choice = $('visit-choice');
  choice.replaceChildren(...visits.map((v, i) => {
    const o = document.createElement('option');
    o.value = String(i + 1);
    o.textContent = new Date(v.firstSeen * 1000).toLocaleString() + (v.callsigns ? ' · ' + v.callsigns : '');
    return o;
  }));
  choice.onchange = () => loadVisitPath(hex, choice.value);
  if (visits.length) loadVisitPath(hex, '1');
}
async function loadVisitPath(hex, n) {
  let path;
  try { path = await getJSON('api/aircraft/' + encodeURIComponent(hex) + '/visits/' + n + '/path'); } catch (err) {
    $('visit-summary').textContent = String(err.message || err);
    return;
  }
  if (state.selected !== hex) return;
  const minutes = Math.floor(path.duration / 60), seconds = Math.round(path.duration % 60);
  $('visit-summary').textContent = [t('visits.duration', { minutes, seconds }), t('visits.flown', { distance: fmt.dist(path.distance) }),
    path.averageSpeed ? t('visits.average', { speed: fmt.speed(path.averageSpeed) }) : '',
    path.maxSpeed ? t('visits.top', { speed: fmt.speed(path.maxSpeed) }) : '']
    .filter(Boolean).join(' · ');
  const svg = $('visit-profile');
  svg.replaceChildren();
  const points = path.points.filter((p) => typeof p.altitude === 'number');
  if (points.length < 2) { const t = el('text', { x: 8, y: 60 }, svg); t.textContent = t('visits.noProfile'); return; }
  const span = Math.max(0.1, points[points.length - 1].distance);
  const maxAlt = Math.max(1000, ...points.map((p) => p.altitude));
  const xy = points.map((p) => [(p.distance / span) * 290 + 5, 115 - (p.altitude / maxAlt) * 105]);
  el('polyline', { points: xy.map((q) => q.map((v) => v.toFixed(1)).join(',')).join(' ') }, svg);
  const label = el('text', { x: 6, y: 12 }, svg);
  label.textContent = t('visits.profile', { distance: fmt.dist(span), max: fmt.alt({ alt_baro: maxAlt }) });
}
function renderProfile(track) {
  const svg = $('details-track');
  svg.replaceChildren();
  const points = track.filter((p) => typeof p.alt === 'number');
  if (points.length < 2) { const t = el('text', { x: 8, y: 60 }, svg); t.textContent = t('details.noTrack'); return; }
  const t0 = points[0].time, t1 = points[points.length - 1].time;
  const maxAlt = Math.max(1000, ...points.map((p) => p.alt));
  const xy = points.map((p) => [((p.time - t0) / Math.max(1, t1 - t0)) * 290 + 5, 115 - (p.alt / maxAlt) * 105]);
  el('polyline', { points: xy.map((q) => q.map((v) => v.toFixed(1)).join(',')).join(' ') }, svg);
  const label = el('text', { x: 6, y: 12 }, svg);
  label.textContent = t('details.profile', { seconds: Math.round(t1 - t0), max: fmt.alt({ alt_baro: maxAlt }) });
}

// ---- Render loop ----
function render() {
  const status = state.error ? t('status.error')
    : state.total !== undefined && state.total !== state.aircraft.length ? t('status.aircraftOf', { count: state.aircraft.length, total: state.total })
      : t('status.aircraft', { count: state.aircraft.length });
  $('status').textContent = status;
  $('error').hidden = !state.error;
  $('error').textContent = state.error || '';
  renderList();
  renderScope();
}
languageReady.then(loadReceiver).then(refresh);
setInterval(() => { if (!state.receiver) loadReceiver(); refresh(); }, 1000);
loadReceivers();
setInterval(loadReceivers, 5000);

// ---- Account: log in / register, tracked list, journal, statistics ----
const account = { user: null };
async function send(method, url, body) {
  const response = await fetch(url, {
    method, credentials: 'same-origin',
    headers: body ? { 'Content-Type': 'application/json', Accept: 'application/json' } : { Accept: 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  const doc = response.status === 204 ? {} : await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(doc.message || response.status + ' ' + response.statusText);
  return doc;
}
function showError(id, err) { $(id).hidden = !err; $(id).textContent = err ? String(err.message || err) : ''; }
$('account-button').addEventListener('click', () => { $('account').hidden = !$('account').hidden; if (!$('account').hidden) loadAccount(); });
$('close-account').addEventListener('click', () => { $('account').hidden = true; });
async function authenticate(path) {
  try {
    const user = await send('POST', path, { username: $('login-name').value, password: $('login-password').value });
    $('login-password').value = '';
    showError('login-error', null);
    setUser(user);
  } catch (err) { showError('login-error', err); }
}
$('login-form').addEventListener('submit', (e) => { e.preventDefault(); authenticate('api/auth/login'); });
$('register').addEventListener('click', () => authenticate('api/auth/register'));
$('logout').addEventListener('click', async () => { await send('POST', 'api/auth/logout').catch(() => {}); setUser(null); });
function setUser(user) {
  account.user = user;
  $('login-form').hidden = !!user;
  $('user-panel').hidden = !user;
  $('track-this').hidden = !user;
  $('discuss-this').hidden = !user;
  $('account-button').textContent = user ? user.username : t('account.login');
  // The social panel comes with a login.
  $('social-button').hidden = !user;
  if (!user) $('social').hidden = true;
  if (user) {
    $('user-name').textContent = user.username;
    // The account's settings win over this browser's.
    if (user.units) { state.units = user.units; $('units').value = user.units; localStorage.setItem('flytracker.units', user.units); }
    if (typeof user.darkMode === 'boolean') { applyDark(user.darkMode); localStorage.setItem('flytracker.dark', String(user.darkMode)); }
    if (user.timeFormat) $('time-format').value = user.timeFormat;
    if (user.language && user.language !== i18n.language) { localStorage.setItem('flytracker.language', user.language); setLanguage(user.language); }
    loadWatchlist();
    loadJournal();
    loadPlaces();
    render();
    pollReminders();
  } else {
    places.list = []; places.eta = []; reminders.lastId = null;
  }
}
// The account keeps the page's settings; what the server words for the user (journal, eta)
// is loaded again in the new language and units.
function saveSettings() {
  if (!account.user) return;
  send('PUT', 'api/me', { units: state.units, darkMode: $('dark').checked, timeFormat: $('time-format').value, language: i18n.language })
    .then((u) => { account.user = u; loadJournal(); loadPlaces(); }).catch(() => {});
}
$('time-format').addEventListener('change', saveSettings);
$('units').addEventListener('change', saveSettings);
$('dark').addEventListener('change', saveSettings);
async function loadAccount() {
  if (!account.user) { try { setUser(await send('GET', 'api/me')); } catch (_) { setUser(null); } }
  loadStats();
}
async function loadWatchlist() {
  let doc;
  try { doc = await send('GET', 'api/me/watchlist'); } catch (err) { showError('watch-error', err); return; }
  const list = document.createDocumentFragment();
  for (const rule of doc.rules) {
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
$('watch-form').addEventListener('submit', (e) => { e.preventDefault(); addWatch($('watch-kind').value, $('watch-value').value); $('watch-value').value = ''; });
$('track-this').addEventListener('click', () => { if (state.selected && !state.selected.startsWith('~')) addWatch('address', state.selected); });
async function loadJournal() {
  let doc;
  try { doc = await send('GET', 'api/me/journal?limit=200'); } catch (_) { return; }
  const list = document.createDocumentFragment();
  for (const e of doc.events) {
    const li = document.createElement('li');
    // `what` and `where` come in the account's language and units.
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
async function loadStats() {
  const svg = $('stats-chart');
  let doc;
  try { doc = await send('GET', 'api/stats?limit=12&by=' + encodeURIComponent($('stats-by').value)); } catch (err) {
    svg.replaceChildren(); const t = el('text', { x: 6, y: 20 }, svg); t.textContent = String(err.message || err); return;
  }
  svg.replaceChildren();
  const rows = doc.rows;
  if (!rows.length) { const t = el('text', { x: 6, y: 20 }, svg); t.textContent = t('stats.none'); return; }
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
$('stats-by').addEventListener('change', loadStats);
$('pick-random').addEventListener('click', async () => {
  let doc;
  try { doc = await send('GET', 'api/stats/random'); } catch (err) { $('random-pick').textContent = String(err.message || err); return; }
  const v = doc.visit;
  $('random-pick').textContent = v
    ? [v.callsign || v.registration || v.address.toString(16).padStart(6, '0'), v.registration, v.typeCode, v.operatorName,
       t('stats.lastHeard', { time: new Date(v.lastSeen * 1000).toLocaleString() })].filter(Boolean).join(' · ')
    : t('stats.noAircraft');
});

// ---- Places: saved places, predicted passes and landings counting down, reminders ----
const places = { list: [], eta: [], now: 0, loadedAt: 0 };
async function loadPlaces() {
  if (!account.user) return;
  try {
    places.list = (await send('GET', 'api/me/places')).places;
    const doc = await send('GET', 'api/me/eta');
    places.eta = doc.predictions;
    // The server's clock (replays run on recorded time); counted on locally between loads.
    places.now = doc.now;
    places.loadedAt = Date.now() / 1000;
  } catch (err) { showError('place-error', err); return; }
  renderPlaces();
  renderScope();
}
// "in 7 min", "at 14:32" or both, as the user chose; seconds in the last minute.
function when(time) {
  const now = places.now + (Date.now() / 1000 - places.loadedAt);
  const s = Math.max(0, time - now);
  const relative = s < 60 ? t('time.inSeconds', { n: Math.round(s) }) : t('time.inMinutes', { n: Math.round(s / 60) });
  const clock = new Date(time * 1000).toLocaleTimeString(i18n.language, { hour: '2-digit', minute: '2-digit' });
  const format = (account.user && account.user.timeFormat) || 'minutes';
  return format === 'clock' ? t('time.at', { clock }) : format === 'both' ? t('time.both', { relative, clock }) : relative;
}
function renderPlaces() {
  const list = document.createDocumentFragment();
  for (const place of places.list) {
    const li = document.createElement('li');
    li.dataset.place = place.id === null || place.id === undefined ? 'receiver' : String(place.id);
    const name = document.createElement('strong');
    name.textContent = place.name;
    li.appendChild(name);
    li.appendChild(document.createTextNode(place.airport ? ` · ${place.airport}` : ` · ${fmt.ringLabel(place.radius_nm)}`));
    const event = place.airport ? 'arrival' : 'closest';
    const remind = document.createElement('button');
    remind.type = 'button';
    remind.textContent = t('places.remind');
    remind.addEventListener('click', async () => {
      try { await send('POST', 'api/me/reminders', { place_id: place.id ?? null, event, minutes: [10, 2] }); showError('place-error', null); remind.textContent = t('places.remindersSet'); }
      catch (err) { showError('place-error', err); }
    });
    li.appendChild(remind);
    if (place.id !== null && place.id !== undefined) {
      const rename = document.createElement('button');
      rename.type = 'button';
      rename.textContent = t('common.rename');
      rename.addEventListener('click', async () => {
        const name = window.prompt(t('places.renamePrompt', { name: place.name }), place.name);
        if (!name || name === place.name) return;
        try { await send('PUT', 'api/me/places/' + place.id, { name }); showError('place-error', null); loadPlaces(); } catch (err) { showError('place-error', err); }
      });
      li.appendChild(rename);
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.textContent = t('common.remove');
      remove.addEventListener('click', async () => {
        try { await send('DELETE', 'api/me/places/' + place.id); loadPlaces(); } catch (err) { showError('place-error', err); }
      });
      li.appendChild(remove);
    }
    for (const p of places.eta.filter((e) => (e.place_id ?? null) === (place.id ?? null))) {
      const row = document.createElement('span');
      row.className = 'eta';
      row.dataset.hex = p.hex;
      row.appendChild(document.createTextNode(t(p.event === 'arrival' ? 'places.lands' : 'places.passes', { who: p.flight || p.r || p.hex }) + ' '));
      const countdown = document.createElement('span');
      countdown.className = 'countdown';
      countdown.dataset.time = String(p.time);
      countdown.textContent = when(p.time);
      row.appendChild(countdown);
      li.appendChild(row);
    }
    list.appendChild(li);
  }
  $('places').replaceChildren(list);
}
// The countdowns tick every second without a request.
setInterval(() => { for (const c of document.querySelectorAll('#places .countdown')) c.textContent = when(Number(c.dataset.time)); }, 1000);
setInterval(loadPlaces, 5000);
// On the scope: each place (a circle of its radius) and each predicted point, joined to its aircraft.
function renderPlacesLayer(c) {
  const g = $('places-layer');
  g.replaceChildren();
  if (!c || !account.user) return;
  for (const place of places.list) {
    const [x, y] = project(c, place.lat, place.lon);
    el('circle', { class: 'place', cx: x.toFixed(1), cy: y.toFixed(1), r: Math.max(4, place.radius_nm * 500 / state.range).toFixed(1) }, g);
    const t = el('text', { x: (x + 6).toFixed(1), y: (y - 6).toFixed(1) }, g);
    t.textContent = place.name;
  }
  for (const p of places.eta) {
    const [x, y] = project(c, p.lat, p.lon);
    const a = state.aircraft.find((q) => q.hex === p.hex && typeof q.lat === 'number');
    if (a) {
      const [ax, ay] = project(c, a.lat, a.lon);
      el('line', { x1: ax.toFixed(1), y1: ay.toFixed(1), x2: x.toFixed(1), y2: y.toFixed(1) }, g);
    }
    el('circle', { class: 'predicted', cx: x.toFixed(1), cy: y.toFixed(1), r: 5, 'data-hex': p.hex }, g);
  }
}
async function addPlace() {
  const where = $('place-where').value.trim();
  const name = $('place-name').value.trim();
  const m = where.match(/^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/);
  const body = m ? { lat: Number(m[1]), lon: Number(m[2]) } : /^[A-Za-z0-9]{3,4}$/.test(where) ? { airport: where } : { search: where };
  if (name) body.name = name;
  try {
    await send('POST', 'api/me/places', body);
    showError('place-error', null);
    $('place-where').value = ''; $('place-name').value = '';
    loadPlaces();
  } catch (err) {
    // A 3-4 letter word that is no airport code may still be a name.
    if (!m && body.airport) {
      try { await send('POST', 'api/me/places', name ? { search: where, name } : { search: where }); showError('place-error', null); loadPlaces(); return; } catch (_) {}
    }
    showError('place-error', err);
  }
}
$('place-form').addEventListener('submit', (e) => { e.preventDefault(); addPlace(); });

// Reminders that come due while the page is open: the journal's new `reminder` events, shown
// in a banner (click to dismiss) and, when the user allowed it, as a browser notification.
const reminders = { lastId: null };
async function pollReminders() {
  if (!account.user) return;
  let doc;
  try { doc = await send('GET', 'api/me/journal?limit=20'); } catch (_) { return; }
  const due = doc.events.filter((e) => e.kind === 'reminder');
  const newest = due.length ? due[0].id : 0;
  if (reminders.lastId === null) { reminders.lastId = newest; return; }   // what was there before this page opened
  const fresh = due.filter((e) => e.id > reminders.lastId).reverse();
  if (!fresh.length) return;
  reminders.lastId = newest;
  const text = fresh.map((e) => e.note || e.callsign || e.hex).join(' · ');
  $('reminder-banner').textContent = text;
  $('reminder-banner').hidden = false;
  if (window.Notification && Notification.permission === 'granted') new Notification('FlyTracker', { body: text });
  loadJournal();
}
$('reminder-banner').addEventListener('click', () => { $('reminder-banner').hidden = true; });
setInterval(pollReminders, 10000);
$('places').addEventListener('click', () => { if (window.Notification && Notification.permission === 'default') Notification.requestPermission(); }, { once: true });
send('GET', 'api/me').then(setUser).catch(() => setUser(null));

// ---- Social: feed, profile, friends, groups, goals, compare (all text set as text) ----
const social = { tab: 'feed', next: null };
function li(text, parent) { const e = document.createElement('li'); e.textContent = text; parent.appendChild(e); return e; }
function button(label, parent, action) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.addEventListener('click', async () => { try { await action(); showError('social-error', null); } catch (err) { showError('social-error', err); } });
  parent.appendChild(b);
  return b;
}
$('social-button').addEventListener('click', () => { $('social').hidden = !$('social').hidden; if (!$('social').hidden) showTab(social.tab); });
$('close-social').addEventListener('click', () => { $('social').hidden = true; });
for (const b of document.querySelectorAll('#social-tabs button')) b.addEventListener('click', () => showTab(b.dataset.tab));
function showTab(tab) {
  social.tab = tab;
  for (const b of document.querySelectorAll('#social-tabs button')) b.classList.toggle('active', b.dataset.tab === tab);
  for (const p of document.querySelectorAll('#social section[data-pane]')) p.hidden = p.dataset.pane !== tab;
  ({ feed: () => loadFeed(false), profile: loadProfile, friends: loadFriends, groups: loadGroups, goals: loadGoals, compare: () => {} })[tab]();
}

// Feed: pages of 50 by cursor.
function feedQuery() {
  const view = $('feed-view').value;
  $('feed-group').hidden = view !== 'group';
  return 'view=' + view + (view === 'group' ? '&group=' + encodeURIComponent($('feed-group').value) : '');
}
async function loadFeed(more) {
  let doc;
  const hex = $('feed-hex').value.trim().toLowerCase();
  const base = /^[0-9a-f]{6}$/.test(hex) ? 'api/aircraft/' + hex + '/thread?' : 'api/feed?' + feedQuery();
  try { doc = await send('GET', base + (more && social.next ? '&before=' + social.next : '')); } catch (err) { showError('social-error', err); return; }
  const list = $('feed');
  if (!more) list.replaceChildren();
  for (const p of doc.posts) {
    const item = document.createElement('li');
    item.dataset.post = String(p.id);
    const meta = document.createElement('div');
    meta.className = 'meta';
    meta.textContent = (p.automatic ? 'FlyTracker' : p.author) + ' · ' + new Date(p.created_at * 1000).toLocaleString() + (p.hex ? ' · ' + p.hex : '') + ' · ' + t('feed.comments', { count: p.comments });
    const text = document.createElement('div');
    text.className = 'text';
    text.textContent = p.text;
    item.append(meta, text);
    if (p.picture) { const img = document.createElement('img'); img.src = p.picture; img.alt = t('feed.picture'); img.className = 'post-picture'; item.appendChild(img); }
    button(t('feed.showComments'), item, () => showComments(p.id, item));
    if (account.user && p.author === account.user.username) button(t('common.delete'), item, async () => { await send('DELETE', 'api/posts/' + p.id); loadFeed(false); });
    else if (account.user) button(t('feed.report'), item, async () => { const reason = window.prompt(t('feed.reportWhy')); if (reason) await send('POST', 'api/posts/' + p.id + '/report', { reason }); });
    list.appendChild(item);
  }
  social.next = doc.next;
  $('feed-more').hidden = !doc.next;
}
async function showComments(id, item) {
  const doc = await send('GET', 'api/posts/' + id);
  const list = item.querySelector('ul.comments') || item.appendChild(document.createElement('ul'));
  list.className = 'comments';
  list.replaceChildren();
  for (const c of doc.comments) li(c.author + ': ' + c.text, list);
  const form = document.createElement('form');
  const input = document.createElement('input');
  input.placeholder = t('feed.commentPlaceholder');
  input.maxLength = 500;
  input.setAttribute('aria-label', t('feed.comment'));
  form.appendChild(input);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    try { await send('POST', 'api/posts/' + id + '/comments', { text: input.value }); showComments(id, item); } catch (err) { showError('social-error', err); }
  });
  list.appendChild(form);
}
$('feed-hex').addEventListener('change', () => loadFeed(false));
$('discuss-this').addEventListener('click', () => {
  if (!state.selected || state.selected.startsWith('~')) return;
  $('feed-hex').value = state.selected;
  $('post-hex').value = state.selected;
  $('social').hidden = false;
  showTab('feed');
});
$('feed-view').addEventListener('change', () => loadFeed(false));
$('feed-group').addEventListener('change', () => loadFeed(false));
$('feed-more').addEventListener('click', () => loadFeed(true));
$('post-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const body = { text: $('post-text').value, audience: $('post-audience').value };
  if (body.audience === 'group') body.group = $('feed-group').value;
  if ($('post-hex').value) body.hex = $('post-hex').value.toLowerCase();
  try {
    const post = await send('POST', 'api/posts', body);
    const file = $('post-picture').files[0];
    if (file) {
      const response = await fetch('api/posts/' + post.id + '/picture', { method: 'PUT', credentials: 'same-origin', body: file });
      if (!response.ok) { const doc = await response.json().catch(() => ({})); throw new Error(doc.message || response.statusText); }
    }
    $('post-text').value = '';
    $('post-picture').value = '';
    showError('social-error', null);
    loadFeed(false);
  } catch (err) { showError('social-error', err); }
});

// Profile: text, visibility per field, picture.
const profileFields = ['display_name', 'bio', 'picture', 'home', 'stats'];
async function loadProfile() {
  let p;
  try { p = await send('GET', 'api/me/profile'); } catch (err) { showError('social-error', err); return; }
  $('profile-name').value = p.display_name || '';
  $('profile-bio').value = p.bio || '';
  $('profile-picture').hidden = !p.picture;
  if (p.picture) $('profile-picture').src = p.picture;
  const box = $('profile-visibility');
  box.replaceChildren();
  for (const f of profileFields) {
    const label = document.createElement('label');
    label.textContent = t('profile.field.' + f) + ' ';
    const select = document.createElement('select');
    select.dataset.field = f;
    for (const v of ['public', 'friends', 'me']) { const o = document.createElement('option'); o.value = v; o.textContent = t('profile.visibility.' + v); select.appendChild(o); }
    select.value = p.visibility[f];
    label.appendChild(select);
    box.appendChild(label);
  }
  const stats = $('profile-stats');
  stats.replaceChildren();
  for (const [k, v] of Object.entries(p.stats || {})) {
    const dt = document.createElement('dt'); dt.textContent = t('profile.stat.' + k);
    const dd = document.createElement('dd');
    dd.textContent = v === null || v === undefined ? '—' : k.endsWith('sighting') ? new Date(v * 1000).toLocaleDateString() : k.endsWith('_nm') ? fmt.ringLabel(v) : String(v);
    stats.append(dt, dd);
  }
}
$('profile-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const visibility = {};
  for (const s of document.querySelectorAll('#profile-visibility select')) visibility[s.dataset.field] = s.value;
  try { await send('PUT', 'api/me/profile', { display_name: $('profile-name').value, bio: $('profile-bio').value, visibility }); showError('social-error', null); loadProfile(); }
  catch (err) { showError('social-error', err); }
});
$('profile-upload').addEventListener('change', async () => {
  const file = $('profile-upload').files[0];
  if (!file) return;
  const response = await fetch('api/me/profile/picture', { method: 'PUT', credentials: 'same-origin', body: file });
  if (!response.ok) { const doc = await response.json().catch(() => ({})); showError('social-error', doc.message || response.statusText); return; }
  showError('social-error', null);
  loadProfile();
});

// Friends and blocks.
async function loadFriends() {
  let doc;
  try { doc = await send('GET', 'api/me/friends'); } catch (err) { showError('social-error', err); return; }
  const fill = (id, names, actions) => {
    const list = $(id);
    list.replaceChildren();
    for (const n of names) { const item = li(n, list); for (const [label, act] of actions(n)) button(label, item, async () => { await act(); loadFriends(); }); }
  };
  const name = (n) => encodeURIComponent(n);
  fill('friends', doc.friends, (n) => [[t('common.remove'), () => send('DELETE', 'api/me/friends/' + name(n))], [t('friends.compare'), async () => { $('compare-with').value = n; showTab('compare'); }]]);
  fill('friends-incoming', doc.incoming, (n) => [[t('friends.accept'), () => send('POST', 'api/me/friends/' + name(n) + '/accept')], [t('friends.decline'), () => send('DELETE', 'api/me/friends/' + name(n))]]);
  fill('friends-outgoing', doc.outgoing, (n) => [[t('friends.withdraw'), () => send('DELETE', 'api/me/friends/' + name(n))]]);
  fill('friends-blocked', doc.blocked, (n) => [[t('friends.unblock'), () => send('DELETE', 'api/me/blocks/' + name(n))]]);
}
$('friend-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  try { await send('POST', 'api/me/friends', { username: $('friend-name').value }); $('friend-name').value = ''; showError('social-error', null); loadFriends(); } catch (err) { showError('social-error', err); }
});
$('block-button').addEventListener('click', async () => {
  try { await send('POST', 'api/me/blocks', { username: $('friend-name').value }); $('friend-name').value = ''; showError('social-error', null); loadFriends(); } catch (err) { showError('social-error', err); }
});

// Groups and a group's page.
async function loadGroups() {
  let doc;
  try { doc = await send('GET', 'api/me/groups'); } catch (err) { showError('social-error', err); return; }
  const list = $('groups');
  list.replaceChildren();
  for (const g of doc.groups) {
    const item = li(g.name + ' · ' + t('groups.role.' + g.role), list);
    const gn = encodeURIComponent(g.name);
    if (g.role === 'invited') button(t('groups.join'), item, async () => { await send('POST', 'api/groups/' + gn + '/join'); loadGroups(); });
    else button(t('groups.show'), item, () => showGroup(g.name));
    button(g.role === 'invited' ? t('friends.decline') : t('groups.leave'), item, async () => { await send('POST', 'api/groups/' + gn + '/leave'); loadGroups(); });
  }
}
async function showGroup(name) {
  const g = await send('GET', 'api/groups/' + encodeURIComponent(name));
  const page = $('group-page');
  page.replaceChildren();
  const h = document.createElement('h3'); h.textContent = g.name + (g.description ? ' — ' + g.description : ''); page.appendChild(h);
  const members = document.createElement('ul'); for (const m of g.members || []) li(m.username + ' (' + t('groups.role.' + m.role) + ')', members); page.appendChild(members);
  const rules = document.createElement('ul'); for (const r of (g.watchlist || { rules: [] }).rules) li(t('groups.tracks', { kind: t('watch.' + r.kind), value: r.value }), rules); page.appendChild(rules);
  const seen = document.createElement('ol'); for (const e of (g.sightings || { events: [] }).events) li(new Date(e.time * 1000).toLocaleString() + ' · ' + (e.callsign || e.registration || e.hex) + ' · ' + (e.type || ''), seen); page.appendChild(seen);
}
$('group-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  try { await send('POST', 'api/groups', { name: $('group-name').value, open: $('group-open').checked }); showError('social-error', null); loadGroups(); } catch (err) { showError('social-error', err); }
});
$('group-join').addEventListener('click', async () => {
  try { await send('POST', 'api/groups/' + encodeURIComponent($('group-name').value) + '/join'); showError('social-error', null); loadGroups(); } catch (err) { showError('social-error', err); }
});

// Goals with progress bars.
async function loadGoals() {
  let doc;
  try { doc = await send('GET', 'api/me/goals'); } catch (err) { showError('social-error', err); return; }
  const list = $('goals');
  list.replaceChildren();
  for (const g of doc.goals) {
    const item = li(g.name + (g.group ? ' (' + g.group + ')' : ''), list);
    const bar = document.createElement('span'); bar.className = 'progress';
    const fill = document.createElement('span'); fill.style.width = Math.min(100, 100 * g.progress / g.target).toFixed(0) + '%';
    bar.appendChild(fill);
    item.appendChild(bar);
    item.appendChild(document.createTextNode(g.progress + '/' + g.target + (g.completed_at ? ' ✓ ' + new Date(g.completed_at * 1000).toLocaleDateString() + ' (' + g.completed_by + ')' : '')));
    if (!g.group) button(t('common.remove'), item, async () => { await send('DELETE', 'api/me/goals/' + g.id); loadGoals(); });
  }
}
$('goal-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const body = { name: $('goal-name').value, kind: $('goal-kind').value, target: Number($('goal-target').value), period: $('goal-period').value };
  if (body.kind === 'type_aircraft') body.type = $('goal-type').value;
  if (body.kind === 'beyond') body.distance_nm = Number($('goal-distance').value);
  try { await send('POST', 'api/me/goals', body); showError('social-error', null); loadGoals(); } catch (err) { showError('social-error', err); }
});

// Compare: aircraft per type, mine and theirs, as paired bars.
$('compare-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const who = $('compare-with').value;
  const q = who.startsWith('group:') ? 'group=' + encodeURIComponent(who.slice(6)) : 'with=' + encodeURIComponent(who);
  let doc;
  try { doc = await send('GET', 'api/compare?' + q + '&period=' + $('compare-period').value); showError('social-error', null); } catch (err) { showError('social-error', err); return; }
  const svg = $('compare-chart');
  svg.replaceChildren();
  const head = el('text', { x: 4, y: 12 }, svg);
  const side = (s) => t('compare.side', { name: s.name, aircraft: s.aircraft, types: s.types })
    + (s.longest_distance_nm ? t('compare.farthest', { distance: fmt.ringLabel(s.longest_distance_nm) }) : '');
  head.textContent = side(doc.me) + ' · ' + side(doc.other);
  const types = [...new Set([...doc.me.per_type, ...doc.other.per_type].map((t) => t.type))].slice(0, 10);
  const count = (side, t) => (side.per_type.find((x) => x.type === t) || { aircraft: 0 }).aircraft;
  const max = Math.max(1, ...types.flatMap((t) => [count(doc.me, t), count(doc.other, t)]));
  types.forEach((t, i) => {
    const y = 24 + i * 19;
    const label = el('text', { x: 2, y: y + 10 }, svg); label.textContent = t;
    el('rect', { class: 'me', x: 50, y, width: (count(doc.me, t) / max * 250).toFixed(1), height: 8 }, svg);
    el('rect', { class: 'other', x: 50, y: y + 8, width: (count(doc.other, t) / max * 250).toFixed(1), height: 8 }, svg);
  });
});
