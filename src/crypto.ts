/**
 * Encryption of secrets at rest (AES-256-GCM) with the key from VIDOPS_SECRET_KEY.
 * Sealed form: `v1.<iv>.<tag>.<ciphertext>`, each part base64url.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';
export const SECRET_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Raised when a sealed value cannot be opened. Never carries the sealed or plain text. */
export class SecretBoxError extends Error {
  override readonly name = 'SecretBoxError';
}

/**
 * Reads a 32-byte key written as 64 hex characters or as base64 / base64url
 * (e.g. `openssl rand -hex 32` or `openssl rand -base64 32`); undefined for anything else.
 */
export function parseSecretKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/]{43}=?$/.test(trimmed) || /^[A-Za-z0-9_-]{43}=?$/.test(trimmed)) {
    const key = Buffer.from(trimmed, 'base64');
    if (key.length === SECRET_KEY_BYTES) return key;
  }
  return undefined;
}

export class SecretBox {
  private readonly key: Buffer;

  constructor(key: Uint8Array) {
    if (key.length !== SECRET_KEY_BYTES) {
      throw new SecretBoxError(`secret key must be ${SECRET_KEY_BYTES} bytes, got ${key.length}`);
    }
    this.key = Buffer.from(key);
  }

  /**
   * Encrypts `plaintext`. `context` (e.g. the secret's name) is authenticated but not stored:
   * opening needs the same context, so a sealed value cannot be moved to another name.
   */
  seal(plaintext: string, context = ''): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, iv, tag, ciphertext].map(encodePart).join('.');
  }

  open(sealed: string, context = ''): string {
    const parts = sealed.split('.');
    if (parts.length !== 4) {
      throw new SecretBoxError('sealed secret is malformed: expected v1.<iv>.<tag>.<ciphertext>');
    }
    const [version, ivText, tagText, ciphertextText] = parts as [string, string, string, string];
    if (version !== VERSION) {
      throw new SecretBoxError('sealed secret has an unsupported version: expected v1');
    }
    const iv = decodePart(ivText);
    const tag = decodePart(tagText);
    const ciphertext = decodePart(ciphertextText);
    if (iv?.length !== IV_BYTES || tag?.length !== TAG_BYTES || ciphertext === undefined) {
      throw new SecretBoxError('sealed secret is malformed: bad iv, tag or ciphertext encoding');
    }
    try {
      const decipher = createDecipheriv(ALGORITHM, this.key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError('sealed secret could not be opened: it was altered, or sealed with another VIDOPS_SECRET_KEY');
    }
  }
}

function encodePart(part: string | Buffer): string {
  return typeof part === 'string' ? part : part.toString('base64url');
}

function decodePart(text: string): Buffer | undefined {
  return /^[A-Za-z0-9_-]*$/.test(text) ? Buffer.from(text, 'base64url') : undefined;
}
