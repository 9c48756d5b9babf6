// A custom-elements-manifest plugin that writes the widgets' element types for JSX (React 19,
// Preact), Vue and Svelte 5 into dist/types/, from the manifest's elements, properties and events.
// Each names the compiled classes and the event classes themselves, so a template's handler gets
// `VerifySuccessEvent`, not an untyped CustomEvent; the generic generators type every event as
// CustomEvent<never> and write Svelte 4's `on:` handlers, which Svelte 5's runes mode refuses.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const HEADER = '// Generated from custom-elements.json by test/build/framework-types.mjs: do not edit.';
const pascal = (name) => name.replace(/(^|-)(\w)/g, (_, __, c) => c.toUpperCase());

/** The elements as the type files need them: class, module, settable properties, attributes, events. */
function elementsOf(manifest) {
  return manifest.modules.flatMap((module) =>
    (module.declarations ?? [])
      .filter((d) => d.tagName)
      .map((d) => {
        const fields = (d.members ?? []).filter((m) => m.kind === 'field' && !m.privacy && !m.static && !m.readonly && m.description);
        return {
          tag: d.tagName,
          className: d.name,
          module: `../${module.path.replace(/^dist\//, '')}`,
          summary: (d.summary ?? d.description ?? '').replace(/\s+/g, ' ').trim(),
          properties: fields.map((f) => f.name),
          // Attributes spelt differently from their property (request-timeout), for templates that write attributes.
          attributes: fields.filter((f) => f.attribute && f.attribute !== f.name).map((f) => [f.attribute, f.name]),
          events: (d.events ?? []).map((e) => e.name),
        };
      }),
  );
}

function common(elements, frameworkImport) {
  return [
    HEADER,
    frameworkImport,
    ...elements.map((e) => `import type { ${e.className} } from '${e.module}';`),
    "import type {} from '../events/index.js';",
    '',
    '/** The settable properties of each widget, typed as the class types them. */',
    ...elements.map((e) => `type ${e.className}Properties = Partial<Pick<${e.className}, ${e.properties.map((p) => `'${p}'`).join(' | ')}>>;`),
  ];
}

/** `spell` names an event's handler prop: React and Preact `onverify-success`, Vue `onVerifySuccess`. */
function handlerProps(element, spell) {
  return element.events.map((name) => `  '${spell(name)}'?: (event: GlobalEventHandlersEventMap['${name}']) => void;`);
}

function attributeProps(element) {
  return element.attributes.map(([attribute, property]) => `  '${attribute}'?: ${element.className}['${property}'] | string;`);
}

/** One object type per element: its properties, attributes and events, under a framework's spelling. */
function elementTypes(elements, spell, withAttributes) {
  return elements.flatMap((e) => [
    `/** ${e.summary} */`,
    `export type ${e.className}Props = ${e.className}Properties & {`,
    ...(withAttributes ? attributeProps(e) : []),
    ...handlerProps(e, spell),
    '};',
  ]);
}

function files(manifest) {
  const elements = elementsOf(manifest);
  const props = (frameworkImport, spell, withAttributes = false) => [...common(elements, frameworkImport), '', ...elementTypes(elements, spell, withAttributes), ''];
  const each = (line) => elements.map(line);
  return {
    'react.d.ts': [
      ...props("import type { DetailedHTMLProps, HTMLAttributes } from 'react';", (n) => `on${n}`),
      "declare module 'react' {",
      '  namespace JSX {',
      '    interface IntrinsicElements {',
      ...each((e) => `      '${e.tag}': DetailedHTMLProps<HTMLAttributes<${e.className}>, ${e.className}> & ${e.className}Props;`),
      '    }',
      '  }',
      '}',
    ],
    'preact.d.ts': [
      ...props("import type { JSX } from 'preact';", (n) => `on${n}`),
      "declare module 'preact' {",
      '  namespace JSX {',
      '    interface IntrinsicElements {',
      ...each((e) => `      '${e.tag}': JSX.HTMLAttributes<${e.className}> & ${e.className}Props;`),
      '    }',
      '  }',
      '}',
    ],
    'vue.d.ts': [
      ...props("import type { DefineComponent } from 'vue';", (n) => `on${pascal(n)}`),
      "declare module 'vue' {",
      '  interface GlobalComponents {',
      ...each((e) => `    '${e.tag}': DefineComponent<${e.className}Props>;`),
      '  }',
      '}',
    ],
    'svelte.d.ts': [
      ...props("import type { HTMLAttributes } from 'svelte/elements';", (n) => `on${n}`, true),
      'declare global {',
      '  namespace svelteHTML {',
      '    interface IntrinsicElements {',
      ...each((e) => `      '${e.tag}': HTMLAttributes<${e.className}> & ${e.className}Props;`),
      '    }',
      '  }',
      '}',
    ],
  };
}

export function frameworkTypesPlugin({ outdir }) {
  return {
    name: 'framework-types',
    packageLinkPhase({ customElementsManifest }) {
      mkdirSync(outdir, { recursive: true });
      for (const [name, lines] of Object.entries(files(customElementsManifest))) writeFileSync(join(outdir, name), `${lines.join('\n')}\n`);
    },
  };
}
