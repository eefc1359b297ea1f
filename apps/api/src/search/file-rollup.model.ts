import { Field, Float, Int, ObjectType } from '@nestjs/graphql';

// Its own file: both the search and the rerank models use it, and they import each other's inputs.
@ObjectType({ description: 'LOCALIZE: a file of the ranked functions, scored by them' })
export class FileRollup {
  @Field() repoId: string;
  @Field() path: string;
  @Field(() => Float) score: number;
  @Field(() => Int) rank: number;
  @Field(() => [String], { description: 'Qualified names of its ranked functions, best first' }) functions: string[];
}
