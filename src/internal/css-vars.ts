/**
 * Sets CSS custom properties on an element through the CSSOM. A `style` attribute (which lit's
 * styleMap also writes on first render) is inline style, refused by a strict CSP (`style-src
 * 'self'`); CSSOM changes are not.
 */
import { noChange } from 'lit';
import { Directive, directive, PartType, type ElementPart, type PartInfo } from 'lit/directive.js';

class CssVars extends Directive {
  constructor(info: PartInfo) {
    super(info);
    if (info.type !== PartType.ELEMENT) throw new Error('cssVars() belongs on an element: <div ${cssVars({...})}>');
  }

  render(_vars: Record<`--${string}`, string>) {
    return noChange;
  }

  override update(part: ElementPart, [vars]: [Record<`--${string}`, string>]) {
    const { style } = part.element as HTMLElement;
    for (const [name, value] of Object.entries(vars)) style.setProperty(name, value);
    return noChange;
  }
}

export const cssVars = directive(CssVars);
