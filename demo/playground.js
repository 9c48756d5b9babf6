// A widget's playground, built in each `<div class="playground" data-widget="…">` of a page: the
// live widget, its attributes as controls, a log of every verify-* event as it fires, and the
// markup for what is on screen. Each change makes a new widget, as a page with those attributes
// would, so the markup shown is always what runs.
import { withDetector } from '/demo.js';
import { codeBlock, h } from '/dom.js';

const EVENTS = ['verify-step-change', 'verify-code-sent', 'verify-request', 'verify-success', 'verify-failure', 'verify-error', 'verify-enrolled', 'verify-other-way'];
// Each language by its own name; the site loads every one of them (site.mjs).
const LANGUAGE = {
  name: 'lang',
  label: 'Language',
  kind: 'select',
  options: [['en', 'English'], ['ar', 'العربية'], ['ur', 'اردو'], ['fa', 'فارسی'], ['hi', 'हिन्दी'], ['bn', 'বাংলা'], ['fil', 'Filipino'], ['id', 'Bahasa Indonesia'], ['fr', 'Français'], ['tr', 'Türkçe']],
  value: 'en',
  implied: 'en',
};
// A page's stylesheet, not an attribute: the stage says it.
const DARK = { name: 'dark', label: 'Dark', kind: 'checkbox', value: false, stylesheet: true };
const MODE = { name: 'mode', label: 'Mode', kind: 'radio', options: [['enroll', 'Register'], ['verify', 'Verify']], value: 'enroll', implied: 'verify' };
// A person who cannot use the camera or make the movements needs a way in: on by default, as a page should have it.
const OTHER_WAY = { name: 'other-way', label: 'Offer another way in', kind: 'checkbox', value: true, implied: false };

/**
 * Each widget's controls: `value` is where the control starts, `implied` what the element does
 * without the attribute, which the markup then leaves out (a country is always written: without
 * it the element takes the browser's region).
 */
const CONTROLS = {
  'otp-verify': [
    { name: 'channels', label: 'Channels', kind: 'checkboxes', options: [['sms', 'SMS'], ['whatsapp', 'WhatsApp'], ['email', 'Email']], value: ['sms', 'whatsapp', 'email'], implied: 'sms,whatsapp,email' },
    { name: 'country', label: 'Country', kind: 'select', options: [], value: '' },
    LANGUAGE,
    DARK,
  ],
  'face-verify': [MODE, { name: 'manual', label: 'Shutter only (no capture by itself)', kind: 'checkbox', value: false, implied: false }, OTHER_WAY, LANGUAGE, DARK],
  'voice-verify': [
    MODE,
    { name: 'digits', label: 'Digits to read', kind: 'number', min: 4, max: 12, value: 8, implied: 8 },
    { name: 'max-duration', label: 'Longest recording, seconds', kind: 'number', min: 3, max: 30, value: 8, implied: 8 },
    OTHER_WAY,
    LANGUAGE,
    DARK,
  ],
};

let playgrounds = 0;

/** An event's detail as the log shows it: headers as an object, long strings (receipts, media) cut. */
function describe(detail) {
  return JSON.stringify(
    detail,
    (key, value) => {
      if (value instanceof Headers) return Object.fromEntries(value);
      if (value instanceof AbortSignal) return `AbortSignal${value.aborted ? ' (aborted)' : ''}`;
      if (typeof value === 'string' && value.length > 60) return `${value.slice(0, 24)}… (${value.length} characters)`;
      return value;
    },
    2,
  );
}

function control(spec, id, state, onChange) {
  const name = `${id}-${spec.name}`;
  const set = (value) => {
    state[spec.name] = value;
    onChange();
  };
  switch (spec.kind) {
    case 'radio':
      return h('fieldset', {}, h('legend', {}, spec.label), spec.options.map(([value, text]) =>
        h('label', {}, h('input', { type: 'radio', name, value, checked: state[spec.name] === value, onchange: () => set(value) }), text)));
    case 'checkboxes':
      return h('fieldset', {}, h('legend', {}, spec.label), spec.options.map(([value, text]) =>
        h('label', {}, h('input', { type: 'checkbox', name, value, checked: state[spec.name].includes(value), onchange: (event) => {
          const checked = [...event.target.form.querySelectorAll(`input[name="${name}"]:checked`)].map((input) => input.value);
          // A widget needs a channel: the last one cannot be unticked.
          if (!checked.length) return void (event.target.checked = true);
          set(checked);
        } }), text)));
    case 'checkbox':
      return h('label', {}, h('input', { type: 'checkbox', name, checked: state[spec.name], onchange: (event) => set(event.target.checked) }), spec.label);
    case 'number':
      return h('label', {}, spec.label, h('input', { type: 'number', name, min: spec.min, max: spec.max, value: state[spec.name], onchange: (event) => {
        const value = Number(event.target.value);
        if (Number.isInteger(value) && value >= spec.min && value <= spec.max) set(value);
        else event.target.value = state[spec.name];
      } }));
    case 'select': {
      const select = h('select', { name, id: name, onchange: () => set(select.value) }, spec.options.map(([value, text]) => h('option', { value, selected: value === state[spec.name] }, text)));
      return h('label', { for: name }, spec.label, select);
    }
  }
}

