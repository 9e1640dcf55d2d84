/** Every interactive listener: buttons, modal submissions, the shortcut, option loads, App Home. */
import type { App } from '@slack/bolt';
import type { Services } from '../services';
import * as broadcast from './broadcast';
import * as confirmations from './confirmations';
import * as home from './home';
import * as muteEveryone from './mute-everyone';
import * as sessionPicker from './session-picker';
import * as streams from './streams';

export function register(app: App, services: Services): void {
  confirmations.register(app, services);
  streams.register(app, services);
  muteEveryone.register(app, services);
  sessionPicker.register(app, services);
  home.register(app, services);
  broadcast.register(app, services);
}
