/**
 * `action_id`, `callback_id` and `block_id` values shared by the view builders and the listener
 * registrations: a view and the listener that handles it can never drift apart.
 */
export const ACTION = {
  /** Button on a stream in the `/streams` card: mute that stream. */
  muteStream: 'vidops.stream.mute',
  /** Button on a stream in the `/streams` card: open the layout-classes modal. */
  editLayoutClasses: 'vidops.stream.edit_layout',
  /** Confirmed button of the `/mute-all` card. */
  confirmMuteAll: 'vidops.mute_all.confirm',
  /** Confirmed button of the `/kick` card. */
  confirmKick: 'vidops.kick.confirm',
  /** "Cancel" on a confirmation card: removes the card. */
  cancel: 'vidops.cancel',
  /** External select offering aliases and recent sessions (options load from the app). */
  sessionPicker: 'vidops.session.pick',
  /** Conversation select in the mute-everyone modal. */
  noticeChannel: 'vidops.notice.channel',
  /** Plain-text input of one stream's layout classes in the layout modal. */
  layoutClassesInput: 'vidops.layout.classes',
} as const;

export const CALLBACK = {
  /** Global shortcut "Mute everyone in a session" (declared in manifest.yml). */
  muteEveryoneShortcut: 'vidops_mute_everyone',
  /** Modal opened by the shortcut. */
  muteEveryoneModal: 'vidops.mute_everyone.modal',
  /** Modal editing the layout classes of several streams. */
  layoutClassesModal: 'vidops.layout.modal',
  /** Read-only modals (loading, results). */
  infoModal: 'vidops.info.modal',
} as const;

export const BLOCK = {
  sessionPicker: 'session',
  noticeChannel: 'notice_channel',
  /** Prefix of each stream's input block in the layout modal; the stream ID follows. */
  layoutStreamPrefix: 'stream:',
} as const;
