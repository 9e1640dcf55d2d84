/**
 * `/captions start [session] [--lang en-US] [--max-duration S] [--no-partial]` and
 * `/captions stop [captions-id]`. Starting posts a card in the channel and hands the captions
 * to the poller; the captions watch is also how `/captions stop` without an ID finds the
 * captions running in the channel's session (the service has no way to look them up).
 */
import { z } from 'zod';
import { CAPTION_LANGUAGES, type CaptionLanguage } from '../api';
import { type CaptionsSnapshot, captionsSnapshot } from '../poller/snapshot';
import { replyEphemeral } from '../slack/respond';
import { warning } from '../views/blocks';
import { captionsStopConfirmCard, captionsStoppedNotice } from '../views/captions';
import { captionsKind } from '../kinds/captions';
import { startModel } from '../kinds';
import type { SessionRef } from '../views/notices';
import type { Interaction } from '../interaction/interaction';
import { defineCommand, defineSubcommand } from './command';
import { identifier, projectFlag, projectName, sessionRef } from './grammar';
import type { ProjectClient } from '../projects';
import { type Change, performChange } from '../interaction/change';
import { resolveProject, resolveSession, sessionName, withAlias } from '../interaction/session-ref';

/** The service's default and maximum. */
export const CAPTIONS_DEFAULT_MAX_DURATION_S = 14_400;

/** `3600`, `3600s`, `90m`, `4h` or `1h30m`, as whole seconds. */
export function parseDurationSeconds(text: string): number | undefined {
  const match = /^(?:(\d+)h)?(?:(\d+)m(?:in)?)?(?:(\d+)s?)?$/i.exec(text.trim());
  if (!match || text.trim() === '' || match.slice(1).every((part) => part === undefined)) return undefined;
  const [hours, minutes, seconds] = match.slice(1).map((part) => (part === undefined ? 0 : Number(part)));
  return hours! * 3600 + minutes! * 60 + seconds!;
}

/** A duration flag: seconds (or 90m, 2h) within the service's range. */
export function durationFlag(min: number, max: number, example: string) {
  return z.string().transform((text, ctx) => {
    const seconds = parseDurationSeconds(text);
    if (seconds === undefined) {
      ctx.addIssue({ code: 'custom', message: `“${text}” is not a duration; give seconds (e.g. ${example}) or minutes and hours such as 90m or 2h` });
      return z.NEVER;
    }
    if (seconds < min || seconds > max) {
      ctx.addIssue({ code: 'custom', message: `must be ${min} to ${max} seconds (e.g. ${example}); ${seconds} is out of range` });
      return z.NEVER;
    }
    return seconds;
  });
}

const languageCode = z.string().transform((text, ctx): CaptionLanguage => {
  const wanted = text.replace('_', '-').toLowerCase();
  const found = CAPTION_LANGUAGES.find((code) => code.toLowerCase() === wanted);
  if (!found) {
    ctx.addIssue({ code: 'custom', message: `“${text}” is not a captions language; use one of ${CAPTION_LANGUAGES.join(', ')}` });
    return z.NEVER;
  }
  return found;
});

/** The captions watch a `/captions stop` without an ID means: the latest one running in the session. */
async function runningCaptionsOf(ix: Interaction, s: SessionRef): Promise<string | undefined> {
  const watches = await ix.services.store.listWatches({ kind: 'captions', teamId: ix.teamId, projectName: s.projectName, sessionId: s.sessionId });
  return watches.at(-1)?.resourceId;
}

const startCaptions = defineSubcommand({
  name: 'start',
  summary: 'Start live captions in a session (one per session)',
  role: 'moderator',
  args: {
    positionals: [{ name: 'session', label: 'session', optional: true, description: 'session ID or alias; default: the channel’s session' }],
    flags: [
      { name: 'lang', kind: 'value', valueLabel: 'language', description: `spoken language: ${CAPTION_LANGUAGES.join(', ')} (default en-US)` },
      {
        name: 'max-duration',
        kind: 'value',
        valueLabel: 'seconds',
        description: 'stop by themselves after this long: 300 to 14400 s, or e.g. 90m, 2h (default 4 h)',
      },
      { name: 'no-partial', kind: 'boolean', description: 'final captions only: slower, a little more accurate' },
      projectFlag,
    ],
    schema: z.object({
      session: sessionRef.optional(),
      lang: languageCode.optional(),
      maxDuration: durationFlag(300, CAPTIONS_DEFAULT_MAX_DURATION_S, '3600').optional(),
      noPartial: z.boolean().optional(),
      project: projectName.optional(),
    }),
    examples: ['', 'standup --lang fr-FR --max-duration 2h', '2_MX40NzEyfn5-abc --no-partial'],
  },
  target: (args) => args.session ?? '',
  async run(ix, args) {
    const resolved = await resolveSession(ix.services, ix, args.session, args.project);
    if (!resolved.ok) return replyEphemeral(ix, warning(resolved.message));
    const s = resolved.value;
    const languageCode = args.lang ?? 'en-US';
    const maxDurationS = args.maxDuration ?? CAPTIONS_DEFAULT_MAX_DURATION_S;
    const partialCaptions = !args.noPartial;
    const who = { startedBy: ix.userId, ...(s.alias ? { alias: s.alias } : {}), languageCode, partialCaptions };
    const startedAt = ix.services.clock();
    await performChange(ix, {
      command: '/captions start',
      target: `session ${s.sessionId} (${languageCode})`,
      projectName: s.projectName,
      errorContext: { operation: 'captions-start', sessionId: s.sessionId },
      call: (video) =>
        video.captions.start({
          sessionId: s.sessionId,
          ...(args.lang ? { languageCode: args.lang } : {}),
          ...(args.maxDuration !== undefined ? { maxDuration: args.maxDuration } : {}),
          ...(args.noPartial ? { partialCaptions: false } : {}),
        }),
      notice: (started) =>
        captionsKind.render({
          resourceId: started.captionsId,
          sessionId: s.sessionId,
          projectName: s.projectName,
          state: captionsSnapshot(startedAt, maxDurationS),
          context: who,
          actions: [],
          now: startedAt,
        }),
      track: (started) => ({
        kind: 'captions',
        resourceId: started.captionsId,
        sessionId: s.sessionId,
        initialState: captionsSnapshot(startedAt, maxDurationS),
        card: startModel(who),
      }),
    });
  },
});

