import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { EVENT_STORE, EventStore } from '../application/ports/event-store.port';
import { DeciderRunner } from '../application/shared/decider-runner';
import { AuditOperatorHandler } from '../application/audit/audit-operator';
import { AuthenticateOperator } from '../application/back-office/authenticate-operator';
import { OperatorTokenRehash } from '../application/back-office/operator-token-rehash';
import { CreateOperatorHandler } from '../application/back-office/create-operator';
import { ListOperatorsHandler } from '../application/back-office/list-operators';
import { OperatorDirectory } from '../application/back-office/operator-directory';
import { RevokeOperatorsHandler } from '../application/back-office/revoke-operators';

@Module({
  imports: [CqrsModule],
  providers: [
    OperatorDirectory,
    AuthenticateOperator,
    OperatorTokenRehash,
    CreateOperatorHandler,
    RevokeOperatorsHandler,
    ListOperatorsHandler,
    AuditOperatorHandler,
    { provide: DeciderRunner, useFactory: (store: EventStore) => new DeciderRunner(store), inject: [EVENT_STORE] },
  ],
  exports: [AuthenticateOperator],
})
export class BackOfficeOperatorsModule {}
