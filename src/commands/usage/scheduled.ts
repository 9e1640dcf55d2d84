/**
 * What the scheduler runs for each weekly report: last week's report of the schedule's project,
 * posted in its channel with the chart, exactly like `/usage` would post it. Errors that
 * retrying cannot fix become PermanentDeliveryError, so the scheduler skips the week and keeps the
 * reason on the schedule instead of retrying.
 */
import type { webApi } from '@slack/bolt';
import { InsightsError } from '../../api/insights';
import { PermanentDeliveryError, type ScheduledDelivery } from '../../schedules/scheduler';
import type { Services } from '../../services';
import { slackErrorCode } from '../../slack/respond';
import { INSIGHTS_NOT_CONFIGURED, insightsProblem } from '../../views/usage-report';
import { loadReport } from './answers';
import { postReport } from './deliver';

/** Insights errors about credentials or the project itself: the next attempt would fail the same way. */
const PERMANENT_INSIGHTS_CODES: ReadonlySet<number> = new Set([1000, 1001, 1008, 1011, 1015, 1019, 1020, 1021]);
/** Slack errors about the channel or the app's installation. */
const PERMANENT_SLACK_ERRORS = new Set([
  'not_in_channel',
  'channel_not_found',
  'is_archived',
  'restricted_action',
  'access_denied',
  'invalid_auth',
  'account_inactive',
  'token_revoked',
  'not_authed',
  'invalid_blocks',
]);

export function scheduledReportDelivery(services: Services, client: webApi.WebClient): ScheduledDelivery {
  return async (schedule, run) => {
    const { projectName } = schedule;
    if (!services.projects.has(projectName)) throw new PermanentDeliveryError(`project “${projectName}” is no longer configured`);
    const source = services.insights(projectName);
    if (!source) throw new PermanentDeliveryError(INSIGHTS_NOT_CONFIGURED);

    let answer;
    try {
      answer = await loadReport(services.usageCache, source, { projectName, parsed: run.week, by: schedule.breakdown }, run.now);
    } catch (error) {
      if (error instanceof InsightsError && typeof error.code === 'number' && PERMANENT_INSIGHTS_CODES.has(error.code)) {
        throw new PermanentDeliveryError(insightsProblem(error, { projectName }));
      }
      throw error;
    }
    if (!run.stillLeased()) throw new Error('the lease ran too short to post; the report is retried');

    const logger = services.logger.child({ component: 'usage-scheduler', schedule: schedule.id });
    const ctx = {
      projectName,
      fetchedAt: answer.fetchedAt,
      now: run.now,
      cached: answer.cached,
      schedule: { id: schedule.id, createdBy: schedule.createdBy },
    };
    try {
      const posted = await postReport({ client, logger, userId: schedule.createdBy, channelId: schedule.channelId }, answer.value, ctx, {
        channelId: schedule.channelId,
        ephemeralFallback: false,
      });
      return posted.ts ? { messageTs: posted.ts } : {};
    } catch (error) {
      const code = slackErrorCode(error);
      if (code && PERMANENT_SLACK_ERRORS.has(code)) {
        const hint = code === 'not_in_channel' ? ' (invite me with `/invite @vidops`)' : '';
        throw new PermanentDeliveryError(`Slack refused the post: ${code}${hint}`);
      }
      throw error;
    }
  };
}
