export * from './embeddings';
export * from './llm.module';
export * from './chat';
export { backoffDelayMs, DEFAULT_RETRY_POLICY, isRetryableStatus, retryWithBackoff, sleep, validateRetryPolicy } from './retry';
export type { AttemptResult, RetryFailure, RetryPolicy, GiveUpReason } from './retry';
