// The logged-in user (null when logged out), for the parts of the page that depend on it.
let user = null;
const listeners = [];

export function currentUser() { return user; }
export function onUserChange(listener) { listeners.push(listener); }
// `changed` false: the same user with new settings (no panels reloaded).
export function setCurrentUser(value, changed = true) {
  user = value;
  if (changed) for (const listener of listeners) listener(user);
}
