import { css } from 'lit';
import { stepStyles } from '../../internal/later/step.styles.js';
import { handoffStyles } from '../../biometric/later/handoff.styles.js';

/** The look of the steps after the first, which comes with their code. */
export const laterStyles = [
  stepStyles,
  handoffStyles,
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
    .guide,
    .arrow {
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
    /* Physical directions: the preview is a mirror, so the person's left is the screen's left in every language. */
    .arrow {
      fill: none;
      stroke: #fff;
      stroke-width: 5;
      stroke-linecap: round;
      stroke-linejoin: round;
      filter: drop-shadow(0 0 2px rgb(0 0 0 / 0.7));
    }
    .arrow.left {
      --toward: translateX(-8%);
    }
    .arrow.right {
      --toward: translateX(8%);
    }
    .arrow.up {
      --toward: translateY(-8%);
    }
    .arrow.down {
      --toward: translateY(8%);
    }
    .arrow.closer {
      --toward: scale(1.12);
    }
    @media (prefers-reduced-motion: no-preference) {
      .arrow {
        animation: toward 1.1s ease-in-out infinite alternate;
      }
    }
    @keyframes toward {
      to {
        transform: var(--toward);
      }
    }
    /* The camera's steps lay out as the widget does, until the light's colours fill the page around the preview. */
    .camera {
      display: contents;
    }
    .camera.lighting {
      position: fixed;
      inset: 0;
      z-index: 2147483647;
      display: flex;
      flex-direction: column;
      align-items: center;
      justify-content: center;
      gap: var(--verify-gap);
      padding: var(--verify-gap);
      background: #fff;
      /* A fade, not a cut, between colours: the gentlest change the check allows (kept under reduced motion, which it is not). */
      transition: background-color 0.2s linear !important;
    }
    .lighting .stage {
      inline-size: min(100%, 60vh * 4 / 3);
      flex: none;
    }
    .lighting .heading,
    .lighting .feedback,
    .lighting .actions {
      margin: 0;
      padding: calc(var(--verify-gap) / 2) var(--verify-gap);
      border-radius: var(--verify-radius);
      background: var(--verify-bg);
      color: var(--verify-fg);
    }
    .progress {
      text-align: center;
      margin-block: 0;
    }
  `,
];
