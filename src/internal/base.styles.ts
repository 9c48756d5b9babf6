import { css } from 'lit';

/**
 * The look the three widgets share on their first step; every color and size is a --verify-*
 * custom property. What later steps add comes with their code (step.styles.ts), and fields
 * with the contact form (fieldStyles).
 */
export const baseStyles = css`
  :host {
    --verify-accent: light-dark(#4338ca, #a5b4fc);
    --verify-accent-contrast: light-dark(#ffffff, #1e1b4b);
    --verify-fg: light-dark(#111827, #f3f4f6);
    --verify-bg: light-dark(#ffffff, #111827);
    --verify-surface: light-dark(#f9fafb, #1f2937);
    --verify-muted: light-dark(#4b5563, #9ca3af);
    --verify-border: light-dark(#9ca3af, #6b7280);
    --verify-error: light-dark(#b91c1c, #fca5a5);
    --verify-success: light-dark(#047857, #6ee7b7);
    --verify-radius: 0.5rem;
    --verify-gap: 0.75rem;
    --verify-font: inherit;
    --verify-box-size: 2.75rem;
    color-scheme: light dark;
    display: block;
    font-family: var(--verify-font);
    color: var(--verify-fg);
  }
  :host([hidden]) {
    display: none;
  }
  .base {
    container-type: inline-size;
    /* A host page that centres its text does not rearrange the widget. */
    text-align: start;
    display: grid;
    gap: var(--verify-gap);
    padding: calc(var(--verify-gap) * 1.5);
    border: 1px solid var(--verify-border);
    border-radius: calc(var(--verify-radius) * 1.5);
    background: var(--verify-bg);
    line-height: 1.5;
    /* A word longer than the widget is wide ("Enregistrement…" at 232 px) breaks, rather than
       widen the widget past its space. */
    overflow-wrap: anywhere;
  }
  .heading {
    font-size: 1.25em;
    font-weight: 650;
    outline: none;
  }
  /* Focus lands on headings only to tell screen readers where the person is; they are not in the
     tab order, so no ring. */
  .heading:focus {
    outline: none;
  }
  p {
    margin: 0;
  }
  label {
    font-weight: 500;
  }
  input:focus-visible,
  select:focus-visible,
  button:focus-visible {
    outline: 2px solid var(--verify-accent);
    outline-offset: 2px;
  }
  button {
    font: inherit;
    cursor: pointer;
    border-radius: var(--verify-radius);
    min-block-size: 2.75em;
    padding: 0.5em 1.1em;
  }
  .primary {
    border: 1px solid var(--verify-accent);
    background: var(--verify-accent);
    color: var(--verify-accent-contrast);
    font-weight: 600;
  }
  .secondary {
    border: 1px solid var(--verify-border);
    background: var(--verify-surface);
    color: var(--verify-fg);
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: calc(var(--verify-gap) / 2) var(--verify-gap);
  }
  .error {
    color: var(--verify-error);
    font-weight: 500;
  }
  .visually-hidden {
    position: absolute;
    inline-size: 1px;
    block-size: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
`;

/** The form's fields and links: the one-time code widget's contact form and code step. */
export const fieldStyles = css`
  form {
    display: grid;
    gap: var(--verify-gap);
  }
  .field {
    display: grid;
    gap: 0.25em;
  }
  input,
  select {
    box-sizing: border-box;
    inline-size: 100%;
    min-block-size: 2.75em;
    padding: 0.5em 0.75em;
    border: 1px solid var(--verify-border);
    border-radius: var(--verify-radius);
    background: var(--verify-bg);
    color: var(--verify-fg);
    font: inherit;
  }
  /* WebKit lets the chosen option's text overflow a narrow select, and the page scroll sideways;
     paint containment keeps it inside (the select's own focus outline is not its content). */
  select {
    contain: paint;
  }
  input[aria-invalid='true'] {
    border-color: var(--verify-error);
  }
  .link {
    border: 0;
    background: none;
    color: var(--verify-accent);
    padding-inline: 0.25em;
    text-decoration: underline;
    text-underline-offset: 0.2em;
  }
`;
