/** Persian for every widget: `import 'verify-widgets/locales/fa'` once, and widgets whose nearest `lang` is `fa` (or a region of it) speak it, right to left. */
import { fa } from '../translations/fa.js';
import { registerLocale } from '../internal/localize.js';

registerLocale('fa', fa);

export { fa };
