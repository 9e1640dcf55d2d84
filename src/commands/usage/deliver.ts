/**
 * Posting a usage report in a channel: one message with the report's blocks and the daily chart
 * as a PNG (`files.uploadV2`). Without the `files:write` scope (`missing_scope`) — or where a file
 * cannot be shared — the same report goes out as a message with the chart drawn in text bars.
 */
import { announce, slackErrorCode, type Audience } from '../../slack/respond';
import { chartTitle, usageReportMessage, type ReportContext } from '../../views/usage-report';
import type { ReportAnswer } from './answers';

export interface PostedReport {
  /** `ephemeral` when only the asker could be shown it (the bot is not in the channel). */
  delivered: 'channel' | 'ephemeral';
  chart: 'file' | 'text';
  /** The message ts, when Slack returns one (chat.postMessage; uploads share asynchronously). */
  ts?: string;
}

/** Slack errors after which the report still goes out, without the file. */
const TEXT_INSTEAD = new Set(['missing_scope', 'not_allowed_token_type', 'file_uploads_disabled', 'file_upload_size_restricted']);
/** Slack errors meaning "the bot cannot post in this conversation" (announce explains them). */
const CANNOT_POST_HERE = new Set(['not_in_channel', 'channel_not_found', 'is_archived', 'restricted_action', 'access_denied']);

export interface PostOptions {
  channelId: string;
  /** Interactive use: when the channel refuses the bot, show the asker the report privately.
   * The scheduler passes false and handles those errors itself. */
  ephemeralFallback: boolean;
}

export async function postReport(to: Audience, answer: ReportAnswer, ctx: ReportContext, options: PostOptions): Promise<PostedReport> {
  const { report, projectName } = answer;
  const chart = answer.chart();
  const names = chartTitle(report, projectName);
  try {
    // A PNG without words (no font on this machine) goes with the text bars too.
    const message = usageReportMessage(report, ctx, chart.textRendered ? 'attached' : 'text');
    await to.client.files.uploadV2({
      channel_id: options.channelId,
      file: chart.png,
      filename: names.filename,
      title: names.title,
      alt_text: names.altText,
      blocks: message.blocks,
    });
    return { delivered: 'channel', chart: 'file' };
  } catch (error) {
    const code = slackErrorCode(error) ?? '';
    const textInstead = TEXT_INSTEAD.has(code);
    if (!textInstead && !(options.ephemeralFallback && CANNOT_POST_HERE.has(code))) throw error;
    to.logger.info(textInstead ? 'cannot upload the chart; posting the report with text bars' : 'cannot post the report in the channel', {
      channel: options.channelId,
      error: code,
    });
  }

  const message = usageReportMessage(report, ctx, 'text');
  if (!options.ephemeralFallback) {
    const posted = await to.client.chat.postMessage({
      channel: options.channelId,
      text: message.text,
      blocks: message.blocks,
      unfurl_links: false,
      unfurl_media: false,
    });
    return { delivered: 'channel', chart: 'text', ts: posted.ts };
  }
  const announced = await announce(to, message, options.channelId);
  return { delivered: announced.delivered, chart: 'text', ts: announced.ts };
}
