/**
 * The benches launch the app as a deployment does (bench/lib/deployment.ts): the same settings
 * must be the ones `npm start` uses and the README tells a deployment to use, or the figures
 * describe a process nobody runs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEPLOYMENT_ENV, DEPLOYMENT_NODE_FLAGS, deploymentEnv } from '../../bench/lib/deployment';

const root = join(__dirname, '..', '..');
const settings = [...DEPLOYMENT_NODE_FLAGS, ...Object.entries(DEPLOYMENT_ENV).map(([name, value]) => `${name}=${value}`)];

describe('the deployment launch the benches measure', () => {
  it('is what `npm start` runs', () => {
    const start = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
    expect(start).toContain(DEPLOYMENT_NODE_FLAGS.join(' '));
    for (const [name, value] of Object.entries(DEPLOYMENT_ENV)) expect(start).toContain(`${name}=\${${name}:-${value}}`);
  });

  it('is what the README tells a deployment to run', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain(`${settings.slice(DEPLOYMENT_NODE_FLAGS.length).join(' ')} node ${DEPLOYMENT_NODE_FLAGS.join(' ')} dist/main.js`);
  });

  it("leaves a setting the caller's environment already has", () => {
    expect(deploymentEnv({ MALLOC_ARENA_MAX: '4', PATH: '/bin' })).toEqual({ MALLOC_ARENA_MAX: '4', PATH: '/bin' });
    expect(deploymentEnv({})).toEqual({ MALLOC_ARENA_MAX: '2' });
  });
});
