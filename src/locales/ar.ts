/**
 * Arabic for every widget: `import 'verify-widgets/locales/ar'` once, and widgets whose nearest
 * `lang` is `ar` (or `ar-SA`, …) speak it, right to left. English is built in; nothing else is.
 */
import { ar } from '../translations/ar.js';
import { registerLocale } from '../internal/localize.js';

registerLocale('ar', ar);

export { ar };
