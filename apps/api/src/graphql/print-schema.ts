import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { GraphQLSchemaBuilderModule, GraphQLSchemaFactory } from '@nestjs/graphql';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { AppModule } from '../app.module';

/**
 * The API's schema as SDL, built from the resolver classes alone: the schema is code-first and lives
 * only in memory, and booting AppModule would need Neo4j and Redis. Resolvers are read from AppModule's
 * providers so a new resolver reaches the console's types without editing this file.
 */
export async function printApiSchema(): Promise<string> {
  const providers = (Reflect.getMetadata('providers', AppModule) ?? []) as unknown[];
  const resolvers = providers.filter((p): p is Function => typeof p === 'function' && isResolver(p));
  const app = await NestFactory.create(GraphQLSchemaBuilderModule, { logger: false });
  try {
    const schema = await app.get(GraphQLSchemaFactory).create(resolvers);
    // Same order as the server's (sortSchema: true), so the file diffs cleanly.
    return printSchema(lexicographicSortSchema(schema)) + '\n';
  } finally {
    await app.close();
  }
}

/** @Resolver() marks the class itself with its name metadata even when it resolves no object type. */
function isResolver(cls: Function): boolean {
  return Reflect.getMetadataKeys(cls).some((k) => typeof k === 'string' && k.startsWith('graphql:resolver'));
}

if (require.main === module) {
  printApiSchema().then(
    (sdl) => process.stdout.write(sdl),
    (err: unknown) => {
      process.stderr.write(`cannot build the GraphQL schema: ${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    },
  );
}
