// What the playground and the theming page build their controls with: the DOM's own calls, no
// innerHTML, so that every value stays text.

/** An element with attributes and children, the DOM way (no innerHTML: values stay text). */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, '');
    else if (value !== false && value != null) element.setAttribute(name, value);
  }
  element.append(...children.flat());
  return element;
}

/** A titled block of code with a button that copies it. */
export function codeBlock(title) {
  const code = h('code');
  const status = h('span', { role: 'status', class: 'copied' });
  const copy = h('button', {
    type: 'button',
    onclick: async () => {
      await navigator.clipboard.writeText(code.textContent);
      status.textContent = 'Copied';
      setTimeout(() => (status.textContent = ''), 2000);
    },
  }, `Copy ${title.toLowerCase()}`);
  const block = h('div', { class: 'code-block' }, h('h3', {}, title, copy, status), h('pre', { tabindex: '0' }, code));
  return { block, set: (text) => (code.textContent = text) };
}
