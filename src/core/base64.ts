/** Bytes to base64 without a data: prefix, the way samples travel in the service's JSON. */
export function bytesToBase64(bytes: Uint8Array): string {
  // The platform's own encoder (Chromium 140, Firefox 133, Safari 18.2) is several times faster.
  const native = (bytes as Uint8Array & { toBase64?: () => string }).toBase64;
  if (native) return native.call(bytes);
  let binary = '';
  // In slices, so that String.fromCharCode's argument list stays short.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
