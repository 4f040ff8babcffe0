// Small DOM helpers every part of the page uses. All text is set as text, never as HTML.
const SVG = 'http://www.w3.org/2000/svg';

export const $ = (id) => document.getElementById(id);

// An SVG element with attributes, appended to `parent` when given.
export function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// Shows an error (or hides the element when `err` is null).
export function showError(id, err) { $(id).hidden = !err; $(id).textContent = err ? String(err.message || err) : ''; }

export function li(text, parent) { const e = document.createElement('li'); e.textContent = text; parent.appendChild(e); return e; }

// A button whose action's failure is shown in `errorId`.
export function button(label, parent, action, errorId) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.addEventListener('click', async () => { try { await action(); showError(errorId, null); } catch (err) { showError(errorId, err); } });
  parent.appendChild(b);
  return b;
}

// Options of a <select>: [[value, text], ...].
export function options(select, pairs) {
  select.replaceChildren(...pairs.map(([value, text]) => { const o = document.createElement('option'); o.value = value; o.textContent = text; return o; }));
}
