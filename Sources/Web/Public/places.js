// Places: saved places, predicted passes and landings counting down, reminders (a banner and,
// when allowed, a browser notification), and each place and predicted point on the scope.
import { send } from './api.js';
import { $, el, showError } from './dom.js';
import { currentLanguage, onLanguageChange, t } from './i18n.js';
import { currentUser, onUserChange } from './session.js';
import { addScopeLayer, render } from './sky.js';
import { fmt, onUnitsChange } from './units.js';

let places = [];
let eta = [];
// The server's clock (replays run on recorded time); counted on locally between loads.
let serverNow = 0;
let loadedAt = 0;
let lastReminder = null;

async function loadPlaces() {
  if (!currentUser()) return;
  try {
    places = (await send('GET', 'api/me/places')).places;
    const doc = await send('GET', 'api/me/eta');
    eta = doc.predictions;
    serverNow = doc.now;
    loadedAt = Date.now() / 1000;
  } catch (err) { showError('place-error', err); return; }
  renderPlaces();
  render();
}
// "in 7 min", "at 14:32" or both, as the user chose; seconds in the last minute.
function when(time) {
  const now = serverNow + (Date.now() / 1000 - loadedAt);
  const s = Math.max(0, time - now);
  const relative = s < 60 ? t('time.inSeconds', { n: Math.round(s) }) : t('time.inMinutes', { n: Math.round(s / 60) });
  const clock = new Date(time * 1000).toLocaleTimeString(currentLanguage(), { hour: '2-digit', minute: '2-digit' });
  const format = $('time-format').value || 'minutes';   // the account's choice, set at log-in
  return format === 'clock' ? t('time.at', { clock }) : format === 'both' ? t('time.both', { relative, clock }) : relative;
}
function renderPlaces() {
  const list = document.createDocumentFragment();
  for (const place of places) {
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
    for (const p of eta.filter((e) => (e.place_id ?? null) === (place.id ?? null))) {
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
// On the scope: each place (a circle of its radius) and each predicted point, joined to its aircraft.
function drawPlaces(c, scope) {
  const g = $('places-layer');
  g.replaceChildren();
  if (!c || !currentUser()) return;
  for (const place of places) {
    const [x, y] = scope.project(place.lat, place.lon);
    el('circle', { class: 'place', cx: x.toFixed(1), cy: y.toFixed(1), r: Math.max(4, place.radius_nm * 500 / scope.range).toFixed(1) }, g);
    const label = el('text', { x: (x + 6).toFixed(1), y: (y - 6).toFixed(1) }, g);
    label.textContent = place.name;
  }
  for (const p of eta) {
    const [x, y] = scope.project(p.lat, p.lon);
    const a = scope.aircraft.find((q) => q.hex === p.hex && typeof q.lat === 'number');
    if (a) {
      const [ax, ay] = scope.project(a.lat, a.lon);
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

// Reminders that come due while the page is open: the journal's new `reminder` events.
async function pollReminders() {
  if (!currentUser()) return;
  let doc;
  try { doc = await send('GET', 'api/me/journal?limit=20'); } catch (_) { return; }
  const due = doc.events.filter((e) => e.kind === 'reminder');
  const newest = due.length ? due[0].id : 0;
  if (lastReminder === null) { lastReminder = newest; return; }   // what was there before this page opened
  const fresh = due.filter((e) => e.id > lastReminder).reverse();
  if (!fresh.length) return;
  lastReminder = newest;
  const text = fresh.map((e) => e.note || e.callsign || e.hex).join(' · ');
  $('reminder-banner').textContent = text;
  $('reminder-banner').hidden = false;
  if (window.Notification && Notification.permission === 'granted') new Notification('FlyTracker', { body: text });
}

export function startPlaces() {
  addScopeLayer(drawPlaces);
  onUserChange((user) => {
    if (user) { loadPlaces(); pollReminders(); } else { places = []; eta = []; lastReminder = null; }
  });
  onLanguageChange(renderPlaces);   // the texts are the page's own: nothing to fetch again
  onUnitsChange(renderPlaces);
  $('time-format').addEventListener('change', renderPlaces);
  $('place-form').addEventListener('submit', (e) => { e.preventDefault(); addPlace(); });
  $('reminder-banner').addEventListener('click', () => { $('reminder-banner').hidden = true; });
  $('places').addEventListener('click', () => { if (window.Notification && Notification.permission === 'default') Notification.requestPermission(); }, { once: true });
  // The countdowns tick every second without a request.
  setInterval(() => { for (const c of document.querySelectorAll('#places .countdown')) c.textContent = when(Number(c.dataset.time)); }, 1000);
  setInterval(loadPlaces, 5000);
  setInterval(pollReminders, 10000);
}
