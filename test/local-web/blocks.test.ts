import { recordStartModal, EMPTY_START_FORM } from '../../src/views/archive-modal';
import { broadcastStartModal } from '../../src/views/broadcast-modal';
import { BROADCAST_BLOCK } from '../../src/views/ids';
import { blocks, messages, tagNames, views, type LocalMessage } from './web-modules';

const { renderBlock, renderBlocks, renderElement } = blocks;
const ctx = { users: { U0LOCAL01: 'you' }, channels: { C0LOCAL01: 'video-ops', C0LOCAL02: 'town-hall' }, timeZone: 'UTC' };
const plain = (text: string) => ({ type: 'plain_text', text, emoji: true });
const md = (text: string) => ({ type: 'mrkdwn', text });
const option = (text: string, value: string) => ({ text: plain(text), value });

/** The JSON a rendered element carries in data-element, read back as the page does. */
function elementDataOf(html: string): unknown[] {
  return [...html.matchAll(/data-element="([^"]*)"/g)].map((m) =>
    JSON.parse(
      m[1]!
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&'),
    ),
  );
}

describe('blocks', () => {
  test('header is plain text, escaped', () => {
    expect(renderBlock({ type: 'header', text: plain('<b>Recording</b> :movie_camera:') }, 0, ctx)).toBe(
      '<h3 class="bk-block bk-header" data-block-id="blk-0">&lt;b&gt;Recording&lt;/b&gt; 🎥</h3>',
    );
  });

  test('section with mrkdwn text, fields and a button accessory carrying its confirm dialog', () => {
    const confirm = { title: plain('Stop?'), text: md('Stop *it*?'), confirm: plain('Stop'), deny: plain('Keep'), style: 'danger' };
    const html = renderBlock(
      {
        type: 'section',
        block_id: 'card',
        text: md('*Weekly* review'),
        fields: [md('*Status*\nstarted'), md('*Size*\n0 B')],
        accessory: { type: 'button', action_id: 'stop', text: plain('Stop'), style: 'danger', value: 'v1', confirm },
      },
      0,
      ctx,
    );
    expect(html).toContain('<div class="bk-section-text"><strong>Weekly</strong> review</div>');
    expect(html).toContain('<div class="bk-field"><strong>Status</strong><br>started</div>');
    expect(html).toMatch(
      /<button type="button" class="bk-btn bk-btn--danger" data-kind="button" data-block-id="card" data-action-id="stop" data-element="[^"]+">Stop<\/button>/,
    );
    expect(elementDataOf(html)).toEqual([{ type: 'button', action_id: 'stop', text: plain('Stop'), style: 'danger', value: 'v1', confirm }]);
  });

  test('context mixes text and images; divider; image block with title', () => {
    expect(renderBlock({ type: 'context', elements: [{ type: 'image', image_url: 'https://x.y/i.png', alt_text: 'icon' }, md('_note_')] }, 2, ctx)).toBe(
      '<div class="bk-block bk-context" data-block-id="blk-2"><img class="bk-context-image" src="https://x.y/i.png" alt="icon" loading="lazy"><span><em>note</em></span></div>',
    );
    expect(renderBlock({ type: 'divider' }, 0, ctx)).toBe('<hr class="bk-block bk-divider">');
    const image = renderBlock({ type: 'image', image_url: 'https://x.y/chart.png', alt_text: 'Daily minutes', title: plain('Usage') }, 0, ctx);
    expect(image).toContain('<figcaption>Usage</figcaption><img class="bk-image-img" src="https://x.y/chart.png" alt="Daily minutes" loading="lazy">');
  });

  test('an image block naming a Slack file shows the stand-in’s copy of it (by id) or its URL', () => {
    expect(renderBlock({ type: 'image', slack_file: { id: 'F0CHART' }, alt_text: 'Daily minutes' }, 0, ctx)).toContain(
      '<img class="bk-image-img" src="/files/F0CHART/" alt="Daily minutes" loading="lazy">',
    );
    expect(renderBlock({ type: 'image', slack_file: { url: 'https://x.y/f.png' }, alt_text: 'f' }, 0, ctx)).toContain('src="https://x.y/f.png"');
    expect(renderBlock({ type: 'image', slack_file: { url: 'javascript:alert(1)' }, alt_text: 'f' }, 0, ctx)).not.toContain('javascript:');
  });

  test('images with a script URL are not rendered as images', () => {
    const html = renderBlock({ type: 'image', image_url: 'javascript:alert(1)', alt_text: '"><script>x</script>' }, 0, ctx);
    expect(tagNames(html)).toEqual(['figure', 'span', 'span', 'figure']);
    expect(html).not.toContain('javascript:');
  });

  test('actions: primary button, static select with groups and initial option, external select, overflow menu', () => {
    const html = renderBlock(
      {
        type: 'actions',
        block_id: 'row',
        elements: [
          { type: 'button', action_id: 'go', text: plain('Download'), style: 'primary', value: 'x' },
          {
            type: 'static_select',
            action_id: 'pick',
            placeholder: plain('Layout'),
            option_groups: [{ label: plain('Common'), options: [option('Best fit', 'bestFit'), option('PiP', 'pip')] }],
            initial_option: option('PiP', 'pip'),
          },
          { type: 'external_select', action_id: 'session', placeholder: plain('Pick a session'), min_query_length: 0 },
          { type: 'overflow', action_id: 'more', options: [option('Delete', 'delete'), option('Docs', 'docs')] },
        ],
      },
      0,
      ctx,
    );
    expect(html).toContain('class="bk-btn bk-btn--primary"');
    expect(html).toContain('<optgroup label="Common"><option value="bestFit">Best fit</option><option value="pip" selected>PiP</option></optgroup>');
    expect(html).toContain('aria-label="Layout"');
    expect(html).toMatch(/<div class="bk-external" data-kind="external" data-block-id="row" data-action-id="session"[^>]*data-selected="\[\]">/);
    expect(html).toContain('role="combobox"');
    expect(html).toContain('<summary class="bk-btn bk-btn--icon" aria-label="More actions">⋯</summary>');
    expect(html.match(/role="menuitem"/g)).toHaveLength(2);
    expect(html).toContain('data-value="delete"');
  });

  test('inputs: labels tied to controls, optional marker, hint, initial values, per-field error', () => {
    const html = renderBlocks(
      [
        {
          type: 'input',
          block_id: 'name',
          optional: true,
          label: plain('Name'),
          hint: plain('Up to 255'),
          element: { type: 'plain_text_input', action_id: 'v', initial_value: 'Weekly "review"', max_length: 255 },
        },
        {
          type: 'input',
          block_id: 'css',
          label: plain('Stylesheet'),
          element: { type: 'plain_text_input', action_id: 'v', multiline: true, initial_value: '<style>' },
        },
        {
          type: 'input',
          block_id: 'count',
          label: plain('Bitrate'),
          element: { type: 'number_input', action_id: 'v', is_decimal_allowed: false, min_value: '100', max_value: '6000' },
        },
        {
          type: 'input',
          block_id: 'media',
          label: plain('Record'),
          element: {
            type: 'checkboxes',
            action_id: 'v',
            options: [option('Audio', 'audio'), option('Video', 'video')],
            initial_options: [option('Video', 'video')],
          },
        },
        {
          type: 'input',
          block_id: 'mode',
          dispatch_action: true,
          label: plain('Output'),
          element: {
            type: 'radio_buttons',
            action_id: 'm',
            options: [option('Composed', 'composed'), option('Individual', 'individual')],
            initial_option: option('Composed', 'composed'),
          },
        },
        { type: 'input', block_id: 'day', label: plain('Day'), element: { type: 'datepicker', action_id: 'd', initial_date: '2026-11-22' } },
        {
          type: 'input',
          block_id: 'where',
          label: plain('Channel'),
          element: { type: 'conversations_select', action_id: 'c', initial_conversation: 'C0LOCAL02' },
        },
      ],
      { ...ctx, scope: 'V1', errors: { count: 'Between 100 and 6000.' } },
    );
    expect(html).toContain('<label class="bk-label" for="in-V1-name-v">Name <span class="bk-optional">(optional)</span></label>');
    expect(html).toMatch(/<input class="bk-text" [^>]*id="in-V1-name-v"[^>]*maxlength="255"[^>]*value="Weekly &quot;review&quot;">/);
    expect(html).toContain('<div class="bk-hint" id="in-V1-name-v-hint">Up to 255</div>');
    expect(html).toMatch(/<textarea class="bk-text" rows="4"[^>]*>&lt;style&gt;<\/textarea>/);
    expect(html).toMatch(/type="number" inputmode="numeric" step="1" min="100" max="6000"/);
    expect(html).toContain('<div class="bk-block bk-input bk-input--error" data-block-id="count">');
    expect(html).toContain('<div class="bk-error" role="alert" id="in-V1-count-v-error">Between 100 and 6000.</div>');
    expect(html).toMatch(/<input class="bk-text" [^>]*aria-describedby="in-V1-count-v-error" aria-invalid="true"[^>]*id="in-V1-count-v"/);
    expect(html).toMatch(/<input class="bk-text" [^>]*aria-describedby="in-V1-name-v-hint"[^>]*id="in-V1-name-v"/);
    expect(html.match(/aria-invalid/g)).toHaveLength(1);
    expect(html).toContain('<legend class="bk-label">Record </legend>');
    expect(html).toMatch(/type="checkbox" id="in-V1-media-v-0" name="in-V1-media-v" value="audio">/);
    expect(html).toMatch(/type="checkbox" id="in-V1-media-v-1" name="in-V1-media-v" value="video" checked>/);
    expect(html).toContain('data-block-id="mode" data-dispatch="true"');
    expect(html).toMatch(/type="radio" [^>]*value="composed" checked>/);
    expect(html).toMatch(/type="date"[^>]*value="2026-11-22"/);
    expect(html).toContain('<option value="C0LOCAL02" selected>#town-hall</option>');
    expect(html.match(/data-input=/g)).toHaveLength(7);
  });

  test('unknown blocks and elements say so instead of vanishing', () => {
    expect(renderBlock({ type: 'rich_text_fancy' }, 0, ctx)).toContain('Unsupported block: rich_text_fancy');
    expect(renderElement({ type: 'workflow_button' }, 'b', { ctx })).toContain('Unsupported element: workflow_button');
  });
});

