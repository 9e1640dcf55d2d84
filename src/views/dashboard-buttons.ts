/**
 * The buttons a watched resource offers on the App Home dashboard: the
 * very buttons of its own card (built by its view, same action ids and values), so the listeners
 * that serve the cards serve these too. Only while the resource runs, and only where the watch
 * knows all a button carries: a phone call's Hang up and an audio connection's Stop need the
 * connection id, kept in their snapshots by the commands that start them.
 */
import type { ArchiveSnapshot, AudioSnapshot, SipSnapshot, Snapshot } from '../poller/snapshot';
import type { Watch } from '../poller/watch';
import { stopButton as archiveStopButton, downloadButton } from '../kinds/recording';
import type { Button } from './blocks';
import { stopButton as broadcastStopButton } from '../kinds/broadcast';
import { audioStopButton } from '../kinds/audio';
import { captionsStopButton } from '../kinds/captions';
import { renderStopButton } from '../kinds/composer';
import { hangUpButton } from '../kinds/call';

type Watched = Pick<Watch, 'kind' | 'resourceId' | 'sessionId' | 'projectName'>;

/** The buttons for `watch` in the state `state` (its last known state by default). */
export function watchButtons(watch: Watched & { lastState?: Snapshot }, state: Snapshot | undefined = watch.lastState): Button[] {
  const status = state?.status;
  const session = { projectName: watch.projectName, sessionId: watch.sessionId };
  switch (watch.kind) {
    case 'archive': {
      const target = { p: watch.projectName, r: watch.resourceId, s: watch.sessionId };
      const known = state && 'createdAt' in state ? (state as ArchiveSnapshot) : undefined;
      if (status === 'started' || status === 'paused') {
        const archive = { id: watch.resourceId, sessionId: watch.sessionId, status, createdAt: known?.createdAt ?? 0, duration: 0, size: 0, name: known?.name };
        return [archiveStopButton(archive, target)];
      }
      return status === 'available' ? [downloadButton(target)] : [];
    }
    case 'broadcast':
      return status === 'started' ? [broadcastStopButton({ id: watch.resourceId, sessionId: watch.sessionId }, { projectName: watch.projectName })] : [];
    case 'render':
      return status === 'starting' || status === 'started' ? [renderStopButton(session, { id: watch.resourceId })] : [];
    case 'captions':
      return status === 'active' ? [captionsStopButton(session, watch.resourceId)] : [];
    case 'sip': {
      const connectionId = (state as SipSnapshot | undefined)?.connectionId;
      return connectionId && status !== 'ended' ? [hangUpButton(session, { id: watch.resourceId, connectionId })] : [];
    }
    case 'audio': {
      const connectionId = (state as AudioSnapshot | undefined)?.connectionId;
      return connectionId && status !== 'ended' ? [audioStopButton(session, { id: watch.resourceId, connectionId })] : [];
    }
    default:
      return [];
  }
}
