/**
 * Local mode with VIDEO_API_* set: the app talks to that service (here a separately started
 * emulator), nothing embedded is started, and the side panel says it cannot drive it.
 */
import { type RunningEmulator, startEmulator } from '../../src/emulator';
import { type RunningLocal, startLocal } from '../../src/local/start';
import { PageClient } from './page-client';

describe('local mode against the video service named by VIDEO_API_URL', () => {
  let service: RunningEmulator;
  let local: RunningLocal;
  let page: PageClient;
  let sessionId: string;
  beforeAll(async () => {
    service = await startEmulator();
    const project = service.control.createProject();
    sessionId = service.control.createSession(project.apiKey);
    const connection = service.control.connect(project.apiKey, sessionId);
    service.control.publish(project.apiKey, sessionId, connection, { name: 'Remote', videoType: 'camera' });
    local = await startLocal({
      env: { DATABASE_URL: 'sqlite::memory:', VIDEO_API_URL: service.baseUrl, VIDEO_API_KEY: project.apiKey, VIDEO_API_SECRET: project.apiSecret },
      port: 0,
      logLevel: 'silent',
    });
    page = new PageClient(local.url);
  });
  afterAll(async () => {
    await local.stop();
    await service.close();
  });

  it('uses that service and embeds no emulator', async () => {
    expect(local.emulator).toBeUndefined();
    expect(local.sessionId).toBeUndefined();
    const state = await page.state();
    expect(state.emulator).toEqual(expect.objectContaining({ embedded: false, sessionIds: [], sessions: [] }));

    expect(await page.command(`/streams ${sessionId}`)).toEqual({ ok: true });
    await page.waitForMessage('1 participant in');
  });

  it('answers the side panel with what it cannot do', async () => {
    const answer = await page.post('/local/emulator/advance', { seconds: 60 });
    expect(answer).toEqual({ ok: false, error: expect.stringContaining('VIDEO_API_URL') });
  });
});
