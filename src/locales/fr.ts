/** French for every widget: `import 'verify-widgets/locales/fr'` once, and widgets whose nearest `lang` is `fr` (or a region of it) speak it. */
import { fr } from '../translations/fr.js';
import { registerLocale } from '../internal/localize.js';

registerLocale('fr', fr);

export { fr };
