import { fingerprint } from '../../src/api/fingerprint';
import { mulberry32 } from '../../src/emulator/insights/random';

const of = (text: string, padding = 0) => {
  const bytes = Buffer.concat([Buffer.alloc(padding, 0x20), Buffer.from(text), Buffer.alloc(padding, 0x20)]);
  return fingerprint(bytes, padding, bytes.length - padding);
};

describe('fingerprint', () => {
  const item = JSON.stringify({ id: 'b8f5c7e2-1234-4abc-9def-000000000010', status: 'started', duration: 0, size: 0, name: 'Réunion 🎥' });

  test('a whole number below 2^53: the same bytes give the same one wherever they lie', () => {
    const value = of(item);
    expect(Number.isSafeInteger(value) && value >= 0).toBe(true);
    for (const padding of [1, 2, 3, 4, 7]) expect(of(item, padding)).toBe(value);
    expect(of('')).toBe(of('', 3));
  });

  test('every one-byte change, every cut and every swap of neighbours of an item gives another', () => {
    const bytes = Buffer.from(item);
    const seen = new Set([fingerprint(bytes, 0, bytes.length)]);
    let made = 1;
    for (let i = 0; i < bytes.length; i++) {
      for (const delta of [1, 2, 0x20, 0x80]) {
        const edited = Buffer.from(bytes);
        edited[i] = (edited[i]! + delta) & 0xff;
        seen.add(fingerprint(edited, 0, edited.length));
        made += 1;
      }
      seen.add(fingerprint(bytes, 0, i));
      made += 1;
      if (i + 1 < bytes.length && bytes[i] !== bytes[i + 1]) {
        const swapped = Buffer.from(bytes);
        [swapped[i], swapped[i + 1]] = [swapped[i + 1]!, swapped[i]!];
        seen.add(fingerprint(swapped, 0, swapped.length));
        made += 1;
      }
    }
    expect(seen.size).toBe(made);
  });

  test('200,000 items that differ in their numbers (the usual change of a listed item) share none', () => {
    const random = mulberry32(99);
    const seen = new Set<number>();
    for (let n = 0; n < 200_000; n++) {
      const text = `{"id":"A${n % 1000}","status":"started","duration":${Math.floor(random() * 1e6)},"size":${n}}`;
      seen.add(of(text));
    }
    expect(seen.size).toBe(200_000);
  });
});
