/** Bangla for every widget: `import 'verify-widgets/locales/bn'` once, and widgets whose nearest `lang` is `bn` (or a region of it) speak it. */
import { bn } from '../translations/bn.js';
import { registerLocale } from '../internal/localize.js';

registerLocale('bn', bn);

export { bn };
