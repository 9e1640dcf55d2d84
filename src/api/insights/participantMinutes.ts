import { z } from 'zod';
import { amount } from './schemas';

/** Participant-minute buckets by publisher count, as listed in the spec. They overlap: each
 * pricing scheme reads its own subset. */
export const PARTICIPANT_BUCKETS = [
  'from1To2Publishers',
  'from3To6Publishers',
  'from7To8Publishers',
  'from1To4Publishers',
  'from5To8Publishers',
  'from1To8Publishers',
  'from1To10Publishers',
  'from9To10Publishers',
  'from11To35Publishers',
  'from11To20Publishers',
  'from21To35Publishers',
  'from36To40Publishers',
  'from36PlusPublishers',
  'from41PlusPublishers',
  'from1To25Publishers',
  'from3To25Publishers',
  'from26To35Publishers',
] as const;

export type ParticipantBucket = (typeof PARTICIPANT_BUCKETS)[number];

const shape = Object.fromEntries(PARTICIPANT_BUCKETS.map((b) => [b, amount])) as {
  [K in ParticipantBucket]: typeof amount;
};

export const participantMinutesSchema = z.looseObject(shape);

export type ParticipantMinutes = Record<ParticipantBucket, number>;
