import { css } from 'lit';
import { stepStyles } from '../../internal/later/step.styles.js';

/** The look of the steps after the contact form, which comes with their code: the code's boxes. */
export const laterStyles = [
  stepStyles,
  css`
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
