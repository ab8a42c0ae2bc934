/**
 * The sandbox's deterministic outcomes, chosen by the last four digits of the phone
 * (topup) or consumer number (bill). Suffixes not listed settle as SUCCESS at once.
 */
type SandboxScenario = 'instant_success' | 'instant_failure' | 'delayed_success' | 'delayed_failure' | 'stuck';

export const SANDBOX_SETTLEMENT_DELAY_MS = 30_000;

const SCENARIOS: Record<string, SandboxScenario> = {
  '0001': 'instant_success',
  '0002': 'instant_failure',
  '0003': 'delayed_success',
  '0004': 'delayed_failure',
  '0005': 'stuck',
};

export const scenarioFor = (digits: string): SandboxScenario => SCENARIOS[lastFourDigits(digits)] ?? 'instant_success';

export const SANDBOX_BILLS: Record<string, { amount: string; overdue: boolean }> = {
  '0001': { amount: '500.00', overdue: false },
  '0002': { amount: '1500.00', overdue: false },
  '0003': { amount: '850.50', overdue: false },
  '0004': { amount: '2400.00', overdue: true },
  // Not in the interface's table: lets partners try a bill payment that never settles.
  '0005': { amount: '750.00', overdue: false },
  '0099': { amount: '0.00', overdue: false },
};

export function lastFourDigits(text: string): string {
  return text.replace(/\D/g, '').slice(-4);
}
