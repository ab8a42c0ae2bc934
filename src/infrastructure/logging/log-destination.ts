import pino, { DestinationStream } from 'pino';
import { ServiceConfig } from '../../config/service-config';
import { readableLogLine } from './readable-log-line';

type LogFormat = ServiceConfig['logFormat'];

export function logDestination(format: LogFormat): DestinationStream {
  const out = pino.destination({ dest: 1, sync: true });
  if (format === 'json') return out;
  const colour = process.stdout.isTTY && !('NO_COLOR' in process.env);
  return {
    write: (line: string) => {
      out.write(`${readableLogLine(line.trimEnd(), colour)}\n`);
    },
  };
}
