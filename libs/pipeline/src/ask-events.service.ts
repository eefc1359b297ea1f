import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { ASK_EVENTS, EventInbox, JobLostError, LIVENESS_CHECK, Liveness, LivenessCheck, QueueName, QueueService, RedisChannelsService } from '@scopegraph/queue';
import type { AskEvent, AskEventBody, AskResult, AskStatus } from './ask.types';

/** How long an ask's events stay replayable after its last one. */
const LOG_TTL_S = 3_600;

const isLast = (event: AskEvent) => event.kind === 'final' || event.kind === 'error';

/**
 * An ask's progress over Redis: every event is appended to a replay list and published, so any API
 * replica can serve a subscription, and one that subscribes late replays what it missed.
 */
@Injectable()
export class AskEventsService {
  private readonly logger = new Logger(AskEventsService.name);

  constructor(
    private readonly queues: QueueService,
    private readonly channels: RedisChannelsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** A publisher for one ask: events get consecutive seq numbers and are sent in order. */
  publisher(askId: string): { publish: (body: AskEventBody) => Promise<void> } {
    let seq = 0;
    let chain = Promise.resolve();
    const channel = ASK_EVENTS.channel(this.queues.prefix, askId);
    const log = ASK_EVENTS.log(this.queues.prefix, askId);
    return {
      publish: (body) => {
        const event = JSON.stringify({ askId, seq: ++seq, ...body });
        const sent = chain.then(async () => {
          await this.queues.redis.multi().rpush(log, event).expire(log, LOG_TTL_S).publish(channel, event).exec();
        });
        // The next event waits for this one whatever its outcome: one write that Redis did not take in
        // time must not fail every later event of the ask.
        chain = sent.catch(() => undefined);
        return sent;
      },
    };
  }

  /**
   * An ask's state from its replay log, else from its job (the log expires after LOG_TTL_S, the job's
   * return value is the result); null when neither exists.
   */
  async status(askId: string): Promise<AskStatus | null> {
    const logged = (await this.queues.redis.lrange(ASK_EVENTS.log(this.queues.prefix, askId), 0, -1)).map((s) => JSON.parse(s) as AskEvent).sort((a, b) => a.seq - b.seq);
    const status: AskStatus = { askId, status: 'running', answerSoFar: '', steps: 0, result: null, message: null };
    for (const event of logged) {
      if (event.kind === 'step') status.steps += 1;
      else if (event.kind === 'chunk') status.answerSoFar += event.text;
      else if (event.kind === 'final') return { ...status, status: 'completed', answerSoFar: event.result.answer, result: event.result };
      else return { ...status, status: 'failed', message: event.message };
    }
    const job = await this.queues.getJob(QueueName.ASK, askId);
    if (!job) {
      if (logged.length) return { ...status, status: 'failed', message: await this.goneMessage(askId) };
      if (await this.queues.issuedBeforeDataLoss(askId)) throw new JobLostError(`ask "${askId}"`);
      return null;
    }
    const state = await job.getState();
    if (state === 'completed' && job.returnvalue) {
      const result = job.returnvalue as AskResult;
      return { ...status, status: 'completed', answerSoFar: result.answer, steps: result.trace.length, result };
    }
    if (state === 'failed') return { ...status, status: 'failed', message: job.failedReason ?? 'the ask failed' };
    return status;
  }

  /** Why an ask's job is not in Redis (while events of it were seen). */
  private async goneMessage(askId: string): Promise<string> {
    return (await this.queues.issuedBeforeDataLoss(askId)) ? new JobLostError('the ask').message : 'the ask job is gone';
  }

  async *watch(askId: string): AsyncGenerator<AskEvent> {
    const inbox = new EventInbox<AskEvent | LivenessCheck>();
    const channel = ASK_EVENTS.channel(this.queues.prefix, askId);
    const unlisten = await this.channels.listen(channel, (message) => {
      try {
        inbox.push(JSON.parse(message) as AskEvent);
      } catch {
        this.logger.warn(`unreadable ask event on ${channel}`);
      }
    });
    const liveness = new Liveness(inbox.push);
    try {
      // Listening started before the log is read, so every event is in one or the other (or both:
      // seq numbers drop the repeats); the log is replayed first, then live events follow. A Redis
      // restarting just now is waited out like any liveness check (the next one says what is left).
      const logged = ((await liveness.check(() => this.queues.redis.lrange(ASK_EVENTS.log(this.queues.prefix, askId), 0, -1))) ?? []).map((s) => JSON.parse(s) as AskEvent);
      let last = 0;
      for (const event of logged.sort((a, b) => a.seq - b.seq)) {
        if (event.seq <= last) continue;
        last = event.seq;
        yield event;
        if (isLast(event)) return;
      }
      for await (const item of inbox) {
        if (item === LIVENESS_CHECK) {
          // Only when nothing is queued: a stream that is still moving needs no check.
          if (inbox.some(() => true)) continue;
          const found = await liveness.check(async () => {
            const job = await this.queues.getJob(QueueName.ASK, askId);
            return { job, state: job ? await job.getState() : 'unknown' };
          });
          if (!found) continue;
          const { job, state } = found;
          if (state === 'failed' || state === 'unknown') {
            yield { askId, seq: last + 1, kind: 'error', message: job?.failedReason ?? (await this.goneMessage(askId)) };
            return;
          }
          if (job && state === 'completed') {
            // Finished, yet its last events never came (pub/sub drops what is published while the
            // subscriber's connection is down): the rest from the log, else the job's result.
            const missed = ((await liveness.check(() => this.queues.redis.lrange(ASK_EVENTS.log(this.queues.prefix, askId), 0, -1))) ?? []).map((s) => JSON.parse(s) as AskEvent);
            for (const event of missed.sort((a, b) => a.seq - b.seq)) {
              if (event.seq <= last) continue;
              last = event.seq;
              yield event;
              if (isLast(event)) return;
            }
            if (job.returnvalue) {
              yield { askId, seq: last + 1, kind: 'final', result: job.returnvalue as AskResult };
              return;
            }
          }
          // Never taken by a worker (none running, or all stuck): removed so it cannot run unwatched
          // later. Removal fails once a worker holds the job, so only a truly waiting ask ends here.
          const limit = this.config.ask.pickupTimeoutMs;
          if (job && state === 'waiting' && Date.now() - job.timestamp > limit) {
            const removed = await job.remove().then(
              () => true,
              () => false,
            );
            if (removed) {
              const message = `no worker took the ask within ${limit} ms (is a worker running?)`;
              this.logger.warn(`ask ${askId}: ${message}`);
              yield { askId, seq: last + 1, kind: 'error', message };
              return;
            }
          }
          continue;
        }
        if (item.seq <= last) continue;
        last = item.seq;
        yield item;
        if (isLast(item)) return;
      }
    } finally {
      liveness.stop();
      await unlisten();
    }
  }

}
