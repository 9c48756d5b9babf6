/** Hindi for every widget: `import 'verify-widgets/locales/hi'` once, and widgets whose nearest `lang` is `hi` (or a region of it) speak it. */
import { hi } from '../translations/hi.js';
import { registerLocale } from '../internal/localize.js';

registerLocale('hi', hi);

export { hi };
