import { LogEvent } from '../../domain/log-events';
import { RecordedEvent } from './event-store.port';
import { Job, JobKind, JobOfKind, JobPayloads } from './job-queue.port';

/** A partner in one environment: whose settings a job may depend on. */
export interface PartnerScope {
  partnerId: string;
  environment: string;
}

/**
 * The partners' settings as the transaction that schedules jobs reads them (the settings read model). It is
 * current for every settings change answered so far: settings commands wait for the read models before answering.
 */
export interface SettingsAtScheduling {
  /** Which of these partners have a webhook URL. */
  withWebhookUrl(partners: readonly PartnerScope[]): Promise<(partner: PartnerScope) => boolean>;
  /** The low-balance threshold of each of these partners, undefined where none is set. */
  lowBalanceThresholds(partners: readonly PartnerScope[]): Promise<(partner: PartnerScope) => string | undefined>;
}

/**
 * What the log asks to be done: the durable jobs an event calls for. The reactions projection runs every reaction
 * over the log and schedules their jobs in the transaction that moves its checkpoint (a transactional outbox);
 * job ids are deterministic, so a replay schedules nothing new.
 */
export interface Reaction<Handled extends LogEvent = LogEvent> {
  readonly handles: ReadonlySet<Handled['type']>;
  /** Pure: the jobs one event calls for. Given only the events it `handles`. */
  jobsFor(event: RecordedEvent<Handled>): Job[];
  /**
   * The jobs of one batch (this reaction's) that are still wanted given the partners' settings at scheduling, with
   * their payload completed by what was read if need be. Without it, every job is scheduled.
   */
  stillWanted?(jobs: readonly Job[], settings: SettingsAtScheduling): Promise<Job[]>;
}

/** The one job of a kind an event asks for: its id is the kind and the subject, so the event schedules it once. */
export const reactionJob = <Kind extends JobKind>(
  kind: Kind,
  subject: string,
  dueAt: string,
  payload: JobPayloads[Kind],
): JobOfKind<Kind> => ({ id: `${kind}:${subject}`, kind, dueAt: new Date(dueAt), payload });
