import { Module } from '@nestjs/common';
import { KeyStore } from '../auth/key-store';
import { AuditService } from './audit.service';

/** The key store and the audit trail, shared by the GraphQL socket handshake, the HTTP gate and the resolvers. */
@Module({ providers: [KeyStore, AuditService], exports: [KeyStore, AuditService] })
export class AccessModule {}
