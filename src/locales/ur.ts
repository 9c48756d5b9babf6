/** Urdu for every widget: `import 'verify-widgets/locales/ur'` once, and widgets whose nearest `lang` is `ur` (or a region of it) speak it, right to left. */
import { ur } from '../translations/ur.js';
import { registerLocale } from '../internal/localize.js';

registerLocale('ur', ur);

export { ur };
