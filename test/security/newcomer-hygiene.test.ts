/**
 * Newcomer hygiene found with the findings: the README did not say which Node.js is needed and
 * `npm start` did not check it; in local mode ordinary user mistakes (`/mute bob`, a second
 * `/record start`) printed JSON stack traces.
 *
 * Now an older Node.js stops `npm start` with one sentence; a user's mistake is logged at info
 * without a stack (warn and error are for the app's own failures, which keep theirs).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REQUIRED_NODE, nodeVersionProblem } from '../../src/node-version';
import { startTestApp, type TestApp } from '../harness/app';
import { logCapture } from './support';

describe('newcomer hygiene: the Node.js version', () => {
  it('requires what package.json’s engines say, and the README says it', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as { engines: { node: string } };
    expect(pkg.engines.node).toBe(`>=${REQUIRED_NODE.replace(/\.0$/, '')}`);
    expect(readFileSync(join(__dirname, '../../README.md'), 'utf8')).toContain(`Node.js ${REQUIRED_NODE.replace(/\.0$/, '')}`);
  });

  it.each([
    ['v18.20.4', true],
    ['20.18.1', true],
    ['20.19.0', false],
    ['20.20.2', false],
    ['22.1.0', false],
    ['v24.0.0', false],
  ])('Node.js %s: refused %s', (version, refused) => {
    const problem = nodeVersionProblem(version);
    expect(problem !== undefined).toBe(refused);
    if (problem)
      expect(problem).toBe(
        `vidops needs Node.js ${REQUIRED_NODE} or newer; this is Node.js ${version.replace(/^v/, '')}. Install a newer Node.js (e.g. \`nvm install 22\`) and run \`npm start\` again.`,
      );
  });

  it('this Node.js passes (the suite runs on a supported one)', () => {
    expect(nodeVersionProblem(process.versions.node)).toBeUndefined();
  });
});

describe('newcomer hygiene: a user’s mistake is logged without a stack, at info', () => {
  let t: TestApp;
  const logs = logCapture();
  beforeAll(async () => {
    t = await startTestApp({ logLevel: 'debug', logStream: logs.stream });
  });
  afterAll(() => t.close());

  const loud = (since: number) => logs.records.slice(since).filter((r) => r.level === 'warn' || r.level === 'error');
  const stacks = (since: number) => logs.records.slice(since).filter((r) => JSON.stringify(r).includes('"stack"'));

  it('/mute <a stream that is not there>: the service refuses it; the line is info, without a stack', async () => {
    const seeded = t.seedSession({ streams: 1 });
    const since = logs.records.length;
    const res = await t.slash('/mute', `8b732909-0a06-46a2-8ea8-000000000000 ${seeded.sessionId}`);
    await res.waitForResponse();
    expect(loud(since)).toEqual([]);
    expect(stacks(since)).toEqual([]);
    expect(logs.records.slice(since)).toContainEqual(
      expect.objectContaining({ level: 'info', msg: 'video service call failed', error: expect.objectContaining({ status: expect.any(Number) }) }),
    );
  });

  it('a second /record start of the same session: info, without a stack', async () => {
    const seeded = t.seedSession({ streams: 1 });
    const first = await t.slash('/record', `start ${seeded.sessionId} "Weekly"`);
    await t.waitForSlackCall('chat.postMessage', (c) => JSON.stringify(c.body).includes('Weekly'));
    expect(first.status).toBe(200);
    const since = logs.records.length;
    const second = await t.slash('/record', `start ${seeded.sessionId} "Weekly"`);
    const reply = await second.waitForResponse();
    expect(JSON.stringify(reply.body)).toContain('already being recorded');
    expect(loud(since)).toEqual([]);
    expect(stacks(since)).toEqual([]);
  });

  it('the app’s own failure (the service answering 500) is still a warning with its stack', async () => {
    const seeded = t.seedSession({ streams: 1 });
    t.emulator.control.injectFault({ method: 'POST', path: '/mute', kind: 'status', status: 500, count: 10 });
    const since = logs.records.length;
    const res = await t.slash('/mute', `${seeded.streams[0]} ${seeded.sessionId}`);
    await res.waitForResponse();
    t.emulator.control.clearFaults();
    expect(loud(since)).toContainEqual(
      expect.objectContaining({ level: 'warn', msg: 'video service call failed', error: expect.objectContaining({ stack: expect.any(String) }) }),
    );
  });
});
