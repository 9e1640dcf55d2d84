/**
 * `action_id`, `callback_id` and `block_id` values shared by the view builders and the listener
 * registrations: a view and the listener that handles it can never drift apart.
 */
export const ACTION = {
  /** Button on a stream in the `/streams` card: mute that stream. */
  muteStream: 'vidops.stream.mute',
  /** "Check" on the answer given when the video service did not answer in time: asks it again. */
  checkVideo: 'vidops.video.check',
  /** Button on a stream in the `/streams` card: open the layout-classes modal. */
  editLayoutClasses: 'vidops.stream.edit_layout',
  /** "Mute everyone" on a `/mute-all` card of an older version (mute-all now acts at once). */
  confirmMuteAll: 'vidops.mute_all.confirm',
  /** "Undo" on a layout-classes notice: puts back each stream's classes from before. */
  undoLayoutClasses: 'vidops.layout.undo',
  /** "Undo" on the notice of a mute-everyone: lifts the session's mute state. */
  undoMuteAll: 'vidops.mute_all.undo',
  /** Confirmed button of the `/kick` card. */
  confirmKick: 'vidops.kick.confirm',
  /** Kick on a session console row: Slack's confirm dialog names the person, then the stream's publisher is disconnected. */
  consoleKick: 'vidops.console.kick',
  /** "Mute everyone" on a session console: acts at once (reversible with `/unmute-all`). */
  consoleMuteAll: 'vidops.console.mute_all',
  /** "Post in channel" on the private session console: posts it as a live card. */
  consolePost: 'vidops.console.post',
  /** A button of the picker shown for an ambiguous name (`/mute bo`, `/kick bo`): acts on that participant. */
  pickParticipant: 'vidops.people.pick',
  /** Disconnect on the `/kick <name>` card (the card is the one confirmation: no dialog). */
  kickPerson: 'vidops.people.kick',
  /** "Cancel" on a confirmation card: removes the card. */
  cancel: 'vidops.cancel',
  /** External select offering aliases and recent sessions (options load from the app). */
  sessionPicker: 'vidops.session.pick',
  /** Conversation select in the mute-everyone modal. */
  noticeChannel: 'vidops.notice.channel',
  /** Plain-text input of one stream's layout classes in the layout modal. */
  layoutClassesInput: 'vidops.layout.classes',
  /** `/video-admin` cards: each button is behind Slack's confirm dialog. */
  adminCreateProject: 'vidops.admin.create',
  adminSuspendProject: 'vidops.admin.suspend',
  adminActivateProject: 'vidops.admin.activate',
  adminDeleteProject: 'vidops.admin.delete',
  adminRotateSecret: 'vidops.admin.rotate_secret',
  /** "Stop watching" on a session watch's card (`/video watch`), confirm dialog first. */
  stopWatching: 'vidops.watch.stop',
  /** "Stop captions" on a live-captions card (Slack's confirm dialog first). */
  stopCaptions: 'vidops.captions.stop',
  /** Button of the card answering `/captions stop` (the card is the question; it acts). */
  confirmCaptionsStop: 'vidops.captions.stop_confirm',
  /** "Stop" on a composer card or in `/render list` / `show` (Slack's confirm dialog first). */
  stopRender: 'vidops.render.stop',
  /** Confirmed button of the `/render stop` card. */
  confirmRenderStop: 'vidops.render.stop_confirm',
  /** "Hang up" on a call card: force-disconnects the call's connection (confirm dialog first). */
  sipHangUp: 'vidops.sip.hang_up',
  /** Keypad of a call card: the key follows, e.g. `vidops.sip.dtmf.5`, `vidops.sip.dtmf.#`. */
  sipKeyPrefix: 'vidops.sip.dtmf.',
  /** Username input of the SIP digest credentials modal. */
  sipAuthUsername: 'vidops.sip.auth.username',
  /** Password input of the SIP digest credentials modal (never echoed, logged or stored). */
  sipAuthPassword: 'vidops.sip.auth.password',
  /** "Stop" on an Audio Connector card: disconnects its connection (confirm dialog first). */
  stopAudio: 'vidops.audio.stop',
  /** "Stop broadcast" on a broadcast card, in `/broadcast list` and on the `/broadcast stop` card (confirm dialog first). */
  broadcastStop: 'vidops.broadcast.stop',
  /** "Add an RTMP output" in the broadcast start modal: one more row (views.update). */
  broadcastAddOutput: 'vidops.broadcast.add_output',
  /** Every input of the broadcast start modal but the session picker (blocks tell them apart). */
  broadcastInput: 'vidops.broadcast.input',
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
  /** `/dial --auth`: the modal asking for the SIP digest username and password. */
  sipAuthModal: 'vidops.sip.auth.modal',
  /** `/broadcast start` without outputs: the start form. */
  broadcastStartModal: 'vidops.broadcast.start.modal',
} as const;

