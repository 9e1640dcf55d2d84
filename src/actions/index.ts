/** Every interactive listener: buttons, modal submissions, the shortcut, option loads, App Home. */
import * as sessionConsole from './console';
import type { App } from '@slack/bolt';
import type { Services } from '../services';
import * as broadcast from './broadcast';
import * as audio from './audio';
import * as captions from './captions';
import * as check from './check';
import * as confirmations from './confirmations';
import * as dial from './dial';
import * as dtmf from './dtmf';
import * as home from './home';
import * as muteEveryone from './mute-everyone';
import * as record from './record';
import * as render from './render';
import * as sessionPicker from './session-picker';
import * as streams from './streams';
import * as undo from './undo';
import * as videoAdmin from './video-admin';
import * as watch from './watch';

export function register(app: App, services: Services): void {
  confirmations.register(app, services);
  sessionConsole.register(app, services);
  streams.register(app, services);
  undo.register(app, services);
  muteEveryone.register(app, services);
  sessionPicker.register(app, services);
  home.register(app, services);
  record.register(app, services);
  captions.register(app, services);
  render.register(app, services);
  dial.register(app, services);
  dtmf.register(app, services);
  audio.register(app, services);
  broadcast.register(app, services);
  videoAdmin.register(app, services);
  watch.register(app, services);
  check.register(app, services);
}
