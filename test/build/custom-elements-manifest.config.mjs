// dist/custom-elements.json, from the JSDoc tags of the widgets (@fires, @csspart, @cssproperty,
// @cssstate, @slot) and their Lit properties. `npm run manifest` writes it; the build runs it.
import { customElementVsCodePlugin } from 'custom-element-vs-code-integration';
import { customElementJetBrainsPlugin } from 'custom-element-jet-brains-integration';
import { frameworkTypesPlugin } from './framework-types.mjs';

const outdir = process.env.CEM_OUTDIR ?? 'dist';
// Element types for each framework and editor data, written beside the compiled widgets they name.
const types = `${outdir}/types`;
const editors = { outdir: types, hideLogs: true };

export default {
  globs: ['src/*/*-verify.ts', 'src/*/define.ts', 'src/internal/verify-element.ts', 'src/biometric/biometric-element.ts', 'src/events/*.ts'],
  // Tests write it elsewhere, to check the sources without touching the build's copy.
  outdir,
  // The React wrappers match the widgets' glob but are not elements; the events' index only
  // re-exports; the metrics are types alone, a module the build does not emit.
  exclude: ['src/react/**', 'src/events/index.ts', 'src/events/metrics.ts'],
  litelement: true,
  packagejson: false,
  plugins: [
    {
      name: 'named-events-only',
      // dispatchEvent(new SomeEvent(...)) is seen as an event without a name; @fires names them all.
      packageLinkPhase({ customElementsManifest }) {
        for (const mod of customElementsManifest.modules) {
          for (const declaration of mod.declarations ?? []) {
            if (declaration.events) declaration.events = declaration.events.filter((event) => event.name);
          }
        }
      },
    },
    {
      name: 'public-by-default',
      // The lit plugin marks fields declared in `static properties` public; the schema's default is
      // public and every other field leaves it out, so these do too. Private members (`#engage`) are
      // no one's interface: a subclass cannot reach them, so the manifest leaves them out.
      packageLinkPhase({ customElementsManifest }) {
        for (const mod of customElementsManifest.modules) {
          for (const declaration of mod.declarations ?? []) {
            if (declaration.members) declaration.members = declaration.members.filter((member) => member.privacy !== 'private');
            for (const member of declaration.members ?? []) if (member.privacy === 'public') delete member.privacy;
          }
        }
      },
    },
    {
      name: 'step-types',
      // `step` and `strings` are declared once, in VerifyElement<Step, S>; each widget's own types are
      // its type arguments (`extends VerifyElement<OtpStep, OtpStrings>`), which the analyzer does not
      // carry to inherited members.
      analyzePhase({ ts, node, moduleDoc }) {
        if (!ts.isClassDeclaration(node) || !node.name) return;
        const [step, strings] = node.heritageClauses?.[0]?.types[0]?.typeArguments ?? [];
        const declaration = moduleDoc.declarations?.find((d) => d.name === node.name.text);
        if (step && declaration) declaration.stepType = step.getText();
        if (strings && declaration) declaration.stringsType = strings.getText();
      },
      packageLinkPhase({ customElementsManifest }) {
        for (const mod of customElementsManifest.modules) {
          for (const declaration of mod.declarations ?? []) {
            const step = declaration.members?.find((member) => member.name === 'step');
            if (step && declaration.stepType) step.type = { text: declaration.stepType };
            // Likewise the strings: each widget's own (OtpStrings, …), as VerifyElement<Step, S> names them.
            const strings = declaration.members?.find((member) => member.name === 'strings');
            if (strings && declaration.stringsType) strings.type = { text: `Partial<${declaration.stringsType}>` };
            delete declaration.stepType;
            delete declaration.stringsType;
          }
        }
      },
    },
    {
      name: 'event-details',
      // Each event class takes its `detail` as a constructor parameter property, which the analyzer
      // does not list; the manifest gives it as the field it is, with its type, so a reader of an
      // element's `@fires {VerifySuccessEvent}` finds what the event carries.
      analyzePhase({ ts, node, moduleDoc }) {
        if (!ts.isClassDeclaration(node) || !node.name) return;
        const constructor = node.members.find((member) => ts.isConstructorDeclaration(member));
        const detail = constructor?.parameters.find((p) => p.name.getText() === 'detail' && p.type && ts.getModifiers(p)?.length);
        const declaration = moduleDoc.declarations?.find((d) => d.name === node.name.text);
        if (!detail || !declaration) return;
        declaration.members = [...(declaration.members ?? []), { kind: 'field', name: 'detail', type: { text: detail.type.getText() }, readonly: true }];
      },
    },
    {
      name: 'shipped-paths',
      // The manifest ships in the package, where the sources do not: each module names its compiled file.
      packageLinkPhase({ customElementsManifest }) {
        const shipped = (value) => value.replace(/^\/?src\/(.+)\.[jt]s$/, 'dist/$1.js');
        (function visit(node) {
          for (const [key, value] of Object.entries(node)) {
            if ((key === 'path' || key === 'module') && typeof value === 'string') node[key] = shipped(value);
            else if (value && typeof value === 'object') visit(value);
          }
        })(customElementsManifest);
      },
    },
    frameworkTypesPlugin({ outdir: types }),
    customElementVsCodePlugin({ ...editors, htmlFileName: 'vscode.html-custom-data.json', cssFileName: 'vscode.css-custom-data.json' }),
    customElementJetBrainsPlugin({ ...editors, packageJson: false }),
  ],
};
