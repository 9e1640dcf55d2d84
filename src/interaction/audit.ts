/** Audit records for every state-changing action and every denial; mirrored to the audit channel. */
import { noteOutcome } from '../request-context';
import { scrubDeep } from '../scrub';
import type { AuditOutcome } from '../store/types';
import { auditChannelMessage } from '../views/audit';
import type { Interaction } from './interaction';

export interface AuditRecord {
  command: string;
  target: string;
  projectName: string;
  outcome: AuditOutcome;
  error?: string;
}

export async function recordAudit(ix: Interaction, record: AuditRecord): Promise<void> {
  if (record.outcome !== 'ok') noteOutcome(record.outcome);
  const entry = scrubDeep({
    at: ix.services.clock(),
    teamId: ix.teamId,
    userId: ix.userId,
    channelId: ix.channelId ?? '',
    projectName: record.projectName,
    command: record.command,
    target: record.target,
    outcome: record.outcome,
    ...(record.error !== undefined ? { error: record.error } : {}),
  });
  try {
    await ix.services.store.appendAudit(entry);
  } catch (err) {
    ix.logger.error('could not write an audit record', { audit: entry, error: (err as Error).message });
  }
  ix.logger.info('audit', { audit: entry });
  const channel = ix.services.auditChannel;
  if (!channel) return;
  try {
    const message = auditChannelMessage(entry);
    await ix.client.chat.postMessage({ channel, text: message.text, blocks: message.blocks, unfurl_links: false });
  } catch (err) {
    ix.logger.warn('could not post to the audit channel (is the bot a member?)', { channel, error: (err as Error).message });
  }
}
