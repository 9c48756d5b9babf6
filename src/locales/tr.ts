/** Turkish for every widget: `import 'verify-widgets/locales/tr'` once, and widgets whose nearest `lang` is `tr` (or a region of it) speak it. */
import { tr } from '../translations/tr.js';
import { registerLocale } from '../internal/localize.js';

registerLocale('tr', tr);

export { tr };
