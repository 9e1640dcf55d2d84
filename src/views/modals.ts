/** Modals: the "Mute everyone in a session" shortcut, and simple information/progress modals. */
import { type KnownBlock, type ModalView, LIMITS, plain, section } from './blocks';
import { ACTION, BLOCK, CALLBACK } from './ids';
import type { PlainTextOption } from './blocks';

export function muteEveryoneModal(initialSession?: PlainTextOption): ModalView {
  return {
    type: 'modal',
    callback_id: CALLBACK.muteEveryoneModal,
    title: plain('Mute everyone', LIMITS.modalTitle),
    submit: plain('Mute everyone', LIMITS.modalButton),
    close: plain('Cancel', LIMITS.modalButton),
    blocks: [
      {
        type: 'input',
        block_id: BLOCK.sessionPicker,
        label: plain('Session'),
        hint: plain('Aliases and sessions used lately; type to search.'),
        element: {
          type: 'external_select',
          action_id: ACTION.sessionPicker,
          min_query_length: 0,
          placeholder: plain('Pick a session', LIMITS.placeholder),
          ...(initialSession ? { initial_option: initialSession } : {}),
        },
      },
      {
        type: 'input',
        block_id: BLOCK.noticeChannel,
        optional: true,
        label: plain('Tell this channel'),
        hint: plain('The notice saying you muted everyone, with Undo, goes there; left empty, to the session’s channel, or to you when it has none.'),
        element: {
          type: 'conversations_select',
          action_id: ACTION.noticeChannel,
          default_to_current_conversation: true,
          filter: { include: ['public', 'private'], exclude_bot_users: true },
          placeholder: plain('Pick a channel', LIMITS.placeholder),
        },
      },
      section('Everyone publishing now, and everyone who starts later, is muted at once, until someone clicks *Undo* on the notice or runs `/unmute-all`.'),
    ],
  };
}

/** A read-only modal: progress ("Muting everyone…"), a result, or an error sentence (mrkdwn). */
export function infoModal(title: string, text: string, extra: KnownBlock[] = []): ModalView {
  return {
    type: 'modal',
    callback_id: CALLBACK.infoModal,
    title: plain(title, LIMITS.modalTitle),
    close: plain('Close', LIMITS.modalButton),
    blocks: [section(text), ...extra].slice(0, LIMITS.modalBlocks),
  };
}
