import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { parse } from 'yaml';
import { COMMAND_NAMES, COMMANDS } from '../src/commands';
import { usageHint } from '../src/commands/grammar';
import { CALLBACK } from '../src/views/ids';

interface Manifest {
  features: {
    app_home: { home_tab_enabled: boolean };
    shortcuts: { name: string; type: string; callback_id: string }[];
    slash_commands: { command: string; usage_hint?: string; should_escape?: boolean; description: string }[];
  };
  oauth_config: { scopes: { bot: string[] } };
  settings: { interactivity: { is_enabled: boolean; request_url: string; message_menu_options_url?: string }; event_subscriptions: { bot_events: string[] } };
}

const manifestText = readFileSync(join(__dirname, '..', 'manifest.yml'), 'utf8');
const manifest = parse(manifestText) as Manifest;
const schema = JSON.parse(readFileSync(join(__dirname, 'harness', 'reference', 'slack-app-manifest.schema.json'), 'utf8')) as Record<string, unknown>;

describe('manifest.yml', () => {
  it('is valid against Slack’s manifest schema', () => {
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    const ajv = new Ajv({ strict: false, allErrors: true });
    const validate = ajv.compile(schema);
    const valid = validate(manifest);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('declares exactly the slash commands the app registers', () => {
    expect(manifest.features.slash_commands.map((c) => c.command).sort()).toEqual([...COMMAND_NAMES].sort());
  });

  it('gives every command the usage hint generated from its grammar, unescaped text and a description', () => {
    for (const command of COMMANDS) {
      const declared = manifest.features.slash_commands.find((c) => c.command === command.command)!;
      expect({ command: command.command, hint: declared.usage_hint }).toEqual({ command: command.command, hint: usageHint(command) });
      expect(declared.should_escape).toBe(false);
      expect(declared.description.length).toBeGreaterThan(0);
    }
  });

  it('has interactivity (with option loading), the App Home tab and its event', () => {
    expect(manifest.settings.interactivity.is_enabled).toBe(true);
    expect(manifest.settings.interactivity.request_url).toMatch(/\/slack\/events$/);
    expect(manifest.settings.interactivity.message_menu_options_url).toMatch(/\/slack\/events$/);
    expect(manifest.features.app_home.home_tab_enabled).toBe(true);
    expect(manifest.settings.event_subscriptions.bot_events).toEqual(['app_home_opened']);
  });

  it('declares the global shortcut the app listens for', () => {
    expect(manifest.features.shortcuts).toEqual([expect.objectContaining({ type: 'global', callback_id: CALLBACK.muteEveryoneShortcut })]);
  });

  it('asks for the smallest set of bot scopes', () => {
    // files:write: /usage uploads its daily chart as a PNG (see manifest.yml).
    // channels:history and groups:history: the poller's duplicate check before re-posting (see manifest.yml).
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual([
      'channels:history',
      'channels:read',
      'chat:write',
      'commands',
      'files:write',
      'groups:history',
      'usergroups:read',
    ]);
  });
});
