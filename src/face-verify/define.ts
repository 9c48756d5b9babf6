/** Registers <face-verify>. The only module of the component with a side effect. */
import { FaceVerify } from './face-verify.js';

// Guarded, so that loading the library twice does not throw.
if (!customElements.get('face-verify')) customElements.define('face-verify', FaceVerify);

declare global {
  interface HTMLElementTagNameMap {
    'face-verify': FaceVerify;
  }
}

export { FaceVerify };