const stopCaptions = defineSubcommand({
  name: 'stop',
  summary: 'Stop live captions (asks once; default: those running in the channel’s session)',
  role: 'moderator',
  args: {
    positionals: [
      { name: 'captionsId', label: 'captions-id', optional: true, description: 'the ID on the captions card; default: the captions running in the session' },
    ],
    flags: [
      { name: 'session', kind: 'value', valueLabel: 'session', description: 'session ID or alias whose captions to stop; default: the channel’s session' },
      projectFlag,
    ],
    schema: z.object({ captionsId: identifier('a captions ID').optional(), session: sessionRef.optional(), project: projectName.optional() }),
    examples: ['', '7c0680fc-6274-4de5-a66f-d0648e8d3ac2', '--session standup'],
  },
  target: (args) => (args.captionsId ? `captions ${args.captionsId}` : (args.session ?? '')),
  async run(ix, args) {
    let captionsId = args.captionsId;
    let session: SessionRef | undefined;
    if (captionsId === undefined || args.session !== undefined) {
      const resolved = await resolveSession(ix.services, ix, args.session, args.project);
      if (!resolved.ok) return replyEphemeral(ix, warning(resolved.message));
      session = resolved.value;
    }
    if (captionsId === undefined) {
      captionsId = await runningCaptionsOf(ix, session!);
      if (captionsId === undefined) {
        return replyEphemeral(
          ix,
          warning(
            `No captions started from Slack are running in session ${sessionName(session!)}. To stop captions started elsewhere, give their ID: \`/captions stop <captions-id>\`.`,
          ),
        );
      }
    } else if (session === undefined) {
      // Started from Slack: the watch knows the session and project.
      const [known] = (await ix.services.store.listWatches({ kind: 'captions', teamId: ix.teamId, resourceId: captionsId }, { includeEnded: true })).slice(-1);
      if (known && (args.project === undefined || args.project === known.projectName)) {
        session = await withAlias(ix.services, ix.teamId, { projectName: known.projectName, sessionId: known.sessionId });
      }
    }
    let project = session?.projectName;
    if (project === undefined) {
      const resolved = await resolveProject(ix.services, ix, args.project);
      if (!resolved.ok) return replyEphemeral(ix, warning(resolved.message));
      project = resolved.value.projectName;
    }
    // Irreversible: the card is the one question, its button stops them (src/actions/captions.ts).
    await replyEphemeral(ix, captionsStopConfirmCard(project, captionsId, session));
  },
});

/** `/captions stop` and the card's Stop: the change, its notice, and the captions' cards ended. */
export function stopCaptionsChange(ix: Interaction, id: string, projectName: string, session: SessionRef | undefined): Change<void> {
  return {
    command: '/captions stop',
    target: `captions ${id}${session ? ` in session ${session.sessionId}` : ''}`,
    projectName,
    errorContext: { operation: 'captions-stop', resourceId: id, ...(session ? { sessionId: session.sessionId } : {}) },
    call: (video) => stopCaptionsAndWatches(ix, video, id),
    notice: () => captionsStoppedNotice(ix.userId, id, session),
    card: () => ({ kind: 'captions', resourceId: id, action: 'stop', state: (previous) => ({ ...(previous as CaptionsSnapshot), status: 'ended' }) }),
  };
}

/**
 * Stops the captions, then ends their watches: the spec has no captions status to read, so a
 * watch left running would later announce "maximum duration reached" for captions stopped here.
 */
export async function stopCaptionsAndWatches(ix: Interaction, video: ProjectClient, captionsId: string): Promise<void> {
  await video.captions.stop(captionsId);
  const now = ix.services.clock();
  for (const watch of await ix.services.store.listWatches({ kind: 'captions', resourceId: captionsId })) {
    await ix.services.store.endWatch(watch.id, now);
  }
}

export const captionsCommand = defineCommand({
  command: '/captions',
  summary: 'Start or stop live captions in a session.',
  subcommands: [startCaptions, stopCaptions],
});
