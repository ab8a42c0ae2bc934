import { SecretGenerator } from '../../src/application/ports/secrets.port';
import { API_KEY_PREFIX } from '../../src/domain/partner/api-key-format';
import { OPERATOR_TOKEN_PREFIX } from '../../src/domain/back-office/operator-token';
import { Environment } from '../../src/domain/shared/environment';
import { SeededRandom } from './seeded-random';

/**
 * Ids and keys from the run's seed: order ids decide the order in which due jobs are claimed
 * (`ORDER BY due_at, job_id`), so random ids would make a replay take another path.
 */
export class SeededSecrets implements SecretGenerator {
  /** One stream per id prefix: order ids do not shift when a job draws an id of another kind. */
  private readonly idStreams = new Map<string, SeededRandom>();

  constructor(private readonly random: SeededRandom) {}

  newApiKey(environment: Environment): string {
    return `${API_KEY_PREFIX[environment]}${this.random.bytes(24).toString('base64url')}`;
  }

  newWebhookSecret(): string {
    return `whsec_${this.random.bytes(24).toString('base64url')}`;
  }

  newOperatorToken(): string {
    return `${OPERATOR_TOKEN_PREFIX}${this.random.bytes(32).toString('base64url')}`;
  }

  newId(prefix: string): string {
    let stream = this.idStreams.get(prefix);
    if (!stream) {
      stream = this.random.fork(`id:${prefix}`);
      this.idStreams.set(prefix, stream);
    }
    return `${prefix}_${stream.bytes(12).toString('hex')}`;
  }
}
