import { css } from 'lit';

/** Continue on your phone: the QR code, the link to copy, the short code (face and voice widgets only). */
export const handoffStyles = css`
  .qr {
    display: block;
    inline-size: min(14rem, 100%);
    aspect-ratio: 1;
    margin-inline: auto;
    /* The code stays dark on light in a dark theme too: phone cameras read it so. */
    border-radius: var(--verify-radius);
  }
  .code {
    font-family: ui-monospace, monospace;
    font-size: 1.15em;
    letter-spacing: 0.08em;
    white-space: nowrap;
  }
  .link-row {
    display: flex;
    flex-wrap: wrap;
    gap: calc(var(--verify-gap) / 2);
  }
  .handoff-link {
    flex: 1 1 12em;
    min-inline-size: 0;
    direction: ltr;
  }
  .handoff-note {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: calc(var(--verify-gap) / 2);
    padding: calc(var(--verify-gap) / 2) var(--verify-gap);
    border: 1px solid var(--verify-border);
    border-radius: var(--verify-radius);
  }
  .handoff-note p {
    margin: 0;
  }
`;
