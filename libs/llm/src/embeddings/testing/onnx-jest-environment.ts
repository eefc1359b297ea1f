/**
 * Jest environment for specs that run onnxruntime-node.
 *
 * Jest runs each test file in its own V8 context, so the sandbox's Float32Array is not the
 * Float32Array of the main context in which the native ONNX Runtime addon creates its output
 * arrays. onnxruntime-common's `instanceof Float32Array` check then fails with
 * "A float32 tensor's data must be type of function Float32Array()". Handing the sandbox the main
 * context's typed-array constructors makes both sides agree. Production code is unaffected.
 *
 * Use per file with the docblock `@jest-environment ./libs/llm/src/embeddings/testing/onnx-jest-environment.ts`
 * (resolved from the repository root), or set it as `testEnvironment` in jest.config.js.
 */
import type { EnvironmentContext, JestEnvironmentConfig } from '@jest/environment';
import NodeEnvironment from 'jest-environment-node';

const SHARED_CONSTRUCTORS = [
  'ArrayBuffer',
  'SharedArrayBuffer',
  'DataView',
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
] as const;

export default class OnnxJestEnvironment extends NodeEnvironment {
  constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
    super(config, context);
    const sandbox = this.global as unknown as Record<string, unknown>;
    const host = globalThis as unknown as Record<string, unknown>;
    for (const name of SHARED_CONSTRUCTORS) sandbox[name] = host[name];
  }
}
