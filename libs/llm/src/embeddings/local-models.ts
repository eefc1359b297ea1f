import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { EmbeddingError } from './embedding-provider';

/** Env var that points at the directory holding `<model-id>/` folders (read by the config loader; scripts/models.sh honours it too). */
export const MODELS_DIR_ENV = 'SCOPEGRAPH_MODELS_DIR';
/** Default location relative to the repository root; `.cache/` is git-ignored. */
const DEFAULT_MODELS_SUBDIR = join('.cache', 'models');
const REPO_PACKAGE_NAME = 'scopegraph';

export interface LocalModelSpec {
  /** Folder name under the models dir, and the `model` reported by the provider. */
  readonly id: string;
  readonly dimensions: number;
  /** Longest input in tokens, [CLS] and [SEP] included; longer inputs are truncated. */
  readonly maxTokens: number;
  readonly modelFile: string;
  readonly tokenizerFile: string;
  readonly description: string;
  /** Other names accepted in EMBEDDING_MODEL, e.g. the upstream model name. */
  readonly aliases: readonly string[];
}

export const DEFAULT_LOCAL_EMBEDDING_MODEL = 'all-MiniLM-L6-v2-onnx-int8';

/**
 * Models that scripts/models.sh knows how to install. all-MiniLM-L6-v2 was trained with inputs of
 * at most 128 word pieces and sentence-transformers runs it with max_seq_length 256; we use 256 like
 * sentence-transformers so that our vectors equal the reference ones.
 */
export const LOCAL_EMBEDDING_MODELS: Readonly<Record<string, LocalModelSpec>> = {
  [DEFAULT_LOCAL_EMBEDDING_MODEL]: {
    id: DEFAULT_LOCAL_EMBEDDING_MODEL,
    dimensions: 384,
    maxTokens: 256,
    modelFile: 'model.onnx',
    tokenizerFile: 'tokenizer.json',
    description: 'sentence-transformers/all-MiniLM-L6-v2, ONNX with int8 weights (fp32 arithmetic)',
    aliases: ['all-MiniLM-L6-v2', 'sentence-transformers/all-MiniLM-L6-v2'],
  },
  // Opt-in (scripts/models.sh installs it only when EMBEDDING_MODEL names it): converted from the
  // original safetensors at set-up; sentence-transformers runs it with max_seq_length 384.
  'all-mpnet-base-v2-onnx-int8': {
    id: 'all-mpnet-base-v2-onnx-int8',
    dimensions: 768,
    maxTokens: 384,
    modelFile: 'model.onnx',
    tokenizerFile: 'tokenizer.json',
    description: 'sentence-transformers/all-mpnet-base-v2, ONNX converted at set-up with per-channel int8 weights (fp32 arithmetic)',
    aliases: ['all-mpnet-base-v2', 'sentence-transformers/all-mpnet-base-v2'],
  },
};

export class LocalModelNotInstalledError extends EmbeddingError {
  constructor(
    readonly modelId: string,
    readonly modelDir: string,
    missing: string[],
  ) {
    super(
      `Local embedding model "${modelId}" is not installed: missing ${missing.join(', ')} in ${modelDir}. ` +
        `Run \`npm run models\` (or \`bash scripts/models.sh\`) to install it, or set ${MODELS_DIR_ENV} to the directory that holds it.`,
    );
    this.name = 'LocalModelNotInstalledError';
  }
}

/** Looks a model up by id or alias; the spec's `id` is what gets stored alongside vectors. */
export function getLocalModelSpec(modelId: string): LocalModelSpec | undefined {
  if (Object.prototype.hasOwnProperty.call(LOCAL_EMBEDDING_MODELS, modelId)) return LOCAL_EMBEDDING_MODELS[modelId];
  return Object.values(LOCAL_EMBEDDING_MODELS).find((spec) => spec.aliases.includes(modelId));
}

/**
 * The repository root is found from this file's location rather than the working directory, so the
 * API, the worker, jest and compiled dist/ code all look in the same `.cache/models`.
 */
export function findRepoRoot(start: string = __dirname): string | undefined {
  let dir = resolve(start);
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === REPO_PACKAGE_NAME) return dir;
      } catch {
        // An unreadable package.json further down is not ours; keep walking up.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** `explicit` is config.embedding.modelsDir in the apps; without it (tests, benches) the repository's `.cache/models`. */
export function resolveModelsDir(explicit?: string): string {
  if (explicit) return resolve(explicit);
  return join(findRepoRoot() || process.cwd(), DEFAULT_MODELS_SUBDIR);
}

export interface LocalModelFiles {
  dir: string;
  modelPath: string;
  tokenizerPath: string;
}

export function localModelFiles(spec: LocalModelSpec, modelsDir?: string): LocalModelFiles {
  const dir = join(resolveModelsDir(modelsDir), spec.id);
  return { dir, modelPath: join(dir, spec.modelFile), tokenizerPath: join(dir, spec.tokenizerFile) };
}

/** Throws LocalModelNotInstalledError unless both files are present. */
export function assertLocalModelInstalled(spec: LocalModelSpec, modelsDir?: string): LocalModelFiles {
  const files = localModelFiles(spec, modelsDir);
  const missing = [files.modelPath, files.tokenizerPath].filter((p) => !existsSync(p)).map((p) => p.slice(files.dir.length + 1));
  if (missing.length) throw new LocalModelNotInstalledError(spec.id, files.dir, missing);
  return files;
}

export function isLocalModelInstalled(modelId: string = DEFAULT_LOCAL_EMBEDDING_MODEL, modelsDir?: string): boolean {
  const spec = getLocalModelSpec(modelId);
  if (!spec) return false;
  const files = localModelFiles(spec, modelsDir);
  return existsSync(files.modelPath) && existsSync(files.tokenizerPath);
}
