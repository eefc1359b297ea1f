import { ApiClient, CliError } from '../client';

const KEY_FIELDS = 'id name role repositories createdAt revokedAt';

interface KeyInfo {
  id: string;
  name: string | null;
  role: string;
  repositories: string[];
  createdAt: string;
  revokedAt: string | null;
}

const ROLES = ['read', 'write', 'admin'];

/** `keys create`: the key goes to stdout alone (so it can be piped into a secret store); details to stderr. */
export async function keysCreateCommand(opts: { repos: string; role: string; name?: string; json?: boolean }, client = new ApiClient()): Promise<number> {
  if (!ROLES.includes(opts.role)) throw new CliError(`--role must be one of ${ROLES.join(', ')}`);
  const repositories = opts.repos.split(',').map((r) => r.trim()).filter(Boolean);
  if (repositories.length === 0) throw new CliError('--repos needs at least one repository name or glob (e.g. "a,b" or "*")');
  const { createApiKey } = await client.request<{ createApiKey: { key: string; info: KeyInfo } }>(
    `mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { key info { ${KEY_FIELDS} } } }`,
    { input: { repositories, role: opts.role, ...(opts.name ? { name: opts.name } : {}) } },
  );
  if (opts.json) {
    process.stdout.write(JSON.stringify(createApiKey, null, 2) + '\n');
    return 0;
  }
  process.stderr.write(`key ${createApiKey.info.id} (${createApiKey.info.role} on ${createApiKey.info.repositories.join(', ')}): shown this once, store it now\n`);
  process.stdout.write(createApiKey.key + '\n');
  return 0;
}

export async function keysListCommand(opts: { json?: boolean }, client = new ApiClient()): Promise<number> {
  const { apiKeys } = await client.request<{ apiKeys: KeyInfo[] }>(`{ apiKeys { ${KEY_FIELDS} } }`);
  if (opts.json) {
    process.stdout.write(JSON.stringify(apiKeys, null, 2) + '\n');
    return 0;
  }
  const lines = apiKeys.map((k) => `${k.id}  ${k.role.padEnd(5)}  ${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}  ${k.repositories.join(',')}${k.name ? `  (${k.name})` : ''}`);
  process.stdout.write((lines.length ? lines.join('\n') : 'no keys created through the API') + '\n');
  return 0;
}

export async function keysRevokeCommand(id: string, client = new ApiClient()): Promise<number> {
  const { revokeApiKey } = await client.request<{ revokeApiKey: KeyInfo }>(`mutation($id: ID!) { revokeApiKey(id: $id) { ${KEY_FIELDS} } }`, { id });
  process.stdout.write(`revoked ${revokeApiKey.id} at ${revokeApiKey.revokedAt}\n`);
  return 0;
}
