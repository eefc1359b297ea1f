import { Field, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { IsInt, Max, Min } from 'class-validator';
import { QueueName } from '@scopegraph/queue';
import { JSONScalar } from '../graphql/json.scalar';

registerEnumType(QueueName, { name: 'QueueName' });

export enum JobEventKind {
  PROGRESS = 'progress',
  COMPLETED = 'completed',
  FAILED = 'failed',
}
registerEnumType(JobEventKind, { name: 'JobEventKind' });

export const PROBE_MAX_STEPS = 100;
export const PROBE_MAX_STEP_DELAY_MS = 10_000;

@InputType()
export class ProbeInput {
  @Field(() => Int, { defaultValue: 3, description: `1..${PROBE_MAX_STEPS}` })
  @IsInt()
  @Min(1)
  @Max(PROBE_MAX_STEPS)
  steps: number = 3;

  @Field(() => Int, { defaultValue: 50, description: `0..${PROBE_MAX_STEP_DELAY_MS}` })
  @IsInt()
  @Min(0)
  @Max(PROBE_MAX_STEP_DELAY_MS)
  stepDelayMs: number = 50;
}

@ObjectType()
export class JobRef {
  @Field(() => ID) id: string;
  @Field(() => QueueName) queue: QueueName;
  @Field() name: string;
}

@ObjectType()
export class JobStatus {
  @Field(() => ID) id: string;
  @Field(() => QueueName) queue: QueueName;
  @Field() name: string;
  @Field({ description: 'waiting | active | delayed | completed | failed | ...' }) state: string;
  @Field(() => JSONScalar, { nullable: true }) progress?: unknown;
  @Field(() => JSONScalar, { nullable: true }) result?: unknown;
  @Field({ nullable: true }) failedReason?: string;
  @Field(() => Int) attemptsMade: number;
}

@ObjectType()
export class JobEventPayload {
  @Field(() => ID) jobId: string;
  @Field(() => QueueName) queue: QueueName;
  @Field(() => JobEventKind) kind: JobEventKind;
  @Field(() => JSONScalar, { nullable: true }) progress?: unknown;
  @Field(() => JSONScalar, { nullable: true }) result?: unknown;
  @Field({ nullable: true }) failedReason?: string;
}