describe('modals and Home', () => {
  test("the app's own /record start form renders every field with a label and its submit button", () => {
    const view = { id: 'V123', ...recordStartModal(EMPTY_START_FORM, { c: 'C0LOCAL01' }) };
    const html = views.renderModal(view, ctx);
    expect(html).toContain('<h2 id="modal-title-V123">Start a recording</h2>');
    expect(html).toContain('<button type="submit" class="bk-btn bk-btn--primary">Start recording</button>');
    expect(html).toContain('>Cancel</button>');
    for (const label of ['Session', 'Name', 'Resolution', 'Layout', 'Tag']) expect(html).toMatch(new RegExp(`<label class="bk-label" for="[^"]+">${label} `));
    for (const legend of ['Output', 'Streams', 'Record']) expect(html).toContain(`<legend class="bk-label">${legend} `);
    expect(html).toContain('#video-ops');
  });

  test("the broadcast form shows the app's error under the RTMP URL field", () => {
    const view = { id: 'V9', ...broadcastStartModal({ metadata: { r: 1 } }) };
    const urlBlock = `${BROADCAST_BLOCK.rtmpUrlPrefix}1`;
    expect(view.blocks.map((b) => b.block_id)).toContain(urlBlock);
    const html = views.renderModal({ ...view, errors: { [urlBlock]: 'The URL needs a port, e.g. :1935.' } }, ctx);
    const start = html.indexOf(`data-block-id="${urlBlock}"`);
    const error = html.indexOf('The URL needs a port, e.g. :1935.');
    expect(start).toBeGreaterThan(0);
    expect(error).toBeGreaterThan(start);
    expect(html.match(/class="bk-error"/g)).toHaveLength(1);
  });

  test('Home renders its blocks, or says it is not published', () => {
    expect(views.renderHome({ id: 'VH', type: 'home', blocks: [{ type: 'header', text: plain('Dashboard') }] }, ctx)).toContain('Dashboard</h3>');
    expect(views.renderHome(null, ctx)).toContain('not been published');
  });
});

