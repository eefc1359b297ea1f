import { Global, Module } from '@nestjs/common';
import { loadConfig } from './config.loader';

export const APP_CONFIG = Symbol('APP_CONFIG');

/** Validates the environment once at boot; a bad value stops the process with a message naming it. */
@Global()
@Module({
  providers: [{ provide: APP_CONFIG, useFactory: () => loadConfig() }],
  exports: [APP_CONFIG],
})
export class ConfigModule {}
