import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { EVENT_STORE, EventStore } from '../ports/event-store.port';
import { DeciderRunner } from '../shared/decider-runner';
import { AuditOperatorHandler } from '../audit/audit-operator';
import { AuthenticateOperator } from './authenticate-operator';
import { CreateOperatorHandler } from './create-operator';
import { ListOperatorsHandler } from './list-operators';
import { OperatorDirectory } from './operator-directory';
import { RevokeOperatorsHandler } from './revoke-operators';

/** Back-office operators: their tokens, who they are at each request, and what they did. */
@Module({
  imports: [CqrsModule],
  providers: [
    OperatorDirectory,
    AuthenticateOperator,
    CreateOperatorHandler,
    RevokeOperatorsHandler,
    ListOperatorsHandler,
    AuditOperatorHandler,
    { provide: DeciderRunner, useFactory: (store: EventStore) => new DeciderRunner(store), inject: [EVENT_STORE] },
  ],
  exports: [AuthenticateOperator],
})
export class BackOfficeOperatorsModule {}
