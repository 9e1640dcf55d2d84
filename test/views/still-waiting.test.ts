/** The words and buttons of a slow video service (pure): valid Block Kit, honest sentences, Check values that decode. */
import { ACTION } from '../../src/views/ids';
import {
  CheckValueSchema,
  changeNoAnswerMessage,
  readNoAnswerMessage,
  sessionCheckMessage,
  stillWaitingMessage,
  streamCheckMessage,
} from '../../src/views/still-waiting';
import { decodeValue } from '../../src/views/values';
import { messageProblems } from '../harness/block-kit';
import { buttonValue, findElements, visibleText } from '../harness/text';

describe('still-waiting views', () => {
  it('the waiting line reads as a notification too', () => {
    expect(stillWaitingMessage()).toEqual({
      text: 'Still waiting for the video service…',
      blocks: [expect.objectContaining({ type: 'section' })],
    });
  });

  it('a change past the bound: may or may not, with a Check button whose value decodes to what it names', () => {
    const message = changeNoAnswerMessage(20, '/record stop', { k: 'archive', p: 'prod', r: 'a1', o: '/record stop' });
    expect(messageProblems(message)).toEqual([]);
    expect(visibleText(message)).toContain('The video service did not answer within 20 s: the `/record stop` may or may not have taken effect.');
    expect(decodeValue(CheckValueSchema, buttonValue(message, ACTION.checkVideo))).toEqual({ k: 'archive', p: 'prod', r: 'a1', o: '/record stop' });
  });

  it('without anything to check, the sentence says to look first, and there is no button', () => {
    const message = changeNoAnswerMessage(20, '/signal', undefined);
    expect(findElements(message, ACTION.checkVideo)).toEqual([]);
    expect(visibleText(message)).toContain('may or may not have taken effect. Look before trying again.');
  });

  it('a read past the bound offers to type it again, unless the command is too long for a button value', () => {
    const message = readNoAnswerMessage(20, { command: '/streams', text: 'standup' });
    expect(messageProblems(message)).toEqual([]);
    expect(decodeValue(CheckValueSchema, buttonValue(message, ACTION.checkVideo))).toEqual({ k: 'rerun', c: '/streams', t: 'standup' });
    const long = readNoAnswerMessage(20, { command: '/streams', text: 'x'.repeat(2_100) });
    expect(findElements(long, ACTION.checkVideo)).toEqual([]);
    expect(visibleText(long)).toContain('nothing to show yet. Try again in a moment.');
  });

  it('values a forged or older button could carry are refused', () => {
    expect(decodeValue(CheckValueSchema, JSON.stringify({ k: 'delete', p: 'prod' }))).toBeUndefined();
    expect(decodeValue(CheckValueSchema, JSON.stringify({ k: 'archive', p: 'prod' }))).toBeUndefined();
    expect(decodeValue(CheckValueSchema, 'not json')).toBeUndefined();
  });

  it('never claims a mute as a fact: the service reports no mute state', () => {
    const stream = visibleText(streamCheckMessage({ s: 'S1', a: 'standup', t: 'st1', o: '/mute' }, { name: 'Bob', videoType: 'screen' }));
    expect(stream).toContain('Stream `st1` (Bob, screen) is publishing in session `standup`.');
    expect(stream).toContain('does not report whether a stream is muted');
    expect(stream).not.toMatch(/(?<!whether a stream )is muted/);
    const session = visibleText(
      sessionCheckMessage({ s: 'S1', o: '/mute-all' }, [
        { id: 'st1', name: '' },
        { id: 'st2', name: 'Ana' },
      ]),
    );
    expect(session).toContain('2 streams are publishing (`st1`, Ana) in session `S1`.');
    expect(session).toContain('does not report mute state');
  });

  it('escapes what it repeats', () => {
    const message = streamCheckMessage({ s: 'S1', t: 'st1', o: '/mute' }, { name: '<!channel> & co' });
    expect(JSON.stringify(message.blocks)).not.toContain('<!channel>');
  });
});
