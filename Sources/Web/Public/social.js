// The social panel: feed of posts, profile, friends, groups, goals, compare (all text set as text).
import { putFile, send } from './api.js';
import { $, button as errorButton, el, li, showError } from './dom.js';
import { onLanguageChange, t } from './i18n.js';
import { currentUser, onUserChange } from './session.js';
import { selectedHex } from './sky.js';
import { fmt } from './units.js';

let tab = 'feed';
let next = null;
const button = (label, parent, action) => errorButton(label, parent, action, 'social-error');

function showTab(name) {
  tab = name;
  for (const b of document.querySelectorAll('#social-tabs button')) b.classList.toggle('active', b.dataset.tab === name);
  for (const p of document.querySelectorAll('#social section[data-pane]')) p.hidden = p.dataset.pane !== name;
  ({ feed: () => loadPosts(false), profile: loadProfile, friends: loadFriends, groups: loadGroups, goals: loadGoals, compare: () => {} })[name]();
}

// ---- Posts: pages of 50 by cursor ----
function postsQuery() {
  const which = $('feed-view').value;
  $('feed-group').hidden = which !== 'group';
  return 'view=' + which + (which === 'group' ? '&group=' + encodeURIComponent($('feed-group').value) : '');
}
async function loadPosts(more) {
  let doc;
  const hex = $('feed-hex').value.trim().toLowerCase();
  const base = /^[0-9a-f]{6}$/.test(hex) ? 'api/aircraft/' + hex + '/thread?' : 'api/feed?' + postsQuery();
  try { doc = await send('GET', base + (more && next ? '&before=' + next : '')); } catch (err) { showError('social-error', err); return; }
  const list = $('feed');
  if (!more) list.replaceChildren();
  const user = currentUser();
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
    if (user && p.author === user.username) button(t('common.delete'), item, async () => { await send('DELETE', 'api/posts/' + p.id); loadPosts(false); });
    else if (user) button(t('feed.report'), item, async () => { const reason = window.prompt(t('feed.reportWhy')); if (reason) await send('POST', 'api/posts/' + p.id + '/report', { reason }); });
    list.appendChild(item);
  }
  next = doc.next;
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
async function addPost() {
  const body = { text: $('post-text').value, audience: $('post-audience').value };
  if (body.audience === 'group') body.group = $('feed-group').value;
  if ($('post-hex').value) body.hex = $('post-hex').value.toLowerCase();
  try {
    const post = await send('POST', 'api/posts', body);
    const file = $('post-picture').files[0];
    if (file) await putFile('api/posts/' + post.id + '/picture', file);
    $('post-text').value = '';
    $('post-picture').value = '';
    showError('social-error', null);
    loadPosts(false);
  } catch (err) { showError('social-error', err); }
}

// ---- Profile: text, visibility per field, picture ----
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
async function saveProfile() {
  const visibility = {};
  for (const s of document.querySelectorAll('#profile-visibility select')) visibility[s.dataset.field] = s.value;
  try { await send('PUT', 'api/me/profile', { display_name: $('profile-name').value, bio: $('profile-bio').value, visibility }); showError('social-error', null); loadProfile(); }
  catch (err) { showError('social-error', err); }
}
async function uploadPicture() {
  const file = $('profile-upload').files[0];
  if (!file) return;
  try { await putFile('api/me/profile/picture', file); } catch (err) { showError('social-error', err); return; }
  showError('social-error', null);
  loadProfile();
}

// ---- Friends and blocks ----
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
async function friendAction(path) {
  try { await send('POST', path, { username: $('friend-name').value }); $('friend-name').value = ''; showError('social-error', null); loadFriends(); } catch (err) { showError('social-error', err); }
}

// ---- Groups and a group's page ----
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
async function groupAction(path, body) {
  try { await send('POST', path, body); showError('social-error', null); loadGroups(); } catch (err) { showError('social-error', err); }
}

// ---- Goals with progress bars ----
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
async function addGoal() {
  const body = { name: $('goal-name').value, kind: $('goal-kind').value, target: Number($('goal-target').value), period: $('goal-period').value };
  if (body.kind === 'type_aircraft') body.type = $('goal-type').value;
  if (body.kind === 'beyond') body.distance_nm = Number($('goal-distance').value);
  try { await send('POST', 'api/me/goals', body); showError('social-error', null); loadGoals(); } catch (err) { showError('social-error', err); }
}

// ---- Compare: aircraft per type, mine and theirs, as paired bars ----
async function compare() {
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
  const types = [...new Set([...doc.me.per_type, ...doc.other.per_type].map((x) => x.type))].slice(0, 10);
  const count = (s, type) => (s.per_type.find((x) => x.type === type) || { aircraft: 0 }).aircraft;
  const max = Math.max(1, ...types.flatMap((type) => [count(doc.me, type), count(doc.other, type)]));
  types.forEach((type, i) => {
    const y = 24 + i * 19;
    const label = el('text', { x: 2, y: y + 10 }, svg); label.textContent = type;
    el('rect', { class: 'me', x: 50, y, width: (count(doc.me, type) / max * 250).toFixed(1), height: 8 }, svg);
    el('rect', { class: 'other', x: 50, y: y + 8, width: (count(doc.other, type) / max * 250).toFixed(1), height: 8 }, svg);
  });
}

export function startSocial() {
  // The social panel comes with a login.
  onUserChange((user) => { $('social-button').hidden = !user; if (!user) $('social').hidden = true; });
  onLanguageChange(() => { if (!$('social').hidden) showTab(tab); });
  $('social-button').addEventListener('click', () => { $('social').hidden = !$('social').hidden; if (!$('social').hidden) showTab(tab); });
  $('close-social').addEventListener('click', () => { $('social').hidden = true; });
  for (const b of document.querySelectorAll('#social-tabs button')) b.addEventListener('click', () => showTab(b.dataset.tab));
  $('feed-hex').addEventListener('change', () => loadPosts(false));
  $('discuss-this').addEventListener('click', () => {
    const hex = selectedHex();
    if (!hex || hex.startsWith('~')) return;
    $('feed-hex').value = hex;
    $('post-hex').value = hex;
    $('social').hidden = false;
    showTab('feed');
  });
  $('feed-view').addEventListener('change', () => loadPosts(false));
  $('feed-group').addEventListener('change', () => loadPosts(false));
  $('feed-more').addEventListener('click', () => loadPosts(true));
  $('post-form').addEventListener('submit', (e) => { e.preventDefault(); addPost(); });
  $('profile-form').addEventListener('submit', (e) => { e.preventDefault(); saveProfile(); });
  $('profile-upload').addEventListener('change', uploadPicture);
  $('friend-form').addEventListener('submit', (e) => { e.preventDefault(); friendAction('api/me/friends'); });
  $('block-button').addEventListener('click', () => friendAction('api/me/blocks'));
  $('group-form').addEventListener('submit', (e) => { e.preventDefault(); groupAction('api/groups', { name: $('group-name').value, open: $('group-open').checked }); });
  $('group-join').addEventListener('click', () => groupAction('api/groups/' + encodeURIComponent($('group-name').value) + '/join'));
  $('goal-form').addEventListener('submit', (e) => { e.preventDefault(); addGoal(); });
  $('compare-form').addEventListener('submit', (e) => { e.preventDefault(); compare(); });
}
