const EASTERN_DIGITS = /[\u0660-\u0669\u06f0-\u06f9]/g;

/** Arabic-Indic (٠-٩) and Persian (۰-۹) digits to ASCII, so a code or number typed on any keyboard works. */
export function asciiDigits(text: string): string {
  return text.replace(EASTERN_DIGITS, (d) => String(d.charCodeAt(0) & 0xf));
}
