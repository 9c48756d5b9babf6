/** The CDN file: all three widgets registered, Lit inside, for one `<script type="module">`. */
import './otp-verify/define.js';
import './face-verify/define.js';
import './voice-verify/define.js';

export * from './index.js';
