/**
 * The languages the browser suites walk: every registered one in Chromium, the right-to-left ones
 * (and English) in Firefox and WebKit too. Each is registered here, as a page that speaks it does.
 */
import '../../../src/locales/ar.js';
import '../../../src/locales/ur.js';
import '../../../src/locales/fa.js';
import '../../../src/locales/hi.js';
import '../../../src/locales/bn.js';
import '../../../src/locales/fil.js';
import '../../../src/locales/id.js';
import '../../../src/locales/fr.js';
import '../../../src/locales/tr.js';
import { RIGHT_TO_LEFT } from './widget.js';

export const LANGUAGES = ['en', ...RIGHT_TO_LEFT, 'hi', 'bn', 'fil', 'id', 'fr', 'tr'];
export const TESTED_LANGUAGES = /Chrome\//.test(navigator.userAgent) ? LANGUAGES : ['en', ...RIGHT_TO_LEFT];
