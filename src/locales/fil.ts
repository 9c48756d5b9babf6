/** Filipino for every widget: `import 'verify-widgets/locales/fil'` once, and widgets whose nearest `lang` is `fil` (or a region of it) speak it. */
import { fil } from '../translations/fil.js';
import { registerLocale } from '../internal/localize.js';

registerLocale('fil', fil);

export { fil };
