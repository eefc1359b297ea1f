import { createHash } from 'node:crypto';
import { Args, ID, Mutation, Query, Resolver, Subscription } from '@nestjs/graphql';
import { DomainError, DomainErrorCode } from '@scopegraph/errors';
import { ASK_LIMITS, AskEvent, AskNotFoundError, AskService, PipelineDefinitionError } from '@scopegraph/pipeline';
import { QueueName, QueueService } from '@scopegraph/queue';
import type { Access } from '../auth/access';
import { CurrentAccess, jobRepository, maySee } from '../auth/scope';
import { AskInput, AskJob, AskProgress, AskState, Conversation, MAX_VALIDATE_CHARS, PipelineGql, PipelineValidation } from './ask.model';

@Resolver()
export class AskResolver {
  constructor(
    private readonly ask: AskService,
    private readonly queues: QueueService,
  ) {}

  @Mutation(() => AskJob, { name: 'ask', description: 'Asks a question about a repository; returns an id at once. The pipeline runs on a worker: watch it with askProgress.' })
  async askMutation(@Args('input') input: AskInput, @CurrentAccess() access?: Access): Promise<AskJob> {
    const sessionId = input.sessionId ? storedSessionId(access, input.sessionId) : input.sessionId;
    if (sessionId) {
      // Continuing someone else's conversation would read its history into this key's answer. Only an
      // environment key or the local user can get here (their ids are not namespaced, see storedSessionId).
      const existing = await this.ask.conversation(sessionId);
      if (existing && !ownsConversation(access, existing.owner)) {
        throw new DomainError(DomainErrorCode.InvalidInput, 'sessionId is taken: choose another one for a new conversation', 'sessionId');
      }
    }
    return this.ask.start({ ...input, sessionId }, access?.keyId ?? null);
  }

  /** An ask of a repository this key may not see answers like an unknown ask id. */
  private async checkAsk(id: string, access: Access | undefined): Promise<void> {
    if (!access?.repositories) return;
    const job = await this.queues.getJob(QueueName.ASK, id);
    if (job && !maySee(access, jobRepository(job.data) ?? '')) throw new AskNotFoundError(id);
  }

  @Subscription(() => AskProgress, {
    description: 'STEP events as steps run, CHUNK events with the answer as it is generated, then FINAL (answer, citations, plan, trace) or ERROR. Served by any API replica; a late subscriber replays what it missed.',
    resolve: (event: AskEvent) => event,
  })
  async askProgress(@Args('id', { type: () => ID }) id: string, @CurrentAccess() access?: Access): Promise<AsyncIterator<AskEvent>> {
    await this.checkAsk(id, access);
    return this.ask.watch(id);
  }

  @Query(() => AskState, { description: 'Where an ask stands, for clients that poll instead of subscribing to askProgress: the answer so far, then the result' })
  async askResult(@Args('id', { type: () => ID }) id: string, @CurrentAccess() access?: Access): Promise<AskState> {
    await this.checkAsk(id, access);
    return (await this.ask.status(id)) as AskState;
  }

  @Query(() => Conversation, { nullable: true, description: 'A conversation: every turn and the current rolling summary' })
  async conversation(@Args('sessionId') sessionId: string, @CurrentAccess() access?: Access): Promise<Conversation | null> {
    const record = await this.ask.conversation(storedSessionId(access, sessionId));
    // Another key's conversation answers exactly like one that does not exist.
    return record && ownsConversation(access, record.owner) ? ({ ...record, sessionId } as Conversation) : null;
  }

  @Query(() => [PipelineGql], { description: 'The pipelines in pipelines/*.yaml, extends resolved' })
  pipelines(): PipelineGql[] {
    return this.ask.list();
  }

  @Query(() => PipelineValidation, { description: 'Checks a pipeline YAML (it may extend the shipped ones) without saving it' })
  validatePipeline(@Args('yaml') yaml: string): PipelineValidation {
    if (yaml.length > MAX_VALIDATE_CHARS) throw new DomainError(DomainErrorCode.AskInvalidInput, `yaml must be at most ${MAX_VALIDATE_CHARS} characters`, 'yaml');
    try {
      return { valid: true, pipeline: this.ask.validate(yaml), errors: [] };
    } catch (error) {
      if (error instanceof PipelineDefinitionError) return { valid: false, pipeline: null, errors: error.issues };
      throw error;
    }
  }
}

/**
 * A conversation belongs to the key id that started it ('local' for the keyless local user). Ones
 * from before owners were recorded stay readable by environment keys and the local user only.
 */
function ownsConversation(access: Access | undefined, owner: string | null): boolean {
  const keyId = access?.keyId ?? 'local';
  if (owner === null) return keyId === 'local' || keyId.startsWith('env:');
  return owner === keyId;
}

/**
 * Session ids are per key: a stored key's id is kept under its key id (hashed, so the stored id fits
 * the length limit whatever the caller chose), so another key's id simply starts a conversation of
 * its own and nobody learns which ids are in use. Environment keys and the local user keep the ids
 * as given (conversations of earlier versions, and one operator's keys sharing them).
 */
export function storedSessionId(access: Access | undefined, sessionId: string): string {
  const keyId = access?.keyId ?? 'local';
  // A malformed id is passed on as it is, for the service to refuse in its own words.
  if (keyId === 'local' || keyId.startsWith('env:') || !/^[A-Za-z0-9_.:-]+$/.test(sessionId) || sessionId.length > ASK_LIMITS.maxSessionIdChars) return sessionId;
  return `k:${keyId}:${createHash('sha256').update(sessionId).digest('hex').slice(0, 40)}`;
}
