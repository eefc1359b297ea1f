import { Field, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { ArrayMaxSize, IsArray, IsBoolean, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { REPOSITORY_NAME_PATTERN } from '@scopegraph/ingest';
import { JSONScalar } from '../graphql/json.scalar';

export const MAX_PATH_LENGTH = 4096;
const MAX_WALK_GLOBS = 100;
const MAX_GLOB_CHARS = 300;

@InputType()
export class IndexRepositoryInput {
  @Field({ description: 'Absolute path of the repository on the server, under INGEST_ALLOWED_ROOTS' })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_PATH_LENGTH)
  path: string;

  @Field({ description: "Repository name: 1-100 of letters, digits, '.', '_', '-'" })
  @IsString()
  @Matches(REPOSITORY_NAME_PATTERN, { message: "name must be 1-100 letters, digits, '.', '_' or '-', starting with a letter or digit" })
  name: string;

  @Field({ defaultValue: false, description: 'Leave doc comments out of what is stored and embedded (evaluation runs)' })
  @IsBoolean()
  excludeDocComments: boolean = false;

  @Field(() => [String], {
    nullable: true,
    description: 'Globs (gitignore syntax) to index although the defaults skip them, e.g. "dist/**"; kept with the repository (omit to keep the stored ones)',
  })
  @IsOptional() @IsArray() @ArrayMaxSize(MAX_WALK_GLOBS) @IsString({ each: true }) @MinLength(1, { each: true }) @MaxLength(MAX_GLOB_CHARS, { each: true })
  include?: string[];

  @Field(() => [String], { nullable: true, description: 'Globs (gitignore syntax) to skip besides the defaults, e.g. "src/legacy/"; kept with the repository' })
  @IsOptional() @IsArray() @ArrayMaxSize(MAX_WALK_GLOBS) @IsString({ each: true }) @MinLength(1, { each: true }) @MaxLength(MAX_GLOB_CHARS, { each: true })
  exclude?: string[];

  @Field(() => String, {
    nullable: true,
    description: 'Absolute path on the server (under INGEST_ALLOWED_ROOTS) of a SCIP index (scip-typescript, scip-python, scip-go... output) whose definitions replace name-based edges in this run',
  })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(MAX_PATH_LENGTH)
  scip?: string;
}

@ObjectType({ description: "How one language's references in a repository ended" })
export class LanguageCoverage {
  @Field() language: string;
  @Field(() => Int, { description: 'Pinned to a scope of the repository' }) resolved: number;
  @Field(() => Int, { description: 'Into the standard library or a dependency' }) external: number;
  @Field(() => Int, { description: 'Through a function value, closure, or an interface with several implementors' }) dynamic: number;
  @Field(() => Int, { description: 'Nothing in the repository matched (same as notFound)' }) unresolved: number;
  @Field(() => Int, { description: 'Of resolved: by a type checker (compiler)' }) byCompiler: number;
  @Field(() => Int, { description: 'Of resolved: from an imported SCIP index' }) byScip: number;
  @Field(() => Int, { description: 'Of resolved: the only declaration the name can mean' }) byName: number;
  @Field(() => Int, { description: 'Of resolved: one of several same-named candidates' }) byHeuristic: number;
  @Field(() => Int, { description: 'Meant for the repository, nothing matched' }) notFound: number;
  @Field(() => Int, { description: 'Call sites (CALLS) pinned to a scope of the repository' }) callsResolved: number;
  @Field(() => Int, { description: 'Call sites meant for the repository that found nothing (not-found share = callsNotFound / (callsResolved + callsNotFound))' }) callsNotFound: number;
}

export enum RepositoryIndexStatus {
  INDEXING = 'INDEXING',
  INDEXED = 'INDEXED',
  FAILED = 'FAILED',
}
registerEnumType(RepositoryIndexStatus, {
  name: 'RepositoryIndexStatus',
  description: 'INDEXING while a run is on; INDEXED once one finished; FAILED when the last run did not finish (half-written: index it again to complete it)',
});

@ObjectType({ description: 'How far a running index is: what search can already find' })
export class IndexRunState {
  @Field({ description: 'walking | parsing | resolving | writing | embedding | done' }) phase: string;
  @Field(() => Int, { description: 'Scopes written to the graph so far (keyword, exact-string and GRAPH search find them)' }) scopesWritten: number;
  @Field(() => Int, { description: 'Scopes this run has embedded so far (vector search finds them)' }) embedded: number;
  @Field(() => Int, { description: 'Scopes this run embeds in all (known once the embedding phase starts)' }) toEmbed: number;
}

@ObjectType()
export class Repository {
  @Field(() => ID) id: string;
  @Field() name: string;
  rootPath: string;
  @Field(() => Int, { nullable: true }) files?: number | null;
  @Field(() => Int, { nullable: true }) scopes?: number | null;
  @Field(() => Int, { nullable: true, description: 'CALLS, EXTENDS, IMPLEMENTS, REFERENCES and IMPORTS edges' }) edges?: number | null;
  @Field(() => Int, { nullable: true }) embedded?: number | null;
  @Field(() => String, { nullable: true }) indexedAt?: string | null;
  @Field(() => [String], { description: 'Globs indexed although the defaults skip them (dist/, build/, vendor/, bundles...)' }) include: string[];
  @Field(() => [String], { description: 'Globs skipped besides the defaults' }) exclude: string[];
  @Field(() => RepositoryIndexStatus, { description: 'How its last index run ended' }) indexStatus: RepositoryIndexStatus | `${RepositoryIndexStatus}`;
  @Field(() => ID, { nullable: true, description: 'The index job of its last run' }) indexJobId?: string | null;
  @Field(() => String, { nullable: true, description: 'Why the last run did not finish (FAILED)' }) indexError?: string | null;
  @Field(() => IndexRunState, { nullable: true, description: 'While INDEXING: scopes written and embedded so far' }) indexRun?: IndexRunState | null;
}

@ObjectType()
export class IngestErrorEntry {
  @Field() path: string;
  @Field() message: string;
}

@ObjectType()
export class IndexProgress {
  @Field(() => ID) jobId: string;
  @Field({ description: 'walking | parsing | resolving | writing | embedding | checking | done | failed (checking: only the Python checker\'s deferred phase is left)' }) phase: string;
  @Field({ nullable: true, description: 'The Python checker\'s deferred phase after the graph write (pyright\'s default; INGEST_PY_PRECISE_PHASE=deferred): answering | writing | done | failed' })
  checker?: string;
  @Field(() => Int) filesTotal: number;
  @Field(() => Int) filesParsed: number;
  @Field(() => Int) filesReused: number;
  @Field(() => Int) scopes: number;
  @Field(() => Int) edges: number;
  @Field(() => Int) embedded: number;
  @Field(() => Int, { nullable: true, description: 'Of embedded, vectors copied rather than computed (EMBED_REUSE: the same model, dimensions and text were already embedded on this server)' })
  embedReused?: number | null;
  @Field(() => Int) toEmbed: number;
  @Field(() => Int, { nullable: true, description: 'Seconds the current phase still needs at its rate so far (parsing, embedding); null when unknown' })
  etaSeconds?: number | null;
  @Field(() => Int) errors: number;
  @Field(() => [IngestErrorEntry]) recentErrors: IngestErrorEntry[];
  @Field(() => JSONScalar, { nullable: true, description: 'The IngestResult, on the final event' }) result?: unknown;
  @Field({ nullable: true }) failedReason?: string;
}
