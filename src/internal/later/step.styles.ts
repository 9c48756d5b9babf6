import { css } from 'lit';

/** What the steps after the first share: success, the progress indicator, disabled buttons, and motion (none where the person asks for less). */
export const stepStyles = css`
  button:disabled {
    cursor: not-allowed;
    opacity: 0.6;
  }
  .success .heading {
    color: var(--verify-success);
  }
  .spinner {
    inline-size: 2rem;
    block-size: 2rem;
    border: 3px solid color-mix(in srgb, var(--verify-accent) 25%, transparent);
    border-top-color: var(--verify-accent);
    border-radius: 50%;
    animation: spin 0.8s linear infinite;
  }
  @keyframes spin {
    to {
      transform: rotate(1turn);
    }
  }
  @media (prefers-reduced-motion: reduce) {
    *,
    *::before,
    *::after {
      animation-duration: 0s !important;
      animation-iteration-count: 1 !important;
      transition: none !important;
    }
  }
`;
