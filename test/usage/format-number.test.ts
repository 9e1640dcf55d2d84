import { formatNumber } from '../../src/usage/format';

describe('formatNumber', () => {
  it('writes en-US digits: thousands grouped, trailing zeros dropped', () => {
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(950)).toBe('950');
    expect(formatNumber(12_345)).toBe('12,345');
    expect(formatNumber(1_234_567.891, 1)).toBe('1,234,567.9');
    expect(formatNumber(12, 1)).toBe('12');
    expect(formatNumber(-4_321.5)).toBe('-4,322');
  });

  it('rounds the shortest decimal form half away from zero, as Intl.NumberFormat does', () => {
    expect(formatNumber(0.15, 1)).toBe('0.2');
    expect(formatNumber(1.005, 2)).toBe('1.01');
    expect(formatNumber(9.95, 1)).toBe('10');
    expect(formatNumber(999.5)).toBe('1,000');
    expect(formatNumber(2.5)).toBe('3');
  });

  it('agrees with Intl.NumberFormat en-US on 60,000 values', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 48_271) % 2_147_483_647) - 1) / 2_147_483_646;
    const values = [0, -0, 0.05, 0.45, 99.95, 999.95, 1e-7, 123_456_789.99, 1e20];
    for (let i = 0; i < 10_000; i++) values.push(random() * 10 ** Math.floor(random() * 12), Math.round(random() * 1e7) / 100);
    const mismatches: string[] = [];
    for (const value of values) {
      for (const v of [value, -value]) {
        for (const digits of [0, 1, 2]) {
          const want = new Intl.NumberFormat('en-US', { maximumFractionDigits: digits }).format(v);
          if (formatNumber(v, digits) !== want) mismatches.push(`${v} (${digits}): ${formatNumber(v, digits)} ≠ ${want}`);
        }
      }
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
  });

  it('leaves what is not a plain number as String writes it', () => {
    expect(formatNumber(Number.NaN)).toBe('NaN');
    expect(formatNumber(Number.POSITIVE_INFINITY)).toBe('Infinity');
    expect(formatNumber(1e21)).toBe('1e+21');
  });
});
