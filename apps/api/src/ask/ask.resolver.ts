import { Args, ID, Mutation, Query, Resolver, Subscription } from '@nestjs/graphql';
import { DomainError, DomainErrorCode } from '@scopegraph/errors';
import { AskEvent, AskService, PipelineDefinitionError } from '@scopegraph/pipeline';
import { AskInput, AskJob, AskProgress, AskState, Conversation, MAX_VALIDATE_CHARS, PipelineGql, PipelineValidation } from './ask.model';

@Resolver()
export class AskResolver {
  constructor(private readonly ask: AskService) {}

  @Mutation(() => AskJob, { name: 'ask', description: 'Asks a question about a repository; returns an id at once. The pipeline runs on a worker: watch it with askProgress.' })
  askMutation(@Args('input') input: AskInput): Promise<AskJob> {
    return this.ask.start(input);
  }

  @Subscription(() => AskProgress, {
    description: 'STEP events as steps run, CHUNK events with the answer as it is generated, then FINAL (answer, citations, plan, trace) or ERROR. Served by any API replica; a late subscriber replays what it missed.',
    resolve: (event: AskEvent) => event,
  })
  async askProgress(@Args('id', { type: () => ID }) id: string): Promise<AsyncIterator<AskEvent>> {
    return this.ask.watch(id);
  }

  @Query(() => AskState, { description: 'Where an ask stands, for clients that poll instead of subscribing to askProgress: the answer so far, then the result' })
  askResult(@Args('id', { type: () => ID }) id: string): Promise<AskState> {
    return this.ask.status(id) as Promise<AskState>;
  }

  @Query(() => Conversation, { nullable: true, description: 'A conversation: every turn and the current rolling summary' })
  conversation(@Args('sessionId') sessionId: string): Promise<Conversation | null> {
    return this.ask.conversation(sessionId);
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
