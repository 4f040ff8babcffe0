// FlyTracker web page, the entry module: each part of the page is a module with its own state
// (no shared mutable global); they meet through the functions they export. No external resources.
import { startAccount } from './account.js';
import { initLanguage } from './i18n.js';
import { startPlaces } from './places.js';
import { startSky } from './sky.js';
import { startSocial } from './social.js';

// Every part subscribes to the session and the language before the first of either arrives.
startPlaces();
startSocial();
initLanguage().then(() => {
  startSky();
  startAccount();
});
