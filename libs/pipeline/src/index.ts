export * from './pipeline.module';
export * from './ask.service';
export * from './ask.types';
export * from './pipeline.errors';
export * from './definition/pipeline.types';
export { MAX_PIPELINE_YAML_CHARS, PipelineDefinitionError, formatIssue, parsePipeline, resolvePipeline, validatePipelineText, loadPipelineDir, readRawPipelines } from './definition/pipeline-loader';
export { parseRouterOutput, parseAnswerOutput, parseGraphQuery, checkCitations, AnswerStreamGate } from './protocol/prefix';
export { countTokens } from './budget/tokenizer';
export * from './review/written-review';
