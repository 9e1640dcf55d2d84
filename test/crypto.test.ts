import { randomBytes } from 'node:crypto';
import { parseSecretKey, SecretBox, SecretBoxError } from '../src/crypto';

const key = Buffer.alloc(32, 7);
const box = new SecretBox(key);
const PLAINTEXT = 'project secret: 9f8e7d6c5b4a';

describe('SecretBox', () => {
  it('round-trips text, including non-ASCII and empty strings', () => {
    for (const text of [PLAINTEXT, 'ünïcødé ✓ 日本', '']) {
      expect(box.open(box.seal(text))).toBe(text);
    }
  });

  it('writes v1.<iv>.<tag>.<ciphertext> in base64url, fresh IV each time', () => {
    const sealed = box.seal(PLAINTEXT);
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(PLAINTEXT);
    expect(box.seal(PLAINTEXT)).not.toBe(sealed);
  });

  it('binds the context: the same context opens, another one does not', () => {
    const sealed = box.seal(PLAINTEXT, 'projects/prod/apiSecret');
    expect(box.open(sealed, 'projects/prod/apiSecret')).toBe(PLAINTEXT);
    expect(() => box.open(sealed, 'projects/staging/apiSecret')).toThrow(SecretBoxError);
  });

  function tamper(sealed: string, partIndex: number): string {
    const parts = sealed.split('.');
    const bytes = Buffer.from(parts[partIndex] as string, 'base64url');
    bytes[0] = (bytes[0] as number) ^ 1;
    parts[partIndex] = bytes.toString('base64url');
    return parts.join('.');
  }

  it.each([
    ['iv', 1],
    ['tag', 2],
    ['ciphertext', 3],
  ])('rejects a tampered %s without echoing the content', (_part, index) => {
    const tampered = tamper(box.seal(PLAINTEXT), index);
    expect(() => box.open(tampered)).toThrow(/altered, or sealed with another VIDOPS_SECRET_KEY/);
    expect(() => box.open(tampered)).not.toThrow(tampered.split('.')[3]);
  });

  it('rejects a value sealed with another key', () => {
    const other = new SecretBox(randomBytes(32));
    expect(() => box.open(other.seal(PLAINTEXT))).toThrow(SecretBoxError);
  });

  it.each([
    ['not sealed at all', 'plain text secret'],
    ['another version', 'v2.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAA'],
    ['a short iv', 'v1.AAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAA'],
    ['non-base64url parts', 'v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.!!!!'],
  ])('rejects %s with a clear message that does not echo it', (_name, sealed) => {
    expect(() => box.open(sealed)).toThrow(SecretBoxError);
    expect(() => box.open(sealed)).not.toThrow(sealed);
  });

  it('refuses keys that are not 32 bytes', () => {
    expect(() => new SecretBox(Buffer.alloc(16))).toThrow('secret key must be 32 bytes, got 16');
  });
});

describe('parseSecretKey', () => {
  const raw = Buffer.from(Array.from({ length: 32 }, (_, i) => i * 7 + 250));

  it.each([
    ['hex', raw.toString('hex')],
    ['upper-case hex', raw.toString('hex').toUpperCase()],
    ['base64', raw.toString('base64')],
    ['base64 without padding', raw.toString('base64').replace(/=$/, '')],
    ['base64url', raw.toString('base64url')],
    ['surrounded by whitespace', `  ${raw.toString('hex')}\n`],
  ])('reads %s', (_name, text) => {
    expect(parseSecretKey(text)).toEqual(raw);
  });

  it.each([
    ['too short hex', raw.toString('hex').slice(2)],
    ['16 bytes of base64', randomBytes(16).toString('base64')],
    ['48 bytes of base64', randomBytes(48).toString('base64')],
    ['a passphrase', 'correct horse battery staple'],
    ['empty', ''],
  ])('rejects %s', (_name, text) => {
    expect(parseSecretKey(text)).toBeUndefined();
  });
});
