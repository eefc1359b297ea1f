const RETRY_INFO_TYPE = 'type.googleapis.com/google.rpc.RetryInfo';
const MS_PER_SECOND = 1000;

/**
 * Gemini's 429 bodies may carry `{"@type": "...RetryInfo", "retryDelay": "12s"}`: the wait the
 * server asks for, in ms, or undefined. Shared by the chat client and the embeddings provider.
 */
export function geminiRetryDelayMs(details: unknown): number | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const d of details as Array<Record<string, unknown>>) {
    if (d?.['@type'] === RETRY_INFO_TYPE && typeof d.retryDelay === 'string') {
      const seconds = Number.parseFloat(d.retryDelay);
      if (Number.isFinite(seconds) && seconds >= 0) return seconds * MS_PER_SECOND;
    }
  }
  return undefined;
}
