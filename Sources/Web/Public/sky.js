// The live sky: the aircraft list, the radar scope, an aircraft's details and visits, and an
// aggregator's receivers. Its state is this module's own; other parts read it through the
// exported functions and draw on the scope through `addScopeLayer`.
import { getJSON } from './api.js';
import { $, el, options } from './dom.js';
import { onLanguageChange, t } from './i18n.js';
import { fmt, onUnitsChange } from './units.js';

const view = {
  aircraft: [], total: undefined, trails: {}, receiver: null, selected: null, sortKey: 'r_dst', sortDesc: false,
  range: Number(localStorage.getItem('flytracker.range') || 100),
  query: '', error: null,
  // An aggregator's receivers (api/receivers) and the one the view is limited to ('' = all).
  receivers: [], receiverFilter: '',
};
const layers = [];

export function selectedHex() { return view.selected; }
// Draws on the scope after the aircraft: `draw(centre, { project, range, aircraft, layer })`.
export function addScopeLayer(draw) { layers.push(draw); }

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

// ---- Data ----
export async function refresh() {
  const { params, words } = parseSearch(view.query);
  try {
    if (view.receiverFilter) params.set('receiver', view.receiverFilter);
    const [list, trails] = await Promise.all([
      getJSON('api/aircraft' + (params.toString() ? '?' + params : '')),
      $('trails').checked ? getJSON('api/trails') : Promise.resolve({ trails: {} }),
    ]);
    view.aircraft = list.aircraft.filter((a) => matchesWords(a, words));
    view.total = list.total;
    view.trails = trails.trails || {};
    view.error = null;
  } catch (err) {
    view.error = String(err.message || err);
  }
  render();
  if (view.selected) loadDetails(view.selected);
}
async function loadReceiver() {
  try {
    const r = await getJSON('data/receiver.json');
    if (typeof r.lat === 'number' && typeof r.lon === 'number') view.receiver = { lat: r.lat, lon: r.lon };
  } catch (_) { /* keep trying with the next refresh */ }
}

// ---- Receivers of a network (an aggregator): filter and coverage outline ----
async function loadReceivers() {
  try { view.receivers = (await getJSON('api/receivers')).receivers || []; } catch (_) { view.receivers = []; }
  $('receiver-filter').hidden = view.receivers.length === 0;
  renderReceivers();
}
function renderReceivers() {
  const select = $('receiver');
  options(select, [['', t('receivers.allCount', { count: view.receivers.length })]].concat(view.receivers.map((r) => [r.id,
    t(r.connected ? 'receivers.option' : 'receivers.optionOffline', { name: r.name || r.id, aircraft: r.aircraft, range: fmt.dist(r.max_range) })])));
  if (view.receiverFilter && !view.receivers.some((r) => r.id === view.receiverFilter)) view.receiverFilter = '';
  select.value = view.receiverFilter;
}
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
  const r = view.receivers.find((x) => x.id === view.receiverFilter);
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
  const key = view.sortKey;
  const dir = view.sortDesc ? -1 : 1;
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
function cell(tr, text, numeric) {
  const td = document.createElement('td');
  td.textContent = text === undefined || text === null ? '' : String(text);
  if (numeric) td.className = 'num';
  tr.appendChild(td);
}
function renderList() {
  const body = document.querySelector('#list tbody');
  const rows = document.createDocumentFragment();
  for (const a of sorted(view.aircraft)) {
    const tr = document.createElement('tr');
    tr.dataset.hex = a.hex;
    if (a.hex === view.selected) tr.classList.add('selected');
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
    th.classList.toggle('sorted', th.dataset.key === view.sortKey);
    th.classList.toggle('desc', th.dataset.key === view.sortKey && view.sortDesc);
  });
}

