import { CommandSpec } from './command-spec';
import { AUDIT_COMMANDS } from './audit-commands';
import { KEY_COMMANDS } from './key-commands';
import { OPERATOR_COMMANDS } from './operator-commands';
import { ORDER_COMMANDS } from './order-commands';
import { PARTNER_COMMANDS } from './partner-commands';
import { PROVIDER_COMMANDS } from './provider-commands';
import { SERVICE_COMMANDS } from './service-commands';

const ALL = {
  ...PARTNER_COMMANDS,
  ...KEY_COMMANDS,
  ...ORDER_COMMANDS,
  ...PROVIDER_COMMANDS,
  ...AUDIT_COMMANDS,
  ...OPERATOR_COMMANDS,
  ...SERVICE_COMMANDS,
};

/** --help lists the commands in this order; one missing here would come last. */
const HELP_ORDER: readonly (keyof typeof ALL)[] = [
  'partner create',
  'partner kyc',
  'partner list',
  'partner show',
  'key regenerate',
  'key create',
  'key list',
  'key revoke',
  'wallet credit',
  'order list',
  'order show',
  'order resolve',
  'partner configure',
  'webhook list',
  'webhook resend',
  'verify',
  'provider status',
  'service overview',
  'job backlog',
  'projections status',
  'projections rebuild',
  'secrets reseal',
  'audit wallet',
  'audit order',
  'audit statement',
  'audit report',
  'route list',
  'route history',
  'route set',
  'route remove',
  'provider sync',
  'provider breakers',
  'provider reconcile',
  'provider runs',
  'operator create',
  'operator list',
  'operator revoke',
  'operator whoami',
  'audit operator',
];

export const COMMANDS: Readonly<Record<string, CommandSpec>> = {
  ...Object.fromEntries(HELP_ORDER.map((name) => [name, ALL[name]])),
  ...ALL,
};
