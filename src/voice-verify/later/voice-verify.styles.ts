import { css } from 'lit';
import { stepStyles } from '../../internal/later/step.styles.js';
import { handoffStyles } from '../../biometric/later/handoff.styles.js';

/** The look of the steps after the first, which comes with their code (the first step's is baseStyles alone). */
export const laterStyles = [
  stepStyles,
  handoffStyles,
  css`
    .prompt {
      margin-block: calc(var(--verify-gap) * 1.5);
      font-size: 1.35em;
      font-weight: 600;
      text-align: center;
    }
    .prompt.digits {
      font-size: 2em;
      font-variant-numeric: tabular-nums;
      letter-spacing: 0.12em;
    }
    /* The voice's outline: bars that grow from the middle, the newest on the inline end; where
       the card is too narrow for them all, the oldest are cut off rather than widen the card. */
    .meter {
      overflow: hidden;
      display: flex;
      align-items: center;
      justify-content: flex-end;
      gap: 3px;
      block-size: 4.5em;
      padding-inline: var(--verify-gap);
      border-radius: var(--verify-radius);
      background: color-mix(in srgb, var(--verify-accent) 8%, transparent);
    }
    .bar {
      flex: 0 0 auto;
      inline-size: 5px;
      block-size: calc(var(--h) * 100%);
      border-radius: 3px;
      background: var(--verify-accent);
      transition: block-size 60ms linear;
    }
    .bar.low {
      background: color-mix(in srgb, var(--verify-accent) 40%, transparent);
    }
    .bar.hot {
      background: var(--verify-error);
    }
    .countdown {
      display: flex;
      align-items: center;
      gap: var(--verify-gap);
      margin-block-start: var(--verify-gap);
      font-variant-numeric: tabular-nums;
    }
    .countdown progress {
      flex: 1;
      min-inline-size: 0;
      accent-color: var(--verify-accent);
    }
    .feedback {
      font-weight: 600;
      text-align: center;
    }
    .feedback.warn {
      color: var(--verify-error);
    }
    @media (prefers-reduced-motion: reduce) {
      .bar {
        transition: none;
      }
    }
  `,
];