describe('messages', () => {
  const bot = (ts: string, text: string, extra: Partial<LocalMessage> = {}): LocalMessage => ({
    channel: 'C0LOCAL01',
    ts,
    bot_id: 'B0LOCAL01',
    text,
    ...extra,
  });

  test('timeline: parents in order with their replies; replies without a parent stay visible; other channels left out', () => {
    const list = [
      bot('3.0', 'reply b', { thread_ts: '1.0' }),
      bot('1.0', 'card'),
      bot('2.0', 'reply a', { thread_ts: '1.0' }),
      bot('4.0', 'orphan', { thread_ts: '0.5' }),
      bot('5.0', 'elsewhere', { channel: 'C0LOCAL02' }),
    ];
    const timeline = messages.channelTimeline(list, 'C0LOCAL01');
    expect(timeline.map((e) => [e.message.text, e.replies.map((r) => r.text)])).toEqual([
      ['card', ['reply a', 'reply b']],
      ['orphan', []],
    ]);
    const collapsed = messages.renderChannel(list, 'C0LOCAL01', new Set(), ctx);
    expect(collapsed).toContain('aria-expanded="false">2 replies</button>');
    expect(collapsed).not.toContain('reply a');
    const expanded = messages.renderChannel(list, 'C0LOCAL01', new Set(['1.0']), ctx);
    expect(expanded).toContain('aria-expanded="true">Hide 2 replies</button>');
    expect(expanded.indexOf('reply a')).toBeLessThan(expanded.indexOf('reply b'));
  });

  test('ephemeral, edited, author, blocks over text, image files inline and other files as links', () => {
    const html = messages.renderMessage(
      bot('1700000000.000100', 'fallback', {
        ephemeral: true,
        edited: true,
        blocks: [{ type: 'section', text: md('*Card*') }],
        files: [
          { id: 'F1', name: 'usage.png', title: 'Daily minutes', mimetype: 'image/png', url: '/local/files/F1/usage.png' },
          { id: 'F2', name: 'usage.csv', title: 'Usage CSV', mimetype: 'text/csv', url: '/local/files/F2/usage.csv' },
        ],
      }),
      ctx,
    );
    expect(html).toContain('<span class="badge badge--ephemeral">Only visible to you</span>');
    expect(html).toContain('<span class="msg-edited">(edited)</span>');
    expect(html).toContain('<span class="msg-author">vidops</span>');
    expect(html).toContain('<strong>Card</strong>');
    expect(html).not.toContain('fallback');
    expect(html).toContain('<img src="/local/files/F1/usage.png" alt="Daily minutes">');
    expect(html).toContain('<a class="msg-file msg-file--link" href="/local/files/F2/usage.csv" download="usage.csv">');
    expect(html).toContain('<time class="msg-time">10:13 PM</time>');
    const mine = messages.renderMessage({ channel: 'C0LOCAL01', ts: '1.0', user: 'U0LOCAL01', text: '<script>' }, ctx);
    expect(mine).toContain('<span class="msg-author">you</span>');
    expect(tagNames(mine)).not.toContain('script');
  });

  test('the channel comes in pieces keyed by their parent ts: a reply changes only its thread', () => {
    const before = [bot('1.0', 'card'), bot('2.0', 'notice')];
    const after = [...before, bot('3.0', 'reply', { thread_ts: '1.0' })];
    const [card, notice] = messages.channelEntries(before, 'C0LOCAL01', new Set(), ctx);
    const [cardWithReply, sameNotice] = messages.channelEntries(after, 'C0LOCAL01', new Set(), ctx);
    expect([card.key, notice.key]).toEqual(['1.0', '2.0']);
    expect(cardWithReply.key).toBe('1.0');
    expect(cardWithReply.html).not.toBe(card.html);
    expect(sameNotice).toEqual(notice);
    expect(messages.renderChannel(after, 'C0LOCAL01', new Set(), ctx)).toBe(cardWithReply.html + sameNotice.html);
    expect(messages.channelEntries([], 'C0LOCAL01', new Set(), ctx)).toEqual([{ key: 'empty', html: expect.stringContaining('/record start') }]);
  });

  test('an empty channel suggests a command', () => {
    expect(messages.renderChannel([], 'C0LOCAL01', new Set(), ctx)).toContain('/record start');
  });
});