/** The attributes the controls give, what the element does anyway left out (as a page would write them). */
function attributesOf(tag, state) {
  const attributes = [['endpoint', '/api/verify']];
  for (const spec of CONTROLS[tag]) {
    const value = state[spec.name];
    if (spec.stylesheet || String(value) === String(spec.implied)) continue;
    attributes.push([spec.name, spec.kind === 'checkbox' ? true : Array.isArray(value) ? value.join(' ') : String(value)]);
  }
  return attributes;
}

/** The attributes as markup writes them: ` channels="sms email" manual`. */
const attributeText = (attributes) => attributes.map(([name, value]) => (value === true ? ` ${name}` : ` ${name}="${value}"`)).join('');

function markupOf(tag, state) {
  const attributes = attributeText(attributesOf(tag, state));
  return [
    '<!-- dist/cdn/ of the package, served as /assets/ -->',
    '<script type="module" src="/assets/verify-widgets.js"></script>',
    ...(state.lang !== 'en' ? [`<script type="module" src="/assets/locales/${state.lang}.js"></script>`] : []),
    '<script type="module" src="/verify.js"></script>',
    '',
    `<${tag}${attributes}></${tag}>`,
  ].join('\n');
}

function scriptOf(tag, state) {
  return [
    '// verify.js: a file of its own, so that a strict Content-Security-Policy allows it.',
    `const widget = document.querySelector('${tag}');`,
    "widget.addEventListener('verify-success', async (event) => {",
    '  // The event proves nothing: your server checks the receipt before it trusts the person.',
    "  await fetch('/your-server/confirm', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ receipt: event.detail.receipt }) });",
    '});',
    ...(state.dark ? ['', '/* In your stylesheet: dark whatever the visitor prefers. */', `/* ${tag} { color-scheme: dark; } */`] : []),
  ].join('\n');
}

async function countries() {
  const config = await (await fetch('/api/verify/config')).json();
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  return Object.entries(config.countries ?? {}).map(([code, dial]) => [code, `${names.of(code)} (+${dial})`]);
}

async function build(root) {
  const tag = root.dataset.widget;
  const id = `pg${++playgrounds}`;
  const specs = CONTROLS[tag];
  const state = Object.fromEntries(specs.map((spec) => [spec.name, spec.value]));
  const country = specs.find((spec) => spec.name === 'country');
  if (country) {
    country.options = await countries();
    state.country = root.querySelector(tag)?.getAttribute('country') ?? country.options[0]?.[0] ?? '';
  }

  const stage = h('div', { class: 'stage', 'data-stage': tag });
  const log = h('ol');
  const empty = h('p', { class: 'empty' }, 'No event yet: use the widget.');
  const markup = codeBlock('Markup');
  const script = codeBlock('Script');
  let born = performance.now();

  const entry = (name, detail) => {
    const seconds = ((performance.now() - born) / 1000).toFixed(2);
    log.append(h('li', { 'data-event': name }, h('time', {}, `${seconds} s`), h('code', {}, name), detail === undefined ? [] : h('pre', {}, describe(detail))));
    empty.hidden = true;
    log.parentElement.scrollTop = log.parentElement.scrollHeight;
  };
  for (const name of EVENTS) stage.addEventListener(name, (event) => entry(name, event.detail));
  // What a page does with "Verify another way": shows its other path in the widget's place.
  stage.addEventListener('verify-other-way', () => {
    const heading = h('h3', { tabindex: '-1' }, 'Your page’s other way in');
    stage.replaceChildren(h('div', { class: 'other-way' }, heading, h('p', {}, 'Here a page shows its other path: a code by SMS or email (the <otp-verify> page), or a call to support.'), h('button', { type: 'button', onclick: render }, `Back to <${tag}>`)));
    heading.focus();
  });

  const render = () => {
    const element = document.createElement(tag);
    for (const [name, value] of attributesOf(tag, state)) element.setAttribute(name, value === true ? '' : value);
    stage.classList.toggle('dark', state.dark);
    stage.replaceChildren(tag === 'face-verify' ? withDetector(element) : element);
    born = performance.now();
    markup.set(markupOf(tag, state));
    script.set(scriptOf(tag, state));
    if (log.children.length) log.append(h('li', { class: 'restart' }, `A new <${tag}${attributeText(attributesOf(tag, state))}>`));
  };

  const form = h('form', { class: 'controls', 'aria-label': `Attributes of <${tag}>`, onsubmit: (event) => event.preventDefault() }, specs.map((spec) => control(spec, id, state, render)));
  const events = h('section', { class: 'events', 'aria-labelledby': `${id}-events` },
    h('h3', { id: `${id}-events` }, 'Event log', h('button', { type: 'button', onclick: () => { log.replaceChildren(); empty.hidden = false; } }, 'Clear the log')),
    h('div', { role: 'log', 'aria-label': `Events of <${tag}>`, tabindex: '0' }, empty, log));
  const code = h('section', { class: 'code-to-copy', 'aria-label': 'Code for what is on screen' }, markup.block, script.block);
  root.replaceChildren(stage, form, events, code);
  render();
  // A sign-in changes whose face or voice this is: start again, as the home page does.
  document.addEventListener('demo-signed-in', render);
}

for (const root of document.querySelectorAll('.playground[data-widget]')) build(root);
