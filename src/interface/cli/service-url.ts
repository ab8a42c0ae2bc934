export type ServiceUrl = { kind: 'ok'; url: string } | { kind: 'invalid'; message: string };

const DEFAULT_SERVICE_URL = 'http://localhost:3000';

export const resolveServiceUrl = (env: NodeJS.ProcessEnv): ServiceUrl => {
  const raw = (env.SERVICE_URL || DEFAULT_SERVICE_URL).trim();
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return { kind: 'invalid', message: `error: SERVICE_URL=${raw} is not a URL, e.g. ${DEFAULT_SERVICE_URL}\n` };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { kind: 'invalid', message: `error: SERVICE_URL=${raw} must be an http:// or https:// URL\n` };
  }
  // Kept as typed (minus trailing slashes) so a path prefix behind a proxy survives.
  return { kind: 'ok', url: raw.replace(/\/+$/, '') };
};
