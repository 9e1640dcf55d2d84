import fc from 'fast-check';
import { mrkdwn, tagNames } from './web-modules';

const { escapeHtml, formatSlackDate, mrkdwnToHtml, plainToHtml, safeUrl } = mrkdwn;
const ctx = { users: { U0LOCAL01: 'you' }, channels: { C0LOCAL01: 'video-ops' }, timeZone: 'UTC' };

describe('mrkdwnToHtml', () => {
  test.each([
    ['*bold*', '<strong>bold</strong>'],
    ['_italic_', '<em>italic</em>'],
    ['~strike~', '<del>strike</del>'],
    ['`a *b* c`', '<code>a *b* c</code>'],
    ['```\nline 1\n*not bold*\n```', '<pre class="code-block">line 1\n*not bold*</pre>'],
    ['one\ntwo', 'one<br>two'],
    ['&lt;tag&gt; &amp; more', '&lt;tag&gt; &amp; more'],
    ['a*b*c and snake_case_name', 'a*b*c and snake_case_name'],
    ['<!here> look', '<span class="mention">@here</span> look'],
    [':warning: careful', '⚠️ careful'],
    [':no_such_emoji_here:', ':no_such_emoji_here:'],
    ['&gt; quoted\n&gt; still\nplain', '<blockquote>quoted<br>still</blockquote>plain'],
  ])('%j → %j', (input, expected) => {
    expect(mrkdwnToHtml(input, ctx)).toBe(expected);
  });

  test('links: label, escaped entities in the URL, and formatting around them', () => {
    expect(mrkdwnToHtml('*<https://example.com/a?x=1&amp;y=2|the &lt;file&gt;>*', ctx)).toBe(
      '<strong><a href="https://example.com/a?x=1&amp;y=2" target="_blank" rel="noopener noreferrer">the &lt;file&gt;</a></strong>',
    );
    expect(mrkdwnToHtml('<https://example.com>', ctx)).toContain('>https://example.com</a>');
  });

  test('mentions of users and channels use names when known', () => {
    expect(mrkdwnToHtml('<@U0LOCAL01> in <#C0LOCAL01>', ctx)).toBe(
      '<span class="mention" data-user="U0LOCAL01">@you</span> in <span class="mention channel" data-channel="C0LOCAL01">#video-ops</span>',
    );
    expect(mrkdwnToHtml('<#C999|town-hall>', ctx)).toContain('#town-hall');
    expect(mrkdwnToHtml('<@U999>', ctx)).toContain('@U999');
  });

  test('dates render from the epoch in the given time zone, with the fallback as title', () => {
    const html = mrkdwnToHtml('<!date^1700000000^{date_short} {time}|2023-11-14 22:13 UTC>', ctx);
    expect(html).toBe('<time datetime="2023-11-14T22:13:20.000Z" title="2023-11-14 22:13 UTC">Nov 14, 2023 10:13 PM</time>');
    expect(mrkdwnToHtml('<!date^oops^{date}|the fallback>', ctx)).toContain('>the fallback</time>');
  });

  test('scripts in text or links never become markup', () => {
    const html = mrkdwnToHtml('&lt;script&gt;alert(1)&lt;/script&gt; <javascript:alert(1)|click> <img src=x onerror=alert(1)> "quote"', ctx);
    expect(tagNames(html)).toEqual([]);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('&quot;quote&quot;');
  });

  test('any text yields only the tags mrkdwn can produce, and no event-handler attributes', () => {
    const allowed = new Set(['strong', 'em', 'del', 'code', 'pre', 'br', 'blockquote', 'a', 'span', 'time']);
    const pieces = fc.constantFrom(
      '<',
      '>',
      '&',
      '&lt;',
      '&gt;',
      '&amp;',
      '*',
      '_',
      '~',
      '`',
      '```',
      '\n',
      '|',
      '@',
      '#',
      '!',
      '"',
      "'",
      ' onerror=x ',
      'javascript:',
      'https://x.y',
      '<script>',
      'a',
      'date^1^{time}',
      '\uE000',
      '\uE001',
      '0',
      ':warning:',
    );
    fc.assert(
      fc.property(
        fc.array(pieces, { maxLength: 30 }).map((parts) => parts.join('')),
        (text) => {
          const html = mrkdwnToHtml(text, ctx);
          for (const tag of tagNames(html)) expect(allowed.has(tag)).toBe(true);
          // Outside tags, no raw quote or angle bracket survives unescaped.
          const textOnly = html.replace(/<\/?[a-z]+(?: [a-z-]+="[^"]*")*>/g, '');
          expect(textOnly).not.toMatch(/[<>"]/);
          // Attribute names, not values: text quoted in a value (data-channel=" onerror=x ") is inert.
          for (const tag of html.match(/<[^>]*>/g) ?? []) expect(tag.replace(/"[^"]*"/g, '""')).not.toMatch(/\son[a-z]+=/i);
          expect(html).not.toMatch(/href="(?!https?:|mailto:|tel:|slack:|\/)/);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('plain text, URLs, escaping, dates', () => {
  test('plain_text is escaped, keeps line breaks and shows emoji', () => {
    expect(plainToHtml('<b>hi</b>\n:white_check_mark: *x*')).toBe('&lt;b&gt;hi&lt;/b&gt;<br>✅ *x*');
    expect(plainToHtml(':eyes:', { emoji: false })).toBe(':eyes:');
  });

  test('only web, mail, phone, slack and same-origin URLs are usable', () => {
    expect(safeUrl('https://a.b/c')).toBe('https://a.b/c');
    expect(safeUrl('/local/files/F1/chart.png')).toBe('/local/files/F1/chart.png');
    expect(safeUrl('//evil.example/x')).toBeNull();
    expect(safeUrl('javascript:alert(1)')).toBeNull();
    expect(safeUrl(' JaVaScRiPt:alert(1)')).toBeNull();
    expect(safeUrl('data:text/html,<script>')).toBeNull();
  });

  test('escapeHtml covers attribute quotes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;');
  });

  test('Slack date tokens, with Today/Yesterday for the pretty forms', () => {
    const epoch = Date.UTC(2026, 10, 22, 9, 5, 7) / 1000;
    const opts = { timeZone: 'UTC', nowMs: Date.UTC(2026, 10, 22, 20, 0, 0) };
    expect(formatSlackDate(epoch, '{date_num} {time_secs}', opts)).toBe('2026-11-22 9:05:07 AM');
    expect(formatSlackDate(epoch, '{date_long}', opts)).toBe('Sunday, November 22, 2026');
    expect(formatSlackDate(epoch, '{date_short_pretty} {time}', opts)).toBe('Today 9:05 AM');
    expect(formatSlackDate(epoch, '{date_pretty}', { ...opts, nowMs: opts.nowMs + 86_400_000 })).toBe('Yesterday');
    expect(formatSlackDate(epoch, '{date}', { ...opts, nowMs: opts.nowMs + 5 * 86_400_000 })).toBe('November 22, 2026');
    expect(formatSlackDate(Number.NaN, '{date}', opts)).toBeNull();
  });
});
