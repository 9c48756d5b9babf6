/**
 * The handler's keyed crypto through node:crypto: the same bytes as the Web Crypto one (a Node
 * instance and an edge one share a store), made synchronously, with no job per call.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { memo, type KeyedCrypto } from '../keyed-crypto.js';

const sealKey = memo((secret) => createHash('sha256').update(`pending:${secret}`).digest());
const TAG = 16;
const IV = 12;

// Random IVs drawn from a pool: one call to the system's random source per 256 seals, not per seal.
let ivs = Buffer.alloc(0);
let nextIv = 0;
function freshIv(): Buffer {
  if (nextIv === ivs.length) [ivs, nextIv] = [randomBytes(IV * 256), 0];
  return ivs.subarray(nextIv, (nextIv += IV));
}

export const nodeKeyedCrypto: KeyedCrypto = {
  hmac: async (secret, data) => createHmac('sha256', secret).update(data).digest(),
  async seal(secret, plain) {
    const iv = freshIv();
    const cipher = createCipheriv('aes-256-gcm', sealKey(secret), iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${iv.toString('base64')}.${sealed.toString('base64')}`;
  },
  async open(secret, text) {
    try {
      const [iv = '', sealed = ''] = text.split('.');
      const bytes = Buffer.from(sealed, 'base64');
      if (bytes.length < TAG) return null;
      const decipher = createDecipheriv('aes-256-gcm', sealKey(secret), Buffer.from(iv, 'base64'));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG));
      return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG)), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  },
};
