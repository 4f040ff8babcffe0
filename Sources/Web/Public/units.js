// Units of the page (aeronautical, metric, imperial), kept in localStorage and in the account.
// The API's numbers are NM, ft, kt and ft/min; these convert only for reading.
import { $ } from './dom.js';
import { t } from './i18n.js';

let units = localStorage.getItem('flytracker.units') || 'aeronautical';
const listeners = [];

export function currentUnits() { return units; }
export function onUnitsChange(listener) { listeners.push(listener); }
export function setUnits(value) {
  units = value;
  $('units').value = value;
  localStorage.setItem('flytracker.units', value);
  for (const listener of listeners) listener();
}
$('units').value = units;
$('units').addEventListener('change', (e) => setUnits(e.target.value));

const feet = (ft) => (units === 'metric' ? Math.round(ft * 0.3048) + ' m' : ft + ' ft');
export const fmt = {
  alt(a) {
    if (a.alt_baro === 'ground') return t('units.ground');
    if (typeof a.alt_baro !== 'number') return '';
    return feet(a.alt_baro);
  },
  feet,
  speed(kt) {
    if (typeof kt !== 'number') return '';
    if (units === 'metric') return Math.round(kt * 1.852) + ' km/h';
    if (units === 'imperial') return Math.round(kt * 1.15078) + ' mph';
    return Math.round(kt) + ' kt';
  },
  dist(nm) {
    if (typeof nm !== 'number') return '';
    if (units === 'metric') return (nm * 1.852).toFixed(1) + ' km';
    if (units === 'imperial') return (nm * 1.15078).toFixed(1) + ' mi';
    return nm.toFixed(1) + ' NM';
  },
  rate(fpm) {
    if (typeof fpm !== 'number') return '';
    return units === 'metric' ? (fpm * 0.00508).toFixed(1) + ' m/s' : fpm + ' ft/min';
  },
  ringLabel(nm) {
    if (units === 'metric') return Math.round(nm * 1.852) + ' km';
    if (units === 'imperial') return Math.round(nm * 1.15078) + ' mi';
    return nm + ' NM';
  },
};
