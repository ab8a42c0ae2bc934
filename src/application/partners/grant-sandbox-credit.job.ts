import { Injectable } from '@nestjs/common';
import { isCorridor } from '../../domain/corridor/corridor';
import { Job, JobHandler } from '../ports/job-queue.port';
import { SandboxGrant } from './sandbox-grant';
import { JOB_KINDS } from '../shared/job-kinds';

/** Makes sure every onboarded partner got the sandbox starting credit, even if onboarding was interrupted. */
@Injectable()
export class GrantSandboxCreditJob implements JobHandler {
  readonly kind = JOB_KINDS.grantSandboxCredit;

  constructor(private readonly grant: SandboxGrant) {}

  async run(job: Job): Promise<void> {
    const { partnerId, corridor } = job.payload as { partnerId: string; corridor: string };
    if (!isCorridor(corridor)) throw new Error(`job ${job.id}: bad corridor ${corridor}`);
    await this.grant.ensure(partnerId, corridor, partnerId);
  }
}
