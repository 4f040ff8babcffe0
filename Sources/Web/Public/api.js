// The JSON API: GET and the methods that change something (JSON bodies, the session cookie).
export async function getJSON(url) {
  const response = await fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.message || response.status + ' ' + response.statusText);
  return body;
}

export async function send(method, url, body) {
  const response = await fetch(url, {
    method, credentials: 'same-origin',
    headers: body ? { 'Content-Type': 'application/json', Accept: 'application/json' } : { Accept: 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  const doc = response.status === 204 ? {} : await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(doc.message || response.status + ' ' + response.statusText);
  return doc;
}

// A file PUT as the request body (pictures); the server's message on failure.
export async function putFile(url, file) {
  const response = await fetch(url, { method: 'PUT', credentials: 'same-origin', body: file });
  if (!response.ok) { const doc = await response.json().catch(() => ({})); throw new Error(doc.message || response.statusText); }
}
