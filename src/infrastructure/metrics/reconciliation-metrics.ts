import {
  MismatchKind,
  ReconciliationMetrics,
  ReconciliationTrigger,
} from '../../application/ports/reconciliation-runs.port';
import { serviceMetrics } from './service-metrics';

export const prometheusReconciliationMetrics: ReconciliationMetrics = {
  mismatchRecorded(provider: string, kind: MismatchKind): void {
    serviceMetrics.reconciliationMismatches.inc({ provider, kind });
  },
  runEnded(provider: string, trigger: ReconciliationTrigger, outcome: 'succeeded' | 'failed'): void {
    serviceMetrics.reconciliationRuns.inc({ provider, trigger, outcome });
  },
};
