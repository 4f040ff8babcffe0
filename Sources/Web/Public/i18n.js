// Language: the message catalogue of the chosen language (api/languages/{code}); English fills
// what a catalogue lacks. Texts are templates: t('status.aircraft', { count: 3 }).
import { getJSON } from './api.js';
import { $, options } from './dom.js';

let language = 'en';
let texts = {};
let english = {};
let languages = [{ code: 'en', name: 'English' }];
const listeners = [];

export function t(key, params) {
  const template = texts[key] ?? english[key] ?? key;
  return params ? template.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m)) : template;
}

export function currentLanguage() { return language; }

// Called after every change of language, to draw again what was drawn from data.
export function onLanguageChange(listener) { listeners.push(listener); }

// The static texts of index.html: data-i18n (text) and data-i18n-placeholder/-aria-label/-alt.
function translatePage() {
  document.documentElement.lang = language;
  for (const e of document.querySelectorAll('[data-i18n]')) e.textContent = t(e.dataset.i18n);
  for (const attr of ['placeholder', 'aria-label', 'alt']) {
    for (const e of document.querySelectorAll(`[data-i18n-${attr}]`)) e.setAttribute(attr, t(e.getAttribute(`data-i18n-${attr}`)));
  }
}

async function catalogue(code) { return (await getJSON('api/languages/' + encodeURIComponent(code))).messages; }

export async function setLanguage(code) {
  if (!languages.some((l) => l.code === code)) code = 'en';
  if (code === language && Object.keys(texts).length) return;
  try {
    if (!Object.keys(english).length) english = await catalogue('en');
    texts = code === 'en' ? english : await catalogue(code);
    language = code;
  } catch (_) { texts = english; language = 'en'; }
  $('language').value = language;
  translatePage();
  for (const listener of listeners) listener();
}

// The first language: this browser's last choice, else the first of its languages we have.
export async function initLanguage() {
  try { languages = (await getJSON('api/languages')).languages; } catch (_) { /* English only */ }
  options($('language'), languages.map((l) => [l.code, l.name]));
  const codes = languages.map((l) => l.code);
  const wanted = [localStorage.getItem('flytracker.language'), ...(navigator.languages || [])].filter(Boolean)
    .map((c) => (codes.includes(c) ? c : codes.find((k) => k === c.split('-')[0].toLowerCase()))).find(Boolean);
  await setLanguage(wanted || 'en');
}
