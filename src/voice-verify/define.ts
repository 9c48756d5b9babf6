/** Registers <voice-verify>. The only module of the component with a side effect. */
import { VoiceVerify } from './voice-verify.js';

// Guarded, so that loading the library twice does not throw.
if (!customElements.get('voice-verify')) customElements.define('voice-verify', VoiceVerify);

declare global {
  interface HTMLElementTagNameMap {
    'voice-verify': VoiceVerify;
  }
}

export { VoiceVerify };