// ---- Radar scope (SVG, 500 units = the selected range) ----
// The scope's centre: the receiver, else the middle of the aircraft with positions.
export function centre() {
  if (view.receiver) return view.receiver;
  const placed = view.aircraft.filter((a) => typeof a.lat === 'number');
  if (!placed.length) return null;
  return { lat: placed.reduce((s, a) => s + a.lat, 0) / placed.length, lon: placed.reduce((s, a) => s + a.lon, 0) / placed.length };
}
function project(c, lat, lon) {
  const scale = 500 / view.range;
  const x = (lon - c.lon) * 60 * Math.cos(c.lat * Math.PI / 180);
  const y = (lat - c.lat) * 60;
  return [x * scale, -y * scale];
}
function renderRings() {
  const g = $('rings');
  g.replaceChildren();
  const step = view.range <= 50 ? 10 : view.range <= 100 ? 25 : 50;
  el('line', { x1: -500, y1: 0, x2: 500, y2: 0 }, g);
  el('line', { x1: 0, y1: -500, x2: 0, y2: 500 }, g);
  for (let nm = step; nm <= view.range; nm += step) {
    const r = nm * 500 / view.range;
    el('circle', { cx: 0, cy: 0, r }, g);
    const label = el('text', { x: 4, y: -r - 4 }, g);
    label.textContent = fmt.ringLabel(nm);
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
  const layerView = { project: (lat, lon) => project(c, lat, lon), range: view.range, aircraft: view.aircraft };
  for (const draw of layers) draw(c, layerView);
  if (!c) return;
  const shown = new Set(view.aircraft.map((a) => a.hex));
  if ($('trails').checked) {
    for (const [hex, points] of Object.entries(view.trails)) {
      if (!shown.has(hex) || points.length < 2) continue;
      el('polyline', { points: points.map((p) => project(c, p[0], p[1]).map((v) => v.toFixed(1)).join(',')).join(' ') }, trailLayer);
    }
  }
  for (const a of view.aircraft) {
    if (typeof a.lat !== 'number' || typeof a.lon !== 'number') continue;
    const [x, y] = project(c, a.lat, a.lon);
    if (Math.abs(x) > 520 || Math.abs(y) > 520) continue;
    const g = el('g', { class: 'plane', transform: `translate(${x.toFixed(1)},${y.toFixed(1)})`, 'data-hex': a.hex }, planeLayer);
    if (a.hex === view.selected) g.classList.add('selected');
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
  view.selected = hex;
  render();
  loadDetails(hex);
}
// The fields the details panel lists, in order; each is named by the catalogue's `field.<key>`.
const detailKeys = ['hex', 'type', 'flight', 'r', 't', 'desc', 'ownOp', 'operator', 'country', 'year', 'alt_baro', 'alt_geom', 'gs',
  'ias', 'tas', 'mach', 'track', 'mag_heading', 'true_heading', 'roll', 'baro_rate', 'geom_rate', 'squawk', 'emergency', 'category',
  'nav_qnh', 'nav_altitude_mcp', 'nav_altitude_fms', 'nav_heading', 'nav_modes', 'lat', 'lon', 'r_dst', 'r_dir', 'messages', 'seen',
  'seen_pos', 'rssi', 'military'];
function detailValue(key, a) {
  const v = a[key];
  switch (key) {
    case 'alt_baro': return fmt.alt(a);
    case 'alt_geom': case 'nav_altitude_mcp': case 'nav_altitude_fms': return fmt.feet(v);
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
  if (view.selected !== hex) return;
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
  if (view.selected !== hex) return;
  const visits = doc.visits || [];
  $('visit-path').hidden = visits.length === 0;
  const choice = $('visit-choice');
  const chosen = choice.value;
  options(choice, visits.map((v, i) => [String(i + 1),
    new Date(v.firstSeen * 1000).toLocaleString() + (v.callsigns ? ' · ' + v.callsigns : '')]));
  if (chosen && visits.length >= Number(chosen)) choice.value = chosen;
  choice.onchange = () => loadVisitPath(hex, choice.value);
  if (visits.length) loadVisitPath(hex, choice.value || '1');
}
async function loadVisitPath(hex, n) {
  let path;
  try { path = await getJSON('api/aircraft/' + encodeURIComponent(hex) + '/visits/' + n + '/path'); } catch (err) {
    $('visit-summary').textContent = String(err.message || err);
    return;
  }
  if (view.selected !== hex) return;
  const minutes = Math.floor(path.duration / 60), seconds = Math.round(path.duration % 60);
  $('visit-summary').textContent = [t('visits.duration', { minutes, seconds }), t('visits.flown', { distance: fmt.dist(path.distance) }),
    path.averageSpeed ? t('visits.average', { speed: fmt.speed(path.averageSpeed) }) : '',
    path.maxSpeed ? t('visits.top', { speed: fmt.speed(path.maxSpeed) }) : '']
    .filter(Boolean).join(' · ');
  const svg = $('visit-profile');
  svg.replaceChildren();
  const points = path.points.filter((p) => typeof p.altitude === 'number');
  if (points.length < 2) { const label = el('text', { x: 8, y: 60 }, svg); label.textContent = t('visits.noProfile'); return; }
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
  if (points.length < 2) { const label = el('text', { x: 8, y: 60 }, svg); label.textContent = t('details.noTrack'); return; }
  const t0 = points[0].time, t1 = points[points.length - 1].time;
  const maxAlt = Math.max(1000, ...points.map((p) => p.alt));
  const xy = points.map((p) => [((p.time - t0) / Math.max(1, t1 - t0)) * 290 + 5, 115 - (p.alt / maxAlt) * 105]);
  el('polyline', { points: xy.map((q) => q.map((v) => v.toFixed(1)).join(',')).join(' ') }, svg);
  const label = el('text', { x: 6, y: 12 }, svg);
  label.textContent = t('details.profile', { seconds: Math.round(t1 - t0), max: fmt.alt({ alt_baro: maxAlt }) });
}

// ---- Render loop ----
export function render() {
  $('status').textContent = view.error ? t('status.error')
    : view.total !== undefined && view.total !== view.aircraft.length ? t('status.aircraftOf', { count: view.aircraft.length, total: view.total })
      : t('status.aircraft', { count: view.aircraft.length });
  $('error').hidden = !view.error;
  $('error').textContent = view.error || '';
  renderList();
  renderScope();
}

// Wires the controls and starts the refreshes (every second; the receivers every 5 s).
export function startSky() {
  let searchTimer = null;
  $('search').addEventListener('input', (e) => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => { view.query = e.target.value; refresh(); }, 250);
  });
  $('range').value = String(view.range);
  $('range').addEventListener('change', (e) => { view.range = Number(e.target.value); localStorage.setItem('flytracker.range', e.target.value); render(); });
  $('labels').addEventListener('change', render);
  $('trails').addEventListener('change', render);
  $('receiver').addEventListener('change', (e) => { view.receiverFilter = e.target.value; refresh(); });
  document.querySelectorAll('#list th').forEach((th) => th.addEventListener('click', () => {
    const key = th.dataset.key;
    if (view.sortKey === key) view.sortDesc = !view.sortDesc; else { view.sortKey = key; view.sortDesc = false; }
    render();
  }));
  $('close-details').addEventListener('click', () => { view.selected = null; $('details').hidden = true; render(); });
  const redraw = () => { render(); renderReceivers(); if (view.selected) loadDetails(view.selected); };
  onLanguageChange(redraw);
  onUnitsChange(redraw);
  loadReceiver().then(refresh);
  setInterval(() => { if (!view.receiver) loadReceiver(); refresh(); }, 1000);
  loadReceivers();
  setInterval(loadReceivers, 5000);
}
