/**
 * Posting a usage report in a channel: the daily chart is uploaded as a PNG without sharing it
 * (`files.uploadV2` with no channel), then one `chat.postMessage` carries the fallback text, the
 * report's blocks and the chart as an image block pointing at that file (`slack_file`). A share
 * through files.completeUploadExternal cannot do this: its message takes `blocks` or
 * `initial_comment`, never a fallback text. Without the `files:write` scope (`missing_scope`) —
 * or when Slack refuses the image block — the same report goes out with the chart in text bars.
 */
import type { WebClient } from '@slack/web-api';
import { announce, slackErrorCode, type Audience } from '../../slack/respond';
import { chartTitle, usageReportMessage, type ChartImage, type ReportContext } from '../../views/usage-report';
import type { ReportAnswer } from './answers';

export interface PostedReport {
  /** `ephemeral` when only the asker could be shown it (the bot is not in the channel). */
  delivered: 'channel' | 'ephemeral';
  chart: 'file' | 'text';
  /** The message ts, when Slack returns one. */
  ts?: string;
}

/** Slack errors after which the report still goes out, without the file. */
const TEXT_INSTEAD = new Set(['missing_scope', 'not_allowed_token_type', 'file_uploads_disabled', 'file_upload_size_restricted', 'invalid_blocks']);
/** Slack errors meaning "the bot cannot post in this conversation" (announce explains them). */
const CANNOT_POST_HERE = new Set(['not_in_channel', 'channel_not_found', 'is_archived', 'restricted_action', 'access_denied']);

export interface PostOptions {
  channelId: string;
  /** Interactive use: when the channel refuses the bot, show the asker the report privately.
   * The scheduler passes false and handles those errors itself. */
  ephemeralFallback: boolean;
}

/** Uploads the PNG without sharing it anywhere; the file id for an image block. */
async function uploadChart(client: WebClient, png: Buffer, names: ReturnType<typeof chartTitle>): Promise<ChartImage> {
  const uploaded = await client.files.uploadV2({ file: png, filename: names.filename, title: names.title, alt_text: names.altText });
  const id = (uploaded as { files?: { files?: { id?: string }[] }[] }).files?.[0]?.files?.[0]?.id;
  if (!id) throw new Error('files.uploadV2 returned no file id');
  return { slackFileId: id, title: names.title, altText: names.altText };
}

/** A chart no message shows is deleted; failing to is only logged. */
async function discardChart(to: Audience, image: ChartImage): Promise<void> {
  try {
    await to.client.files.delete({ file: image.slackFileId });
  } catch (error) {
    to.logger.warn('cannot delete the unused chart file', { file: image.slackFileId, error: slackErrorCode(error) ?? String(error) });
  }
}

export async function postReport(to: Audience, answer: ReportAnswer, ctx: ReportContext, options: PostOptions): Promise<PostedReport> {
  const { report, projectName } = answer;
  const chart = answer.chart();
  let image: ChartImage | undefined;
  try {
    image = await uploadChart(to.client, chart.png, chartTitle(report, projectName));
    // A PNG without words (no font on this machine) goes with the text bars too.
    const message = usageReportMessage(report, ctx, { image, bars: !chart.textRendered });
    const posted = await to.client.chat.postMessage({
      channel: options.channelId,
      text: message.text,
      blocks: message.blocks,
      unfurl_links: false,
      unfurl_media: false,
    });
    return { delivered: 'channel', chart: 'file', ts: posted.ts };
  } catch (error) {
    if (image) await discardChart(to, image);
    const code = slackErrorCode(error) ?? '';
    const textInstead = TEXT_INSTEAD.has(code);
    if (!textInstead && !(options.ephemeralFallback && CANNOT_POST_HERE.has(code))) throw error;
    to.logger.info(textInstead ? 'cannot show the chart image; posting the report with text bars' : 'cannot post the report in the channel', {
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
