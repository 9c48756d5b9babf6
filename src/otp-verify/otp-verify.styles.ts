import { css } from 'lit';
import { baseStyles } from '../internal/base.styles.js';

export const styles = [
  baseStyles,
  css`
    .channels {
      display: flex;
      flex-wrap: wrap;
      gap: calc(var(--verify-gap) / 2);
      border: 0;
      margin: 0;
      padding: 0;
    }
    .channels legend {
      font-weight: 500;
      margin-block-end: calc(var(--verify-gap) / 2);
      padding: 0;
    }
    .channel {
      position: relative;
    }
    .channel input {
      position: absolute;
      opacity: 0;
      inset: 0;
      margin: 0;
      cursor: pointer;
    }
    .channel span {
      display: inline-block;
      padding: 0.45em 0.9em;
      border: 1px solid var(--verify-border);
      border-radius: 999px;
      background: var(--verify-surface);
    }
    .channel input:checked + span {
      border-color: var(--verify-accent);
      background: color-mix(in srgb, var(--verify-accent) 12%, var(--verify-bg));
      color: var(--verify-fg);
      font-weight: 600;
    }
    .channel input:focus-visible + span {
      outline: 2px solid var(--verify-accent);
      outline-offset: 2px;
    }
    /* Country above phone in a narrow widget, beside it when there is room for both. */
    .row {
      display: grid;
      gap: var(--verify-gap);
    }
    @container (min-width: 34rem) {
      .row {
        grid-template-columns: minmax(0, 1fr) minmax(0, 1.4fr);
      }
    }
    .prefixed {
      display: flex;
      align-items: stretch;
    }
    .prefix {
      display: flex;
      align-items: center;
      padding-inline: 0.75em;
      border: 1px solid var(--verify-border);
      border-inline-end: 0;
      border-radius: var(--verify-radius) 0 0 var(--verify-radius);
      background: var(--verify-surface);
      color: var(--verify-muted);
      font-variant-numeric: tabular-nums;
      /* The card lets long words break anywhere; a dial code is not a word to break ("+9" over "66"). */
      flex: none;
      white-space: nowrap;
    }
    .prefixed input {
      border-start-start-radius: 0;
      border-end-start-radius: 0;
    }
    .suggestion {
      margin: 0;
      color: var(--verify-muted);
    }

    /* One real input, slotted from the light DOM, lies over the boxes with its text transparent:
       autofill, paste and the keyboard reach it, the boxes show what it holds. */
    /* As wide as its boxes, never wider than the widget: on a narrow screen the boxes shrink. The
       input spans a margin after the boxes too, so that a password manager's icon, drawn at the
       input's end, falls there and not over the last digit, inside the card. */
    .code {
      --margin: min(2.5rem, 6cqi);
      box-sizing: border-box;
      position: relative;
      inline-size: min(100%, calc(var(--length) * var(--verify-box-size) + (var(--length) - 1) * var(--verify-gap) / 2 + var(--margin)));
      padding-right: var(--margin);
      direction: ltr;
      cursor: text;
    }
    ::slotted(input) {
      position: absolute !important;
      inset: 0;
      inline-size: 100% !important;
      block-size: 100%;
      margin: 0;
      padding: 0;
      border: 0;
      background: transparent;
      color: transparent;
      caret-color: transparent;
      font-size: 16px;
      letter-spacing: calc(var(--verify-box-size) - 0.5em);
      outline: none;
      opacity: 0.01;
      z-index: 1;
    }
    .boxes {
      display: grid;
      grid-template-columns: repeat(var(--length), minmax(0, 1fr));
      gap: calc(var(--verify-gap) / 2);
    }
    .digit {
      display: grid;
      place-items: center;
      aspect-ratio: 5 / 6;
      min-inline-size: 0;
      border: 1px solid var(--verify-border);
      border-radius: var(--verify-radius);
      background: var(--verify-surface);
      font-size: min(1.4em, 7cqi);
      font-weight: 600;
      font-variant-numeric: tabular-nums;
      transition: border-color 120ms, box-shadow 120ms;
    }
    .digit.filled {
      border-color: color-mix(in srgb, var(--verify-accent) 45%, var(--verify-border));
    }
    .digit.selected {
      background: color-mix(in srgb, var(--verify-accent) 22%, var(--verify-surface));
      border-color: var(--verify-accent);
    }
    .digit.active {
      border-color: var(--verify-accent);
      box-shadow: 0 0 0 3px color-mix(in srgb, var(--verify-accent) 25%, transparent);
    }
    .digit.active:empty::after {
      content: '';
      inline-size: 2px;
      block-size: 1.2em;
      background: var(--verify-accent);
      animation: blink 1s step-end infinite;
    }
    .code.invalid .digit {
      border-color: var(--verify-error);
    }
    @keyframes blink {
      50% {
        opacity: 0;
      }
    }
    .hint {
      margin: 0;
      color: var(--verify-muted);
      font-size: 0.9em;
    }
  `,
];
