// The documentation site the demo serves: Markdown pages under demo/pages/, rendered with
// markdown-it into one layout. Links between pages are written `otp-verify.md#events`, so that the
// files read on a code host too; here they become `/otp-verify#events`.
import { readFile } from 'node:fs/promises';
import MarkdownIt from 'markdown-it';
import anchor from 'markdown-it-anchor';

/**
 * The pages, in the order of the navigation. `live` pages carry the sign-in, the balance and the
 * outbox; `script` builds what the page's placeholders ask for (a playground, the theme's controls).
 */
export const PAGES = [
  { slug: '', file: 'index.md', nav: 'Home', live: true },
  { slug: 'otp-verify', file: 'otp-verify.md', nav: '<otp-verify>', live: true, script: '/playground.js' },
  { slug: 'face-verify', file: 'face-verify.md', nav: '<face-verify>', live: true, script: '/playground.js' },
  { slug: 'voice-verify', file: 'voice-verify.md', nav: '<voice-verify>', live: true, script: '/playground.js' },
  { slug: 'theming', file: 'theming.md', nav: 'Theming', live: true, script: '/theming.js' },
  { slug: 'languages', file: 'languages.md', nav: 'Languages' },
  { slug: 'frameworks', file: 'frameworks.md', nav: 'Frameworks' },
  { slug: 'host-handler', file: 'host-handler.md', nav: 'Host handler' },
  { slug: 'any-backend', file: 'any-backend.md', nav: 'Any back end' },
  { slug: 'receipts', file: 'receipts.md', nav: 'Receipts' },
  { slug: 'liveness', file: 'liveness.md', nav: 'Liveness' },
  { slug: 'handoff', file: 'handoff.md', nav: 'Continue on a phone' },
  { slug: 'protocol', file: 'protocol.md', nav: 'Widget protocol' },
  { slug: 'service-client', file: 'service-client.md', nav: 'Service client' },
  { slug: 'emulator', file: 'emulator.md', nav: 'Emulator', live: true },
  { slug: 'benchmarks', file: 'benchmarks.md', nav: 'Benchmarks' },
  { slug: 'development', file: 'development.md', nav: 'Development' },
];

const pagesDir = new URL('./pages/', import.meta.url);
const bySlug = new Map(PAGES.map((page) => [page.slug, page]));
const byFile = new Map(PAGES.map((page) => [page.file, page]));

// Raw HTML is allowed: the pages hold the live widgets and their playgrounds. They are ours, never a visitor's.
const markdown = new MarkdownIt({ html: true, linkify: false, typographer: false }).use(anchor, { tabIndex: false });

// `page.md#x` becomes `/page#x`; a link elsewhere in the repository is left as written.
const renderLink = markdown.renderer.rules.link_open ?? ((tokens, i, options, env, self) => self.renderToken(tokens, i, options));
markdown.renderer.rules.link_open = (tokens, i, options, env, self) => {
  const href = tokens[i].attrGet('href') ?? '';
  const [file, hash] = href.split('#');
  const page = /^[\w-]+\.md$/.test(file) ? byFile.get(file) : undefined;
  if (page) tokens[i].attrSet('href', `/${page.slug}${hash ? `#${hash}` : ''}`);
  return renderLink(tokens, i, options, env, self);
};

// Code and wide tables scroll sideways on a narrow screen: focusable, so the keyboard can scroll them too.
const renderFence = markdown.renderer.rules.fence;
markdown.renderer.rules.fence = (...args) => renderFence(...args).replace('<pre>', '<pre tabindex="0">');
markdown.renderer.rules.table_open = () => '<table tabindex="0">\n';

const escape = (text) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** The page at `path` ("/", "/otp-verify"), or null when there is none. */
export function pageAt(path) {
  return bySlug.get(path.replace(/^\/|\/$/g, '')) ?? null;
}

/** The page as HTML: its Markdown rendered into the layout. Read on each request, so edits show on reload. */
export async function renderPage(page) {
  const source = await readFile(new URL(page.file, pagesDir), 'utf8');
  const title = markdown.renderInline(/^# (.+)$/m.exec(source)?.[1] ?? 'verify-widgets').replace(/<[^>]+>/g, '');
  const nav = PAGES.map(
    (p) => `<li><a href="/${p.slug}"${p === page ? ' aria-current="page"' : ''}>${escape(p.nav)}</a></li>`,
  ).join('');
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${page.slug ? `${title} · ` : ''}verify-widgets</title>
    <link rel="icon" href="/favicon.svg" />
    <link rel="stylesheet" href="/demo.css" />
    <script type="module" src="/dist/cdn/verify-widgets.js"></script>
    <!-- The nine languages besides English, for widgets switched to another lang: each is a file of its own. -->
${['ar', 'ur', 'fa', 'hi', 'bn', 'fil', 'id', 'fr', 'tr'].map((code) => `    <script type="module" src="/dist/cdn/locales/${code}.js"></script>`).join('\n')}
    <script type="module" src="/demo.js"></script>${page.script ? `\n    <script type="module" src="${page.script}"></script>` : ''}
  </head>
  <body>
    <a class="skip" href="#content">Skip to the content</a>
    <header class="site">
      <a class="brand" href="/">verify-widgets</a>
      <nav aria-label="Pages"><ul>${nav}</ul></nav>
    </header>
    <div class="page${page.live ? ' live' : ''}">
      <main id="content">
${markdown.render(source)}
      </main>
${page.live ? LIVE_PANEL : ''}
    </div>
  </body>
</html>
`;
}

// The demo's stand-ins for a host's pieces: its sign-in, and the service's balance and outbox.
const LIVE_PANEL = `      <aside class="panel" aria-labelledby="panel-title">
        <h2 id="panel-title">The demo host</h2>
        <form id="session" class="session">
          <label for="user">Signed in as</label>
          <select id="user" name="user">
            <option value="">nobody (a guest)</option>
            <option value="amina">Amina</option>
            <option value="omar">Omar</option>
            <option value="sara">Sara</option>
          </select>
          <output id="enrolled" aria-live="polite"></output>
        </form>
        <p class="balance">Emulator balance: <output id="balance">…</output> credits</p>
        <h3 id="outbox-title">Development outbox</h3>
        <p id="outbox-empty">No message sent yet.</p>
        <ol id="outbox" aria-labelledby="outbox-title" aria-live="polite"></ol>
      </aside>`;
