import { isIP } from 'node:net';
import { SetuConfig } from './service-config';

const SETU_PRODUCTION_URL = 'https://coudc.setu.co';

// The SETU_* variables, read when `setu` is a live provider. The agent's id, address and mobile are
// those registered with NPCI for the BBPS agent: BBPS matches them (decision 0047).
export function setuConfig(env: NodeJS.ProcessEnv, problems: string[]): SetuConfig {
  const required = (name: string): string => {
    const value = env[name] ?? '';
    if (!value) problems.push(`${name} is required when setu is a live provider`);
    return value;
  };
  const url = env.SETU_URL || SETU_PRODUCTION_URL;
  let parsed: URL | null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:'))
    problems.push(`SETU_URL must be an http(s) URL (got "${url}")`);
  const partnerId = required('SETU_PARTNER_ID');
  if (partnerId && !/^\d{1,18}$/.test(partnerId))
    problems.push(`SETU_PARTNER_ID must be the numeric partner id Setu issued (got "${partnerId}")`);
  const agentIp = required('SETU_AGENT_IP');
  if (agentIp && isIP(agentIp) !== 4) problems.push(`SETU_AGENT_IP must be an IPv4 address (got "${agentIp}")`);
  const agentMac = required('SETU_AGENT_MAC');
  if (agentMac && !/^[0-9A-Fa-f]{2}([-:][0-9A-Fa-f]{2}){5}$/.test(agentMac))
    problems.push(`SETU_AGENT_MAC must be a MAC address such as 48-4D-7E-CB-DB-6F (got "${agentMac}")`);
  const agentMobile = required('SETU_AGENT_MOBILE');
  if (agentMobile && !/^[6-9]\d{9}$/.test(agentMobile))
    problems.push(`SETU_AGENT_MOBILE must be a 10-digit Indian mobile number (got "${agentMobile}")`);
  const remitterName = env.SETU_REMITTER_NAME || 'Partner prepaid wallet';
  if (remitterName.length > 50) problems.push('SETU_REMITTER_NAME must be at most 50 characters');
  return {
    url: url.replace(/\/+$/, ''),
    clientId: required('SETU_CLIENT_ID'),
    clientSecret: required('SETU_CLIENT_SECRET'),
    partnerId,
    agentId: required('SETU_AGENT_ID'),
    agentIp,
    agentMac,
    agentMobile,
    remitterName,
  };
}
