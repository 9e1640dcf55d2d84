import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { parseCliArgs } from '../../src/emulator/cli-args';
import { projectToken } from './helpers';

const ROOT = join(__dirname, '..', '..');

describe('emulator CLI', () => {
  it.each([
    [[], { port: 0 }],
    [['--port', '4010', '--api-key', 'K'], { port: 4010, apiKey: 'K' }],
    [['--account-key=A', '--account-secret=S', '--api-secret', 'x'], { port: 0, accountKey: 'A', accountSecret: 'S', apiSecret: 'x' }],
  ])('parses %j', (argv, expected) => {
    expect(parseCliArgs(argv)).toEqual(expected);
  });

  it.each([[['--port', 'abc']], [['--port']], [['--verbose']], [['--api-key=']]])('rejects %j', (argv) => {
    expect(() => parseCliArgs(argv)).toThrow();
  });

  it('prints one JSON line once listening, serves the seeded session, and exits cleanly on SIGTERM', async () => {
    const child = spawn(
      join(ROOT, 'node_modules', '.bin', 'tsx'),
      ['src/emulator/cli.ts', '--port', '0', '--api-key', '12345', '--api-secret', 'demo-secret'],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      const lines = createInterface({ input: child.stdout });
      const first = await new Promise<string>((resolve, reject) => {
        lines.once('line', resolve);
        child.once('exit', (code) => reject(new Error(`CLI exited early with ${String(code)}`)));
      });
      const info = JSON.parse(first);
      expect(Object.keys(info).sort()).toEqual(['accountKey', 'accountSecret', 'apiKey', 'apiSecret', 'baseUrl', 'insightsUrl', 'sessionId'].sort());
      expect(info).toMatchObject({ apiKey: '12345', apiSecret: 'demo-secret', insightsUrl: `${info.baseUrl}/insights` });
      const res = await fetch(`${info.baseUrl}/v2/project/12345/session/${info.sessionId}/stream`, {
        headers: { 'X-SERVICE-AUTH': await projectToken('12345', 'demo-secret') },
      });
      const body = (await res.json()) as { items: Array<{ videoType: string }> };
      expect(body.items.map((s) => s.videoType).sort()).toEqual(['camera', 'camera', 'screen']);
      // The demo project has the Advanced Insights add-on and synthetic history.
      const insights = await fetch(`${info.insightsUrl}/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-SERVICE-AUTH': await projectToken('12345', 'demo-secret') },
        body: JSON.stringify({
          query: '{ project(projectId: 12345) { projectData(start: 0) { totalCount } sessionData { sessionSummaries(start: 0) { totalCount } } } }',
        }),
      });
      const answer = (await insights.json()) as {
        data: { project: { projectData: { totalCount: number }; sessionData: { sessionSummaries: { totalCount: number } } } };
      };
      expect(answer.data.project.projectData.totalCount).toBe(1);
      expect(answer.data.project.sessionData.sessionSummaries.totalCount).toBeGreaterThan(0);
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
