/** Indonesian for every widget: `import 'verify-widgets/locales/id'` once, and widgets whose nearest `lang` is `id` (or a region of it) speak it. */
import { id } from '../translations/id.js';
import { registerLocale } from '../internal/localize.js';

registerLocale('id', id);

export { id };
