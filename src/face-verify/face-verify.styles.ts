import { css } from 'lit';
import { baseStyles } from '../internal/base.styles.js';

export const styles = [
  baseStyles,
  css`
    .stage {
      position: relative;
      overflow: hidden;
      aspect-ratio: 4 / 3;
      border-radius: var(--verify-radius);
      background: #000;
    }
    video,
    canvas {
      display: block;
      inline-size: 100%;
      block-size: 100%;
      object-fit: cover;
    }
    /* A mirror is what people expect of a selfie preview; the photo itself is not mirrored. */
    video {
      transform: scaleX(-1);
    }
    .guide {
      position: absolute;
      inset: 0;
      inline-size: 100%;
      block-size: 100%;
    }
    .shade {
      fill: rgb(0 0 0 / 0.45);
    }
    .ring {
      fill: none;
      stroke: #fff;
      stroke-width: 0.8;
      stroke-dasharray: 2 1.5;
      vector-effect: non-scaling-stroke;
    }
    .guide.good .ring {
      stroke: var(--verify-success);
      stroke-width: 3;
      stroke-dasharray: none;
    }
    .feedback {
      font-weight: 600;
      text-align: center;
    }
    .feedback.warn {
      color: var(--verify-fg);
    }
    .feedback.good {
      color: var(--verify-success);
    }
    .upload {
      display: inline-flex;
      align-items: center;
      cursor: pointer;
      min-block-size: 2.75em;
      padding: 0.5em 1.1em;
      border-radius: var(--verify-radius);
    }
    .upload:focus-within {
      outline: 2px solid var(--verify-accent);
      outline-offset: 2px;
    }
  `,
];
