// @ts-check
/**
 * The architecture as import rules (README "Layout"). `boundaries` goes at the end of
 * eslint.config.mjs (`...boundaries`); run alone, this file checks only them:
 * `npx eslint -c eslint.boundaries.mjs src`.
 *
 * Depth-based rules keep a room closed without listing every other room: from
 * `src/api/x.ts`, `../` already leaves the room.
 */
import tseslint from 'typescript-eslint';

const RULE = '@typescript-eslint/no-restricted-imports';

/** A closed room: nothing outside it, at each depth below it. */
function closedRoom(room, why, depth, extra = []) {
  return Array.from({ length: depth }, (_v, level) => ({
    files: [`src/${room}/${'*/'.repeat(level)}*.ts`],
    rules: {
      [RULE]: ['error', { patterns: [{ regex: `^(\\.\\./){${level + 1}}`, message: why }, ...extra] }],
    },
  }));
}

const slackFree = [{ group: ['@slack/*'], message: 'The adapter knows nothing of Slack.' }];
const apiWhy = 'src/api is the adapter: it imports nothing of vidops (DESIGN.md).';
const emulatorWhy = 'src/emulator is an independent reading of the spec: it imports nothing of vidops, least of all src/api (DESIGN.md).';

/** What a renderer may not reach (type imports are fine: they carry no behaviour). */
const renderers = (commandsExcept) => [
  { regex: '(^|/)store(/|$)', message: 'Renderers are pure: no store.', allowTypeImports: true },
  {
    regex: '(^|/)poller/(poller|batch|budget|delivery|executor|schedule|settings|runtime|memory-store|slack-poster|service|video-source|track|cards|yield)$',
    message: 'Renderers are pure: no poller engine.',
    allowTypeImports: true,
  },
  { regex: commandsExcept, message: 'Renderers do not import slash commands (help text may read commands/grammar).', allowTypeImports: true },
  {
    regex: '(^|/)(interaction|actions)(/|$)|(^|/)services$',
    message: 'Renderers do not reach the interaction kernel, handlers or services.',
    allowTypeImports: true,
  },
  {
    group: ['undici', 'pg', 'better-sqlite3', '@slack/bolt', '@slack/web-api'],
    message: 'Renderers make no network or database calls.',
    allowTypeImports: true,
  },
];

export const boundaries = [
  ...closedRoom('api', apiWhy, 2, slackFree),
  ...closedRoom('emulator', emulatorWhy, 3),
  { files: ['src/views/**/*.ts'], rules: { [RULE]: ['error', { patterns: renderers('(^|/)commands/(?!grammar$)') }] } },
  { files: ['src/kinds/**/*.ts'], rules: { [RULE]: ['error', { patterns: renderers('(^|/)commands(/|$)') }] } },
  {
    files: ['src/store/**/*.ts'],
    rules: {
      [RULE]: [
        'error',
        { patterns: [{ regex: '(^|/)(commands|actions|interaction|views|kinds)(/|$)', message: 'Storage knows no commands, handlers or views.' }] },
      ],
    },
  },
];

export default tseslint.config({ files: ['src/**/*.ts'], extends: [tseslint.configs.base] }, ...boundaries);
