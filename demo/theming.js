// The theming page's controls: each --verify-* custom property as a live control over the three
// widgets, and the CSS that gives what is on screen. Set through the CSSOM (element.style), which
// a strict CSP allows, on the elements themselves: a page's rule on the element beats the :host
// defaults, while a value inherited from a parent would not.
import { codeBlock, h } from '/dom.js';

const COLORS = [
  ['--verify-accent', 'Accent', '#4338ca'],
  ['--verify-accent-contrast', 'Text on the accent', '#ffffff'],
  ['--verify-fg', 'Text', '#111827'],
  ['--verify-bg', 'Background', '#ffffff'],
  ['--verify-surface', 'Fields and secondary buttons', '#f9fafb'],
  ['--verify-muted', 'Secondary text', '#4b5563'],
  ['--verify-border', 'Borders', '#9ca3af'],
  ['--verify-error', 'Errors', '#b91c1c'],
  ['--verify-success', 'Success', '#047857'],
];
const SIZES = [
  ['--verify-radius', 'Corner radius', 0.5, 0, 1.5, 0.125],
  ['--verify-gap', 'Spacing', 0.75, 0.25, 1.5, 0.125],
  ['--verify-box-size', 'Code box width', 2.75, 2, 4, 0.25],
];
const FONTS = [['inherit', 'The page’s'], ['Georgia, serif', 'Georgia, serif'], ['ui-monospace, monospace', 'Monospace'], ['system-ui, sans-serif', 'System UI']];

const root = document.querySelector('.theming');
const widgets = [...root.querySelectorAll('otp-verify, face-verify, voice-verify')];
const chosen = new Map();
const css = codeBlock('CSS');

function apply(name, value, isDefault) {
  if (isDefault) chosen.delete(name);
  else chosen.set(name, value);
  for (const widget of widgets) {
    if (isDefault) widget.style.removeProperty(name);
    else widget.style.setProperty(name, value);
  }
  const lines = [...chosen].map(([property, v]) => `  ${property}: ${v};`);
  css.set(lines.length ? `otp-verify, face-verify, voice-verify {\n${lines.join('\n')}\n}` : '/* The defaults: change a control above. */');
}

const controls = [
  ...COLORS.map(([name, label, initial]) =>
    h('label', {}, label, h('input', { type: 'color', name, value: initial, oninput: (event) => apply(name, event.target.value, false) }))),
  ...SIZES.map(([name, label, initial, min, max, step]) =>
    h('label', {}, label, h('input', { type: 'range', name, min, max, step, value: initial, oninput: (event) => apply(name, `${event.target.value}rem`, Number(event.target.value) === initial) }))),
  h('label', {}, 'Font', h('select', { name: '--verify-font', onchange: (event) => apply('--verify-font', event.target.value, event.target.value === 'inherit') },
    FONTS.map(([value, text]) => h('option', { value }, text)))),
];
const reset = h('button', { type: 'reset' }, 'Back to the defaults');
const form = h('form', { class: 'theme-controls', 'aria-label': 'Custom properties', onreset: () => {
  for (const name of [...chosen.keys()]) apply(name, '', true);
} }, controls, reset);
root.prepend(form);
root.append(css.block);
apply('--verify-accent', '', true);
