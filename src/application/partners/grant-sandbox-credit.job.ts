import { Injectable } from '@nestjs/common';
import { isCorridor } from '../../domain/corridor/corridor';
import { Job, JobHandler } from '../ports/job-queue.port';
import { SandboxGrant } from './sandbox-grant';
import { JOB_KINDS } from '../shared/job-kinds';

/** Makes sure every onboarded partner got the sandbox starting credit, even if onboarding was interrupted. */
@Injectable()
export class GrantSandboxCreditJob implements JobHandler<'grant-sandbox-credit'> {
  readonly kind = JOB_KINDS.grantSandboxCredit;

  constructor(private readonly grant: SandboxGrant) {}

  async run(job: Job<'grant-sandbox-credit'>): Promise<void> {
    const { partnerId, corridor } = job.payload;
    // Read back from the jobs table: a corridor this release does not know is not granted.
    if (!isCorridor(corridor)) throw new Error(`job ${job.id}: bad corridor ${String(corridor)}`);
    await this.grant.ensure(partnerId, corridor, partnerId);
  }
}
