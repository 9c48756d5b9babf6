// custom-elements.json, from the JSDoc tags of the widgets (@fires, @csspart, @cssproperty,
// @cssstate, @slot) and their Lit properties. `npm run manifest` writes it; the build runs it.
export default {
  globs: ['src/*/*-verify.ts', 'src/*/define.ts', 'src/internal/verify-element.ts', 'src/internal/biometric-element.ts', 'src/events/*.ts'],
  // Tests write it elsewhere, to check the sources without touching the build's copy.
  outdir: process.env.CEM_OUTDIR ?? '.',
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
  ],
};
