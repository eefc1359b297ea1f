/**
 * LangChain.js's Neo4jVectorStore (`@langchain/community`) over our indexes, loaded at run time so
 * that the repository builds and type-checks whether or not the package is installed (see
 * bench/peer/README.md).
 */
import { Embeddings } from '@langchain/core/embeddings';
import { loadConfig } from '@scopegraph/config';
import type { EmbeddingProvider } from '@scopegraph/llm';
import type { RankedScope } from '../../libs/search/src/eval';

export const PEER_PACKAGE = '@langchain/community@1.1.29';
const PEER_MODULE = '@langchain/community/vectorstores/neo4j_vector';

export interface PeerDocument {
  pageContent: string;
  metadata: Record<string, unknown>;
}
export interface PeerStore {
  similaritySearchWithScore(query: string, k: number): Promise<[PeerDocument, number][]>;
  similaritySearchVectorWithScore(vector: number[], k: number, query: string): Promise<[PeerDocument, number][]>;
  close(): Promise<void>;
}
interface PeerModule {
  Neo4jVectorStore: { fromExistingIndex(embeddings: Embeddings, config: Record<string, unknown>): Promise<PeerStore> };
}

export function loadPeer(): PeerModule {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(PEER_MODULE) as PeerModule;
  } catch (error) {
    throw new Error(
      `cannot load ${PEER_MODULE} (${(error as Error).message.split('\n')[0]}).\n` +
        `Install it (npm install ${PEER_PACKAGE}) or point NODE_PATH at a folder where it is installed (see bench/peer/README.md).`,
    );
  }
}

/** Our local EmbeddingProvider as LangChain Embeddings: the peer embeds exactly as we do. */
export class ProviderEmbeddings extends Embeddings {
  constructor(private readonly provider: EmbeddingProvider) {
    super({});
  }

  embedDocuments(documents: string[]): Promise<number[][]> {
    return this.provider.embedDocuments(documents);
  }

  embedQuery(document: string): Promise<number[]> {
    return this.provider.embedQuery(document);
  }
}

/**
 * LangChain's documented hook for what a hit returns: the scope's source as the page text and the
 * fields that identify it as metadata, so each document maps back to a scope id. The default
 * would return every property but the id (`node {.*, id: Null}`).
 */
const PEER_RETRIEVAL_QUERY = `RETURN node.source AS text, score,
  {id: node.id, repoId: node.repoId, path: node.path, name: node.name, qualifiedName: node.qualifiedName, kind: node.kind} AS metadata`;

export async function openPeer(embeddings: Embeddings): Promise<PeerStore> {
  const config = loadConfig();
  return loadPeer().Neo4jVectorStore.fromExistingIndex(embeddings, {
    url: config.neo4j.uri,
    username: config.neo4j.user,
    password: config.neo4j.password,
    database: config.neo4j.database,
    indexName: 'scope_embedding',
    keywordIndexName: 'scope_fulltext',
    nodeLabel: 'Scope',
    textNodeProperty: 'source',
    embeddingNodeProperty: 'embedding',
    searchType: 'hybrid',
    retrievalQuery: PEER_RETRIEVAL_QUERY,
  });
}

export function peerScope(doc: PeerDocument): RankedScope {
  const m = doc.metadata as Record<string, string>;
  return { id: m.id, repoId: m.repoId, path: m.path, name: m.name, qualifiedName: m.qualifiedName, kind: m.kind };
}

/** The peer store, or null (with the reason logged) when the package cannot be loaded. */
export async function loadPeerOrNull(embedder: EmbeddingProvider, log: (message: string) => void): Promise<{ store: PeerStore } | null> {
  try {
    return { store: await openPeer(new ProviderEmbeddings(embedder)) };
  } catch (error) {
    log(`peer left out: ${(error as Error).message}`);
    return null;
  }
}
