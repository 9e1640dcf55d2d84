/**
 * The payload net every e2e suite runs over the fake Slack's recorded calls: it must catch a
 * message whose fallback text is missing or says nothing, and a file shared without any text.
 */
import { messageProblems, sentPayloadProblems } from './block-kit';

const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: '*Usage*' } }];

describe('fallback text of messages', () => {
  it('accepts a sentence next to blocks', () => {
    expect(messageProblems({ text: 'Video usage for prod, last week: 420 participant minutes', blocks })).toEqual([]);
  });

  it('flags blocks without text, and a text without words', () => {
    expect(messageProblems({ blocks })).toEqual(['text: fallback text missing next to blocks']);
    expect(messageProblems({ text: '', blocks })).toEqual(['text: fallback text missing next to blocks']);
    expect(messageProblems({ text: ' :: ', blocks })).toEqual(['text: fallback text says nothing: " :: "']);
  });

  it('flags a file shared in a channel without initial_comment, not one uploaded unshared', () => {
    const share = (body: Record<string, unknown>) =>
      sentPayloadProblems([{ method: 'files.completeUploadExternal', body: { files: [{ id: 'F1' }], ...body } }], []);
    expect(share({ channel_id: 'C1', blocks })).toEqual(['files.completeUploadExternal shares a file in a message without a fallback text (initial_comment)']);
    expect(share({ channel_id: 'C1', initial_comment: 'Usage chart, last week' })).toEqual([]);
    expect(share({})).toEqual([]);
  });

  it('checks in-channel responses through response_url too', () => {
    expect(sentPayloadProblems([], [{ body: { response_type: 'in_channel', blocks } }])).toEqual(['response_url text: fallback text missing next to blocks']);
  });
});
