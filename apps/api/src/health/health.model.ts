import { Field, Float, Int, ObjectType } from '@nestjs/graphql';

@ObjectType()
export class IndexStatus {
  @Field() name: string;
  @Field() type: string;
  @Field() state: string;
  @Field() online: boolean;
  @Field(() => Float) populationPercent: number;
  @Field(() => [String]) labelsOrTypes: string[];
  @Field(() => [String]) properties: string[];
}

@ObjectType()
export class Neo4jStatus {
  @Field() ok: boolean;
  @Field({ nullable: true }) version?: string;
  @Field({ nullable: true }) edition?: string;
  @Field(() => [IndexStatus]) indexes: IndexStatus[];
  @Field({ nullable: true }) error?: string;
}

@ObjectType()
export class RedisStatus {
  @Field() ok: boolean;
  @Field({ nullable: true }) version?: string;
  @Field({ nullable: true }) error?: string;
}

@ObjectType()
export class QueueStatus {
  @Field() name: string;
  @Field(() => Int) waiting: number;
  @Field(() => Int) active: number;
  @Field(() => Int) delayed: number;
  @Field(() => Int) completed: number;
  @Field(() => Int) failed: number;
}

@ObjectType({ description: 'Whether Neo4j (with every index ONLINE), Redis and the queues are up' })
export class Health {
  @Field() ok: boolean;
  @Field(() => Neo4jStatus) neo4j: Neo4jStatus;
  @Field(() => RedisStatus) redis: RedisStatus;
  @Field(() => [QueueStatus]) queues: QueueStatus[];
}
