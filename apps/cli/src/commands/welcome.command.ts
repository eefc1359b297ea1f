import { ApiClient, clientConfig } from '../client';

const EXAMPLE = '{ health { ok neo4j { version edition } redis { version } } }';

/** What `npm start` shows once the API is up: one real query, how to send it, and its answer. */
export async function welcomeCommand(client = new ApiClient()): Promise<number> {
  const data = await client.request(EXAMPLE);
  const body = JSON.stringify({ query: EXAMPLE });
  process.stdout.write(
    `\nExample query:\n  curl -s ${clientConfig().url} -H 'content-type: application/json' -d '${body}'\n` +
      JSON.stringify({ data }, null, 2) +
      '\n',
  );
  return 0;
}
