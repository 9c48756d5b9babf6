/** Registers <otp-verify>. The only module of the component with a side effect. */
import { OtpVerify } from './otp-verify.js';

// Guarded, so that loading the library twice does not throw.
if (!customElements.get('otp-verify')) customElements.define('otp-verify', OtpVerify);

declare global {
  interface HTMLElementTagNameMap {
    'otp-verify': OtpVerify;
  }
}

export { OtpVerify };