export const BLOCK = {
  sessionPicker: 'session',
  noticeChannel: 'notice_channel',
  /** Prefix of each stream's input block in the layout modal; the stream ID follows. */
  layoutStreamPrefix: 'stream:',
  sipAuthUsername: 'sip_username',
  sipAuthPassword: 'sip_password',
} as const;

/** Input blocks of the broadcast start modal; RTMP rows append their number (`broadcast.rtmp_url:2`). */
export const BROADCAST_BLOCK = {
  session: 'broadcast.session',
  hls: 'broadcast.hls',
  rtmpUrlPrefix: 'broadcast.rtmp_url:',
  rtmpKeyPrefix: 'broadcast.rtmp_key:',
  rtmpIdPrefix: 'broadcast.rtmp_id:',
  resolution: 'broadcast.resolution',
  layout: 'broadcast.layout',
  screenshare: 'broadcast.screenshare',
  stylesheet: 'broadcast.stylesheet',
  maxDuration: 'broadcast.max_duration',
  maxBitrate: 'broadcast.max_bitrate',
  streamMode: 'broadcast.stream_mode',
  tag: 'broadcast.tag',
  media: 'broadcast.media',
} as const;

/** `/record`: the recording card and lists, the start modal and the upload-target modal. */
export const RECORD_ACTION = {
  /** Stop button (confirmed) on a recording card, a list entry or the `/record stop` choice. */
  stop: 'vidops.record.stop',
  /** Download button of an available recording: answers with a fresh URL (valid 10 minutes). */
  download: 'vidops.record.download',
  /** Delete button (confirmed, admin) on a recording card or the `/record delete` card. */
  delete: 'vidops.record.delete',
  /** "More" under a page of `/record list`. */
  more: 'vidops.record.more',
  /** Confirmed button of the `/record storage clear` card. */
  clearStorage: 'vidops.record.storage_clear',
  /** Output mode radio of the start modal (re-renders the modal: resolution and layout are composed only). */
  outputMode: 'vidops.record.output_mode',
  /** Layout type select of the start modal (re-renders it: screenshare with bestFit, stylesheet with custom). */
  layoutType: 'vidops.record.layout_type',
  /** Target type radio of the upload-target modal (re-renders it with that type's fields). */
  storageType: 'vidops.record.storage_type',
  /** Every other input of the two modals (the block_id names the field). */
  field: 'vidops.record.field',
} as const;

export const RECORD_CALLBACK = {
  startModal: 'vidops.record.start_modal',
  storageModal: 'vidops.record.storage_modal',
} as const;

export const RECORD_BLOCK = {
  /** Top-of-modal problem (a refusal from the video service after submitting). */
  problem: 'record_problem',
  name: 'record_name',
  outputMode: 'record_output_mode',
  resolution: 'record_resolution',
  layoutType: 'record_layout_type',
  screenshare: 'record_screenshare',
  stylesheet: 'record_stylesheet',
  streamMode: 'record_stream_mode',
  media: 'record_media',
  tag: 'record_tag',
  cardActions: 'record_card_actions',
  storageType: 'storage_type',
  accessKey: 'storage_access_key',
  secretKey: 'storage_secret_key',
  bucket: 'storage_bucket',
  endpoint: 'storage_endpoint',
  accountName: 'storage_account_name',
  accountKey: 'storage_account_key',
  container: 'storage_container',
  domain: 'storage_domain',
  fallback: 'storage_fallback',
} as const;
