import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import { DomainError, DomainErrorCode } from '@scopegraph/errors';
import type { Access, GatedRequest } from './access';

/**
 * Repository scopes of keys. A pattern is a repository name or a glob with `*` and `?` (names are
 * flat, so these two wildcards are all a glob library would add here).
 */
export function patternMatches(pattern: string, name: string): boolean {
  const re = new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
  return re.test(name);
}

/** Whether a caller may see a repository: unscoped access sees every one. */
export function maySee(access: Access | undefined, repository: string): boolean {
  if (!access?.repositories) return true;
  return access.repositories.some((p) => patternMatches(p, repository));
}

export function scoped(access: Access | undefined): boolean {
  return Boolean(access?.repositories);
}

/** What GraphQL contexts carry: the gated HTTP request or, for sockets, the handshake's access. */
export function accessOfContext(ctx: { req?: GatedRequest; access?: Access } | undefined): Access | undefined {
  return ctx?.access ?? ctx?.req?.access;
}

export function accessOf(context: ExecutionContext): Access | undefined {
  if (context.getType<string>() === 'graphql') return accessOfContext(GqlExecutionContext.create(context).getContext());
  return context.switchToHttp().getRequest<GatedRequest>().access;
}

/** The caller's access in a resolver (for the places that list or look up repositories). */
export const CurrentAccess = createParamDecorator((_data: unknown, context: ExecutionContext) => accessOf(context));

/**
 * Argument names that hold repository names, anywhere in an operation's arguments (input objects
 * too): `repository`, `repositories`, `repo`, `repositoryName`. An operation naming its repository
 * differently declares it with @RepositoryArgs('name').
 */
export const REPOSITORY_ARG_NAMES = new Set(['repository', 'repositories', 'repo', 'repositoryName']);
export const REPOSITORY_ARGS = 'scopegraph:repositoryArgs';
export const RepositoryArgs = (...names: string[]) => SetMetadata(REPOSITORY_ARGS, names);

/** Every repository name an operation's arguments mention (depth-bounded walk of inputs). */
export function repositoriesInArgs(args: unknown, extraNames: readonly string[] = [], depth = 0): string[] {
  if (depth > 4 || args === null || typeof args !== 'object') return [];
  const found: string[] = [];
  for (const [key, value] of Object.entries(args as Record<string, unknown>)) {
    if (REPOSITORY_ARG_NAMES.has(key) || (depth === 0 && extraNames.includes(key))) {
      if (typeof value === 'string') found.push(value);
      else if (Array.isArray(value)) found.push(...value.filter((v): v is string => typeof v === 'string'));
    } else if (value && typeof value === 'object') {
      found.push(...repositoriesInArgs(value, [], depth + 1));
    }
  }
  return found;
}

/**
 * The answer for a repository the caller may not see: word for word the search's answer for one
 * that does not exist, so nobody learns which names exist outside their scope.
 */
export function unseenRepository(name: string): DomainError {
  return new DomainError(DomainErrorCode.UnknownRepository, `unknown repository ${JSON.stringify(name)}`, 'repository');
}

/** The repository a queued job works on, from its data (index: name or the folder's name; ask/rerank: input.repository). */
export function jobRepository(data: unknown): string | undefined {
  const d = (data ?? {}) as { name?: unknown; repository?: unknown; path?: unknown; input?: { repository?: unknown } };
  for (const v of [d.repository, d.name, d.input?.repository]) if (typeof v === 'string' && v) return v;
  if (typeof d.path === 'string') return d.path.replace(/\/+$/, '').split('/').pop();
  return undefined;
}

/** The repository an audited mutation names: a repository argument, a top-level `name`, or its input's. */
export function auditedRepository(args: Record<string, unknown>): string | null {
  return repositoriesInArgs(args, ['name'])[0] ?? jobRepository(args.input) ?? null;
}
